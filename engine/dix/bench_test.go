package dix

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

func midGame(b *testing.B) *Game {
	b.Helper()
	g, err := New(Options{Players: 5, Seed: 3, FirstPlayer: -1})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 3))
	var c Choices
	for len(g.Deck) > DeckSize(5)/2 {
		seat := g.ToAct()
		g.ChoicesInto(seat, &c)
		if _, err := g.Apply(SimplePolicy(g, seat, &c, r)); err != nil {
			b.Fatal(err)
		}
	}
	return g
}

func BenchmarkMarshalBinary(b *testing.B) {
	g := midGame(b)
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		buf = g.AppendBinary(buf[:0])
	}
	b.ReportMetric(float64(len(buf)), "bytes")
}

func BenchmarkUnmarshalBinary(b *testing.B) {
	data, _ := midGame(b).MarshalBinary()
	b.ReportAllocs()
	for b.Loop() {
		var g Game
		if err := g.UnmarshalBinary(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkChoices(b *testing.B) {
	g := midGame(b)
	var c Choices
	b.ReportAllocs()
	for b.Loop() {
		g.ChoicesInto(g.ToAct(), &c)
	}
}
