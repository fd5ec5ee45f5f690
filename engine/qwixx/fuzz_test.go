package qwixx

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/dixgame/dixbot/engine"
)

// fuzzGame builds a game from the first fuzz bytes: player count (1 is
// solitaire), first seat, seed.
func fuzzGame(data []byte) (*Game, []byte) {
	if len(data) < 3 {
		return nil, nil
	}
	players := int(data[0]%5) + 1
	g, err := New(Options{Players: players, Solitaire: players == 1, First: int(data[1])%(players+1) - 1, Seed: int64(data[2])})
	if err != nil {
		panic(err)
	}
	return g, data[3:]
}

// fuzzMove decodes one decision from data: with the low bit of the first
// byte clear, one of the legal decisions of a deciding seat (so that games
// progress), otherwise an arbitrary decision by an arbitrary seat, most
// often illegal.
func fuzzMove(g *Game, data []byte) (int, Action, []byte) {
	var b [4]byte
	copy(b[:], data)
	rest := data[min(len(data), len(b)):]
	if b[0]&1 == 0 {
		seats := g.ToDecide()
		if len(seats) > 0 {
			seat := seats[int(b[1])%len(seats)]
			l := g.LegalActions(seat)
			a := l[int(b[2])%len(l)]
			if seat == g.Active && a.Kind == ActWhite && b[3]&3 == 0 {
				plans := g.LegalPlans(a)
				p := plans[int(b[3]>>2)%len(plans)]
				a.Plan = Plan{Set: true, Pass: p.Pass, Color: p.Color, Number: p.Number}
			}
			return seat, a, rest
		}
	}
	a := Action{Kind: ActionKind(b[1] % 4), Pass: b[1]&4 != 0, Color: Color(b[2] % 5), Number: int(b[3] % 15)}
	if b[1]&8 != 0 {
		a.Plan = Plan{Set: true, Pass: b[1]&16 != 0, Color: Color(b[2] / 5 % 5), Number: int(b[3]/15) % 15}
	}
	return int(b[0]>>1)%7 - 1, a, rest
}

// FuzzApply plays random decision sequences, legal and illegal: nothing
// panics, a refused decision changes no byte and wraps a contract
// sentinel, and every accepted one keeps the invariants of a state (Check)
// and of a move (CheckStep). The bytes decode back to the same game.
func FuzzApply(f *testing.F) {
	f.Add([]byte{1, 2, 3, 0, 0, 0, 0, 1, 1, 1, 1})
	f.Add(bytes.Repeat([]byte{4, 0, 9, 8, 7, 6}, 60))
	f.Add(bytes.Repeat([]byte{0, 0x80, 5, 2, 1}, 200))
	f.Add(bytes.Repeat([]byte{0, 3, 4, 1, 3, 2, 9, 8}, 300))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, data := fuzzGame(data)
		if g == nil {
			return
		}
		for len(data) > 0 && !g.Over() {
			var seat int
			var a Action
			seat, a, data = fuzzMove(g, data)
			before := g.AppendBinary(nil)
			prev := g.Clone()
			_, err := g.Apply(seat, a)
			if err != nil {
				if !bytes.Equal(before, g.AppendBinary(nil)) {
					t.Fatalf("refused %d %s changed the state: %v", seat, a, err)
				}
				if !errors.Is(err, engine.ErrBadMove) && !errors.Is(err, engine.ErrNotYourTurn) &&
					!errors.Is(err, engine.ErrIllegalMove) && !errors.Is(err, engine.ErrGameOver) {
					t.Fatalf("untyped error %v for %d %s", err, seat, a)
				}
				continue
			}
			if err := CheckStep(prev, g, seat, a); err != nil {
				t.Fatal(err)
			}
		}
		b := g.AppendBinary(nil)
		back, err := Decode(b)
		if err != nil {
			t.Fatalf("round trip: %v", err)
		}
		if !bytes.Equal(back.AppendBinary(nil), b) {
			t.Fatal("round trip changed the bytes")
		}
		_ = g.Results()
	})
}

// FuzzDecode feeds arbitrary bytes to Decode: it never panics, fails only
// with ErrCorrupt or ErrSchemaTooNew, and what it accepts passes Check,
// serialises back to the same bytes and plays on.
func FuzzDecode(f *testing.F) {
	for players := 1; players <= 5; players++ {
		g, _ := New(Options{Players: players, Solitaire: players == 1, Seed: 1, First: -1})
		f.Add(g.AppendBinary(nil))
		r := rand.New(rand.NewPCG(1, uint64(players)))
		for i := 0; !g.Over(); i++ {
			seats := g.ToDecide()
			seat := seats[r.IntN(len(seats))]
			l := g.LegalActions(seat)
			if _, err := g.Apply(seat, l[r.IntN(len(l))]); err != nil {
				f.Fatal(err)
			}
			if i%25 == 0 {
				f.Add(g.AppendBinary(nil))
			}
		}
		f.Add(g.AppendBinary(nil))
	}
	f.Add([]byte{})
	f.Add([]byte{1})
	g, _ := New(Options{Players: 3, Seed: 1, First: 0})
	f.Add(g.appendVersion(nil, 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Decode(data)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrSchemaTooNew) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if err := g.Check(); err != nil {
			t.Fatalf("accepted a state failing Check: %v", err)
		}
		if v, _ := engine.SchemaOf(data); v == SchemaVersion && !bytes.Equal(g.AppendBinary(nil), data) {
			t.Fatalf("not canonical")
		} else if !bytes.Equal(g.appendVersion(nil, v), data) {
			t.Fatalf("not canonical for schema %d", v)
		}
		if seats := g.ToDecide(); len(seats) > 0 {
			prev := g.Clone()
			l := g.LegalActions(seats[0])
			if _, err := g.Apply(seats[0], l[0]); err != nil {
				t.Fatalf("legal %s refused: %v", l[0], err)
			}
			if err := CheckStep(prev, g, seats[0], l[0]); err != nil {
				t.Fatal(err)
			}
		}
	})
}
