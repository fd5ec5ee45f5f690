package picturetest

import (
	"fmt"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDeltaE2000 checks the formula against pairs from Sharma, Wu & Dalal
// (2005), "The CIEDE2000 color-difference formula: implementation notes".
func TestDeltaE2000(t *testing.T) {
	cases := []struct {
		a, b Vec
		want float64
	}{
		{Vec{50, 2.6772, -79.7751}, Vec{50, 0, -82.7485}, 2.0425},
		{Vec{50, -1.3802, -84.2814}, Vec{50, 0, -82.7485}, 1.0000},
		{Vec{50, 2.5, 0}, Vec{73, 25, -18}, 27.1492},
		{Vec{60.2574, -34.0099, 36.2677}, Vec{60.4626, -34.1751, 39.4387}, 1.2644},
		{Vec{22.7233, 20.0904, -46.6940}, Vec{23.0331, 14.9730, -42.5619}, 2.0373},
	}
	for i, tc := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			assert.InDelta(t, tc.want, DeltaE2000(tc.a, tc.b), 1e-4)
		})
	}
}

// TestLab checks sRGB to CIELAB at the white point, black and the sRGB
// primaries (reference values of the sRGB/D65 conversion).
func TestLab(t *testing.T) {
	cases := []struct {
		c    color.RGBA
		want Vec
	}{
		{color.RGBA{255, 255, 255, 255}, Vec{100, 0, 0}},
		{color.RGBA{0, 0, 0, 255}, Vec{0, 0, 0}},
		{color.RGBA{255, 0, 0, 255}, Vec{53.2408, 80.0925, 67.2032}},
		{color.RGBA{0, 255, 0, 255}, Vec{87.7347, -86.1827, 83.1793}},
		{color.RGBA{0, 0, 255, 255}, Vec{32.2970, 79.1875, -107.8602}},
	}
	for _, tc := range cases {
		got := Lab(CVDs[0].M, tc.c)
		for i := range 3 {
			assert.InDelta(t, tc.want[i], got[i], 0.01, "%v component %d", tc.c, i)
		}
	}
}

// TestContrast checks the WCAG 2 ratio: 21:1 for black on white, either
// way round, 1:1 for a colour on itself, and 4.54:1 for #767676 on white.
func TestContrast(t *testing.T) {
	white, black := Linear(color.RGBA{255, 255, 255, 255}), Linear(color.RGBA{0, 0, 0, 255})
	grey := Linear(color.RGBA{0x76, 0x76, 0x76, 255})
	assert.InDelta(t, 21, Contrast(black, white), 1e-9)
	assert.InDelta(t, 21, Contrast(white, black), 1e-9)
	assert.InDelta(t, 1, Contrast(grey, grey), 1e-9)
	assert.InDelta(t, 4.54, Contrast(grey, white), 0.005)
}

// TestSimulate checks that every simulation leaves a grey a grey (each
// matrix row sums to 1) and clamps to [0, 1], and that under protanopia
// and deuteranopia pure red and a green of about its lightness come close.
func TestSimulate(t *testing.T) {
	grey := Linear(color.RGBA{128, 128, 128, 255})
	for _, s := range CVDs {
		got := Simulate(s.M, grey)
		for i := range 3 {
			assert.InDelta(t, grey[i], got[i], 1e-3, "%s", s.Name)
		}
		for _, v := range Simulate(s.M, Vec{1, 0, 1}) {
			assert.True(t, v >= 0 && v <= 1, "%s clamps: %v", s.Name, v)
		}
	}
	red, green := color.RGBA{220, 40, 40, 255}, color.RGBA{90, 140, 30, 255}
	normal := DeltaE2000(Lab(CVDs[0].M, red), Lab(CVDs[0].M, green))
	for _, s := range CVDs[1:3] {
		d := DeltaE2000(Lab(s.M, red), Lab(s.M, green))
		assert.Less(t, d, normal/2, "%s: red and green come closer", s.Name)
	}
}

// TestSwatches checks Named, and that Apart and Readable pass a palette
// far apart under every simulation (black, white, mid grey) with ink of
// the highest contrast.
func TestSwatches(t *testing.T) {
	type shade int
	grey := map[shade]color.RGBA{0: {0, 0, 0, 255}, 1: {255, 255, 255, 255}, 2: {119, 119, 119, 255}}
	ink := func(s shade) color.RGBA {
		if s == 1 {
			return grey[0]
		}
		return grey[1]
	}
	sw := Named([]shade{0, 1, 2}, func(s shade) color.RGBA { return grey[s] }, ink)
	assert.Equal(t, Swatch{Name: "2", Face: grey[2], Ink: grey[1]}, sw[2])
	Apart(t, sw, 20)
	Readable(t, sw[:2], 21)
	Readable(t, sw, 4.4)
}
