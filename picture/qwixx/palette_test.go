package qwixx

import (
	"testing"

	"github.com/stretchr/testify/assert"

	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// Colour-vision check of the four rows, with the method of picture/dix
// (palette_test.go there, maths in picture/picturetest): each face (sRGB) is linearised, multiplied by
// the Machado, Oliveira & Fernandes (2009) simulation matrix for
// full-severity protanopia, deuteranopia and tritanopia, clamped, and
// converted to CIELAB (D65); every pair of rows must then differ by at
// least minDeltaE00 in CIEDE2000. The rows are told apart by position and
// direction too (red and yellow run 2 to 12, green and blue 12 to 2). The
// numbers must read on every face: a WCAG 2 contrast of at least 4.5:1
// between a face and its ink.
const (
	minDeltaE00     = 20.0
	minTextContrast = 4.5
)

func TestRowsApartUnderColourBlindness(t *testing.T) {
	for _, sim := range picturetest.CVDs {
		t.Run(sim.Name, func(t *testing.T) {
			var labs [4][3]float64
			for i, col := range rules.Colors {
				labs[i] = picturetest.Lab(sim.M, faceOf(col))
			}
			for i := range 4 {
				for j := i + 1; j < 4; j++ {
					d := picturetest.DeltaE2000(labs[i], labs[j])
					assert.GreaterOrEqual(t, d, minDeltaE00, "%s vs %s", rules.Colors[i], rules.Colors[j])
					t.Logf("%s vs %s: ΔE00 %.1f", rules.Colors[i], rules.Colors[j], d)
				}
			}
		})
	}
}

func TestNumbersReadOnRows(t *testing.T) {
	for _, col := range rules.Colors {
		c := picturetest.Contrast(picturetest.Linear(inkOf(col)), picturetest.Linear(faceOf(col)))
		assert.GreaterOrEqual(t, c, minTextContrast, "ink on %s", col)
		t.Logf("ink on %s: %.2f:1", col, c)
	}
}
