package enginetest

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/dixgame/dixbot/engine"
)

// Refusal is a move a state must refuse: Seat sends Move, and the error
// wraps every error of Want (the contract's sentinel and the game's own).
type Refusal struct {
	Name string
	Seat int
	Move engine.Move
	Want []error
}

// Check sends the move to st and returns the first broken promise: the
// move is accepted, its error does not wrap one of Want, or st's bytes or
// Seq change.
func (r Refusal) Check(st engine.State) error {
	before, seq := st.Encode(), st.Seq()
	_, err := st.Apply(r.Seat, r.Move)
	if err == nil {
		return fmt.Errorf("seat %d sends %q: accepted, want a refusal", r.Seat, r.Move)
	}
	for _, w := range r.Want {
		if !errors.Is(err, w) {
			return fmt.Errorf("seat %d sends %q: %v, want %v", r.Seat, r.Move, err, w)
		}
	}
	if !bytes.Equal(st.Encode(), before) || st.Seq() != seq {
		return fmt.Errorf("seat %d sends %q: refused, but the state changed", r.Seat, r.Move)
	}
	return nil
}

// Refuses checks every refusal on st, each as a subtest named after it.
func Refuses(t *testing.T, st engine.State, refusals []Refusal) {
	t.Helper()
	for _, r := range refusals {
		t.Run(r.Name, func(t *testing.T) {
			if err := r.Check(st); err != nil {
				t.Error(err)
			}
		})
	}
}

// Refused reports whether err is one of the contract's refusals: it wraps
// ErrBadMove, ErrNotYourTurn, ErrIllegalMove or ErrGameOver.
func Refused(err error) bool {
	return errors.Is(err, engine.ErrBadMove) || errors.Is(err, engine.ErrNotYourTurn) ||
		errors.Is(err, engine.ErrIllegalMove) || errors.Is(err, engine.ErrGameOver)
}
