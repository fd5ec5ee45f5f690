package qwixx_test

import (
	"math/rand/v2"
	"testing"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/qwixx"
)

// benchGames returns positions of 4-player games at every stage, to spread
// the measures over early and late sheets.
func benchGames(b *testing.B) []*qwixx.Game {
	b.Helper()
	r := rand.New(rand.NewPCG(9, 9))
	var out []*qwixx.Game
	for seed := range int64(16) {
		g, err := qwixx.New(qwixx.Options{Players: 4, Seed: seed, First: 0})
		if err != nil {
			b.Fatal(err)
		}
		for !g.Over() {
			out = append(out, g.Clone())
			seats := g.ToDecide()
			seat := seats[r.IntN(len(seats))]
			l := g.LegalActions(seat)
			if _, err := g.Apply(seat, l[r.IntN(len(l))]); err != nil {
				b.Fatal(err)
			}
		}
	}
	return out
}

// BenchmarkApply is one decision applied (on a reused copy of a position):
// the typed transition, checks included.
func BenchmarkApply(b *testing.B) {
	games := benchGames(b)
	acts := make([]qwixx.Action, len(games))
	seats := make([]int, len(games))
	for i, g := range games {
		seats[i] = g.ToDecide()[0]
		l := g.LegalActions(seats[i])
		acts[i] = l[0]
	}
	var work qwixx.Game
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		k := i % len(games)
		games[k].CloneInto(&work)
		if _, err := work.Apply(seats[k], acts[k]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyContract is one decision through the contract: parse the
// text move, apply, encode the state (what the table does per click,
// without the store).
func BenchmarkApplyContract(b *testing.B) {
	games := benchGames(b)
	data := make([][]byte, len(games))
	moves := make([]string, len(games))
	seats := make([]int, len(games))
	for i, g := range games {
		data[i] = g.AppendBinary(nil)
		seats[i] = g.ToDecide()[0]
		moves[i] = g.LegalActions(seats[i])[0].String()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		k := i % len(games)
		st, err := qwixx.Rules{}.Decode(data[k])
		if err != nil {
			b.Fatal(err)
		}
		if _, err := st.Apply(seats[k], engine.Move(moves[k])); err != nil {
			b.Fatal(err)
		}
		_ = st.Encode()
	}
}

// BenchmarkLegalActions is one seat's legal decisions, into a reused
// buffer.
func BenchmarkLegalActions(b *testing.B) {
	games := benchGames(b)
	buf := make([]qwixx.Action, 0, 16)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		g := games[i%len(games)]
		buf = g.AppendLegal(buf[:0], g.Active)
	}
}

// BenchmarkClone is one CloneInto of a 4-player game.
func BenchmarkClone(b *testing.B) {
	games := benchGames(b)
	var work qwixx.Game
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		games[i%len(games)].CloneInto(&work)
	}
}
