package picturetest

import (
	"slices"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time this process has used, user and system: on a
// shared machine a render's CPU cost reads truer than its wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Bench times render b.N times, after one render that warms the tile
// caches as a running bot has them, and reports the median and the 99th
// percentile of one render ("p50-µs", "p99-µs"), the process's CPU time
// per render ("cpu-µs"), and the PNG size ("bytes").
func Bench(b *testing.B, render func() ([]byte, error)) {
	b.Helper()
	if _, err := render(); err != nil {
		b.Fatal(err)
	}
	var times []time.Duration
	size := 0
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		t0 := time.Now()
		png, err := render()
		times = append(times, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		size = len(png)
	}
	cpu := cpuTime() - cpu0
	slices.Sort(times)
	b.ReportMetric(float64(cpu.Microseconds())/float64(len(times)), "cpu-µs")
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(size), "bytes")
}
