package dixxit

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/picture/dixxit/deck"
)

// TestClueQualityOnTheDeck measures, with the deck's own keywords, how
// often computer guessers find a computer clue's target on the first
// finger: a clue neither obvious nor hopeless lands in 30–60% of turns,
// against about 11% for guessers at random. The test plays 300 turns of
// four players in English; DIXXIT_SIM=1 plays the full measure of the
// notes: 2,000 turns for each player count and language.
func TestClueQualityOnTheDeck(t *testing.T) {
	type run struct {
		lang    string
		players int
	}
	runs, turns := []run{{"en", 4}}, 300
	if os.Getenv("DIXXIT_SIM") != "" {
		runs, turns = nil, 2000
		for _, lang := range []string{"en", "fr"} {
			for n := 3; n <= 6; n++ {
				runs = append(runs, run{lang, n})
			}
		}
	}
	for _, rn := range runs {
		p := NewPlayer(deck.Keywords, deck.Synonyms, rn.lang)
		st, err := Simulate(p, rn.players, 1, turns, false)
		require.NoError(t, err)
		rnd, err := Simulate(p, rn.players, 1, turns, true)
		require.NoError(t, err)
		t.Logf("%s, %d players, %d turns: first finger on the target %.1f%% (random %.1f%%), target found %.1f%%",
			rn.lang, rn.players, st.Turns, 100*st.FirstRate(), 100*rnd.FirstRate(), 100*float64(st.Found)/float64(st.Turns))
		assert.GreaterOrEqual(t, st.FirstRate(), 0.30)
		assert.LessOrEqual(t, st.FirstRate(), 0.60)
		assert.Less(t, rnd.FirstRate(), 0.2)
	}
}
