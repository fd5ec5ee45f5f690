package dix

import (
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// Colour-vision check of the four card faces.
//
// Method (the maths is in picture/picturetest): each face (sRGB) is
// linearised, multiplied by the Machado, Oliveira & Fernandes (2009)
// simulation matrix for full-severity (1.0) protanopia, deuteranopia and
// tritanopia, clamped, and converted to CIELAB (D65). Every pair of faces must then differ by at least minDeltaE00 in
// CIEDE2000, under normal vision and under each simulation. 20 is far above
// a "just noticeable" difference (about 2) and about the difference between
// the standard blue and purple of a traffic map; on top of it each colour
// has its own corner symbol.
//
// The numbers must also read on every face: a WCAG 2 contrast of at least
// 4.5:1 between a face and its ink (white or near-black).
const (
	minDeltaE00     = 20.0
	minTextContrast = 4.5
)

func TestFacesApartUnderColourBlindness(t *testing.T) {
	for _, sim := range picturetest.CVDs {
		t.Run(sim.Name, func(t *testing.T) {
			var labs [4][3]float64
			for i, col := range dix.Colors {
				labs[i] = picturetest.Lab(sim.M, faceColor(col))
			}
			for i := range 4 {
				for j := i + 1; j < 4; j++ {
					d := picturetest.DeltaE2000(labs[i], labs[j])
					assert.GreaterOrEqual(t, d, minDeltaE00, "%s vs %s", dix.Colors[i], dix.Colors[j])
					t.Logf("%s vs %s: ΔE00 %.1f", dix.Colors[i], dix.Colors[j], d)
				}
			}
		})
	}
}

func TestNumbersReadOnFaces(t *testing.T) {
	for _, col := range dix.Colors {
		c := picturetest.Contrast(picturetest.Linear(inkOn(col)), picturetest.Linear(faceColor(col)))
		assert.GreaterOrEqual(t, c, minTextContrast, "ink on %s", col)
		t.Logf("ink on %s: %.2f:1", col, c)
	}
}

func TestPaletteHasRoom(t *testing.T) {
	require.Len(t, picture.Palette, 256)
	seen := map[color.Color]bool{}
	for _, c := range picture.Palette[:picture.Transparent] {
		seen[c] = true
	}
	t.Logf("%d distinct colours", len(seen))
}
