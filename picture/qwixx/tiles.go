package qwixx

import (
	"image"
	"image/color"
	"strconv"
	"sync"

	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/picture"
)

// Fonts.
var (
	fCell  = picture.FontKey{Bold: true, Size: 15}
	fName  = picture.FontKey{Bold: true, Size: 17}
	fLabel = picture.FontKey{Bold: true, Size: 14}
	fScore = picture.FontKey{Bold: true, Size: 21}
	fSum   = picture.FontKey{Bold: true, Size: 26}
)

// faceOf is the colour of row (and die) c.
func faceOf(c rules.Color) color.RGBA {
	switch c {
	case rules.Red:
		return picture.Red
	case rules.Yellow:
		return picture.Yellow
	case rules.Green:
		return picture.Green
	}
	return picture.Blue
}

// inkOf is the colour of numbers, pips and marks on c's face: white on the
// dark face (green), near-black on the light ones.
func inkOf(c rules.Color) color.RGBA {
	if c == rules.Green {
		return picture.White
	}
	return picture.Ink
}

// cellState is how one cell of a sheet looks.
type cellState uint8

const (
	cellOpen    cellState = iota // may still be marked
	cellMarked                   // marked: a cross over the number
	cellSkipped                  // passed over or in a row locked for everyone: dimmed
)

type cellKey struct {
	c     rules.Color
	pos   int // 0–10, rules.LockPos for the lock
	state cellState
	bg    color.RGBA
}

// Cell geometry.
const (
	cellW = 38
	lockW = 32
	cellH = 24
	gapX  = 3
	gapY  = 3
)

// cellTile is one cell of a row: a number (or the padlock) on the row's
// face, crossed when marked, dimmed when it can no longer be marked.
func cellTile(c rules.Color, pos int, st cellState, bg color.RGBA) *picture.Tile {
	k := cellKey{c, pos, st, bg}
	cells.mu.RLock()
	t := cells.m[k]
	cells.mu.RUnlock()
	if t != nil {
		return t
	}
	t = picture.Cached(k, func() *picture.Tile {
		w := cellW
		if pos == rules.LockPos {
			w = lockW
		}
		dst := image.NewRGBA(image.Rect(0, 0, w, cellH))
		p := picture.NewPen(dst)
		face, ink := faceOf(c), inkOf(c)
		if st == cellSkipped {
			face = picture.Blend(face, bg, 64)
			ink = picture.Blend(ink, face, 110)
		}
		p.RoundRect(0, 0, float32(w), cellH, 5)
		p.Paint(face)
		num := ink
		if st == cellMarked {
			num = picture.Blend(ink, face, 110)
		}
		cx, cy := float32(w)/2, float32(cellH)/2
		if pos == rules.LockPos {
			padlock(p, cx, cy)
			p.Paint(num)
		} else {
			picture.DrawGlyphs(dst, strconv.Itoa(rules.Number(c, pos)), fCell, num, float64(cx), float64(cy))
		}
		if st == cellMarked {
			cross(p, cx, cy, 8, 2)
			p.Paint(ink)
		}
		return picture.QuantiseWide(dst, bg)
	})
	cells.mu.Lock()
	cells.m[k] = t
	cells.mu.Unlock()
	return t
}

// cells are the cell tiles of the raster core's cache (picture.Cached)
// by their own key type: a sheet looks up fifty of them, and a key of its
// own type is found without being boxed. The cells are few (colours,
// places, states, backgrounds). Safe for concurrent use.
var cells = struct {
	mu sync.RWMutex
	m  map[cellKey]*picture.Tile
}{m: map[cellKey]*picture.Tile{}}

// cross adds an X of half-size r and half-thickness t centred on (cx, cy).
func cross(p *picture.Pen, cx, cy, r, t float32) {
	p.Poly([2]float32{cx - r - t, cy - r + t}, [2]float32{cx - r + t, cy - r - t}, [2]float32{cx + r + t, cy + r - t}, [2]float32{cx + r - t, cy + r + t})
	p.Poly([2]float32{cx + r - t, cy - r - t}, [2]float32{cx + r + t, cy - r + t}, [2]float32{cx - r + t, cy + r + t}, [2]float32{cx - r - t, cy + r - t})
}

