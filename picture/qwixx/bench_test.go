package qwixx

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkBoard5p renders the 5-player board of board_5p.png and reports
// the median and 99th percentile of one render and the PNG size.
func BenchmarkBoard5p(b *testing.B) {
	g := playUntil(b, 5, 1, lateWithALock)
	in := Board{View: g.View(-1), Names: names5, Marks: []Mark{MarkNone, MarkComputer}}
	if _, err := RenderBoard(in); err != nil { // warm the tile caches, as a running bot has
		b.Fatal(err)
	}
	var times []time.Duration
	size := 0
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		png, err := RenderBoard(in)
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
