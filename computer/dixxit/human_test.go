package dixxit

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/picture/dixxit/deck"
)

// humanClue is one clue of testdata/human-clues.json: a grid of the deck
// (as a game deals one), the target square and the clue a person gave for
// it, in English and in French, written without reading the keywords.
type humanClue struct {
	Grid   [dixxit.Squares]string `json:"grid"`
	Target int                    `json:"target"`
	En     string                 `json:"en"`
	Fr     string                 `json:"fr"`
}

// firstChance returns the chance that the computer guesser's first finger
// on the whole grid of c, with clue, is on the target: one over the
// squares it draws among when the target is one of them.
func firstChance(p Player, c humanClue, clue string) float64 {
	best := p.bestSquares(dixxit.View{Grid: c.Grid, Clue: clue})
	if !slices.Contains(best, c.Target) {
		return 0
	}
	return 1 / float64(len(best))
}

// TestGuessesPeoplesClues measures how often the computer guesser (its one
// level, normal) puts its first finger on the target of 50 clues written
// as people give them (testdata/human-clues.json), in each language, reading
// them through the deck's keywords and synonyms, and through the keywords
// alone: at random it would be one in nine (11%), and the synonyms must
// not make it worse. The figures are in docs/computer-dixxit.md.
func TestGuessesPeoplesClues(t *testing.T) {
	raw, err := os.ReadFile("testdata/human-clues.json")
	require.NoError(t, err)
	var clues []humanClue
	require.NoError(t, json.Unmarshal(raw, &clues))
	require.Len(t, clues, 50)
	full := NewPlayer(deck.Keywords, deck.Synonyms, "en")
	keywords := NewPlayer(deck.Keywords, nil, "en")
	for _, lang := range []string{"en", "fr"} {
		sum, sumKeywords := 0.0, 0.0
		for _, c := range clues {
			require.NotEmpty(t, c.En)
			require.NotEmpty(t, c.Fr)
			clue := c.En
			if lang == "fr" {
				clue = c.Fr
			}
			ch, chk := firstChance(full, c, clue), firstChance(keywords, c, clue)
			if os.Getenv("DIXXIT_CLUES") != "" {
				t.Logf("%s %q: %.2f (keywords alone %.2f)", lang, clue, ch, chk)
			}
			sum += ch
			sumKeywords += chk
		}
		rate, rateKeywords := sum/float64(len(clues)), sumKeywords/float64(len(clues))
		t.Logf("%s: first finger on the target %.1f%% of 50 people's clues (keywords alone %.1f%%)", lang, 100*rate, 100*rateKeywords)
		assert.Greater(t, rate, 0.11, lang)
		assert.GreaterOrEqual(t, rate, rateKeywords, lang)
	}
}
