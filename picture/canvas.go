package picture

import (
	"image"
	"image/color"
	"image/draw"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// This file holds the drawing machinery: a paletted canvas, tiles (small
// pre-rasterised, pre-quantised images) and the caches that keep them.
//
// Everything with curves or text (cards, tokens, strings) is rasterised
// once with x/image into RGBA, quantised to the palette and kept as a tile;
// a picture is then only rectangle fills and tile copies, which is what
// makes a render cost well under a millisecond before encoding.

// Tile is a small paletted image; pixels equal to Transparent are skipped.
type Tile struct {
	W, H int
	Pix  []uint8

	// spans are the runs of pixels to copy, row by row (Transparent
	// left out), for the tiles of the cache (see Cached), whose pixels
	// never change; nil for others.
	spans []span
}

// span is the pixels x0 to x1 (excluded) of row y of a tile.
type span struct{ y, x0, x1 int32 }

// opaqueSpans lists t's runs of pixels other than Transparent.
func opaqueSpans(t *Tile) []span {
	out := []span{}
	for y := range t.H {
		row := t.Pix[y*t.W : (y+1)*t.W]
		for x := 0; x < len(row); {
			if row[x] == Transparent {
				x++
				continue
			}
			x0 := x
			for x < len(row) && row[x] != Transparent {
				x++
			}
			out = append(out, span{int32(y), int32(x0), int32(x)})
		}
	}
	return out
}

// Canvas is a picture being drawn.
type Canvas struct {
	Img *image.Paletted
	// kept are the columns [from, to) of the band's cells that are kept
	// (Band.Cells): what is drawn there is not used.
	kept [][2]int
}

// Needs reports whether what is drawn in r is used: false only when r
// lies within one cell of the band that is kept, not drawn again. A
// drawing may skip what is not needed.
func (c *Canvas) Needs(r image.Rectangle) bool {
	for _, k := range c.kept {
		if r.Min.X >= k[0] && r.Max.X <= k[1] {
			return false
		}
	}
	return true
}

// pixPool keeps picture buffers between renders (see encode).
var pixPool sync.Pool

// NewCanvas is a w×h picture over Palette filled with bg (a named colour),
// its pixels taken from the buffers Encode gives back.
func NewCanvas(w, h int, bg color.RGBA) *Canvas { return newCanvas(w, h, bg, Palette) }

// NewWideCanvas is NewCanvas over WidePalette: Qwixx's colours are
// allowed in Fill, and tiles of QuantiseWide.
func NewWideCanvas(w, h int, bg color.RGBA) *Canvas { return newCanvas(w, h, bg, WidePalette) }

func newCanvas(w, h int, bg color.RGBA, pal color.Palette) *Canvas {
	var pix []uint8
	if p, ok := pixPool.Get().(*[]uint8); ok && cap(*p) >= w*h {
		pix = (*p)[:w*h]
	} else {
		pix = make([]uint8, w*h, max(w*h, 600*1000))
	}
	img := &image.Paletted{Pix: pix, Stride: w, Rect: image.Rect(0, 0, w, h), Palette: pal}
	c := &Canvas{Img: img}
	c.Fill(img.Rect, bg)
	return c
}

// Fill paints r with colour col (a named colour).
func (c *Canvas) Fill(r image.Rectangle, col color.RGBA) {
	c.FillIndex(r, IndexOf(col))
}

// FillIndex paints r with the palette entry idx.
//
// A canvas covers the picture's columns from 0 and the rows of its
// Img.Rect, which start at 0 for a whole picture and further down for one
// of its bands (EncodeBands): what is drawn outside them is left out.
func (c *Canvas) FillIndex(r image.Rectangle, idx uint8) {
	r = r.Intersect(c.Img.Rect)
	if r.Empty() {
		return
	}
	y0 := c.Img.Rect.Min.Y
	at := (r.Min.Y-y0)*c.Img.Stride + r.Min.X
	row := c.Img.Pix[at : at+r.Dx()]
	for i := range row {
		row[i] = idx
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		copy(c.Img.Pix[(y-y0)*c.Img.Stride+r.Min.X:], row)
	}
}

// Frame paints a border of thickness t just inside r.
func (c *Canvas) Frame(r image.Rectangle, t int, col color.RGBA) {
	c.Fill(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+t), col)
	c.Fill(image.Rect(r.Min.X, r.Max.Y-t, r.Max.X, r.Max.Y), col)
	c.Fill(image.Rect(r.Min.X, r.Min.Y, r.Min.X+t, r.Max.Y), col)
	c.Fill(image.Rect(r.Max.X-t, r.Min.Y, r.Max.X, r.Max.Y), col)
}

