package dix

import (
	"image/color"
	"testing"

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
	picturetest.Apart(t, picturetest.Named(dix.Colors[:], faceColor, inkOn), minDeltaE00)
}

func TestNumbersReadOnFaces(t *testing.T) {
	picturetest.Readable(t, picturetest.Named(dix.Colors[:], faceColor, inkOn), minTextContrast)
}

func TestPaletteHasRoom(t *testing.T) {
	require.Len(t, picture.Palette, 256)
	seen := map[color.Color]bool{}
	for _, c := range picture.Palette[:picture.Transparent] {
		seen[c] = true
	}
	t.Logf("%d distinct colours", len(seen))
}
