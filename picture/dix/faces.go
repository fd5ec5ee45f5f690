package dix

import (
	"image/color"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/picture"
)

// canvas is a picture of DIX being drawn: the raster core's canvas with the
// drawing of DIX's card grids and blocks on top.
type canvas struct{ *picture.Canvas }

func newCanvas(w, h int, bg color.RGBA) *canvas { return &canvas{picture.NewCanvas(w, h, bg)} }

// The fonts of DIX's pictures.
var (
	fLabel = picture.FontKey{Bold: true, Size: 15}
	fName  = picture.FontKey{Bold: true, Size: 17}
	fSmall = picture.FontKey{Bold: false, Size: 14}
	fBig   = picture.FontKey{Bold: true, Size: 22}
)

// inkOn is the colour of a number on colour c's face: the one of white and
// near-black with the higher contrast.
func inkOn(c dix.Color) color.RGBA {
	if c == dix.Blue || c == dix.Orange {
		return picture.Ink
	}
	return picture.White
}

// faceColor is the face of colour c's cards.
func faceColor(c dix.Color) color.RGBA {
	switch c {
	case dix.Blue:
		return picture.Blue
	case dix.Green:
		return picture.Green
	case dix.Orange:
		return picture.Orange
	case dix.Pink:
		return picture.Pink
	}
	return picture.Ink
}
