package picture

import (
	"image/color"

	"github.com/dixgame/dixbot/engine/dix"
)

// The fixed palette. Every picture is an 8-bit paletted image over these
// colours: the named ones below, then blends between the pairs that meet at
// anti-aliased edges (text on a face, a face on the table), so that edges
// stay smooth after quantisation.

// Named colours.
var (
	cTable    = rgb(0x1d, 0x22, 0x28) // the table (picture background)
	cPanel    = rgb(0x2b, 0x32, 0x3b) // a player's area
	cPanelAct = rgb(0x45, 0x3b, 0x1a) // the area of the player who must act
	cGold     = rgb(0xf5, 0xc4, 0x2c) // acting marker, highlights, money tokens
	cWhite    = rgb(0xff, 0xff, 0xff)
	cMuted    = rgb(0xa7, 0xb0, 0xbb) // secondary text
	cSlot     = rgb(0x46, 0x4f, 0x5a) // outline of an empty place in a run
	cInk      = rgb(0x16, 0x18, 0x1b) // black wild face, dark text
	cEdge     = rgb(0x9a, 0xa1, 0xab) // black wild border
	cCream    = rgb(0xf3, 0xe4, 0xb0) // currency card face
	cBrown    = rgb(0x4d, 0x3b, 0x0e) // text on cream and gold
	cLilac    = rgb(0xc9, 0xb8, 0xf2) // consolation token
	cPaper    = rgb(0xf4, 0xf4, 0xf1) // super wild face

	// The four colour faces, chosen by a search that kept each hue in its
	// name's range and maximised the smallest difference between two faces
	// under simulated colour blindness (palette_test.go). They are spread in
	// lightness, so they stay apart when hue is lost: light blue and orange
	// carry dark numbers, dark green and pink white ones.
	cBlue   = rgb(0x5c, 0xa9, 0xf0)
	cGreen  = rgb(0x0b, 0x74, 0x33)
	cOrange = rgb(0xfa, 0xa3, 0x23)
	cPink   = rgb(0xc9, 0x12, 0x80)
)

// inkOn is the colour of a number on colour c's face: the one of white and
// near-black with the higher contrast.
func inkOn(c dix.Color) color.RGBA {
	if c == dix.Blue || c == dix.Orange {
		return cInk
	}
	return cWhite
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xff} }

// faceColor is the face of colour c's cards.
func faceColor(c dix.Color) color.RGBA {
	switch c {
	case dix.Blue:
		return cBlue
	case dix.Green:
		return cGreen
	case dix.Orange:
		return cOrange
	case dix.Pink:
		return cPink
	}
	return cInk
}

// transparent is the palette index tiles use for "leave what is below".
// It is never written to a picture.
const transparent = 255

// palette is the picture palette (at most 255 colours in use).
var palette = buildPalette()

func buildPalette() color.Palette {
	named := []color.RGBA{cTable, cPanel, cPanelAct, cGold, cWhite, cMuted, cSlot, cInk, cEdge,
		cCream, cBrown, cLilac, cPaper, cBlue, cGreen, cOrange, cPink}
	faces := []color.RGBA{cBlue, cGreen, cOrange, cPink}
	grounds := []color.RGBA{cTable, cPanel, cPanelAct}
	type pair struct{ a, b color.RGBA }
	var pairs []pair
	for _, f := range append(faces, cInk, cCream, cPaper, cLilac, cGold) {
		for _, g := range grounds {
			pairs = append(pairs, pair{f, g})
		}
	}
	for _, f := range faces {
		pairs = append(pairs, pair{cWhite, f}, pair{cInk, f}, pair{f, cPaper}, pair{cGold, f}, pair{f, cInk})
	}
	for _, g := range grounds {
		pairs = append(pairs, pair{cWhite, g}, pair{cMuted, g}, pair{cGold, g}, pair{cSlot, g}, pair{cEdge, g})
	}
	pairs = append(pairs, pair{cWhite, cInk}, pair{cEdge, cInk}, pair{cBrown, cCream}, pair{cBrown, cGold},
		pair{cInk, cLilac}, pair{cInk, cPaper}, pair{cGold, cInk}, pair{cBrown, cLilac},
		pair{cInk, cGold}, pair{cInk, cMuted}, pair{cCream, cBrown})
	seen := map[color.RGBA]bool{}
	var p color.Palette
	add := func(c color.RGBA) {
		if !seen[c] && len(p) < transparent {
			seen[c] = true
			p = append(p, c)
		}
	}
	for _, c := range named {
		add(c)
	}
	for _, pr := range pairs {
		for _, t := range []int{1, 2, 3} {
			add(blend(pr.a, pr.b, t*64))
		}
	}
	for len(p) < 256 {
		p = append(p, cTable) // padding; index 255 is the transparent marker
	}
	return p
}

// blend mixes a over b with a weight of a256/256.
func blend(a, b color.RGBA, a256 int) color.RGBA {
	m := func(x, y uint8) uint8 { return uint8((int(x)*a256 + int(y)*(256-a256)) / 256) }
	return rgb(m(a.R, b.R), m(a.G, b.G), m(a.B, b.B))
}

// indexOf returns the palette index of c, which must be exact (a named colour).
func indexOf(c color.RGBA) uint8 {
	for i, p := range palette[:transparent] {
		if p == c {
			return uint8(i)
		}
	}
	panic("picture: colour not in palette") // a programming error, caught by every test
}
