package computer

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseLevel(t *testing.T) {
	for _, l := range Levels {
		got, err := ParseLevel(l.String())
		require.NoError(t, err)
		assert.Equal(t, l, got)
	}
	got, err := ParseLevel("STRONG")
	require.NoError(t, err)
	assert.Equal(t, Strong, got)
	for _, bad := range []string{"grandmaster", "", "level(2)"} {
		_, err = ParseLevel(bad)
		assert.ErrorIs(t, err, ErrLevel, "%q", bad)
	}
}

func TestLevelString(t *testing.T) {
	assert.Equal(t, []string{"easy", "normal", "strong"}, []string{Easy.String(), Normal.String(), Strong.String()})
	assert.Equal(t, "level(0)", Level(0).String())
	assert.Equal(t, "level(9)", Level(9).String())
}