// Row blits tiles left to right from x, each centred vertically in the
// band of height h below y, gap pixels apart; it returns the x after the
// last one.
func (c *Canvas) Row(x, y, h, gap int, tiles ...*Tile) int {
	for i, t := range tiles {
		if i > 0 {
			x += gap
		}
		c.Blit(t, x, y+(h-t.H)/2)
		x += t.W
	}
	return x
}

// Blit copies t with its top-left corner at (x, y), clipped to the canvas.
func (c *Canvas) Blit(t *Tile, x, y int) {
	y0, y1 := c.Img.Rect.Min.Y, c.Img.Rect.Max.Y
	if y+t.H <= y0 || y >= y1 {
		return // another band's
	}
	if t.spans != nil && x >= 0 && y >= y0 && x+t.W <= c.Img.Stride && y+t.H <= y1 {
		// Within the canvas: a copy per run.
		pix, stride := c.Img.Pix, c.Img.Stride
		for _, s := range t.spans {
			row := int(s.y) * t.W
			at := (y-y0+int(s.y))*stride + x
			copy(pix[at+int(s.x0):at+int(s.x1)], t.Pix[row+int(s.x0):row+int(s.x1)])
		}
		return
	}
	for ty := range t.H {
		py := y + ty
		if py < y0 || py >= y1 {
			continue
		}
		src := t.Pix[ty*t.W : (ty+1)*t.W]
		dst := c.Img.Pix[(py-y0)*c.Img.Stride:]
		for tx, v := range src {
			if px := x + tx; v != Transparent && px >= 0 && px < c.Img.Stride {
				dst[px] = v
			}
		}
	}
}

// cache holds every tile made so far and the font faces. A font.Face is not
// safe for concurrent use, so all rasterising happens under mu.
var cache = struct {
	sync.Mutex
	tiles map[any]*Tile
	faces map[FontKey]font.Face
	texts int           // text tiles in tiles, bounded by maxTextTiles
	runes map[rune]bool // every rune rasterised so far (the tests check the fonts have them)
}{tiles: map[any]*Tile{}, faces: map[FontKey]font.Face{}, runes: map[rune]bool{}}

// DropTiles empties the tile cache, as a process starts with it: for the
// benchmarks of a first ("cold") render. Faces and the runes noted stay.
func DropTiles() {
	cache.Lock()
	defer cache.Unlock()
	cache.tiles, cache.texts = map[any]*Tile{}, 0
}

// DrawnRunes returns the runes drawn so far by Text (a new map), so the
// tests of the drawings can check that the fonts have every one of them.
func DrawnRunes() map[rune]bool {
	cache.Lock()
	defer cache.Unlock()
	m := make(map[rune]bool, len(cache.runes))
	for r := range cache.runes {
		m[r] = true
	}
	return m
}

// HasGlyph reports whether both embedded fonts draw r (a rune without a
// glyph shows as an empty box).
func HasGlyph(r rune) bool {
	cache.Lock()
	defer cache.Unlock()
	loadFonts()
	return hasGlyph(r)
}

// rasterised notes the runes of s as drawn; the caller holds cache.Mutex.
// Names pass through Drawable first, so the set stays within the fonts'
// few hundred glyphs.
func rasterised(s string) {
	for _, r := range s {
		cache.runes[r] = true
	}
}

// maxTextTiles bounds the text tiles kept (names come and go with games).
const maxTextTiles = 4096

// Cached returns the tile for key, making it with mk under the cache lock
// the first time; the tile is kept for good. Keys of different types never
// meet, so each drawing package keys its tiles with types of its own. mk may
// call DrawGlyphs.
func Cached(key any, mk func() *Tile) *Tile { return cached(key, false, mk) }

