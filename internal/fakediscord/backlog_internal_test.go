package fakediscord

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBacklogKeepsTheLastDispatches: however many dispatches a session
// had, a RESUME sees exactly its last backlogSize, in order, and the
// backlog never holds more than twice that.
func TestBacklogKeepsTheLastDispatches(t *testing.T) {
	s := &Server{}
	sess := &gwSession{id: "s"}
	for n := 1; n <= 5*backlogSize+17; n++ {
		s.dispatchToLocked(sess, "X", n)
		kept := sess.kept()
		require.Len(t, kept, min(n, backlogSize))
		assert.Equal(t, int64(n), kept[len(kept)-1].seq)
		assert.Equal(t, int64(n-len(kept)+1), kept[0].seq)
		require.Less(t, len(sess.backlog), 2*backlogSize)
	}
	for i, ev := range sess.kept()[1:] {
		assert.Equal(t, sess.kept()[i].seq+1, ev.seq)
	}
}
