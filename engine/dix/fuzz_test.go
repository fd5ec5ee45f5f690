package dix

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// fuzzGame builds a game from the first fuzz bytes: player count, options,
// seed.
func fuzzGame(data []byte) (*Game, []byte) {
	if len(data) < 3 {
		return nil, nil
	}
	opts := Options{
		Players:     int(data[0]%5) + 1,
		Difficulty:  int(data[1]%7) + MinDifficulty,
		BustVariant: data[1]&0x80 != 0,
		Seed:        int64(data[2]),
		FirstPlayer: -1,
	}
	g, err := New(opts)
	if err != nil {
		panic(err)
	}
	return g, data[3:]
}

// fuzzAction decodes one action from data: with the low bit of the first
// byte clear, one of the legal decisions (so that games progress), otherwise
// an arbitrary action, most often illegal.
func fuzzAction(g *Game, data []byte, c *Choices) (Action, []byte) {
	const size = 6
	var b [size]byte
	copy(b[:], data)
	rest := data[min(len(data), size):]
	if b[0]&1 == 0 {
		seat := g.ToAct()
		g.ChoicesInto(seat, c)
		if len(c.Actions) > 0 {
			r := rand.New(rand.NewPCG(uint64(b[1])<<8|uint64(b[2]), uint64(b[3])))
			return RandomPolicy(g, seat, c, r), rest
		}
	}
	a := Action{
		Kind:   ActionKind(b[1] % 14),
		Player: int(b[2]%8) - 1,
		Amount: int(int8(b[3])),
		Card:   cardAt(int(b[4]) % numCardIndex),
	}
	if b[4] >= 250 {
		a.Card = Card{Kind: Kind(b[4] % 7), Color: Color(b[5] % 6), Value: b[5] % 11}
	}
	a.Payment.Money = int(int8(b[5])) % 12
	a.Payment.Consolation = int(b[5]>>4) % 4
	for i := 0; i < int(b[0]>>5); i++ {
		a.Payment.Cards = append(a.Payment.Cards, cardAt((int(b[3])+7*i)%numCardIndex))
	}
	return a, rest
}

// FuzzApply plays random action sequences, legal and illegal: nothing
// panics, Check holds after every action, every accepted action follows the
// rules (checkAction), and a rejected action leaves the
// serialised state unchanged.
func FuzzApply(f *testing.F) {
	f.Add([]byte{1, 2, 3, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1})
	f.Add(bytes.Repeat([]byte{4, 0, 9, 8, 7, 6}, 60))
	f.Add(bytes.Repeat([]byte{0, 0x80, 5, 2, 1}, 200))
	f.Add(bytes.Repeat([]byte{0, 3, 4, 1, 3, 2, 9, 8}, 300))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, data := fuzzGame(data)
		if g == nil {
			return
		}
		var c Choices
		for len(data) > 0 && g.Phase != PhaseOver {
			var a Action
			a, data = fuzzAction(g, data, &c)
			before, err := g.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			seq := g.Seq
			prev := g.Clone()
			evs, err := g.Apply(a)
			if err != nil {
				after, _ := g.MarshalBinary()
				if !bytes.Equal(before, after) {
					t.Fatalf("rejected %+v changed the state: %v", a, err)
				}
				if !errors.Is(err, ErrUnknownAction) && !errors.Is(err, ErrUnknownPlayer) &&
					!errors.Is(err, ErrNotYourTurn) && !errors.Is(err, ErrWrongPhase) &&
					!errors.Is(err, ErrMustDraw) && !errors.Is(err, ErrDeckEmpty) &&
					!errors.Is(err, ErrBidTooLow) && !errors.Is(err, ErrBidTooHigh) &&
					!errors.Is(err, ErrNotInMarket) && !errors.Is(err, ErrIdenticalCard) &&
					!errors.Is(err, ErrPaymentShort) && !errors.Is(err, ErrNotOwned) &&
					!errors.Is(err, ErrWildPayment) && !errors.Is(err, ErrSoloPayment) &&
					!errors.Is(err, ErrSuperfluousPayment) &&
					!errors.Is(err, ErrGameOver) {
					t.Fatalf("untyped error %v for %+v", err, a)
				}
				continue
			}
			if g.Seq != seq+1 {
				t.Fatalf("seq %d after %d", g.Seq, seq)
			}
			if err := g.Check(); err != nil {
				t.Fatalf("after %+v: %v", a, err)
			}
			// The rules of rules_test.go hold for every accepted action.
			if err := checkAction(prev, a, evs, g); err != nil {
				t.Fatalf("after %s: %v", FormatAction(a), err)
			}
		}
		b, _ := g.MarshalBinary()
		var back Game
		if err := back.UnmarshalBinary(b); err != nil {
			t.Fatalf("round trip: %v", err)
		}
		_ = g.Results()
	})
}

// FuzzUnmarshal feeds arbitrary bytes to UnmarshalBinary: it never panics,
// fails only with ErrCorrupt or ErrSchemaTooNew, and what it accepts passes
// Check and serialises back to the same bytes.
func FuzzUnmarshal(f *testing.F) {
	for players := 1; players <= 5; players++ {
		g, _ := New(Options{Players: players, Difficulty: 5, Seed: 1, FirstPlayer: -1})
		b, _ := g.MarshalBinary()
		f.Add(b)
		_, _ = Play(g, []Policy{SimplePolicy}, rand.New(rand.NewPCG(1, 1)), false)
		b, _ = g.MarshalBinary()
		f.Add(b)
	}
	g, _ := NewWithDeck(Options{Players: 3}, []Card{{Kind: KindSuperWild}, {Kind: KindNumber, Color: Blue, Value: 1}})
	_, _ = g.Apply(Action{Kind: ActDraw})
	b, _ := g.MarshalBinary()
	f.Add(b)
	f.Add([]byte{})
	f.Add([]byte{2})
	f.Fuzz(func(t *testing.T, data []byte) {
		var g Game
		err := g.UnmarshalBinary(data)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrSchemaTooNew) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if err := g.Check(); err != nil {
			t.Fatalf("accepted a state failing Check: %v", err)
		}
		b, _ := g.MarshalBinary()
		if !bytes.Equal(b, data) {
			t.Fatalf("not canonical:\n%x\n%x", data, b)
		}
		// The state is usable.
		var c Choices
		seat := g.ToAct()
		g.ChoicesInto(seat, &c)
		if len(c.Actions) > 0 {
			a := RandomPolicy(&g, seat, &c, rand.New(rand.NewPCG(1, 2)))
			if _, err := g.Apply(a); err != nil {
				t.Fatalf("legal action %+v rejected: %v", a, err)
			}
			if err := g.Check(); err != nil {
				t.Fatal(err)
			}
		}
	})
}
