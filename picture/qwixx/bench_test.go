package qwixx

import (
	"testing"

	"github.com/dixgame/dixbot/picture/picturetest"
)

// BenchmarkBoard5p renders the 5-player board of board_5p.png and reports
// the median and 99th percentile of one render and the PNG size.
func BenchmarkBoard5p(b *testing.B) {
	g := playUntil(b, 5, 1, lateWithALock)
	in := Board{View: g.View(-1), Names: names5, Marks: []Mark{MarkNone, MarkComputer}}
	picturetest.Bench(b, func() ([]byte, error) { return RenderBoard(in) })
}
