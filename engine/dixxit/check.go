package dixxit

import (
	"errors"
	"fmt"

	"github.com/dixgame/dixbot/engine"
)

// Check verifies the invariants of §6 that hold in every state and returns
// the first violation, wrapping engine.ErrInvariant and ErrInvariant: every
// card in exactly one place with one face (X1), the set-aside count (§2),
// a full grid while the game goes on and one that cannot be refilled once
// it is over (X5), at most one finger per square and per guesser, none on
// the target (a finger there scores the turn) and none by the active
// player, fingers in time order (X7), the phase's own fields.
func (g *Game) Check() error {
	if err := g.check(); err != nil {
		return fmt.Errorf("%w: %w: %w", engine.ErrInvariant, ErrInvariant, err)
	}
	return nil
}

func (g *Game) check() error {
	if g.players < MinPlayers || g.players > MaxPlayers || len(g.won) != g.players {
		return fmt.Errorf("%d players, %d holdings", g.players, len(g.won))
	}
	if g.active < 0 || g.active >= g.players || g.first < 0 || g.first >= g.players {
		return fmt.Errorf("active seat %d, first %d", g.active, g.first)
	}
	if g.target < 0 || g.target >= Squares {
		return fmt.Errorf("target %d", g.target)
	}
	if g.phase > PhaseOver {
		return fmt.Errorf("phase %d", g.phase)
	}
	// Every card in exactly one place (§6).
	var seen [Cards]bool
	place := func(where string, cs ...Card) error {
		for _, c := range cs {
			if !c.Valid() {
				return fmt.Errorf("%s holds the bad card %d", where, uint8(c))
			}
			if seen[c.Number()] {
				return fmt.Errorf("card %d is in two places (again in %s)", c.Number(), where)
			}
			seen[c.Number()] = true
		}
		return nil
	}
	empty := 0
	for _, c := range g.grid {
		if c == noCard {
			empty++
		} else if err := place("the grid", c); err != nil {
			return err
		}
	}
	errs := []error{place("the pile", g.pile...), place("the set-aside cards", g.aside...), place("the discard", g.discard...)}
	for s, w := range g.won {
		errs = append(errs, place(fmt.Sprintf("the cards of seat %d", s), w...))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for n := range Cards {
		if !seen[n] {
			return fmt.Errorf("card %d is nowhere", n)
		}
	}
	if len(g.aside) != asideCount(g.players) {
		return fmt.Errorf("%d cards set aside with %d players", len(g.aside), g.players)
	}
	// The end (§4, X5).
	switch {
	case g.phase != PhaseOver && empty > 0:
		return fmt.Errorf("%d empty squares in phase %v", empty, g.phase)
	case g.phase == PhaseOver && empty <= len(g.pile):
		return fmt.Errorf("over with %d empty squares and %d cards to draw", empty, len(g.pile))
	}
	if g.out>>g.players != 0 || g.out&(1<<g.active) != 0 {
		return fmt.Errorf("out seats %b", g.out)
	}
	if g.phase != PhaseGuess {
		if len(g.fingers) > 0 || g.out != 0 || g.clue != "" || g.aloud {
			return fmt.Errorf("fingers, out seats or a clue in phase %v", g.phase)
		}
		return nil
	}
	if (g.clue == "") == !g.aloud {
		return fmt.Errorf("guessing with clue %q, aloud %v", g.clue, g.aloud)
	}
	var squares, seats [16]bool
	for i, f := range g.fingers {
		switch {
		case f.square < 0 || f.square >= Squares || f.seat < 0 || f.seat >= g.players:
			return fmt.Errorf("finger %+v", f)
		case squares[f.square]:
			return fmt.Errorf("two fingers on square %d", f.square+1)
		case seats[f.seat]:
			return fmt.Errorf("two fingers of seat %d", f.seat)
		case f.seat == g.active:
			return fmt.Errorf("the active player's finger")
		case f.square == g.target:
			return fmt.Errorf("a finger on the target of a turn still open")
		case g.out&(1<<f.seat) != 0:
			return fmt.Errorf("a finger of seat %d, out of the turn", f.seat)
		case i > 0 && g.fingers[i-1].at > f.at:
			return fmt.Errorf("fingers out of time order")
		}
		squares[f.square], seats[f.seat] = true, true
	}
	if len(g.ToDecide()) == 0 {
		return errors.New("guessing with no guesser left to decide")
	}
	return nil
}
