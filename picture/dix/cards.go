package dix

import (
	"image"
	"image/color"
	"math"
	"strconv"
	"sync"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/picture"
)

// This file draws the cards and the tokens as tiles.
//
// Every face says its colour twice: by hue and by the symbol in its top-left
// corner (blue ●, green ▲, orange ■, pink ◆; a 2×2 grid of the four colours
// for "any colour"). Number cards are filled with their colour. A colour wild
// is its colour with "#"; a black wild is black with its number; the super
// wild is white with a star. A wild the scorer has placed shows the number it
// stands for, keeps its own face, and marks the colour it stands for with
// the colour's symbol (and border, for the black and the super wild).

// cardSize is one of the sizes cards are drawn at.
type cardSize struct {
	w, h int
	num  picture.FontKey // the number
	mark picture.FontKey // the "#" corner mark of a placed colour wild
	sym  float32         // symbol size
}

var (
	small  = cardSize{w: 24, h: 34, num: picture.FontKey{Bold: true, Size: 19}, mark: picture.FontKey{Bold: true, Size: 10}, sym: 9}
	medium = cardSize{w: 32, h: 44, num: picture.FontKey{Bold: true, Size: 25}, mark: picture.FontKey{Bold: true, Size: 12}, sym: 9}
	large  = cardSize{w: 44, h: 60, num: picture.FontKey{Bold: true, Size: 34}, mark: picture.FontKey{Bold: true, Size: 15}, sym: 12}
)

type cardKey struct {
	card  dix.Card
	at    dix.Color // a placed wild: the colour it stands for
	val   uint8     // a placed wild: the number it stands for
	slot  uint8     // an empty place for this number (card unset)
	sz    cardSize
	bg    color.RGBA
	token bool
}

// cardTile is card c at size sz over bg. For a wild placed by the scorer,
// at and val say what it stands for (NoColor: not placed).
func cardTile(c dix.Card, at dix.Color, val uint8, sz cardSize, bg color.RGBA) *picture.Tile {
	k := cardKey{card: c, at: at, val: val, sz: sz, bg: bg}
	if t := cardTiles.get(k); t != nil {
		return t
	}
	return cardTiles.put(k, picture.Cached(k, func() *picture.Tile {
		dst := image.NewRGBA(image.Rect(0, 0, sz.w, sz.h))
		drawCard(dst, c, at, val, sz)
		return picture.Quantise(dst, bg)
	}))
}

// cardTiles are the card and slot tiles of the raster core's cache
// (picture.Cached) by their own key type: a board looks up a hundred of
// them, and a key of its own type is found without being boxed. The
// cards, places, sizes and backgrounds are few, so they are too. Safe for
// concurrent use.
var cardTiles = tileMap{m: map[cardKey]*picture.Tile{}}

type tileMap struct {
	mu sync.RWMutex
	m  map[cardKey]*picture.Tile
}

func (tm *tileMap) get(k cardKey) *picture.Tile {
	tm.mu.RLock()
	defer tm.mu.RUnlock()
	return tm.m[k]
}

// drop forgets every tile, as picture.DropTiles does the core's.
func (tm *tileMap) drop() {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tm.m = map[cardKey]*picture.Tile{}
}

func (tm *tileMap) put(k cardKey, t *picture.Tile) *picture.Tile {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tm.m[k] = t
	return t
}

// slotTile is the empty place for number n in a run.
func slotTile(n uint8, sz cardSize, bg color.RGBA) *picture.Tile {
	k := cardKey{slot: n, sz: sz, bg: bg}
	if t := cardTiles.get(k); t != nil {
		return t
	}
	return cardTiles.put(k, picture.Cached(k, func() *picture.Tile {
		dst := image.NewRGBA(image.Rect(0, 0, sz.w, sz.h))
		p := picture.NewPen(dst)
		w, h := float32(sz.w), float32(sz.h)
		p.RoundRect(0.5, 0.5, w-0.5, h-0.5, 3)
		p.Paint(picture.Slot)
		p.RoundRect(1.7, 1.7, w-1.7, h-1.7, 2)
		p.Paint(bg)
		if n > 0 {
			picture.DrawGlyphs(dst, strconv.Itoa(int(n)), sz.mark, picture.Slot, float64(w)/2, float64(h)/2)
		}
		return picture.Quantise(dst, bg)
	}))
}

