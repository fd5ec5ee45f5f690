package picture

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"image"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// idat is the PNG's image data, inflated whole: the zlib reader checks
// the stream's Adler-32 at its end.
func idat(t *testing.T, data []byte) []byte {
	t.Helper()
	var z []byte
	for p := 8; p+8 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[p:]))
		if string(data[p+4:p+8]) == "IDAT" {
			z = append(z, data[p+8:p+8+n]...)
		}
		p += 12 + n
	}
	r, err := zlib.NewReader(bytes.NewReader(z))
	require.NoError(t, err)
	raw, err := io.ReadAll(r)
	require.NoError(t, err, "the stream and its checksum")
	return raw
}

// cellPicture is a picture of bands, some cut into cells, each cell
// showing the strokes of its key alone, within its column.
type cellPicture struct {
	w     int
	hs    []int
	cells [][]int // by band: each cell's width; nil: a band of one piece
	keys  [][]int // by band and cell: what it shows (its strokes' seed)
	draws int
	// needs is, for each cell of the band drawn last, whether the
	// canvas said it is needed (Canvas.Needs).
	needs []bool
	codes *Codes // the bands' codes (nil: the fixed codes)
}

// strokesOf are the strokes of key k in a cell of w×h at (x, y).
func strokesOf(k, x, y, w, h int) []stroke {
	rng := rand.New(rand.NewPCG(uint64(k), 77))
	bounds := image.Rect(x, y, x+w, y+h)
	var out []stroke
	for range 12 {
		x0, y0 := x+rng.IntN(w), y+rng.IntN(h)
		r := image.Rect(x0, y0, x0+1+rng.IntN(w), y0+1+rng.IntN(h)).Intersect(bounds)
		out = append(out, stroke{r: r, idx: uint8(rng.IntN(256))})
		if rng.IntN(2) == 0 && w >= 4 && h >= 4 {
			tl := &Tile{W: 1 + rng.IntN(w/2), H: 1 + rng.IntN(h/2)}
			tl.Pix = make([]uint8, tl.W*tl.H)
			for i := range tl.Pix {
				tl.Pix[i] = uint8(rng.IntN(6))
			}
			out = append(out, stroke{r: image.Rect(x+rng.IntN(w-tl.W+1), y+rng.IntN(h-tl.H+1), 0, 0), tile: tl})
		}
	}
	return out
}

// strokes are every cell's strokes, in the picture's coordinates.
func (cp *cellPicture) strokes() []stroke {
	var out []stroke
	y := 0
	for b, h := range cp.hs {
		x := 0
		for c, w := range cp.widths(b) {
			out = append(out, strokesOf(cp.keys[b][c], x, y, w, h)...)
			x += w
		}
		y += h
	}
	return out
}

func (cp *cellPicture) widths(b int) []int {
	if cp.cells[b] == nil {
		return []int{cp.w}
	}
	return cp.cells[b]
}

func (cp *cellPicture) bands(t *testing.T) Bands {
	all := cp.strokes()
	var list []Band
	for b, h := range cp.hs {
		band := Band{H: h, Draw: func(c *Canvas) error {
			cp.draws++
			cp.needs = cp.needs[:0]
			x := 0
			for _, w := range cp.widths(b) {
				cp.needs = append(cp.needs, c.Needs(image.Rect(x, c.Img.Rect.Min.Y, x+w, c.Img.Rect.Max.Y)))
				x += w
			}
			for _, s := range all {
				if c.Needs(s.bounds()) {
					s.draw(c)
				}
			}
			return nil
		}}
		for c, w := range cp.cells[b] {
			k, err := KeyOf([]int{cp.keys[b][c], h})
			require.NoError(t, err)
			band.Cells = append(band.Cells, Cell{W: w, Key: k})
		}
		list = append(list, band)
	}
	return Bands{W: cp.w, Palette: Palette, BG: 5, List: list, Codes: cp.codes}
}

func (cp *cellPicture) check(t *testing.T) []byte {
	t.Helper()
	h := 0
	for _, x := range cp.hs {
		h += x
	}
	got, err := EncodeBands(cp.bands(t))
	require.NoError(t, err)
	want := whole(cp.w, h, 5, cp.strokes())
	decodesTo(t, got, want)
	raw := idat(t, got)
	require.Len(t, raw, (cp.w+1)*h)
	return got
}

// A picture of bands cut into cells decodes to the picture drawn whole,
// with its checksum right, whatever the cells' widths: one pixel, the
// whole width, many, and pictures whose rows outgrow the window.
func TestEncodeCellsDecodesToTheWholePicture(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(21, 22))
	for i := range 60 {
		w := 1 + rng.IntN(400)
		if i%10 == 0 {
			w = 20000 + rng.IntN(20000)
		}
		randomCells(rng, w).check(t)
	}
}

// A cell kept is copied, wherever it stands: a band of which one cell
// changed draws once and compresses that cell alone; cells swapped draw
// nothing.
func TestEncodeCellsKeepsCells(t *testing.T) {
	t.Parallel()
	seed := int(rand.New(rand.NewPCG(23, 24)).Int32()) + int(runs.Add(1))<<32 // keys of this run alone
	cp := &cellPicture{w: 230, hs: []int{40, 50}, cells: [][]int{nil, {50, 90, 90}}, keys: [][]int{{seed}, {seed + 1, seed + 2, seed + 3}}}
	first := cp.check(t)
	require.Equal(t, 2, cp.draws)

	again := cp.check(t)
	assert.Equal(t, 3, cp.draws, "the band of one piece has no key: drawn again")
	assert.Equal(t, first, again, "the same picture")

	cp.keys[1][1] = seed + 4 // the middle cell changes
	misses := cellMisses(cp, t)
	assert.Equal(t, []bool{false, true, false}, misses)
	cp.check(t)
	assert.Equal(t, 5, cp.draws)
	assert.Equal(t, []bool{false, true, false}, cp.needs, "the cells kept are not needed: their strokes are not drawn")

	cp.keys[1][1], cp.keys[1][2] = cp.keys[1][2], cp.keys[1][1] // swapped: both kept
	assert.Equal(t, []bool{false, false, false}, cellMisses(cp, t))
	cp.check(t)
	assert.Equal(t, 6, cp.draws, "the band of cells not drawn")
}

// cellMisses reports, for the cells of cp's second band, which are not
// kept.
func cellMisses(cp *cellPicture, t *testing.T) []bool {
	p := cp.bands(t)
	var out []bool
	for j, c := range p.List[1].Cells {
		out = append(out, cellCache.get(cellID{c.Key, c.W, cp.hs[1], cp.w + 1, j == 0, len(p.Palette), p.codes()}) == nil)
	}
	return out
}

// Cells whose widths do not make the picture's are refused.
func TestEncodeCellsBadWidths(t *testing.T) {
	t.Parallel()
	for _, widths := range [][]int{{10, 10}, {30, 2}, {31, 0}, {-1, 32}} {
		var cells []Cell
		for _, w := range widths {
			cells = append(cells, Cell{W: w})
		}
		_, err := EncodeBands(Bands{W: 31, Palette: Palette, List: []Band{{H: 3, Cells: cells}}})
		require.ErrorIs(t, err, ErrBadInput, "%v", widths)
	}
}
