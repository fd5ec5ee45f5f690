package picture

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decodesTo checks that data is a PNG of exactly img's pixels, over the
// same palette.
func decodesTo(t *testing.T, data []byte, img *image.Paletted) {
	t.Helper()
	got, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	p, ok := got.(*image.Paletted)
	require.True(t, ok, "decoded as %T", got)
	require.Equal(t, img.Rect.Dx(), p.Rect.Dx())
	require.Equal(t, img.Rect.Dy(), p.Rect.Dy())
	require.Equal(t, len(img.Palette), len(p.Palette))
	for i := range img.Palette {
		r0, g0, b0, a0 := img.Palette[i].RGBA()
		r1, g1, b1, a1 := p.Palette[i].RGBA()
		require.Equal(t, [4]uint32{r0, g0, b0, a0}, [4]uint32{r1, g1, b1, a1}, "palette entry %d", i)
	}
	for y := range img.Rect.Dy() {
		for x := range img.Rect.Dx() {
			want := img.ColorIndexAt(img.Rect.Min.X+x, img.Rect.Min.Y+y)
			if have := p.ColorIndexAt(x, y); have != want {
				t.Fatalf("pixel (%d,%d): %d, want %d", x, y, have, want)
			}
		}
	}
}

// testImage draws flat areas, runs, repeated rows, noise and every palette
// index, as pictures have them.
func testImage(rng *rand.Rand, w, h int) *image.Paletted {
	img := image.NewPaletted(image.Rect(0, 0, w, h), Palette)
	for y := range h {
		for x := range w {
			switch {
			case y%7 == 3 && x%5 != 0:
				img.Pix[y*w+x] = uint8(rng.IntN(256)) // noise
			case x < w/3:
				img.Pix[y*w+x] = uint8(y / 4) // runs, rows repeated
			case x < 2*w/3:
				img.Pix[y*w+x] = uint8((x + y) % 256) // every index, shifting
			default:
				img.Pix[y*w+x] = uint8(x / 3)
			}
		}
	}
	return img
}

func TestEncodeDecodesToTheSamePixels(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sz := range [][2]int{{1, 1}, {1, 9}, {9, 1}, {2, 3}, {257, 5}, {600, 700}, {40000, 3}, {33, 300}} {
		img := testImage(rng, sz[0], sz[1])
		data, err := EncodePaletted(img)
		require.NoError(t, err)
		decodesTo(t, data, img)
	}
}

func TestEncodeRandomPictures(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		w, h := 1+rng.IntN(70), 1+rng.IntN(40)
		img := image.NewPaletted(image.Rect(0, 0, w, h), Palette)
		colours := 1 + rng.IntN(4) // few colours: long runs and copies
		for i := range img.Pix {
			if rng.IntN(10) < 8 && i > 0 {
				img.Pix[i] = img.Pix[i-1]
			} else {
				img.Pix[i] = uint8(rng.IntN(colours) * 60)
			}
		}
		data, err := EncodePaletted(img)
		require.NoError(t, err)
		decodesTo(t, data, img)
	}
}

func TestEncodeSubImage(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	img := testImage(rng, 80, 60)
	sub := img.SubImage(image.Rect(13, 7, 70, 51)).(*image.Paletted)
	data, err := EncodePaletted(sub)
	require.NoError(t, err)
	decodesTo(t, data, sub)
}

func TestEncodeTransparentEntries(t *testing.T) {
	pal := append(Palette[:0:0], Palette...)
	pal[40] = color.NRGBA{1, 2, 3, 0}
	img := image.NewPaletted(image.Rect(0, 0, 20, 20), pal)
	for i := range img.Pix {
		img.Pix[i] = uint8(i % 64)
	}
	data, err := EncodePaletted(img)
	require.NoError(t, err)
	got, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	_, _, _, a := got.(*image.Paletted).Palette[40].RGBA()
	assert.Zero(t, a)
	_, _, _, a = got.(*image.Paletted).Palette[41].RGBA()
	assert.Equal(t, uint32(0xffff), a)
}

func TestEncodeSmallPaletteUsesFewerBits(t *testing.T) {
	img := image.NewPaletted(image.Rect(0, 0, 10, 10), Palette[:4])
	img.Pix[5] = 3
	data, err := EncodePaletted(img)
	require.NoError(t, err)
	decodesTo(t, data, img)
	assert.Equal(t, byte(2), data[8+8+8], "bit depth") // image/png: 2 bits for 4 colours
}

// TestEncodeSizeNearStandard keeps the encoding of a board-like picture
// within a small factor of image/png's fastest level, so that uploads do
// not grow much for the time saved.
func TestEncodeSizeNearStandard(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	img := testImage(rng, 600, 700)
	ours, err := EncodePaletted(img)
	require.NoError(t, err)
	std, err := encodeStd(img)
	require.NoError(t, err)
	assert.Less(t, len(ours), 2*len(std), "ours %d bytes, image/png %d", len(ours), len(std))
}

func TestAdlerRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, sz := range [][2]int{{1, 1}, {5, 1}, {1, 5}, {601, 700}, {40001, 3}, {70000, 2}} {
		img := testImage(rng, sz[0], sz[1])
		data := img.Pix
		assert.Equal(t, adler32.Checksum(data), adlerRows(data, sz[0]), "%v", sz)
	}
	data := make([]byte, 5000) // long repeated rows of the largest bytes
	for i := range data {
		data[i] = 0xff
	}
	assert.Equal(t, adler32.Checksum(data), adlerRows(data, 1000))
	for i := range data { // equal rows between different ones
		data[i] = byte(i % 1000 * 7 / (1 + i/3000))
	}
	assert.Equal(t, adler32.Checksum(data), adlerRows(data, 1000))
}

func TestSumsEveryByte(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{0, 1, 7, 8, 9, 64, 1000, 65536} {
		for _, fill := range []func(i int) byte{
			func(int) byte { return 0xff },
			func(i int) byte { return byte(i) },
			func(int) byte { return byte(rng.IntN(256)) },
		} {
			p := make([]byte, n)
			for i := range p {
				p[i] = fill(i)
			}
			var a, b uint64
			for _, x := range p {
				a += uint64(x)
				b += a
			}
			ga, gb := sums(p)
			assert.Equal(t, [2]uint64{a % 65521, b % 65521}, [2]uint64{ga, gb}, "%d bytes", n)
		}
	}
}

func BenchmarkAdlerRows(b *testing.B) {
	img := testImage(rand.New(rand.NewPCG(1, 1)), 600, 300)
	b.SetBytes(int64(len(img.Pix)))
	for b.Loop() {
		rowSums(img.Pix)
	}
}