func drawCard(dst *image.RGBA, c dix.Card, at dix.Color, val uint8, sz cardSize) {
	p := picture.NewPen(dst)
	w, h := float32(sz.w), float32(sz.h)
	s := sz.sym
	rad := w / 8
	body := func(border, face color.RGBA, bw float32) {
		p.RoundRect(0, 0, w, h, rad)
		p.Paint(border)
		if bw > 0 {
			p.RoundRect(bw, bw, w-bw, h-bw, max(1, rad-bw))
			p.Paint(face)
		}
	}
	cx, cy := float64(w)/2, float64(h)*0.58
	symX, symY := 2+s/2+w/24, 2+s/2+h/30
	number := func(n uint8, ink color.RGBA) {
		picture.DrawGlyphs(dst, strconv.Itoa(int(n)), sz.num, ink, cx, cy)
	}
	switch c.Kind {
	case dix.KindNumber:
		body(faceColor(c.Color), faceColor(c.Color), 0)
		symbol(p, c.Color, inkOn(c.Color), symX, symY, s)
		number(c.Value, inkOn(c.Color))
	case dix.KindColorWild:
		face, ink := faceColor(c.Color), inkOn(c.Color)
		if at == dix.NoColor {
			body(face, face, 0)
			symbol(p, c.Color, ink, symX, symY, s)
			picture.DrawGlyphs(dst, "#", sz.num, ink, cx, cy)
			return
		}
		// Placed: an inner frame in the ink, the number, "#" in the corner.
		body(face, face, 0)
		in := max(1.5, w/16)
		p.RoundRect(in, in, w-in, h-in, max(1, rad-in))
		p.Paint(ink)
		p.RoundRect(in+1.3, in+1.3, w-in-1.3, h-in-1.3, max(1, rad-in-1))
		p.Paint(face)
		symbol(p, c.Color, ink, symX+in/2, symY+in/2, s)
		picture.DrawGlyphs(dst, "#", sz.mark, ink, float64(w-symX-in/2), float64(symY+in/2))
		number(val, ink)
	case dix.KindBlackWild:
		if at == dix.NoColor {
			body(picture.Edge, picture.Ink, max(1, w/24))
			anyColour(p, symX, symY, s)
		} else {
			body(faceColor(at), picture.Ink, max(2, w/12))
			symbol(p, at, faceColor(at), symX+1, symY+1, s)
		}
		number(c.Value, picture.White)
	case dix.KindSuperWild:
		if at == dix.NoColor {
			body(picture.Edge, picture.Paper, max(1, w/24))
			anyColour(p, symX, symY, s)
			star(p, float32(cx), float32(cy), w*0.36)
			p.Paint(picture.Ink)
			return
		}
		body(faceColor(at), picture.Paper, max(2, w/12))
		symbol(p, at, faceColor(at), symX+1, symY+1, s)
		star(p, w-symX-1, symY+1, s*0.62)
		p.Paint(picture.Ink)
		number(val, picture.Ink)
	case dix.KindCurrency:
		body(picture.Brown, picture.Cream, max(1, w/24))
		p.Circle(symX, symY, s*0.55)
		p.Paint(picture.Brown)
		p.Circle(symX, symY, s*0.55-1.2)
		p.Paint(picture.Gold)
		number(c.Value, picture.Brown)
	}
}

// symbol draws colour c's shape centred on (x, y), about s wide, in ink.
func symbol(p *picture.Pen, c dix.Color, ink color.RGBA, x, y, s float32) {
	h := s / 2
	switch c {
	case dix.Blue:
		p.Circle(x, y, h)
	case dix.Green:
		p.Poly([2]float32{x, y - h*1.05}, [2]float32{x + h*1.1, y + h*0.9}, [2]float32{x - h*1.1, y + h*0.9})
	case dix.Orange:
		p.Poly([2]float32{x - h, y - h}, [2]float32{x + h, y - h}, [2]float32{x + h, y + h}, [2]float32{x - h, y + h})
	case dix.Pink:
		p.Poly([2]float32{x, y - h*1.2}, [2]float32{x + h*0.95, y}, [2]float32{x, y + h*1.2}, [2]float32{x - h*0.95, y})
	}
	p.Paint(ink)
}

