package qwixx_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	computer "github.com/dixgame/dixbot/computer/qwixx"
	"github.com/dixgame/dixbot/engine/qwixx"
)

// BenchmarkDecide times one decision of each level over random positions
// of 2–5 sheets, and reports the slowest single decision seen, by the wall
// clock and by the thread's CPU clock (Linux).
func BenchmarkDecide(b *testing.B) {
	r := rand.New(rand.NewPCG(8, 9))
	var games []*qwixx.Game
	for i := range 256 {
		games = append(games, randomPosition(b, r, 2+i%4, int64(i)))
	}
	for _, l := range computer.Levels {
		b.Run(l.String(), func(b *testing.B) {
			timeDecisions(b, len(games), func(i int) error {
				g := games[i]
				_, err := computer.Decide(g, g.ToDecide()[0], l, r)
				return err
			})
		})
	}
}

// timeDecisions runs decide in the benchmark's loop on positions 0, 1, …,
// n−1 in turn, and reports the slowest run, by the wall clock and by the
// thread's CPU clock (Linux). When every position ran at least twice it
// also reports "slowest-least-cpu-µs": the most, over the positions, of the
// least CPU time a position took. A run slowed by the machine (another
// process, the hypervisor) raises the slowest run, but not a position's
// least time. It returns each position's least CPU time (nil when the
// thread's clock cannot be read or a position ran once).
func timeDecisions(b *testing.B, n int, decide func(i int) error) []time.Duration {
	runtime.LockOSThread() // the thread's CPU clock measures this goroutine alone
	defer runtime.UnlockOSThread()
	var slowest, slowestCPU time.Duration
	least := make([]time.Duration, n)
	cpuOK := true
	runs := 0
	for b.Loop() {
		i := runs % n
		c0, ok0 := threadCPU()
		t0 := time.Now()
		if err := decide(i); err != nil {
			b.Fatal(err)
		}
		slowest = max(slowest, time.Since(t0))
		c1, ok1 := threadCPU()
		cpuOK = cpuOK && ok0 && ok1
		if d := c1 - c0; runs < n || d < least[i] {
			least[i] = d
		}
		slowestCPU = max(slowestCPU, c1-c0)
		runs++
	}
	b.ReportMetric(float64(slowest.Microseconds()), "slowest-µs")
	if !cpuOK {
		return nil
	}
	b.ReportMetric(float64(slowestCPU.Microseconds()), "slowest-cpu-µs")
	if runs < 2*n {
		return nil
	}
	b.ReportMetric(float64(slices.Max(least).Microseconds()), "slowest-least-cpu-µs")
	return least
}

// BenchmarkEndDecision times the strong level's decisions once the end is
// near (where it plays for the win), on 400 positions of games of 2–5
// seats (one strong seat, the others normal), and reports the slowest, by
// the wall clock and by the thread's CPU clock (Linux).
func BenchmarkEndDecision(b *testing.B) {
	benchStrongPositions(b, computer.EndNear)
}

// BenchmarkGameDecision times the strong level's decisions over whole
// games of 2–5 seats (one strong seat, the others normal): 400 positions,
// from the first roll to the last, as BenchmarkEndDecision.
func BenchmarkGameDecision(b *testing.B) {
	benchStrongPositions(b, func(*qwixx.Game) bool { return true })
}

// benchStrongPositions times the strong level's decisions on 400 positions
// where keep holds, taken from games of 2–5 seats (seat 0 strong, the
// others normal; one game in three).
func benchStrongPositions(b *testing.B, keep func(*qwixx.Game) bool) {
	type pos struct {
		g    *qwixx.Game
		seat int
	}
	var kept []pos
	for seed := int64(1); len(kept) < 400; seed++ {
		g, err := qwixx.New(qwixx.Options{Players: 2 + int(seed%4), Seed: seed, First: -1})
		if err != nil {
			b.Fatal(err)
		}
		for !g.Over() {
			for _, seat := range g.ToDecide() {
				l := computer.Normal
				if seat == 0 {
					l = computer.Strong
					if seed%3 == 0 && keep(g) {
						kept = append(kept, pos{g.Clone(), seat})
					}
				}
				a, err := computer.Decide(g, seat, l, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := g.Apply(seat, a); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	least := timeDecisions(b, len(kept), func(i int) error {
		_, err := computer.Decide(kept[i].g, kept[i].seat, computer.Strong, nil)
		return err
	})
	if least == nil {
		return
	}
	// The slowest position's least time at each table size.
	var bySeats [qwixx.MaxPlayers + 1]time.Duration
	for i, p := range kept {
		n := p.g.Players
		bySeats[n] = max(bySeats[n], least[i])
	}
	for n := 2; n <= qwixx.MaxPlayers; n++ {
		b.ReportMetric(float64(bySeats[n].Microseconds()), fmt.Sprintf("slowest-least-%dp-cpu-µs", n))
	}
}

// BenchmarkDecodeOptimum decodes the shipped solitaire values (optimum.bin),
// what the first solitaire decision or hint of a process does once.
func BenchmarkDecodeOptimum(b *testing.B) {
	data, err := os.ReadFile("optimum.bin")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := computer.DecodeOptimum(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
