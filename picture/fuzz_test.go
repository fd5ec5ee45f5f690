package picture

import (
	"bytes"
	"image"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzEncodeBands: any picture, cut into bands and perhaps their bands
// into cells, compressed with the fixed codes or with codes fitted to its
// own symbols, decodes (image/png, checksums checked) to the picture drawn
// whole. The picture is random strokes of the seed and a tile of the
// fuzz's own bytes, so that the compressor meets the pixels the fuzzer
// chooses.
func FuzzEncodeBands(f *testing.F) {
	f.Add(uint64(1), []byte("abcabcabcabc"), uint8(0))
	f.Add(uint64(2), bytes.Repeat([]byte{1, 2, 3, 4, 4, 4, 4, 4}, 200), uint8(3))
	f.Add(uint64(3), []byte{7, 7, 7, 7, 255, 0, 255, 0, 9}, uint8(1))
	f.Fuzz(func(t *testing.T, seed uint64, data []byte, how uint8) {
		rng := rand.New(rand.NewPCG(seed, 9))
		w := 1 + rng.IntN(320)
		var hs []int
		h := 0
		for range 1 + rng.IntN(4) {
			hs = append(hs, 1+rng.IntN(60))
			h += hs[len(hs)-1]
		}
		strokes := randomStrokes(rng, w, h, rng.IntN(12))
		if len(data) > 0 {
			tw := min(1+int(data[0]), len(data))
			pix := make([]uint8, (len(data)+tw-1)/tw*tw)
			copy(pix, data)
			x, y := rng.IntN(w+10)-5, rng.IntN(h+10)-5
			strokes = append(strokes, stroke{r: image.Rect(x, y, x, y), tile: &Tile{W: tw, H: len(pix) / tw, Pix: pix}})
		}
		want := whole(w, h, 7, strokes)
		draws := 0
		p := Bands{W: w, Palette: Palette, BG: 7, List: cut(hs, strokes, 0, &draws)}
		if how&1 != 0 { // each band in cells of random widths, none kept
			for i := range p.List {
				for left := w; left > 0; {
					cw := min(left, 1+rng.IntN(w))
					p.List[i].Cells = append(p.List[i].Cells, Cell{W: cw})
					left -= cw
				}
			}
		}
		if how&2 != 0 {
			var counts SymbolCounts
			require.NoError(t, CountBands(p, &counts))
			p.Codes = NewCodes(&counts)
		}
		got, err := EncodeBands(p)
		require.NoError(t, err)
		decodesTo(t, got, want)
	})
}
