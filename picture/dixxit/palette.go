package dixxit

import (
	"image"
	"image/color"
	"sync"

	"github.com/dixgame/dixbot/picture"
)

// The colours of the grid's frame, from the raster core's named colours,
// and the two it lacks.
var (
	table    = picture.Table
	panel    = picture.Panel
	gold     = picture.Gold
	white    = picture.White
	ink      = picture.Ink
	cardBack = picture.Paper
	red      = picture.RGB(0xe0, 0x2a, 0x2a)
	green    = picture.RGB(0x2e, 0xc2, 0x5a)
)

// palette is the grid's palette: the frame's colours with the blends of
// their anti-aliased edges, greys, then a 6×6×6 colour cube for the
// pictures; index picture.Transparent (255) is never written.
var palette = func() color.Palette {
	named := []color.RGBA{table, panel, gold, white, ink, cardBack, red, green}
	var p color.Palette
	seen := map[color.RGBA]bool{}
	add := func(c color.RGBA) {
		if !seen[c] && len(p) < picture.Transparent {
			seen[c] = true
			p = append(p, c)
		}
	}
	for _, c := range named {
		add(c)
	}
	for _, pr := range [][2]color.RGBA{{white, ink}, {green, ink}, {white, gold}, {ink, gold}} {
		for _, t := range []int{64, 128, 192} {
			add(picture.Blend(pr[0], pr[1], t))
		}
	}
	for i := range 10 {
		v := uint8(i * 255 / 9)
		add(picture.RGB(v, v, v))
	}
	for r := range 6 {
		for g := range 6 {
			for b := range 6 {
				add(picture.RGB(uint8(r*51), uint8(g*51), uint8(b*51)))
			}
		}
	}
	for len(p) < 256 {
		p = append(p, table)
	}
	return p
}()

// index returns the palette index of a named colour.
func index(c color.RGBA) uint8 {
	for i, p := range palette[:picture.Transparent] {
		if p == c {
			return uint8(i)
		}
	}
	return uint8(palette[:picture.Transparent].Index(c))
}

// fromCore maps the raster core's palette indices to the package's.
var fromCore = func() (m [256]uint8) {
	for i, c := range picture.Palette {
		m[i] = uint8(palette[:picture.Transparent].Index(c))
	}
	m[picture.Transparent] = picture.Transparent
	return m
}()

// nearest maps a colour, 5 bits a channel, to its palette index (+1; 0:
// not looked up yet).
var nearest = struct {
	sync.Mutex
	lut [1 << 15]uint8
}{}

// quantise turns src, drawn over a transparent background, into a tile of
// the package's palette, compositing partly covered pixels over ink.
func quantise(src *image.RGBA) *picture.Tile {
	b := src.Bounds()
	t := &picture.Tile{W: b.Dx(), H: b.Dy(), Pix: make([]uint8, b.Dx()*b.Dy())}
	nearest.Lock()
	defer nearest.Unlock()
	for y := range t.H {
		for x := range t.W {
			o := src.PixOffset(b.Min.X+x, b.Min.Y+y)
			r, g, bl, a := src.Pix[o], src.Pix[o+1], src.Pix[o+2], src.Pix[o+3]
			if a < 8 {
				t.Pix[y*t.W+x] = picture.Transparent
				continue
			}
			k := 255 - uint32(a)
			r = uint8(uint32(r) + k*uint32(ink.R)/255)
			g = uint8(uint32(g) + k*uint32(ink.G)/255)
			bl = uint8(uint32(bl) + k*uint32(ink.B)/255)
			key := uint16(r>>3)<<10 | uint16(g>>3)<<5 | uint16(bl>>3)
			idx := nearest.lut[key]
			if idx == 0 {
				c := picture.RGB(r&^7|4, g&^7|4, bl&^7|4)
				idx = uint8(palette[:picture.Transparent].Index(c)) + 1
				nearest.lut[key] = idx
			}
			t.Pix[y*t.W+x] = idx - 1
		}
	}
	return t
}
