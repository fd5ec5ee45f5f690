package picture

import (
	"image"
	"image/color"
	"strconv"
)

// Mark says who plays a seat, drawn before the seat's name: the same in
// every game.
type Mark uint8

const (
	// MarkNone is a person playing their seat.
	MarkNone Mark = iota
	// MarkComputer is a seat the computer plays: a computer player, the
	// solo game's virtual player, a seat handed to the computer. Drawn as
	// a robot's head.
	MarkComputer
	// MarkAway is a player marked absent, for whom the computer decides
	// until they come back. Drawn as a crescent moon.
	MarkAway
)

// SeatMark paints m in a 20×20 box over the background bg: a robot's
// head, a crescent moon, or nothing for a person playing their seat.
func (p *Pen) SeatMark(m Mark, bg color.RGBA) {
	switch m {
	case MarkComputer:
		p.Robot()
	case MarkAway:
		p.Moon(bg)
	}
}

// The marks drawn before a seat's name, the same in every game. Each one
// paints into the top-left corner of the pen's image, in the box its
// comment gives; the game turns the image into a tile (Quantise or
// QuantiseWide) and caches it.

// Arrow paints the gold arrow, pointing right, of the seat that must
// decide, in an 18×20 box.
func (p *Pen) Arrow() {
	p.Poly([2]float32{2, 1}, [2]float32{17, 10}, [2]float32{2, 19})
	p.Paint(Gold)
}

// Robot paints a robot's head (antenna, ears, rounded head, two eyes, a
// mouth), the mark of a seat the computer plays, in a 20×20 box: drawn
// with shapes, not with a font's emoji.
func (p *Pen) Robot() {
	p.Poly([2]float32{9.2, 2}, [2]float32{10.8, 2}, [2]float32{10.8, 6}, [2]float32{9.2, 6})
	p.Circle(10, 2.2, 1.9)
	p.RoundRect(1, 9, 3, 15, 0.8) // ears
	p.RoundRect(17, 9, 19, 15, 0.8)
	p.RoundRect(2.5, 5.5, 17.5, 19, 3)
	p.Paint(Muted)
	p.Circle(7, 11, 2)
	p.Circle(13, 11, 2)
	p.RoundRect(6.5, 15, 13.5, 16.6, 0.8)
	p.Paint(Ink)
}

// Moon paints a crescent moon, the mark of an absent player, in a 20×20
// box over the background bg (the crescent is a disc with a disc of bg
// cut out of it).
func (p *Pen) Moon(bg color.RGBA) {
	p.Circle(10, 10, 8)
	p.Paint(Lilac)
	p.Circle(14, 7, 7)
	p.Paint(bg)
}

// RankDisc paints a final rank, its number in a 24×24 disc: gold for the
// winners (rank 1), grey for the others.
func (p *Pen) RankDisc(rank int) {
	p.Circle(12, 12, 12)
	if rank == 1 {
		p.Paint(Gold)
	} else {
		p.Paint(Muted)
	}
	DrawGlyphs(p.dst, strconv.Itoa(rank), FontKey{Bold: true, Size: 15}, Ink, 12, 12)
}

type rankKey int

// RankTile is a final rank in a 24×24 disc over bg (RankDisc), quantised
// to Palette (to WidePalette when wide) and cached.
func RankTile(rank int, bg color.RGBA, wide bool) *Tile {
	return Drawn(rankKey(rank), 24, 24, bg, wide, func(p *Pen) { p.RankDisc(rank) })
}

// SeatMarkTile is the mark m before a seat's name in a 20×20 box over bg
// (SeatMark), quantised to Palette (to WidePalette when wide) and cached.
func SeatMarkTile(m Mark, bg color.RGBA, wide bool) *Tile {
	return Drawn(m, 20, 20, bg, wide, func(p *Pen) { p.SeatMark(m, bg) })
}

type drawnKey struct {
	key  any
	w, h int
	bg   color.RGBA
	wide bool
}

// Drawn is the w×h tile that draw paints over bg, quantised to Palette (to
// WidePalette when wide) and cached: key says what the drawing depends on
// besides w, h, bg and wide, with a type of the caller's own so that no
// other drawing shares it.
func Drawn(key any, w, h int, bg color.RGBA, wide bool, draw func(p *Pen)) *Tile {
	return Cached(drawnKey{key, w, h, bg, wide}, func() *Tile {
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		draw(NewPen(dst))
		if wide {
			return QuantiseWide(dst, bg)
		}
		return Quantise(dst, bg)
	})
}