// anyColour draws the "any colour" mark: a 2×2 grid of the four colours.
func anyColour(p *picture.Pen, x, y, s float32) {
	h := s / 2
	cells := [4][2]float32{{x - h, y - h}, {x, y - h}, {x - h, y}, {x, y}}
	for i, col := range dix.Colors {
		p.Poly(cells[i], [2]float32{cells[i][0] + h, cells[i][1]}, [2]float32{cells[i][0] + h, cells[i][1] + h}, [2]float32{cells[i][0], cells[i][1] + h})
		p.Paint(faceColor(col))
	}
}

// star adds a five-pointed star of outer radius r centred on (x, y).
func star(p *picture.Pen, x, y, r float32) {
	var pts [][2]float32
	for i := range 10 {
		rr := r
		if i%2 == 1 {
			rr = r * 0.45
		}
		a := float64(i)*math.Pi/5 - math.Pi/2
		pts = append(pts, [2]float32{x + rr*float32(math.Cos(a)), y + rr*float32(math.Sin(a))})
	}
	p.Poly(pts...)
}

// Tokens.

type tokenKind uint8

const (
	tokMoney tokenKind = iota + 1
	tokConsolation
)

type tokenKey struct {
	kind tokenKind
	n    int
	d    int
	bg   color.RGBA
}

// tokenTile is a token of kind k, d pixels wide, carrying the count n: a gold
// coin for money tokens, a lilac hexagon for consolation tokens.
func tokenTile(k tokenKind, n, d int, bg color.RGBA) *picture.Tile {
	return picture.Cached(tokenKey{k, n, d, bg}, func() *picture.Tile {
		dst := image.NewRGBA(image.Rect(0, 0, d, d))
		p := picture.NewPen(dst)
		r := float32(d) / 2
		f := picture.FontKey{Bold: true, Size: d * 13 / 20}
		if n >= 10 {
			f.Size = d * 11 / 20
		}
		switch k {
		case tokMoney:
			p.Circle(r, r, r)
			p.Paint(picture.Brown)
			p.Circle(r, r, r-1.5)
			p.Paint(picture.Gold)
			picture.DrawGlyphs(dst, strconv.Itoa(n), f, picture.Brown, float64(r), float64(r))
		case tokConsolation:
			hex := func(rr float32) {
				var pts [][2]float32
				for i := range 6 {
					a := float64(i)*math.Pi/3 + math.Pi/6
					pts = append(pts, [2]float32{r + rr*float32(math.Cos(a)), r + rr*float32(math.Sin(a))})
				}
				p.Poly(pts...)
			}
			hex(r)
			p.Paint(picture.Ink)
			hex(r - 1.5)
			p.Paint(picture.Lilac)
			picture.DrawGlyphs(dst, strconv.Itoa(n), f, picture.Ink, float64(r), float64(r))
		}
		return picture.Quantise(dst, bg)
	})
}

type markKey bool

// markTile is the marker before a name: a gold arrow for the player who must
// decide, a white star for the player whose turn it is.
func markTile(acting bool, bg color.RGBA) *picture.Tile {
	return picture.Drawn(markKey(acting), 18, 20, bg, false, func(p *picture.Pen) {
		if acting {
			p.Arrow()
		} else {
			star(p, 9, 10.5, 9)
			p.Paint(picture.White)
		}
	})
}

type countKey struct {
	n  int
	sz cardSize
	bg color.RGBA
}

// countRadius is the radius of the count disc on a card of size sz.
func countRadius(sz cardSize) int { return max(7, sz.w/4) }

// countTile is the count of copies of a number card: a white number in a
// dark disc ringed in white, 2·countRadius(sz)+2 pixels wide, drawn over
// the top-right corner of the front copy (see drawRow).
func countTile(n int, sz cardSize, bg color.RGBA) *picture.Tile {
	return picture.Cached(countKey{n, sz, bg}, func() *picture.Tile {
		r := countRadius(sz)
		d := 2*r + 2
		dst := image.NewRGBA(image.Rect(0, 0, d, d))
		p := picture.NewPen(dst)
		c := float32(d) / 2
		p.Circle(c, c, float32(r))
		p.Paint(picture.White)
		p.Circle(c, c, float32(r)-1.3)
		p.Paint(picture.Ink)
		f := picture.FontKey{Bold: true, Size: r * 3 / 2}
		if n >= 10 {
			f.Size = r * 6 / 5
		}
		picture.DrawGlyphs(dst, strconv.Itoa(n), f, picture.White, float64(c), float64(c))
		return picture.Quantise(dst, bg)
	})
}
