package picture

import (
	"errors"
	"image"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stroke is one part of a test picture, a fill or a tile; some cross the
// bands' edges.
type stroke struct {
	r    image.Rectangle
	idx  uint8
	tile *Tile
}

// bounds is what the stroke covers.
func (s stroke) bounds() image.Rectangle {
	if s.tile != nil {
		return image.Rect(s.r.Min.X, s.r.Min.Y, s.r.Min.X+s.tile.W, s.r.Min.Y+s.tile.H)
	}
	return s.r
}

func (s stroke) draw(c *Canvas) {
	if s.tile != nil {
		c.Blit(s.tile, s.r.Min.X, s.r.Min.Y)
		return
	}
	c.FillIndex(s.r, s.idx)
}

func randomStrokes(rng *rand.Rand, w, h, n int) []stroke {
	var out []stroke
	for range n {
		x, y := rng.IntN(w+20)-10, rng.IntN(h+20)-10
		r := image.Rect(x, y, x+1+rng.IntN(w/2+1), y+1+rng.IntN(h/3+1))
		s := stroke{r: r, idx: uint8(rng.IntN(256))}
		if rng.IntN(3) == 0 {
			t := &Tile{W: 1 + rng.IntN(30), H: 1 + rng.IntN(30)}
			t.Pix = make([]uint8, t.W*t.H)
			for i := range t.Pix {
				t.Pix[i] = uint8(rng.IntN(40))
				if rng.IntN(4) == 0 {
					t.Pix[i] = Transparent
				}
			}
			if rng.IntN(2) == 0 {
				t.spans = opaqueSpans(t)
			}
			s.tile = t
		}
		out = append(out, s)
	}
	return out
}

// whole draws the strokes on one canvas of w×h over background bg.
func whole(w, h int, bg uint8, strokes []stroke) *image.Paletted {
	img := image.NewPaletted(image.Rect(0, 0, w, h), Palette)
	c := &Canvas{Img: img}
	c.FillIndex(img.Rect, bg)
	for _, s := range strokes {
		s.draw(c)
	}
	return img
}

// cut makes the bands of heights hs drawing strokes, keyed by seed and
// their index when seed is not 0, counting the draws.
func cut(hs []int, strokes []stroke, seed int, draws *int) []Band {
	var out []Band
	for i, h := range hs {
		b := Band{H: h, Draw: func(c *Canvas) error {
			*draws++
			for _, s := range strokes {
				s.draw(c)
			}
			return nil
		}}
		if seed != 0 {
			k, err := KeyOf([]int{seed, i, h})
			if err != nil {
				panic(err)
			}
			b.Key = k
		}
		out = append(out, b)
	}
	return out
}

func TestEncodeBandsDecodesToTheWholePicture(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	for _, tc := range []struct {
		name string
		w    int
		hs   []int
	}{
		{"one band", 60, []int{40}},
		{"bands of one row", 33, []int{1, 1, 1, 1}},
		{"board-like", 600, []int{150, 190, 190, 200}},
		{"one pixel wide", 1, []int{3, 7}},
		{"wider than the window's rows", 40000, []int{2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := 0
			for _, x := range tc.hs {
				h += x
			}
			strokes := randomStrokes(rng, tc.w, h, 40)
			want := whole(tc.w, h, 7, strokes)
			draws := 0
			got, err := EncodeBands(Bands{W: tc.w, Palette: Palette, BG: 7, List: cut(tc.hs, strokes, 0, &draws)})
			require.NoError(t, err)
			decodesTo(t, got, want)
			assert.Equal(t, len(tc.hs), draws)
		})
	}
}

func TestEncodeBandsKeepsBands(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(13, 14))
	seed := int(rng.Int32()) | 1 + int(runs.Add(1))<<32 // keys of this run alone
	hs := []int{50, 70, 70}
	w, h := 300, 190
	strokes := randomStrokes(rng, w, h, 60)
	draws := 0
	first, err := EncodeBands(Bands{W: w, Palette: Palette, BG: 3, List: cut(hs, strokes, seed, &draws)})
	require.NoError(t, err)
	require.Equal(t, 3, draws)
	decodesTo(t, first, whole(w, h, 3, strokes))

	again, err := EncodeBands(Bands{W: w, Palette: Palette, BG: 3, List: cut(hs, strokes, seed, &draws)})
	require.NoError(t, err)
	assert.Equal(t, 3, draws, "every band kept: none drawn again")
	assert.Equal(t, first, again)

	// The middle band changes: it alone is drawn, and the picture is the
	// new one.
	changed := append(append([]stroke(nil), strokes...), stroke{r: image.Rect(10, 60, 200, 100), idx: 200})
	bands := cut(hs, strokes, seed, &draws)
	mid := cut(hs, changed, seed+1, &draws)
	bands[1] = mid[1]
	got, err := EncodeBands(Bands{W: w, Palette: Palette, BG: 3, List: bands})
	require.NoError(t, err)
	assert.Equal(t, 4, draws)
	decodesTo(t, got, whole(w, h, 3, changed))
}

