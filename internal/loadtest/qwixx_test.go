package loadtest

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// The players read who is deciding, the roll number and what their sheet
// allows from the board's text, in either language.
func TestQwixxBoardReading(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "fr"} {
		q := newQwixxMarkers(lang, []string{"p1", "p2"})
		deciding := q.deciding["p1"]
		assert.NotEmpty(t, deciding, lang)
		line := deciding + "12 · 🔴3→7 🟡0 🟢5→3 🔵🔒 · 0/4"
		m := fakediscord.Message{Content: q.turn + "14, p2\n" + line + "\np2 0 · 🔴0 🟡0 🟢0 🔵0 · 0/4",
			Components: []fakediscord.Component{row("qwixx:mv:5:w r8", "qwixx:mv:5:w -")}}
		b, ok := q.read(m)
		assert.True(t, ok, lang)
		assert.False(t, b.over, lang)
		assert.Equal(t, uint64(5), b.version, lang)
		assert.Equal(t, 14, b.turn, lang)
		assert.Contains(t, b.deciding, "p1", lang)
		assert.NotContains(t, b.deciding, "p2", lang)
		for arg, want := range map[string]bool{"w r8": true, "w r7": false, "w r6": false, "w r12": false, "w y2": true, "w y12": false,
			"w g2": true, "w g3": false, "w g4": false, "w b6": false, "w -": true} {
			got := len(markable(line, []customID{{arg: arg}})) == 1
			assert.Equal(t, want, got, "%s: %s on %q", lang, arg, line)
		}
	}
}
