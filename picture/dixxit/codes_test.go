package dixxit

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/dixxit/deck"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// deckGrids are grids of the deck's faces drawn by r, nine at a time,
// every step-th grid of those that show every face once.
func deckGrids(t *testing.T, r *Renderer, step int) []picture.Bands {
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

// TestCodes: the grids' codes are fitted to the grids showing every face
// of the deck once as they are drawn now (-update writes them), and save
// at least a tenth of the bytes of a quarter of those grids.
func TestCodes(t *testing.T) {
	r := NewRenderer(deck.Face) // its faces scaled once for both
	picturetest.CheckCodes(t, picturetest.CodesCase{Pkg: "dixxit", Name: "deckCounts", Table: deckCounts,
		Doc:    "the symbols of the grids showing every face of the deck once",
		Fit:    deckGrids(t, r, 1),
		Others: [][]picture.Bands{deckGrids(t, r, 4)}, Saves: 0.1})
}
