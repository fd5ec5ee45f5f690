package picture

import (
	"image"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomCells is a picture of 1 to 4 bands of random heights, most cut
// into cells of random widths, each cell of its own strokes.
func randomCells(rng *rand.Rand, w int) *cellPicture {
	cp := &cellPicture{w: w}
	for range 1 + rng.IntN(4) {
		cp.hs = append(cp.hs, 1+rng.IntN(60))
		var widths, keys []int
		if rng.IntN(4) != 0 {
			for left := cp.w; left > 0; {
				w := min(left, 1+rng.IntN(cp.w))
				widths = append(widths, w)
				left -= w
			}
		}
		for range max(1, len(widths)) {
			keys = append(keys, int(rng.Int32()))
		}
		cp.cells = append(cp.cells, widths)
		cp.keys = append(cp.keys, keys)
	}
	return cp
}

// Pictures written with codes of their own decode to the pictures drawn
// whole, checksums right: with codes fitted to other pictures (symbols
// never counted have codes too), and with codes fitted to themselves;
// cells kept under the fixed codes are not taken for the others'.
func TestCodesDecodeToTheWholePicture(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(31, 32))
	var counts SymbolCounts
	for range 5 {
		cp := randomCells(rng, 1+rng.IntN(300))
		require.NoError(t, CountBands(cp.bands(t), &counts))
	}
	other := NewCodes(&counts)
	for i := range 40 {
		w := 1 + rng.IntN(400)
		if i%10 == 0 {
			w = 20000 + rng.IntN(20000) // rows beyond the window
		}
		cp := randomCells(rng, w)
		fixed := cp.check(t)

		cp.codes = other
		cp.check(t)

		var own SymbolCounts
		require.NoError(t, CountBands(cp.bands(t), &own))
		cp.codes = NewCodes(&own)
		fitted := cp.check(t)
		if i%10 != 0 {
			assert.Less(t, len(fitted), len(fixed)+400, "at most a header a band longer")
		}
	}
}

// kraft is the sum of 2^-n over the lengths n of codes, in units of
// 2^-15, and the longest.
func kraft(codes []huff) (sum, longest int) {
	for _, c := range codes {
		sum += 1 << (15 - c.n)
		longest = max(longest, int(c.n))
	}
	return sum, longest
}

// Codes are complete prefix codes of at most 15 bits, every symbol one,
// the same for the same counts; skewed counts give their common symbols
// short codes.
func TestNewCodes(t *testing.T) {
	t.Parallel()
	var counts SymbolCounts
	counts[7] = 1 << 40 // skewed enough to need the 15-bit limit
	for s := range counts {
		counts[s] += int64(s % 5)
	}
	c := NewCodes(&counts)
	for _, part := range [][]huff{c.lit[:litSymbols], c.dist[:]} {
		sum, longest := kraft(part)
		assert.Equal(t, 1<<15, sum, "complete")
		assert.LessOrEqual(t, longest, 15)
		assert.Positive(t, int(shortest(part)))
	}
	assert.Equal(t, uint8(1), c.lit[7].n, "the most common symbol: one bit")
	assert.Equal(t, c, NewCodes(&counts), "the same codes for the same counts")
}

func shortest(codes []huff) uint8 {
	m := codes[0].n
	for _, c := range codes {
		m = min(m, c.n)
	}
	return m
}

// Codes fitted to a picture of few colours, all of them among the
// palette's last (9-bit literals in the fixed codes), write it in less
// than two thirds of the fixed codes' bytes.
func TestFittedCodesAreShorter(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(33, 34))
	const w, h = 300, 200
	pix := make([]uint8, w*h)
	for i := range pix {
		pix[i] = uint8(240 + rng.IntN(8))
	}
	band := Band{H: h, Draw: func(c *Canvas) error {
		copy(c.Img.Pix, pix)
		return nil
	}}
	p := Bands{W: w, Palette: Palette, List: []Band{band}}
	fixed, err := EncodeBands(p)
	require.NoError(t, err)
	var counts SymbolCounts
	require.NoError(t, CountBands(p, &counts))
	p.Codes = NewCodes(&counts)
	fitted, err := EncodeBands(p)
	require.NoError(t, err)
	want := image.NewPaletted(image.Rect(0, 0, w, h), Palette)
	copy(want.Pix, pix)
	decodesTo(t, fitted, want)
	assert.Less(t, 3*len(fitted), 2*len(fixed), "fitted %d bytes, fixed %d", len(fitted), len(fixed))
}

// CountBands refuses what EncodeBands refuses.
func TestCountBandsRefusesBadPictures(t *testing.T) {
	t.Parallel()
	var counts SymbolCounts
	draw := func(*Canvas) error { return nil }
	assert.ErrorIs(t, CountBands(Bands{W: 0, Palette: Palette, List: []Band{{H: 1, Draw: draw}}}, &counts), ErrBadInput)
	assert.ErrorIs(t, CountBands(Bands{W: 4, Palette: Palette, List: []Band{{H: 0, Draw: draw}}}, &counts), ErrBadInput)
	assert.Equal(t, SymbolCounts{}, counts)
}
