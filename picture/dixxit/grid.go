package dixxit

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sync"
	"sync/atomic"

	xdraw "golang.org/x/image/draw"

	"github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/picture"
)

// Faces returns the PNG of one face of a card (card 0–70, face 0 or 1),
// nil when there is none; deck.Face of picture/dixxit/deck.
type Faces func(card, face int) []byte

// Square is what one square of the grid shows.
type Square struct {
	Card  string // deck id (c017a); "" for an empty square
	Name  string // the guesser whose finger is on it; "" for none
	Found bool   // that finger found the target
}

// Grid is one drawing of the grid.
type Grid struct {
	Squares [dixxit.Squares]Square
	Target  int // 1–9: the square framed as the target (the active player's own view); 0: none
}

// GridOf returns the grid of view v, naming each finger by names[seat]
// (a missing name draws as "?"). Only the active player's view carries the
// target (View.Secret), so GridOf of any other view frames none (X11).
func GridOf(v dixxit.View, names []string) Grid {
	var g Grid
	for sq := range g.Squares {
		g.Squares[sq].Card = v.Grid[sq]
	}
	for _, f := range v.Fingers {
		if f.Square < 1 || f.Square > dixxit.Squares {
			continue
		}
		name := "?"
		if f.Seat >= 0 && f.Seat < len(names) {
			name = names[f.Seat]
		}
		g.Squares[f.Square-1].Name = name
	}
	if v.Secret != nil {
		g.Target = v.Secret.Target
	}
	return g
}

// Layout, in pixels.
const (
	Side   = 224 // a picture's square
	margin = 14
	gap    = 10
	// Width and Height of every grid picture.
	Width  = 2*margin + 3*Side + 2*gap
	Height = Width
	band   = 34 // the name band at the bottom of a fingered square
)

// Renderer draws grids with the pictures of one deck, keeping each
// picture's tile. It is safe for concurrent use.
type Renderer struct {
	id    uint64 // names its pictures in the kept parts' keys
	faces Faces
	mu    sync.Mutex
	tiles map[tileKey]*picture.Tile
}

// tileKey names one picture at one size.
type tileKey struct {
	c    dixxit.Card
	side int
}

// renderers counts the renderers made, which name themselves by it.
var renderers atomic.Uint64

// NewRenderer returns a renderer of the pictures faces gives.
func NewRenderer(faces Faces) *Renderer {
	return &Renderer{id: renderers.Add(1), faces: faces, tiles: map[tileKey]*picture.Tile{}}
}

// tile returns the picture of card id scaled to side×side pixels and
// quantised, made once; a card with no picture (or one that does not
// decode) is a blank tile with its deck id; nil for no card.
func (r *Renderer) tile(id string, side int) *picture.Tile {
	c, err := dixxit.ParseCard(id)
	if err != nil {
		return nil
	}
	key := tileKey{c, side}
	r.mu.Lock()
	t, ok := r.tiles[key]
	r.mu.Unlock()
	if ok {
		return t
	}
	var src image.Image
	if r.faces != nil {
		if b := r.faces(c.Number(), c.Face()); b != nil {
			src, _ = png.Decode(bytes.NewReader(b))
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, side, side))
	xdraw.Draw(dst, dst.Bounds(), image.NewUniform(cardBack), image.Point{}, xdraw.Src)
	if src != nil {
		xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), xdraw.Over, nil)
	}
	t = quantise(dst)
	if src == nil {
		label := text(id, picture.FontKey{Bold: true, Size: max(side/10, 9)}, ink, cardBack)
		blit(t, label, (side-label.W)/2, (side-label.H)/2)
	}
	r.mu.Lock()
	r.tiles[key] = t
	r.mu.Unlock()
	return t
}

// Render draws g as a PNG of Width×Height pixels. Its error comes from
// the PNG encoder only.
//
// The grid is drawn by its rows of three squares (picture.EncodeBands):
// a row drawn for an earlier grid of this renderer with the same squares
// is not drawn again.
func (r *Renderer) Render(g Grid) ([]byte, error) {
	p, err := r.bands(g)
	if err != nil {
		return nil, err
	}
	return picture.EncodeBands(p)
}

