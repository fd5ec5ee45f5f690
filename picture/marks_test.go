package picture

import (
	"image"
	"image/color"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// paint draws with draw on a transparent w×h image.
func paint(w, h int, draw func(p *Pen)) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw(NewPen(dst))
	return dst
}

// TestMarks checks the marks' colours where each shape lies: the arrow's
// gold inside it and nothing behind its tip, the robot's grey head and ink
// eyes, the moon's lilac crescent around a hollow of the background, and
// the rank disc gold for rank 1, grey after, with its number in ink.
func TestMarks(t *testing.T) {
	clear := color.RGBA{}
	a := paint(18, 20, func(p *Pen) { p.Arrow() })
	assert.Equal(t, Gold, a.RGBAAt(6, 10))
	assert.Equal(t, clear, a.RGBAAt(16, 2))

	r := paint(20, 20, func(p *Pen) { p.Robot() })
	assert.Equal(t, Muted, r.RGBAAt(10, 8), "head")
	assert.Equal(t, Ink, r.RGBAAt(7, 11), "left eye")
	assert.Equal(t, Ink, r.RGBAAt(13, 11), "right eye")
	assert.Equal(t, clear, r.RGBAAt(4, 3), "beside the antenna")

	m := paint(20, 20, func(p *Pen) { p.Moon(Panel) })
	assert.Equal(t, Lilac, m.RGBAAt(5, 14), "crescent")
	assert.Equal(t, Panel, m.RGBAAt(14, 7), "hollow")

	for rank, ring := range map[int]color.RGBA{1: Gold, 2: Muted, 5: Muted} {
		d := paint(24, 24, func(p *Pen) { p.RankDisc(rank) })
		assert.Equal(t, ring, d.RGBAAt(12, 3), "rank %d", rank)
		inked := false
		for y := 6; y < 18; y++ {
			for x := 6; x < 18; x++ {
				inked = inked || d.RGBAAt(x, y) == Ink
			}
		}
		assert.True(t, inked, "rank %d: its number in ink", rank)
	}
}

// testKey is a key of a test's run: runs of a test in one process
// (-count) keep nothing for each other.
type testKey struct {
	run int64
	n   int
}

// runs counts the runs of the tests that keep parts under keys.
var runs atomic.Int64

// TestDrawn checks that a drawn tile is cached under its key, size,
// background and palette, and quantised to the palette asked for.
func TestDrawn(t *testing.T) {
	run := runs.Add(1)
	testKey := func(n int) testKey { return testKey{run, n} }
	calls := 0
	draw := func(p *Pen) { calls++; p.RankDisc(1) }
	a := Drawn(testKey(1), 24, 24, Panel, false, draw)
	assert.Same(t, a, Drawn(testKey(1), 24, 24, Panel, false, draw), "cached")
	assert.Equal(t, 1, calls)
	assert.NotSame(t, a, Drawn(testKey(2), 24, 24, Panel, false, draw), "another key")
	assert.NotSame(t, a, Drawn(testKey(1), 24, 24, Table, false, draw), "another background")
	w := Drawn(testKey(1), 24, 24, Panel, true, draw)
	assert.NotSame(t, a, w, "the wide palette")
	assert.Equal(t, 4, calls)
	assert.Equal(t, [2]int{24, 24}, [2]int{a.W, a.H})

	want := paint(24, 24, func(p *Pen) { p.RankDisc(1) })
	assert.Equal(t, QuantiseWide(want, Panel).Pix, w.Pix)
	assert.Equal(t, Quantise(want, Panel).Pix, a.Pix)
}
