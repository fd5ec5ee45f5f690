package main

import (
	"image"
	"image/color"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFitCropsScalesAndCentres: a drawing in a corner of a large transparent
// page comes out filling the square minus its margin, centred, on the
// background.
func TestFitCropsScalesAndCentres(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 400, 300))
	red := color.RGBA{0xff, 0, 0, 0xff}
	for y := 10; y < 30; y++ { // a 40×20 red bar at (10,10)
		for x := 10; x < 50; x++ {
			src.Set(x, y, red)
		}
	}
	assert.Equal(t, image.Rect(10, 10, 50, 30), inkBox(src))
	bg := color.RGBA{0xf7, 0xf3, 0xea, 0xff}
	out, err := fit(src, 100, 10, bg)
	require.NoError(t, err)
	require.Equal(t, image.Rect(0, 0, 100, 100), out.Bounds())
	// The bar becomes 80×40, centred: x 10..90, y 30..70.
	assert.Equal(t, red, out.RGBAAt(50, 50))
	assert.Equal(t, red, out.RGBAAt(12, 50))
	assert.Equal(t, red, out.RGBAAt(87, 50))
	assert.Equal(t, bg, out.RGBAAt(5, 50))
	assert.Equal(t, bg, out.RGBAAt(95, 50))
	assert.Equal(t, bg, out.RGBAAt(50, 25))
	assert.Equal(t, bg, out.RGBAAt(50, 75))
}

// TestFitRefusesAnEmptyDrawing: a page with nothing drawn is an error.
func TestFitRefusesAnEmptyDrawing(t *testing.T) {
	_, err := fit(image.NewRGBA(image.Rect(0, 0, 20, 20)), 64, 4, color.RGBA{})
	assert.Error(t, err)
}

// TestBadUsage: unknown subcommands and missing arguments exit 2.
func TestBadUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"nope"}, {"fit"}, {"build"}, {"contact", "x"}, {"sheet", "out.png"}} {
		assert.Equal(t, 2, run(args, io.Discard), "%q", args)
	}
}
