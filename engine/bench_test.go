package engine

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkGame4p plays complete 4-player games between the simple and the
// random policy, without Check, and scores them (what `dixsim sim` does).
func BenchmarkGame4p(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	pol := []Policy{SimplePolicy, RandomPolicy}
	actions := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		g, err := New(Options{Players: 4, Seed: int64(i), FirstPlayer: -1})
		if err != nil {
			b.Fatal(err)
		}
		n, err := Play(g, pol, r, false)
		if err != nil {
			b.Fatal(err)
		}
		actions += n
		if len(g.Results()) != 4 {
			b.Fatal("no results")
		}
	}
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
}
