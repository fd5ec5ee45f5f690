package dix

import (
	"slices"
	"testing"
	"time"

	"github.com/dixgame/dixbot/engine/dix"
)

// benchRender times render b.N times and reports the median and the 99th
// percentile of one render, and the PNG size.
func benchRender(b *testing.B, render func() ([]byte, error)) {
	b.Helper()
	if _, err := render(); err != nil { // warm the tile caches, as a running bot has
		b.Fatal(err)
	}
	var times []time.Duration
	size := 0
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		png, err := render()
		times = append(times, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		size = len(png)
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(size), "bytes")
}

// BenchmarkBoardLate5p renders the late 5-player board of board_5p.png.
func BenchmarkBoardLate5p(b *testing.B) {
	g := playUntil(b, 5, 3, lateAuction(15))
	in := board(g, names5)
	benchRender(b, func() ([]byte, error) { return RenderBoard(in) })
}

func BenchmarkHand(b *testing.B) {
	c, _ := dix.ParseCards(everyWild)
	in := Hand{Name: "Chloé", Collection: c, Money: 7, Consolation: 2, Labels: enLabels}
	benchRender(b, func() ([]byte, error) { return RenderHand(in) })
}

func BenchmarkScoreboard5p(b *testing.B) {
	g := playUntil(b, 5, 4, func(*dix.Game) bool { return false })
	in := Scoreboard{View: g.View(), Names: names5}
	benchRender(b, func() ([]byte, error) { return RenderScoreboard(in) })
}