// cached is Cached; isText marks a text tile, of which at most maxTextTiles
// are kept (names come and go with games).
func cached(key any, isText bool, mk func() *Tile) *Tile {
	cache.Lock()
	defer cache.Unlock()
	if t, ok := cache.tiles[key]; ok {
		return t
	}
	if isText {
		if cache.texts >= maxTextTiles {
			for k := range cache.tiles {
				if _, ok := k.(textKey); ok {
					delete(cache.tiles, k)
				}
			}
			cache.texts = 0
		}
		cache.texts++
	}
	t := mk()
	if t.spans == nil { // nil: not a tile of the cache already
		t.spans = opaqueSpans(t)
	}
	cache.tiles[key] = t
	return t
}

// Quantise turns src (drawn over a transparent background) into a tile,
// compositing its partly covered pixels over bg, with the colours of
// Palette.
func Quantise(src *image.RGBA, bg color.RGBA) *Tile { return quantise(src, bg, Palette[:Transparent]) }

// QuantiseWide is Quantise with the colours of WidePalette, for the
// pictures of NewWideCanvas.
func QuantiseWide(src *image.RGBA, bg color.RGBA) *Tile {
	return quantise(src, bg, WidePalette[:Transparent])
}

func quantise(src *image.RGBA, bg color.RGBA, pal color.Palette) *Tile {
	b := src.Bounds()
	t := &Tile{W: b.Dx(), H: b.Dy(), Pix: make([]uint8, b.Dx()*b.Dy())}
	memo := map[color.RGBA]uint8{}
	for y := range t.H {
		for x := range t.W {
			o := src.PixOffset(b.Min.X+x, b.Min.Y+y)
			r, g, bl, a := src.Pix[o], src.Pix[o+1], src.Pix[o+2], src.Pix[o+3]
			if a < 8 {
				t.Pix[y*t.W+x] = Transparent
				continue
			}
			// Premultiplied over an opaque background.
			k := 255 - uint32(a)
			c := color.RGBA{
				uint8(uint32(r) + k*uint32(bg.R)/255),
				uint8(uint32(g) + k*uint32(bg.G)/255),
				uint8(uint32(bl) + k*uint32(bg.B)/255), 255}
			idx, ok := memo[c]
			if !ok {
				idx = uint8(pal.Index(c))
				memo[c] = idx
			}
			t.Pix[y*t.W+x] = idx
		}
	}
	return t
}

// Fonts.

// FontKey names one of the embedded fonts (Go Bold or Go Regular) at a size
// in pixels.
type FontKey struct {
	Bold bool
	Size int
}

var (
	fontOnce           sync.Once
	fontBold, fontRegu *opentype.Font
)

// loadFonts parses the embedded fonts once.
func loadFonts() {
	fontOnce.Do(func() {
		var err error
		if fontBold, err = opentype.Parse(gobold.TTF); err != nil {
			panic(err) // embedded font: cannot fail
		}
		if fontRegu, err = opentype.Parse(goregular.TTF); err != nil {
			panic(err)
		}
	})
}

