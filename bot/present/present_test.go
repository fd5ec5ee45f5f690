package present

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTruncate(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "abc", Truncate("abc", 3))
	assert.Equal(t, "ab…", Truncate("abcd", 3))
	assert.Equal(t, "é…", Truncate("éèê", 2), "characters, not bytes")
	assert.Equal(t, "", Truncate("", 5))
}

func TestCustomID(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "dix:draw:12", CustomID("dix", "draw", 12))
	assert.Equal(t, "qwixx:mv:3:w -", CustomID("qwixx", "mv", 3, "w -"))
	assert.Equal(t, "dix:pkc:7:g7:2", CustomID("dix", "pkc", 7, "g7", "2"))
}