// padlock adds a padlock centred on (cx, cy): a body and a shackle.
func padlock(p *picture.Pen, cx, cy float32) {
	p.RoundRect(cx-6, cy-1, cx+6, cy+8, 1.5)
	// The shackle: an arch of two posts and a top bar.
	p.RoundRect(cx-5, cy-8, cx-2.6, cy, 1)
	p.RoundRect(cx+2.6, cy-8, cx+5, cy, 1)
	p.RoundRect(cx-5, cy-8, cx+5, cy-5.6, 1.2)
}

type dieKey struct {
	face  color.RGBA
	ink   color.RGBA
	value int // 0: out of play
	size  int
	bg    color.RGBA
}

// pips are the pip positions of each face, on a 3×3 grid (0, 1, 2).
var pips = [7][][2]int{
	1: {{1, 1}},
	2: {{0, 0}, {2, 2}},
	3: {{0, 0}, {1, 1}, {2, 2}},
	4: {{0, 0}, {2, 0}, {0, 2}, {2, 2}},
	5: {{0, 0}, {2, 0}, {1, 1}, {0, 2}, {2, 2}},
	6: {{0, 0}, {2, 0}, {0, 1}, {2, 1}, {0, 2}, {2, 2}},
}

// dieTile is a die showing value with pips; value 0 is a die out of play:
// grey, crossed, no pips.
func dieTile(face, ink color.RGBA, value, size int, bg color.RGBA) *picture.Tile {
	return picture.Cached(dieKey{face, ink, value, size, bg}, func() *picture.Tile {
		dst := image.NewRGBA(image.Rect(0, 0, size, size))
		p := picture.NewPen(dst)
		s := float32(size)
		if value == 0 {
			p.RoundRect(0, 0, s, s, s/6)
			p.Paint(picture.Grey)
			p.RoundRect(2, 2, s-2, s-2, s/6-1)
			p.Paint(bg)
			cross(p, s/2, s/2, s/4, 1.6)
			p.Paint(picture.Grey)
			return picture.QuantiseWide(dst, bg)
		}
		p.RoundRect(0, 0, s, s, s/6)
		p.Paint(face)
		step := s / 4
		for _, q := range pips[value] {
			p.Circle(step+float32(q[0])*step, step+float32(q[1])*step, s/11)
		}
		p.Paint(ink)
		return picture.QuantiseWide(dst, bg)
	})
}

type sumKey struct {
	n  int
	bg color.RGBA
}

// sumTile is the white sum: the number in a white-ringed disc.
func sumTile(n int, bg color.RGBA) *picture.Tile {
	return picture.Cached(sumKey{n, bg}, func() *picture.Tile {
		const d = 44
		dst := image.NewRGBA(image.Rect(0, 0, d, d))
		p := picture.NewPen(dst)
		p.Circle(d/2, d/2, d/2)
		p.Paint(picture.White)
		p.Circle(d/2, d/2, d/2-2.5)
		p.Paint(bg)
		picture.DrawGlyphs(dst, strconv.Itoa(n), fSum, picture.White, d/2, d/2)
		return picture.QuantiseWide(dst, bg)
	})
}

type penaltyKey struct {
	taken bool
	bg    color.RGBA
}

// penaltyTile is one penalty box: an empty square, crossed when taken.
func penaltyTile(taken bool, bg color.RGBA) *picture.Tile {
	return picture.Cached(penaltyKey{taken, bg}, func() *picture.Tile {
		const s = 18
		dst := image.NewRGBA(image.Rect(0, 0, s, s))
		p := picture.NewPen(dst)
		p.RoundRect(0, 0, s, s, 3)
		p.Paint(picture.Muted)
		p.RoundRect(2, 2, s-2, s-2, 2)
		p.Paint(bg)
		if taken {
			cross(p, s/2, s/2, 4.5, 1.5)
			p.Paint(picture.White)
		}
		return picture.QuantiseWide(dst, bg)
	})
}

// markKey is 0 for a seat that must decide (a gold arrow), 1 for the
// seat that rolled (a small die).
type markKey int

// markTile is the marker before a name: a gold arrow for a seat that must
// decide, a small white die for the seat that rolled.
func markTile(kind int, bg color.RGBA) *picture.Tile {
	return picture.Drawn(markKey(kind), 18, 20, bg, true, func(p *picture.Pen) {
		if kind == 0 {
			p.Arrow()
			return
		}
		p.RoundRect(1, 2, 17, 18, 3)
		p.Paint(picture.White)
		for _, q := range pips[5] {
			p.Circle(5+float32(q[0])*4, 6+float32(q[1])*4, 1.4)
		}
		p.Paint(picture.Ink)
	})
}
