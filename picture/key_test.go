package picture

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeyOfNamesWhatIsShown(t *testing.T) {
	t.Parallel()
	k1, err := KeyOf(struct{ A, B int }{1, 2})
	require.NoError(t, err)
	k2, err := KeyOf(struct{ A, B int }{1, 3})
	require.NoError(t, err)
	again, err := KeyOf(struct{ A, B int }{1, 2})
	require.NoError(t, err)
	assert.NotEqual(t, k1, k2)
	assert.Equal(t, k1, again)
	_, err = KeyOf(func() {})
	assert.Error(t, err, "an input that has no JSON")
}