// bands are g's picture by its rows, each square of a row a cell.
func (r *Renderer) bands(g Grid) (picture.Bands, error) {
	bands := make([]picture.Band, 0, 3)
	for row := range 3 {
		part := rowPart{Kind: "dixxit row", Renderer: r.id, Row: row}
		for i := range 3 {
			sq := 3*row + i
			s := g.Squares[sq]
			part.Squares[i] = s
			if s.Name != "" {
				part.Names[i] = picture.Fit(picture.Drawable(s.Name), nameFont, Side-16)
			}
			part.Target[i] = sq+1 == g.Target
		}
		k, err := picture.KeyOf(part)
		if err != nil {
			return picture.Bands{}, err
		}
		h := Side + gap
		switch row {
		case 0:
			h += margin
		case 2:
			h = Side + margin
		}
		band := picture.Band{H: h, Key: k, Draw: func(c *picture.Canvas) error {
			r.drawRow(c, &part)
			return nil
		}}
		// Each square a cell: a finger changes one of the row's three.
		for i, w := range cellWidths {
			k, err := picture.KeyOf(squarePart{Kind: "dixxit square", Renderer: r.id, Square: 3*row + i,
				Shows: part.Squares[i], Name: part.Names[i], Target: part.Target[i]})
			if err != nil {
				return picture.Bands{}, err
			}
			band.Cells = append(band.Cells, picture.Cell{W: w, Key: k})
		}
		bands = append(bands, band)
	}
	return picture.Bands{W: Width, Palette: palette, BG: index(table), List: bands, Codes: codes}, nil
}

// cellWidths are the widths of a row's cells, one square each, cut in
// the middle of the gaps between them.
var cellWidths = [3]int{margin + Side + gap/2, Side + gap, Width - (margin + Side + gap/2) - (Side + gap)}

// squarePart is what a square shows, in its column of its row: the input
// of its cell's key (as rowPart).
type squarePart struct {
	Kind     string
	Renderer uint64
	Square   int // 0..8: its place and its number
	Shows    Square
	Name     string
	Target   bool
}

// rowPart is what a row of the grid shows: the input of its key. The
// target is framed on the active player's own view alone; a key is never
// shown.
type rowPart struct {
	Kind     string
	Renderer uint64 // its deck's pictures
	Row      int
	Squares  [3]Square
	Names    [3]string // the fingers' names as drawn
	Target   [3]bool
}

// drawRow draws the squares of one row of the grid on c, which covers
// that row's rows of the picture; a square whose cell is kept is not drawn
// (everything of a square is drawn within it).
func (r *Renderer) drawRow(c *picture.Canvas, p *rowPart) {
	img := c.Img
	for i, s := range p.Squares {
		sq := 3*p.Row + i
		x := margin + (sq%3)*(Side+gap)
		y := margin + (sq/3)*(Side+gap)
		cell := image.Rect(x, y, x+Side, y+Side)
		if !c.Needs(cell) {
			continue
		}
		if t := r.tile(s.Card, Side); t != nil {
			copyRows(img, t, x, y)
		} else {
			fill(img, cell, panel)
		}
		if s.Name != "" {
			if !s.Found {
				draw(img, cross(), x, y)
			}
			fill(img, image.Rect(x, y+Side-band, x+Side, y+Side), ink)
			col := white
			if s.Found {
				col = gold
			}
			nt := text(p.Names[i], nameFont, col, ink)
			draw(img, nt, x+(Side-nt.W)/2, y+Side-band+(band-nt.H)/2)
		}
		switch {
		case s.Found:
			frame(img, cell, 6, green)
		case p.Target[i]:
			frame(img, cell, 7, gold)
		}
		draw(img, badge(sq+1, p.Target[i]), x+6, y+6)
	}
}

// Drawing on a paletted image of the package's palette.

func fill(img *image.Paletted, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Rect)
	if r.Empty() {
		return
	}
	idx := index(c)
	y0 := img.Rect.Min.Y // a band's first row (picture.Band)
	first := img.Pix[(r.Min.Y-y0)*img.Stride+r.Min.X : (r.Min.Y-y0)*img.Stride+r.Max.X]
	for i := range first {
		first[i] = idx
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		copy(img.Pix[(y-y0)*img.Stride+r.Min.X:], first)
	}
}

