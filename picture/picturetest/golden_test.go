package picturetest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func encode(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// TestPixelsApart counts the pixels that differ, whatever the PNG
// encoding (paletted or not) of equal pixels, and refuses pictures of
// different sizes and bytes that are not a PNG.
func TestPixelsApart(t *testing.T) {
	pal := color.Palette{color.RGBA{0, 0, 0, 255}, color.RGBA{255, 0, 0, 255}}
	a := image.NewPaletted(image.Rect(0, 0, 4, 3), pal)
	b := image.NewPaletted(image.Rect(0, 0, 4, 3), pal)
	n, err := PixelsApart(encode(t, a), encode(t, b))
	require.NoError(t, err)
	assert.Zero(t, n)

	b.SetColorIndex(1, 1, 1)
	b.SetColorIndex(3, 2, 1)
	n, err = PixelsApart(encode(t, a), encode(t, b))
	require.NoError(t, err)
	assert.Equal(t, 2, n)

	_, err = PixelsApart(encode(t, a), encode(t, image.NewPaletted(image.Rect(0, 0, 3, 4), pal)))
	assert.ErrorContains(t, err, "size")
	_, err = PixelsApart([]byte("not a png"), encode(t, a))
	assert.Error(t, err)
}

// TestGolden compares with testdata/ of the package under test.
func TestGolden(t *testing.T) {
	pal := color.Palette{color.RGBA{0, 0, 0, 255}, color.RGBA{255, 0, 0, 255}}
	img := image.NewPaletted(image.Rect(0, 0, 4, 3), pal)
	img.SetColorIndex(2, 1, 1)
	Golden(t, "dot.png", encode(t, img))
}

// BenchmarkBench times the encoding of a small PNG through Bench, which
// reports its median, 99th percentile and size.
func BenchmarkBench(b *testing.B) {
	img := image.NewPaletted(image.Rect(0, 0, 40, 30), color.Palette{color.Black, color.White})
	Bench(b, func() ([]byte, error) {
		var buf bytes.Buffer
		err := png.Encode(&buf, img)
		return buf.Bytes(), err
	})
}
