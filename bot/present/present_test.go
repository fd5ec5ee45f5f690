package present

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTruncate(t *testing.T) {
	assert.Equal(t, "abc", Truncate("abc", 3))
	assert.Equal(t, "ab…", Truncate("abcd", 3))
	assert.Equal(t, "é…", Truncate("éèê", 2), "characters, not bytes")
	assert.Equal(t, "", Truncate("", 5))
}
