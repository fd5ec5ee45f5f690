package dix

import (
	"image/color"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/picture"
)

// TestColoursHaveTheirOwnSymbol checks that colour is not told by hue
// alone: in the corner of the four number cards of one value, the pixels of
// the symbol (drawn in the ink of the face) form four different shapes.
func TestColoursHaveTheirOwnSymbol(t *testing.T) {
	for _, sz := range []cardSize{small, medium, large} {
		var masks [4][]bool
		for i, col := range dix.Colors {
			tl := cardTile(dix.Card{Kind: dix.KindNumber, Color: col, Value: 5}, dix.NoColor, 0, sz, picture.Panel)
			ink, face := inkOn(col), faceColor(col)
			// The corner, inside the rounded edge: the top-left half of the
			// card's width, above the number. A pixel is the symbol's when
			// its colour is nearer the ink than the face.
			for y := 2; y < sz.h/3; y++ {
				for x := 2; x < sz.w/2; x++ {
					p := picture.Palette[tl.Pix[y*tl.W+x]].(color.RGBA)
					masks[i] = append(masks[i], dist(p, ink) < dist(p, face))
				}
			}
			inked := 0
			for _, m := range masks[i] {
				if m {
					inked++
				}
			}
			require.Greater(t, inked, 8, "%s symbol at %dx%d", col, sz.w, sz.h)
		}
		for i := range 4 {
			for j := i + 1; j < 4; j++ {
				diff := 0
				for k := range masks[i] {
					if masks[i][k] != masks[j][k] {
						diff++
					}
				}
				assert.GreaterOrEqual(t, diff, 6, "%s and %s symbols at %dx%d", dix.Colors[i], dix.Colors[j], sz.w, sz.h)
			}
		}
	}
}

// TestKindsOfWildLookDifferent checks that the three kinds of wild, placed
// on the same colour and number, and the number card itself, give four
// different faces.
func TestKindsOfWildLookDifferent(t *testing.T) {
	faces := []*picture.Tile{
		cardTile(dix.Card{Kind: dix.KindNumber, Color: dix.Green, Value: 4}, dix.NoColor, 0, small, picture.Panel),
		cardTile(dix.Card{Kind: dix.KindColorWild, Color: dix.Green}, dix.Green, 4, small, picture.Panel),
		cardTile(dix.Card{Kind: dix.KindBlackWild, Value: 4}, dix.Green, 4, small, picture.Panel),
		cardTile(dix.Card{Kind: dix.KindSuperWild}, dix.Green, 4, small, picture.Panel),
	}
	for i := range faces {
		for j := i + 1; j < len(faces); j++ {
			diff := 0
			for k := range faces[i].Pix {
				if faces[i].Pix[k] != faces[j].Pix[k] {
					diff++
				}
			}
			assert.Greater(t, diff, len(faces[i].Pix)/10, "faces %d and %d", i, j)
		}
	}
}

// TestConcurrentRenders renders several pictures at once (run with -race)
// and checks each equals its render alone.
func TestConcurrentRenders(t *testing.T) {
	boards := []Board{
		board(playUntil(t, 2, 1, lateAuction(40)), names5[:2]),
		board(playUntil(t, 3, 2, lateAuction(50)), []string{"Zoé", "Yann", "Xavier"}),
		board(playUntil(t, 5, 3, lateAuction(15)), names5),
	}
	want := make([][]byte, len(boards))
	for i, b := range boards {
		var err error
		want[i], err = RenderBoard(b)
		require.NoError(t, err)
	}
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Go(func() {
			for k := range 5 {
				i := (w + k) % len(boards)
				got, err := RenderBoard(boards[i])
				assert.NoError(t, err)
				assert.Equal(t, want[i], got, "board %d", i)
			}
		})
	}
	wg.Wait()
}

func dist(a, b color.RGBA) int {
	d := func(x, y uint8) int { return (int(x) - int(y)) * (int(x) - int(y)) }
	return d(a.R, b.R) + d(a.G, b.G) + d(a.B, b.B)
}
