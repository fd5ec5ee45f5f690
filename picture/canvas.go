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

// tile is a small paletted image; pixels equal to transparent are skipped.
type tile struct {
	w, h int
	pix  []uint8
}

// canvas is a picture being drawn.
type canvas struct {
	img *image.Paletted
}

// pixPool keeps picture buffers between renders (see encode).
var pixPool sync.Pool

func newCanvas(w, h int, bg color.RGBA) *canvas {
	var pix []uint8
	if p, ok := pixPool.Get().(*[]uint8); ok && cap(*p) >= w*h {
		pix = (*p)[:w*h]
	} else {
		pix = make([]uint8, w*h, max(w*h, 600*1000))
	}
	img := &image.Paletted{Pix: pix, Stride: w, Rect: image.Rect(0, 0, w, h), Palette: palette}
	c := &canvas{img: img}
	c.fill(img.Rect, bg)
	return c
}

// fill paints r with colour col (a named colour).
func (c *canvas) fill(r image.Rectangle, col color.RGBA) {
	r = r.Intersect(c.img.Rect)
	if r.Empty() {
		return
	}
	idx := indexOf(col)
	row := c.img.Pix[r.Min.Y*c.img.Stride+r.Min.X : r.Min.Y*c.img.Stride+r.Max.X]
	for i := range row {
		row[i] = idx
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		copy(c.img.Pix[y*c.img.Stride+r.Min.X:], row)
	}
}

// frame paints a border of thickness t just inside r.
func (c *canvas) frame(r image.Rectangle, t int, col color.RGBA) {
	c.fill(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+t), col)
	c.fill(image.Rect(r.Min.X, r.Max.Y-t, r.Max.X, r.Max.Y), col)
	c.fill(image.Rect(r.Min.X, r.Min.Y, r.Min.X+t, r.Max.Y), col)
	c.fill(image.Rect(r.Max.X-t, r.Min.Y, r.Max.X, r.Max.Y), col)
}

// blit copies t with its top-left corner at (x, y), clipped to the canvas.
func (c *canvas) blit(t *tile, x, y int) {
	for ty := range t.h {
		py := y + ty
		if py < 0 || py >= c.img.Rect.Max.Y {
			continue
		}
		src := t.pix[ty*t.w : (ty+1)*t.w]
		dst := c.img.Pix[py*c.img.Stride:]
		for tx, v := range src {
			if px := x + tx; v != transparent && px >= 0 && px < c.img.Stride {
				dst[px] = v
			}
		}
	}
}

// cache holds every tile made so far and the font faces. A font.Face is not
// safe for concurrent use, so all rasterising happens under mu.
var cache = struct {
	sync.Mutex
	tiles map[any]*tile
	faces map[fontKey]font.Face
	texts int           // text tiles in tiles, bounded by maxTextTiles
	runes map[rune]bool // every rune rasterised so far (the tests check the fonts have them)
}{tiles: map[any]*tile{}, faces: map[fontKey]font.Face{}, runes: map[rune]bool{}}

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

// cached returns the tile for key, making it with mk under the cache lock.
func cached(key any, isText bool, mk func() *tile) *tile {
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
	cache.tiles[key] = t
	return t
}

// quantise turns src (drawn over a transparent background) into a tile,
// compositing its partly covered pixels over bg.
func quantise(src *image.RGBA, bg color.RGBA) *tile {
	b := src.Bounds()
	t := &tile{w: b.Dx(), h: b.Dy(), pix: make([]uint8, b.Dx()*b.Dy())}
	memo := map[color.RGBA]uint8{}
	for y := range t.h {
		for x := range t.w {
			o := src.PixOffset(b.Min.X+x, b.Min.Y+y)
			r, g, bl, a := src.Pix[o], src.Pix[o+1], src.Pix[o+2], src.Pix[o+3]
			if a < 8 {
				t.pix[y*t.w+x] = transparent
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
				idx = uint8(palette[:transparent].Index(c))
				memo[c] = idx
			}
			t.pix[y*t.w+x] = idx
		}
	}
	return t
}

// Fonts.

type fontKey struct {
	bold bool
	size int
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
func face(k fontKey) font.Face {
	if f, ok := cache.faces[k]; ok {
		return f
	}
	loadFonts()
	src := fontRegu
	if k.bold {
		src = fontBold
	}
	f, err := opentype.NewFace(src, &opentype.FaceOptions{Size: float64(k.size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(err) // fixed sizes: cannot fail
	}
	cache.faces[k] = f
	return f
}

var (
	fLabel = fontKey{true, 15}
	fName  = fontKey{true, 17}
	fSmall = fontKey{false, 14}
	fBig   = fontKey{true, 22}
)

type textKey struct {
	s      string
	f      fontKey
	fg, bg color.RGBA
}

// text returns a tile of s in font f, colour fg over bg. The tile's height
// is the font's line height; its baseline is at the font's ascent.
func text(s string, f fontKey, fg, bg color.RGBA) *tile {
	return cached(textKey{s, f, fg, bg}, true, func() *tile {
		fc := face(f)
		m := fc.Metrics()
		rasterised(s)
		w := font.MeasureString(fc, s).Ceil()
		h := (m.Ascent + m.Descent).Ceil()
		dst := image.NewRGBA(image.Rect(0, 0, max(w, 1), h))
		d := font.Drawer{Dst: dst, Src: image.NewUniform(fg), Face: fc, Dot: fixed.Point26_6{Y: m.Ascent}}
		d.DrawString(s)
		return quantise(dst, bg)
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

// textWidth is the width of s in font f.
func textWidth(s string, f fontKey) int {
	cache.Lock()
	defer cache.Unlock()
	return font.MeasureString(face(f), s).Ceil()
}

// fit shortens s with an ellipsis until it is at most w wide in font f.
func fit(s string, f fontKey, w int) string {
	if textWidth(s, f) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 1 {
		r = r[:len(r)-1]
		if t := string(r) + "…"; textWidth(t, f) <= w {
			return t
		}
	}
	return "…"
}

// drawGlyphs draws s centred on (cx, cy) (the centre of its ink) into dst;
// the caller holds cache.Mutex.
func drawGlyphs(dst *image.RGBA, s string, f fontKey, col color.RGBA, cx, cy float64) {
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

type pen struct {
	z   *vector.Rasterizer
	dst *image.RGBA
}

func newPen(dst *image.RGBA) *pen {
	b := dst.Bounds()
	z := vector.NewRasterizer(b.Dx(), b.Dy())
	z.DrawOp = draw.Over
	return &pen{z: z, dst: dst}
}

func (p *pen) paint(col color.RGBA) {
	p.z.Draw(p.dst, p.dst.Bounds(), image.NewUniform(col), image.Point{})
	b := p.dst.Bounds()
	p.z.Reset(b.Dx(), b.Dy())
	p.z.DrawOp = draw.Over
}

// roundRect adds a rectangle with corners of radius r.
func (p *pen) roundRect(x0, y0, x1, y1, r float32) {
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

// circle adds a circle.
func (p *pen) circle(cx, cy, r float32) {
	p.roundRect(cx-r, cy-r, cx+r, cy+r, r)
}

// poly adds a closed polygon.
func (p *pen) poly(pts ...[2]float32) {
	p.z.MoveTo(pts[0][0], pts[0][1])
	for _, q := range pts[1:] {
		p.z.LineTo(q[0], q[1])
	}
	p.z.ClosePath()
}
