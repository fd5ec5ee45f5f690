package qwixx

import (
	"errors"
	"fmt"

	"github.com/dixgame/dixbot/engine"
)

// Name is Qwixx's prefix in custom ids, commands and locale keys.
const Name = "qwixx"

// Rules is Qwixx as an engine.Game. It is safe for concurrent use.
type Rules struct{}

var _ engine.Game = Rules{}

// Name returns "qwixx".
func (Rules) Name() string { return Name }

// New starts a game of setup: Players 2–5, or 1 with the option
// OptSolitaire "1". It returns an error wrapping engine.ErrBadOptions
// (and ErrBadOptions).
func (Rules) New(s engine.Setup) (engine.State, error) {
	o := Options{Players: s.Players, Seed: s.Seed, First: s.First}
	for k, v := range s.Options {
		switch {
		case k == OptSolitaire && v == "1":
			o.Solitaire = true
		case k == OptSolitaire && v == "0":
		default:
			return nil, fmt.Errorf("%w: %w: %s=%q", engine.ErrBadOptions, ErrBadOptions, k, v)
		}
	}
	g, err := New(o)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", engine.ErrBadOptions, err)
	}
	return State{g}, nil
}

// Decode reads what State.Encode wrote. It returns an error wrapping
// engine.ErrSchemaTooNew or engine.ErrCorrupt (and the package's own); it
// never panics.
func (Rules) Decode(data []byte) (engine.State, error) {
	g, err := decode(data)
	if err != nil {
		sentinel := engine.ErrCorrupt
		if errors.Is(err, ErrSchemaTooNew) {
			sentinel = engine.ErrSchemaTooNew
		}
		return nil, fmt.Errorf("%w: %w", sentinel, err)
	}
	return State{g}, nil
}

// State is a Game seen through engine.State; its moves are Action's
// notation ("w r7", "c -"). A State is not safe for concurrent use.
type State struct{ g *Game }

var _ engine.State = State{}

// StateOf returns g seen through the contract; both share g.
func StateOf(g *Game) State { return State{g} }

// Game returns the game behind s (shared, not a copy).
func (s State) Game() *Game { return s.g }

// Encode returns Game.AppendBinary's bytes.
func (s State) Encode() []byte { return s.g.AppendBinary(nil) }

// Seq returns Game.Seq.
func (s State) Seq() uint64 { return s.g.Seq }

// ToDecide returns Game.ToDecide: several seats in action 1, the active
// seat in action 2.
func (s State) ToDecide() []int { return s.g.ToDecide() }

// Forced returns seat's pass when it may mark nothing: the table takes it
// without asking (a seat with no legal mark is never asked).
func (s State) Forced(seat int) (engine.Move, bool) {
	a, ok := s.g.ForcedAction(seat)
	if !ok {
		return "", false
	}
	return a.Move(), true
}

// Apply parses m and applies it with Game.Apply; the events are Event
// values. Errors as ParseMove and Game.Apply.
func (s State) Apply(seat int, m engine.Move) ([]engine.Event, error) {
	if s.g.Over() {
		return nil, fmt.Errorf("%w: %w", engine.ErrGameOver, ErrGameOver)
	}
	a, err := ParseMove(m)
	if err != nil {
		return nil, err
	}
	evs, err := s.g.Apply(seat, a)
	if err != nil {
		return nil, err
	}
	out := make([]engine.Event, len(evs))
	for i, e := range evs {
		out[i] = e
	}
	return out, nil
}

// View returns Game.View(seat), a View.
func (s State) View(seat int) any { return s.g.View(seat) }

// Over reports whether the game has ended.
func (s State) Over() bool { return s.g.Over() }

// Results returns Game.Results as the contract's.
func (s State) Results() []engine.Result {
	res := s.g.Results()
	out := make([]engine.Result, len(res))
	for i, r := range res {
		out[i] = engine.Result{Seat: r.Seat, Rank: r.Rank, Score: r.Score}
	}
	return out
}

// Check returns Game.Check, wrapping engine.ErrInvariant too.
func (s State) Check() error {
	if err := s.g.Check(); err != nil {
		return fmt.Errorf("%w: %w", engine.ErrInvariant, err)
	}
	return nil
}