func frame(img *image.Paletted, r image.Rectangle, t int, c color.RGBA) {
	fill(img, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+t), c)
	fill(img, image.Rect(r.Min.X, r.Max.Y-t, r.Max.X, r.Max.Y), c)
	fill(img, image.Rect(r.Min.X, r.Min.Y, r.Min.X+t, r.Max.Y), c)
	fill(img, image.Rect(r.Max.X-t, r.Min.Y, r.Max.X, r.Max.Y), c)
}

// draw copies t at (x, y), skipping transparent pixels, clipped.
func draw(img *image.Paletted, t *picture.Tile, x, y int) {
	for ty := range t.H {
		py := y + ty
		if py < img.Rect.Min.Y || py >= img.Rect.Max.Y {
			continue
		}
		src := t.Pix[ty*t.W : (ty+1)*t.W]
		dst := img.Pix[(py-img.Rect.Min.Y)*img.Stride:]
		for tx, v := range src {
			if px := x + tx; v != picture.Transparent && px >= 0 && px < img.Stride {
				dst[px] = v
			}
		}
	}
}

// copyRows copies t, an opaque tile, at (x, y), clipped to img's rows.
func copyRows(img *image.Paletted, t *picture.Tile, x, y int) {
	for ty := range t.H {
		if py := y + ty; py >= img.Rect.Min.Y && py < img.Rect.Max.Y {
			copy(img.Pix[(py-img.Rect.Min.Y)*img.Stride+x:], t.Pix[ty*t.W:(ty+1)*t.W])
		}
	}
}

// blit copies src into dst at (x, y), both tiles.
func blit(dst, src *picture.Tile, x, y int) {
	for ty := range src.H {
		for tx := range src.W {
			v := src.Pix[ty*src.W+tx]
			px, py := x+tx, y+ty
			if v != picture.Transparent && px >= 0 && px < dst.W && py >= 0 && py < dst.H {
				dst.Pix[py*dst.W+px] = v
			}
		}
	}
}

// Tiles made once: numbers, the cross, names.

var nameFont = picture.FontKey{Bold: true, Size: 18}

type badgeKey struct {
	n      int
	target bool
}

// badge is the number of a square in a disc (gold on the target).
func badge(n int, target bool) *picture.Tile {
	return picture.Cached(badgeKey{n, target}, func() *picture.Tile {
		const d = 34
		dst := image.NewRGBA(image.Rect(0, 0, d, d))
		p := picture.NewPen(dst)
		bg, fg := ink, white
		if target {
			bg, fg = gold, ink
		}
		p.Circle(d/2, d/2, d/2-1)
		p.Paint(white)
		p.Circle(d/2, d/2, d/2-3)
		p.Paint(bg)
		picture.DrawGlyphs(dst, fmt.Sprint(n), picture.FontKey{Bold: true, Size: 21}, fg, d/2, d/2)
		return quantise(dst)
	})
}

type crossKey struct{}

// cross is the red cross over a square a wrong finger is on (X8).
func cross() *picture.Tile {
	return picture.Cached(crossKey{}, func() *picture.Tile {
		dst := image.NewRGBA(image.Rect(0, 0, Side, Side-band))
		p := picture.NewPen(dst)
		const w, in = 7, 28
		s := float32(Side - band)
		p.Poly([2]float32{in, in + w}, [2]float32{in + w, in}, [2]float32{s - in, s - in - w}, [2]float32{s - in - w, s - in})
		p.Poly([2]float32{s - in - w, in}, [2]float32{s - in, in + w}, [2]float32{in + w, s - in}, [2]float32{in, s - in - w})
		p.Paint(red)
		return quantise(dst)
	})
}

// text is s in font f, fg over bg (named colours of the raster core),
// its pixels moved to the package's palette.
func text(s string, f picture.FontKey, fg, bg color.RGBA) *picture.Tile {
	t := picture.Text(s, f, fg, bg)
	out := &picture.Tile{W: t.W, H: t.H, Pix: make([]uint8, len(t.Pix))}
	for i, v := range t.Pix {
		out.Pix[i] = fromCore[v]
	}
	return out
}
