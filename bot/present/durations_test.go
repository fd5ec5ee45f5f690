package present

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// nbsp is s with its spaces non-breaking.
func nbsp(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") }

func TestTimesLeftAreCompactInBothLanguages(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		d      time.Duration
		en, fr string
	}{
		{115 * time.Second, "1 min", "1 min"},
		{4*time.Minute + 59*time.Second, "4 min", "4 min"},
		{59 * time.Second, "< 1 min", "< 1 min"},
		{0, "< 1 min", "< 1 min"},
		{2*time.Hour + 40*time.Minute + 30*time.Second, "2 h 40", "2 h 40"},
		{2*time.Hour + 5*time.Minute, "2 h 05", "2 h 05"},
		{3 * time.Hour, "3 h", "3 h"},
		{24 * time.Hour, "24 h", "24 h"},
		{52*time.Hour + 10*time.Minute, "2 d 4 h", "2 j 4 h"},
	} {
		// Non-breaking spaces: a time left never wraps in a board's column.
		assert.Equal(t, nbsp(c.en), TimeLeftText("en", c.d), "%v", c.d)
		assert.Equal(t, nbsp(c.fr), TimeLeftText("fr", c.d), "%v", c.d)
	}
	// A pace says its durations exactly, in minutes and seconds.
	assert.Equal(t, nbsp("1 min 40 s"), DurationText("en", 100*time.Second))
	assert.Equal(t, nbsp("10 s"), DurationText("fr", 10*time.Second))
	assert.Equal(t, nbsp("5 min"), DurationText("fr", 5*time.Minute))
}
