package picturetest

import (
	"slices"
	"testing"
	"time"
)

// Bench times render b.N times, after one render that warms the tile
// caches as a running bot has them, and reports the median and the 99th
// percentile of one render ("p50-µs", "p99-µs") and the PNG size
// ("bytes").
func Bench(b *testing.B, render func() ([]byte, error)) {
	b.Helper()
	if _, err := render(); err != nil {
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