func TestEncodeBandsMovedBand(t *testing.T) {
	t.Parallel()
	// A band drawn relative to its own top keeps its key when the bands
	// above it grow: kept, it decodes where it now stands.
	w := 120
	panel := func(c *Canvas) error {
		y := c.Img.Rect.Min.Y
		c.FillIndex(image.Rect(5, y+2, 100, y+20), 90)
		c.FillIndex(image.Rect(20, y+5, 30, y+9), 150)
		return nil
	}
	pk, err := KeyOf("moved panel test")
	require.NoError(t, err)
	top := func(h int) Band {
		return Band{H: h, Draw: func(c *Canvas) error { c.FillIndex(image.Rect(0, 0, w, 3), 20); return nil }}
	}
	for _, topH := range []int{10, 31} {
		got, err := EncodeBands(Bands{W: w, Palette: Palette, BG: 1, List: []Band{top(topH), {H: 25, Key: pk, Draw: panel}}})
		require.NoError(t, err)
		want := image.NewPaletted(image.Rect(0, 0, w, topH+25), Palette)
		c := &Canvas{Img: want}
		c.FillIndex(want.Rect, 1)
		c.FillIndex(image.Rect(0, 0, w, 3), 20)
		// The panel's rows of want, as a band's canvas.
		sub := &Canvas{Img: want.SubImage(image.Rect(0, topH, w, topH+25)).(*image.Paletted)}
		require.NoError(t, panel(sub))
		decodesTo(t, got, want)
	}
}

func TestEncodeBandsRefuses(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	for _, tc := range []struct {
		name string
		p    Bands
		want error
	}{
		{"no bands", Bands{W: 10, Palette: Palette}, ErrBadInput},
		{"a band of no rows", Bands{W: 10, Palette: Palette, List: []Band{{H: 0}}}, ErrBadInput},
		{"no width", Bands{W: 0, Palette: Palette, List: []Band{{H: 3}}}, ErrBadInput},
		{"no palette", Bands{W: 10, List: []Band{{H: 3}}}, ErrBadInput},
		{"a band that cannot be drawn", Bands{W: 10, Palette: Palette, List: []Band{{H: 3, Draw: func(*Canvas) error { return boom }}}}, boom},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := EncodeBands(tc.p)
			assert.ErrorIs(t, err, tc.want)
		})
	}
}

func TestCanvasBandClips(t *testing.T) {
	t.Parallel()
	// A canvas of rows 10 to 20 draws only its rows of what crosses them.
	full := image.NewPaletted(image.Rect(0, 0, 30, 30), Palette)
	band := &image.Paletted{Pix: make([]uint8, 30*10), Stride: 30, Rect: image.Rect(0, 10, 30, 20), Palette: Palette}
	tile := &Tile{W: 4, H: 8, Pix: make([]uint8, 32)}
	for i := range tile.Pix {
		tile.Pix[i] = uint8(i)
	}
	tile.spans = opaqueSpans(tile)
	for _, c := range []*Canvas{{Img: full}, {Img: band}} {
		c.FillIndex(image.Rect(2, 5, 12, 15), 9)
		c.Blit(tile, 20, 6)
		c.Blit(tile, 25, 16)
		c.Blit(tile, 1, 11) // within
	}
	for y := 10; y < 20; y++ {
		for x := range 30 {
			require.Equal(t, full.ColorIndexAt(x, y), band.Pix[(y-10)*30+x], "(%d,%d)", x, y)
		}
	}
}
