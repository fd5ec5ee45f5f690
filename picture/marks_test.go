package picture

import (
	"image"
	"image/color"
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
