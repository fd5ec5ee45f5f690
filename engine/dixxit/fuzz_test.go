package dixxit

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/dixgame/dixbot/engine"
)

// fuzzMove decodes one move from three bytes: seat, kind, argument. Most
// are legal (fingers on any square, timed or not, clues, the X9 moves),
// some garbage.
func fuzzMove(b [3]byte) (int, engine.Move) {
	seat := int(b[0]%8) - 1
	sq := int(b[2]%9) + 1
	switch b[1] % 8 {
	case 0, 1:
		return seat, engine.Move(fmt.Sprintf("f %d", sq))
	case 2:
		return seat, FingerMove(sq, uint64(b[2])*uint64(b[1]>>3))
	case 3:
		return seat, FingerMoveOn(sq, uint64(b[2])*uint64(b[1]>>3), uint64(b[0]>>5))
	case 4:
		return seat, ClueMove(fmt.Sprintf("clue %d", b[2]))
	case 5:
		return seat, []engine.Move{"aloud", "skip", "out", "out"}[b[2]%4]
	case 6:
		return seat, engine.Move([]byte{b[1], b[2], ' ', b[0]})
	}
	return seat, engine.Move(fmt.Sprintf("f %d %d", b[2], b[1]))
}

// checkTransition checks what Check cannot see in one state (§6): the
// cards in front of the players change only as §3.4 says, the game ends
// exactly when §4 says, Seq grows by one.
func checkTransition(before, after *Game, evs []engine.Event) error {
	if after.seq != before.seq+1 {
		return fmt.Errorf("seq %d after %d", after.seq, before.seq)
	}
	delta := make([]int, before.players)
	var found, notFound, took, returned, over bool
	for _, e := range evs {
		ev := e.(Event)
		switch ev.Kind {
		case EvFound:
			found = true
			delta[ev.Seat]++
		case EvTook:
			took = true
			if ev.Seat != before.active {
				return errors.New("someone but the active player took the cards fingered")
			}
			delta[ev.Seat] += len(ev.Cards)
		case EvNotFound:
			notFound = true
		case EvReturned:
			returned = true
			delta[ev.Seat]--
		case EvGameOver:
			over = true
		}
	}
	for s := range before.players {
		if got := len(after.won[s]) - len(before.won[s]); got != delta[s] {
			return fmt.Errorf("seat %d holds %d more cards, the events say %d", s, got, delta[s])
		}
	}
	switch {
	case took && !found:
		return errors.New("cards taken with no find")
	case returned && !notFound:
		return errors.New("a card returned with the target found")
	case notFound && len(before.won[before.active]) > 0 && !returned:
		return errors.New("not found and nothing returned")
	case found && notFound:
		return errors.New("found and not found")
	case over != after.Over():
		return errors.New("the game ended without its event, or the reverse")
	case after.Over() && !found && !notFound && !(before.phase == PhaseClue):
		return errors.New("the game ended outside a turn's end")
	}
	return nil
}

// FuzzApply plays random move sequences, legal and illegal: nothing
// panics, Check holds after every move, every accepted move follows §3.4
// and §4 (checkTransition), a refused move changes nothing, and the bytes
// decode to the same game.
func FuzzApply(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add(bytes.Repeat([]byte{1, 4, 7, 2, 0, 1, 3, 0, 5, 4, 2, 9, 5, 3, 2}, 80))
	f.Add(bytes.Repeat([]byte{3, 4, 1, 1, 2, 200, 2, 2, 100, 3, 3, 3, 4, 1, 7, 5, 5, 8}, 120))
	f.Fuzz(fuzzApply)
}

// fuzzApply is the body of FuzzApply.
func fuzzApply(t *testing.T, data []byte) {
	if len(data) < 2 {
		return
	}
	// A whole game is a few hundred moves; longer inputs only slow the
	// fuzzer down.
	data = data[:min(len(data), 3000)]
	st, err := Rules{}.New(engine.Setup{Players: int(data[0]%4) + MinPlayers, Seed: int64(data[1]), First: -1})
	if err != nil {
		t.Fatal(err)
	}
	g := st.(*Game)
	data = data[2:]
	for len(data) >= 3 {
		var b [3]byte
		copy(b[:], data)
		data = data[3:]
		seat, m := fuzzMove(b)
		if g.phase == PhaseClue && b[1]%8 < 4 && b[0]&0x80 != 0 {
			seat = g.active // let most games reach the guessing
			m = ClueMove("x")
		}
		before := g.Encode()
		prev, err := decode(before)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := g.Apply(seat, m)
		if err != nil {
			if !bytes.Equal(before, g.Encode()) {
				t.Fatalf("refused %q (%v) changed the state", m, err)
			}
			for _, s := range []error{engine.ErrBadMove, engine.ErrNotYourTurn, engine.ErrIllegalMove, engine.ErrGameOver} {
				if errors.Is(err, s) {
					err = nil
				}
			}
			if err != nil {
				t.Fatalf("refusal of %q wraps no contract sentinel: %v", m, err)
			}
			continue
		}
		if err := g.Check(); err != nil {
			t.Fatalf("after seat %d %q: %v", seat, m, err)
		}
		if err := checkTransition(prev, g, evs); err != nil {
			t.Fatalf("after seat %d %q: %v", seat, m, err)
		}
		back, err := decode(g.Encode())
		if err != nil || !bytes.Equal(back.Encode(), g.Encode()) {
			t.Fatalf("decode after %q: %v", m, err)
		}
	}
}

// FuzzDecode feeds any bytes to Decode: it never panics, and what it
// accepts holds the invariants and encodes to the same bytes.
func FuzzDecode(f *testing.F) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		st, _ := Rules{}.New(engine.Setup{Players: n, Seed: int64(n), First: -1})
		f.Add(st.Encode())
		g := st.(*Game)
		_, _ = g.Apply(g.active, "clue un indice")
		_, _ = g.Apply((g.active+1)%n, "f 3 77")
		f.Add(g.Encode())
		// A turn scored, then the next clue.
		for _, s := range g.ToDecide() {
			_, _ = g.Apply(s, "out")
		}
		_, _ = g.Apply(g.active, "aloud")
		f.Add(g.Encode())
		// A fresh game in SchemaVersion 1: nothing after the fingers.
		fresh, _ := Rules{}.New(engine.Setup{Players: n, Seed: int64(n), First: -1})
		v2 := fresh.Encode()
		f.Add(append([]byte{1}, v2[1:len(v2)-1]...))
	}
	f.Add([]byte{})
	f.Add([]byte{1})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := Rules{}.Decode(data)
		if err != nil {
			if !errors.Is(err, engine.ErrCorrupt) && !errors.Is(err, engine.ErrSchemaTooNew) {
				t.Fatalf("error %v wraps neither ErrCorrupt nor ErrSchemaTooNew", err)
			}
			return
		}
		if err := st.Check(); err != nil {
			t.Fatalf("decoded a broken state: %v", err)
		}
		want := data
		if data[0] == 1 {
			// SchemaVersion 1 encodes as 2: no turn scored.
			want = append([]byte{SchemaVersion}, append(slices.Clone(data[1:]), 0)...)
		}
		if !bytes.Equal(st.Encode(), want) {
			t.Fatalf("decoded bytes encode differently")
		}
		_ = st.View(engine.Public)
	})
}
