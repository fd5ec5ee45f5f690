package dixxit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	rules "github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/locales"
)

// newGame is a game of four seats, seat 0 first.
func newGame(t *testing.T) *rules.Game {
	t.Helper()
	st, err := rules.Rules{}.New(engine.Setup{Players: 4, Seed: 5, First: 0})
	require.NoError(t, err)
	return st.(*rules.Game)
}

// The board shows the turn's clue once, under its title, however the
// latest events tell it: written or said aloud, in both languages.
func TestBoardShowsTheClueOnce(t *testing.T) {
	for _, lang := range []string{"en", "fr"} {
		for _, m := range []engine.Move{"clue Zanzibar", "aloud"} {
			g := newGame(t)
			tb := present.Table{Lang: lang, Names: []string{"Ann", "Bob", "Chloé", "Dan"}}
			evs, err := g.Apply(0, m)
			require.NoError(t, err)
			tb.Log = Presenter{}.Events(tb, evs)
			require.Len(t, tb.Log, 1)
			b := Presenter{}.Board(tb, g)
			once := "Zanzibar"
			if m == "aloud" {
				once = locales.T(lang, "dixxit_board_aloud", map[string]any{"Name": "Ann"})
			}
			assert.Equal(t, 1, strings.Count(b.Content, once), "%s %s:\n%s", lang, m, b.Content)
		}
	}
}

// Once a turn is scored, the board of the next turn shows it as it was
// scored (titled with who found what) above the refilled grid, until the
// clue is out; the final board shows the last turn under the scores.
func TestBoardShowsTheTurnScored(t *testing.T) {
	for _, lang := range []string{"en", "fr"} {
		g := newGame(t)
		tb := present.Table{Lang: lang, Names: []string{"Ann", "Bob", "Chloé", "Dan"}}
		b := Presenter{}.Board(tb, g)
		require.Len(t, b.Embeds, 1, "turn 1: the grid alone")
		target := g.ViewOf(0).Secret.Target
		_, err := g.Apply(0, "clue sea")
		require.NoError(t, err)
		_, err = g.Apply(2, rules.FingerMove(target, 10))
		require.NoError(t, err)
		b = Presenter{}.Board(tb, g)
		require.Len(t, b.Embeds, 2, "the turn scored, then the grid")
		require.Len(t, b.Files, 2)
		assert.Equal(t, "attachment://"+b.Files[0].Name, b.Embeds[0].Image.URL)
		assert.Equal(t, "attachment://"+b.Files[1].Name, b.Embeds[1].Image.URL)
		assert.Equal(t, locales.T(lang, "dixxit_last_found", map[string]any{"Turn": 1, "Finder": "Chloé", "Name": "Ann", "Square": target}), b.Embeds[0].Title)
		_, err = g.Apply(1, "aloud")
		require.NoError(t, err)
		assert.Len(t, Presenter{}.Board(tb, g).Embeds, 1, "the race: the grid alone")
		// Nobody finds it.
		target = g.ViewOf(1).Secret.Target
		for _, s := range []int{0, 2, 3} {
			_, err = g.Apply(s, "out")
			require.NoError(t, err)
		}
		b = Presenter{}.Board(tb, g)
		require.Len(t, b.Embeds, 2)
		assert.Equal(t, locales.T(lang, "dixxit_last_not_found", map[string]any{"Turn": 2, "Name": "Bob", "Square": target}), b.Embeds[0].Title)
		// A turn skipped shows none.
		_, err = g.Apply(2, "skip")
		require.NoError(t, err)
		assert.Len(t, Presenter{}.Board(tb, g).Embeds, 1)
	}
}