// face returns the face for k; the caller holds cache.Mutex.
func face(k FontKey) font.Face {
	if f, ok := cache.faces[k]; ok {
		return f
	}
	loadFonts()
	src := fontRegu
	if k.Bold {
		src = fontBold
	}
	f, err := opentype.NewFace(src, &opentype.FaceOptions{Size: float64(k.Size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(err) // fixed sizes: cannot fail
	}
	cache.faces[k] = f
	return f
}

type textKey struct {
	s      string
	f      FontKey
	fg, bg color.RGBA
}

// Text returns a tile of s in font f, colour fg over bg. The tile's height
// is the font's line height; its baseline is at the font's ascent.
func Text(s string, f FontKey, fg, bg color.RGBA) *Tile {
	return cached(textKey{s, f, fg, bg}, true, func() *Tile {
		fc := face(f)
		m := fc.Metrics()
		rasterised(s)
		w := font.MeasureString(fc, s).Ceil()
		h := (m.Ascent + m.Descent).Ceil()
		dst := image.NewRGBA(image.Rect(0, 0, max(w, 1), h))
		d := font.Drawer{Dst: dst, Src: image.NewUniform(fg), Face: fc, Dot: fixed.Point26_6{Y: m.Ascent}}
		d.DrawString(s)
		return Quantise(dst, bg)
	})
}

// Drawable is s without the runes the embedded fonts have no glyph for
// (emoji, most scripts beyond Latin, Greek and Cyrillic), which would be
// drawn as empty boxes, and without the spaces this leaves at its ends.
// Safe for concurrent use.
func Drawable(s string) string {
	cache.Lock()
	defer cache.Unlock()
	loadFonts()
	ok := true
	for _, r := range s {
		if !hasGlyph(r) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if hasGlyph(r) {
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// hasGlyph reports whether both embedded fonts draw r; the caller holds
// cache.Mutex and has loaded the fonts.
func hasGlyph(r rune) bool {
	for _, f := range []*opentype.Font{fontRegu, fontBold} {
		if i, err := f.GlyphIndex(&glyphBuf, r); err != nil || i == 0 {
			return false
		}
	}
	return true
}

// glyphBuf is the sfnt buffer of hasGlyph, used under cache.Mutex.
var glyphBuf sfnt.Buffer

// TextWidth is the width of s in font f.
func TextWidth(s string, f FontKey) int {
	cache.Lock()
	defer cache.Unlock()
	return font.MeasureString(face(f), s).Ceil()
}

// Fit shortens s with an ellipsis until it is at most w wide in font f.
func Fit(s string, f FontKey, w int) string {
	if TextWidth(s, f) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 1 {
		r = r[:len(r)-1]
		if t := string(r) + "…"; TextWidth(t, f) <= w {
			return t
		}
	}
	return "…"
}

// DrawGlyphs draws s centred on (cx, cy) (the centre of its ink) into dst;
// it is called only from the maker of a Cached tile, which holds the cache
// lock the fonts need.
func DrawGlyphs(dst *image.RGBA, s string, f FontKey, col color.RGBA, cx, cy float64) {
	fc := face(f)
	rasterised(s)
	b, _ := font.BoundString(fc, s)
	bw := float64(b.Max.X-b.Min.X) / 64
	bh := float64(b.Max.Y-b.Min.Y) / 64
	x := cx - bw/2 - float64(b.Min.X)/64
	y := cy - bh/2 - float64(b.Min.Y)/64
	d := font.Drawer{Dst: dst, Src: image.NewUniform(col), Face: fc,
		Dot: fixed.Point26_6{X: fixed.Int26_6(x*64 + 0.5), Y: fixed.Int26_6(y*64 + 0.5)}}
	d.DrawString(s)
}

// Vector shapes, drawn over dst with x/image/vector.

// Pen fills vector shapes into one RGBA image: add shapes, then Paint.
type Pen struct {
	z   *vector.Rasterizer
	dst *image.RGBA
}

// NewPen is a pen drawing into dst.
func NewPen(dst *image.RGBA) *Pen {
	b := dst.Bounds()
	z := vector.NewRasterizer(b.Dx(), b.Dy())
	z.DrawOp = draw.Over
	return &Pen{z: z, dst: dst}
}

// Paint fills the shapes added so far with col and starts afresh.
func (p *Pen) Paint(col color.RGBA) {
	p.z.Draw(p.dst, p.dst.Bounds(), image.NewUniform(col), image.Point{})
	b := p.dst.Bounds()
	p.z.Reset(b.Dx(), b.Dy())
	p.z.DrawOp = draw.Over
}

// RoundRect adds a rectangle with corners of radius r.
func (p *Pen) RoundRect(x0, y0, x1, y1, r float32) {
	const k = 0.5523 // cubic approximation of a quarter circle
	z := p.z
	z.MoveTo(x0+r, y0)
	z.LineTo(x1-r, y0)
	z.CubeTo(x1-r+r*k, y0, x1, y0+r-r*k, x1, y0+r)
	z.LineTo(x1, y1-r)
	z.CubeTo(x1, y1-r+r*k, x1-r+r*k, y1, x1-r, y1)
	z.LineTo(x0+r, y1)
	z.CubeTo(x0+r-r*k, y1, x0, y1-r+r*k, x0, y1-r)
	z.LineTo(x0, y0+r)
	z.CubeTo(x0, y0+r-r*k, x0+r-r*k, y0, x0+r, y0)
	z.ClosePath()
}

// Circle adds a circle.
func (p *Pen) Circle(cx, cy, r float32) {
	p.RoundRect(cx-r, cy-r, cx+r, cy+r, r)
}

// Poly adds a closed polygon.
func (p *Pen) Poly(pts ...[2]float32) {
	p.z.MoveTo(pts[0][0], pts[0][1])
	for _, q := range pts[1:] {
		p.z.LineTo(q[0], q[1])
	}
	p.z.ClosePath()
}
