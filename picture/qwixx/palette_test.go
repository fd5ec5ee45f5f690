package qwixx

import (
	"testing"

	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// Colour-vision check of the four rows, with the method of picture/dix
// (palette_test.go there; the maths is in picture/picturetest): each face
// (sRGB) is linearised, multiplied by the Machado, Oliveira & Fernandes
// (2009) simulation matrix for full-severity protanopia, deuteranopia and
// tritanopia, clamped, and converted to CIELAB (D65); every pair of rows
// must then differ by at least minDeltaE00 in CIEDE2000. The rows are told
// apart by position and direction too (red and yellow run 2 to 12, green
// and blue 12 to 2). The numbers must read on every face: a WCAG 2
// contrast of at least 4.5:1 between a face and its ink.
const (
	minDeltaE00     = 20.0
	minTextContrast = 4.5
)

func TestRowsApartUnderColourBlindness(t *testing.T) {
	picturetest.Apart(t, picturetest.Named(rules.Colors[:], faceOf, inkOf), minDeltaE00)
}

func TestNumbersReadOnRows(t *testing.T) {
	picturetest.Readable(t, picturetest.Named(rules.Colors[:], faceOf, inkOf), minTextContrast)
}
