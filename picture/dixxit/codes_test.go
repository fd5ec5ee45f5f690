package dixxit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/dixxit/deck"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// deckGrids are grids of the deck's faces, nine at a time, every
// step-th grid of those that show every face once.
func deckGrids(t *testing.T, step int) []picture.Bands {
	r := NewRenderer(deck.Face)
	g := GridOf(game(t, 5).ViewOf(engine.Public), names)
	var out []picture.Bands
	for first := 0; first < dixxit.NumCardFaces; first += step * dixxit.Squares {
		for sq := range g.Squares {
			n := (first + sq) % dixxit.NumCardFaces
			g.Squares[sq].Card = dixxit.CardOf(n/2, n%2).String()
		}
		p, err := r.bands(g)
		require.NoError(t, err)
		out = append(out, p)
	}
	return out
}

// TestCodesFitTheDeck: the grids' codes are fitted to the symbols of the
// grids showing every face of the deck once, as they are drawn now.
func TestCodesFitTheDeck(t *testing.T) {
	var counts picture.SymbolCounts
	for _, p := range deckGrids(t, 1) {
		require.NoError(t, picture.CountBands(p, &counts))
	}
	picturetest.FitCodes(t, "dixxit", "deckCounts", "the symbols of the grids showing every face of the deck once", counts, deckCounts)
}

// TestCodesShortenTheDeck: grids of the deck's faces are at least a tenth
// smaller with the grids' codes than with the fixed codes.
func TestCodesShortenTheDeck(t *testing.T) {
	fitted, fixed := picturetest.Shorter(t, deckGrids(t, 4))
	t.Logf("the deck's grids: %d bytes with the grids' codes, %d with the fixed codes", fitted, fixed)
	assert.Less(t, 10*fitted, 9*fixed)
}
