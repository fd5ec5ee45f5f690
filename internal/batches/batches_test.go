package batches

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A channel is busy while a batch is owed or running there, until the
// last one ends; done may be called twice; a batch that never ends stops
// counting after Longest.
func TestBusyWhileABatchIsOwed(t *testing.T) {
	s := &Set{Longest: time.Hour}
	assert.False(t, s.Busy("c1"))
	done1 := s.Start("c1")
	done2 := s.Start("c1")
	assert.True(t, s.Busy("c1"))
	assert.False(t, s.Busy("c2"), "another channel")
	done1()
	done1()
	assert.True(t, s.Busy("c1"), "one batch still owed")
	done2()
	assert.False(t, s.Busy("c1"))

	never := &Set{Longest: -time.Second}
	never.Start("c1")
	assert.False(t, never.Busy("c1"), "past Longest, the channel is left to the poller")
}
