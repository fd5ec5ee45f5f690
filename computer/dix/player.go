package dix

import (
	"fmt"
	"math/rand/v2"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dix"
)

// Player is the computer player at Level as an engine.Player, for the
// table that knows games only through the contract. It is safe for
// concurrent use.
type Player struct{ Level Level }

var _ engine.Player = Player{}

// Decide returns Decide's action as a move (dix.FormatMove). It returns
// an error wrapping engine.ErrWrongGame for a state that is not a
// dix.State and engine.ErrNotYourTurn when seat has nothing to decide.
func (p Player) Decide(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	return move(s, seat, func(g *dix.Game) dix.Action { return Decide(g, seat, p.Level, r) })
}

// Timeout returns Timeout's action as a move; errors as Decide.
func (Player) Timeout(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	return move(s, seat, func(g *dix.Game) dix.Action { return Timeout(g, seat, r) })
}

func move(s engine.State, seat int, decide func(*dix.Game) dix.Action) (engine.Move, error) {
	st, ok := s.(dix.State)
	if !ok {
		return "", fmt.Errorf("%w: %T", engine.ErrWrongGame, s)
	}
	a := decide(st.Game())
	if a.Kind == dix.ActInvalid {
		return "", fmt.Errorf("%w: seat %d", engine.ErrNotYourTurn, seat)
	}
	return dix.FormatMove(a), nil
}
