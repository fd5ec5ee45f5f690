package picture

import (
	"image"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// solid is a w×h tile of palette index v.
func solid(w, h int, v uint8) *Tile {
	t := &Tile{W: w, H: h, Pix: make([]uint8, w*h)}
	for i := range t.Pix {
		t.Pix[i] = v
	}
	return t
}

// TestRow checks that Row lays tiles left to right gap apart, each centred
// in the band, and returns the x after the last.
func TestRow(t *testing.T) {
	c := NewCanvas(40, 20, Table)
	bg := c.Img.ColorIndexAt(0, 0)
	a, b := solid(3, 10, IndexOf(Gold)), solid(4, 4, IndexOf(Ink))
	end := c.Row(5, 2, 14, 2, a, b)
	assert.Equal(t, 5+3+2+4, end)
	at := func(x, y int) uint8 { return c.Img.ColorIndexAt(x, y) }
	// a: x 5–7, y 2+(14−10)/2 = 4 to 13.
	assert.Equal(t, IndexOf(Gold), at(5, 4))
	assert.Equal(t, IndexOf(Gold), at(7, 13))
	assert.Equal(t, bg, at(5, 3))
	assert.Equal(t, bg, at(8, 8), "the gap")
	// b: x 10–13, y 2+(14−4)/2 = 7 to 10.
	assert.Equal(t, IndexOf(Ink), at(10, 7))
	assert.Equal(t, IndexOf(Ink), at(13, 10))
	assert.Equal(t, bg, at(10, 6))
	assert.Equal(t, bg, at(14, 8))

	assert.Equal(t, 9, c.Row(9, 0, 20, 3), "no tiles")
}

// TestBlitByRunsAsByPixels blits a cached tile with holes by its runs and
// the same pixels as an uncached tile, inside the canvas and across its
// edges: the pictures agree.
func TestBlitByRunsAsByPixels(t *testing.T) {
	pix := []uint8{
		1, Transparent, 2, 2,
		Transparent, Transparent, Transparent, Transparent,
		3, 3, 3, Transparent,
	}
	cachedTile := Cached(struct{ test string }{"blit"}, func() *Tile {
		return &Tile{W: 4, H: 3, Pix: append([]uint8(nil), pix...)}
	})
	require.NotNil(t, cachedTile.spans)
	plain := &Tile{W: 4, H: 3, Pix: pix}
	for _, at := range [][2]int{{0, 0}, {3, 2}, {6, 7}, {-2, 1}, {7, -1}, {8, 8}} {
		a, b := NewCanvas(10, 10, Table), NewCanvas(10, 10, Table)
		a.Blit(cachedTile, at[0], at[1])
		b.Blit(plain, at[0], at[1])
		assert.Equal(t, b.Img.Pix, a.Img.Pix, "at %v", at)
	}
}

// Needs: a drawing is not needed only when it lies within one kept cell.
func TestCanvasNeeds(t *testing.T) {
	t.Parallel()
	c := &Canvas{kept: [][2]int{{0, 50}, {50, 90}, {140, 230}}}
	for _, tc := range []struct {
		r    image.Rectangle
		want bool
	}{
		{image.Rect(0, 0, 50, 10), false},
		{image.Rect(10, 5, 40, 9), false},
		{image.Rect(140, 0, 230, 99), false},
		{image.Rect(40, 0, 60, 10), true}, // across two kept cells
		{image.Rect(80, 0, 100, 10), true},
		{image.Rect(90, 0, 140, 10), true},
		{image.Rect(0, 0, 230, 10), true},
	} {
		assert.Equal(t, tc.want, c.Needs(tc.r), "%v", tc.r)
	}
	assert.True(t, (&Canvas{}).Needs(image.Rect(0, 0, 1, 1)), "no cell kept: everything is needed")
}
