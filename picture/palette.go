package picture

import "image/color"

// The fixed palette. Every picture is an 8-bit paletted image over these
// colours: the named ones below, then blends between the pairs that meet at
// anti-aliased edges (text on a face, a face on the table), so that edges
// stay smooth after quantisation.

// Named colours.
var (
	Table    = RGB(0x1d, 0x22, 0x28) // the table (picture background)
	Panel    = RGB(0x2b, 0x32, 0x3b) // a player's area
	PanelAct = RGB(0x45, 0x3b, 0x1a) // the area of the player who must act
	Gold     = RGB(0xf5, 0xc4, 0x2c) // acting marker, highlights, money tokens
	White    = RGB(0xff, 0xff, 0xff)
	Muted    = RGB(0xa7, 0xb0, 0xbb) // secondary text
	Slot     = RGB(0x46, 0x4f, 0x5a) // outline of an empty place in a run
	Ink      = RGB(0x16, 0x18, 0x1b) // black wild face, dark text
	Edge     = RGB(0x9a, 0xa1, 0xab) // black wild border
	Cream    = RGB(0xf3, 0xe4, 0xb0) // currency card face
	Brown    = RGB(0x4d, 0x3b, 0x0e) // text on cream and gold
	Lilac    = RGB(0xc9, 0xb8, 0xf2) // consolation token
	Paper    = RGB(0xf4, 0xf4, 0xf1) // super wild face

	// The four colour faces, chosen by a search that kept each hue in its
	// name's range and maximised the smallest difference between two faces
	// under simulated colour blindness (palette_test.go). They are spread in
	// lightness, so they stay apart when hue is lost: light blue and orange
	// carry dark numbers, dark green and pink white ones.
	Blue   = RGB(0x5c, 0xa9, 0xf0)
	Green  = RGB(0x0b, 0x74, 0x33)
	Orange = RGB(0xfa, 0xa3, 0x23)
	Pink   = RGB(0xc9, 0x12, 0x80)

	// Qwixx's red and yellow rows (its green and blue are Green and Blue
	// above), and Grey, a die out of play. The red leans to crimson and is
	// light, with dark numbers, to stay apart from Green under simulated
	// colour blindness (picture/qwixx's palette_test.go).
	Red    = RGB(0xfc, 0x40, 0x74)
	Yellow = RGB(0xff, 0xe0, 0x3a)
	Grey   = RGB(0x6b, 0x72, 0x7b)
)

// RGB is the opaque colour r, g, b.
func RGB(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xff} }

// Transparent is the palette index tiles use for "leave what is below".
// It is never written to a picture.
const Transparent = 255

// Palette is the picture palette (at most 255 colours in use), and
// WidePalette the same with Qwixx's colours and their blends after it (the
// first colours keep their indices). A picture of NewCanvas carries
// Palette, one of NewWideCanvas WidePalette.
var Palette, WidePalette = buildPalette()

// buildPalette returns the palette and the wide palette, each padded to 256.
func buildPalette() (color.Palette, color.Palette) {
	named := []color.RGBA{Table, Panel, PanelAct, Gold, White, Muted, Slot, Ink, Edge,
		Cream, Brown, Lilac, Paper, Blue, Green, Orange, Pink}
	faces := []color.RGBA{Blue, Green, Orange, Pink}
	grounds := []color.RGBA{Table, Panel, PanelAct}
	type pair struct{ a, b color.RGBA }
	var pairs []pair
	for _, f := range append(faces, Ink, Cream, Paper, Lilac, Gold) {
		for _, g := range grounds {
			pairs = append(pairs, pair{f, g})
		}
	}
	for _, f := range faces {
		pairs = append(pairs, pair{White, f}, pair{Ink, f}, pair{f, Paper}, pair{Gold, f}, pair{f, Ink})
	}
	for _, g := range grounds {
		pairs = append(pairs, pair{White, g}, pair{Muted, g}, pair{Gold, g}, pair{Slot, g}, pair{Edge, g})
	}
	pairs = append(pairs, pair{White, Ink}, pair{Edge, Ink}, pair{Brown, Cream}, pair{Brown, Gold},
		pair{Ink, Lilac}, pair{Ink, Paper}, pair{Gold, Ink}, pair{Brown, Lilac},
		pair{Ink, Gold}, pair{Ink, Muted}, pair{Cream, Brown})
	seen := map[color.RGBA]bool{}
	var p color.Palette
	add := func(c color.RGBA) {
		if !seen[c] && len(p) < Transparent {
			seen[c] = true
			p = append(p, c)
		}
	}
	for _, c := range named {
		add(c)
	}
	for _, pr := range pairs {
		for _, t := range []int{1, 2, 3} {
			add(Blend(pr.a, pr.b, t*64))
		}
	}
	// The colours added for Qwixx come last, in the wide palette only, so
	// that the other drawings keep their pixels and their bytes.
	base := len(p)
	for _, c := range []color.RGBA{Red, Yellow, Grey} {
		add(c)
	}
	for _, pr := range []pair{{Red, Panel}, {Yellow, Panel}, {Red, PanelAct}, {Yellow, PanelAct},
		{White, Red}, {Ink, Yellow}, {Ink, Red}, {Red, Table}, {Yellow, Table}, {Grey, Table}, {Ink, Grey}} {
		for _, t := range []int{1, 2, 3} {
			add(Blend(pr.a, pr.b, t*64))
		}
	}
	pad := func(p color.Palette) color.Palette {
		for len(p) < 256 {
			p = append(p, Table) // padding; index 255 is the transparent marker
		}
		return p
	}
	return pad(p[:base:base]), pad(p)
}

// Blend mixes a over b with a weight of a256/256.
func Blend(a, b color.RGBA, a256 int) color.RGBA {
	m := func(x, y uint8) uint8 { return uint8((int(x)*a256 + int(y)*(256-a256)) / 256) }
	return RGB(m(a.R, b.R), m(a.G, b.G), m(a.B, b.B))
}

// IndexOf returns the palette index of c, which must be exact (a named
// colour); the same in Palette and WidePalette.
func IndexOf(c color.RGBA) uint8 {
	for i, p := range WidePalette[:Transparent] {
		if p == c {
			return uint8(i)
		}
	}
	panic("picture: colour not in palette") // a programming error, caught by every test
}
