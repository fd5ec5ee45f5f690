package qwixx

import (
	"fmt"

	"github.com/dixgame/dixbot/engine"
)

// Apply takes seat's decision a and returns what happened. On error it
// changes nothing; the error wraps one of the contract's sentinels
// (engine.ErrGameOver, ErrNotYourTurn, ErrIllegalMove) and the package's
// own (ErrGameOver, ErrNotYourTurn, ErrDecided, ErrWrongAction,
// ErrWrongSum, ErrRowLocked, ErrDieRemoved, ErrNotRightOf,
// ErrLockNeedsFive).
func (g *Game) Apply(seat int, a Action) ([]Event, error) {
	if err := g.Legal(seat, a); err != nil {
		return nil, err
	}
	g.Seq++
	if a.Kind == ActWhite {
		return g.applyWhite(seat, a), nil
	}
	return g.applyColour(a, nil), nil
}

// Legal returns why seat may not take decision a now, nil when it may.
// The errors are Apply's.
func (g *Game) Legal(seat int, a Action) error {
	illegal := func(err error, format string, args ...any) error {
		return fmt.Errorf("%w: %w: "+format, append([]any{engine.ErrIllegalMove, err}, args...)...)
	}
	switch {
	case g.Phase == PhaseOver:
		return fmt.Errorf("%w: %w", engine.ErrGameOver, ErrGameOver)
	case seat < 0 || seat >= g.Players:
		return fmt.Errorf("%w: %w: no seat %d", engine.ErrNotYourTurn, ErrNotYourTurn, seat)
	case g.Phase == PhaseWhite && g.Choices[seat] != ChoiceNone:
		// Q12: a decision, once made, is final for that action.
		return fmt.Errorf("%w: %w: seat %d", engine.ErrNotYourTurn, ErrDecided, seat)
	case g.Phase == PhaseColour && seat != g.Active:
		// §3: action 2 is the active player's alone.
		return fmt.Errorf("%w: %w: seat %d is not active", engine.ErrNotYourTurn, ErrNotYourTurn, seat)
	case a.Kind != ActWhite && a.Kind != ActColour:
		return fmt.Errorf("%w: %w: no action", engine.ErrBadMove, ErrBadMove)
	case (a.Kind == ActWhite) != (g.Phase == PhaseWhite):
		return illegal(ErrWrongAction, "%s in the %s phase", a, g.Phase)
	}
	if a.Plan.Set {
		if err := g.legalPlan(seat, a); err != nil {
			return err
		}
	}
	switch {
	case a.Pass:
		return nil
	case a.Color > Blue:
		return fmt.Errorf("%w: %w: no row %d", engine.ErrBadMove, ErrBadMove, a.Color)
	}
	// Q4, Q5: Locked holds the locks as they stood before action 1 during
	// action 1, and every lock of action 1 during action 2.
	if g.Locked[a.Color] {
		if a.Kind == ActColour {
			return illegal(ErrDieRemoved, "the %s die", a.Color)
		}
		return illegal(ErrRowLocked, "row %s", a.Color)
	}
	if a.Kind == ActWhite {
		if a.Number != g.Dice.WhiteSum() {
			return illegal(ErrWrongSum, "the white sum is %d, not %d", g.Dice.WhiteSum(), a.Number)
		}
	} else if _, ok := g.colourDie(a.Color, a.Number); !ok {
		return illegal(ErrWrongSum, "no white die and the %s die make %d", a.Color, a.Number)
	}
	// §4, §5, Q1, Q2, Q6: the seat's own sheet as it stands, its action 1
	// mark of this turn included.
	if err := g.Sheets[seat].Check(a.Color, a.Number); err != nil {
		return illegal(err, "%s%d", a.Color, a.Number)
	}
	return nil
}

// legalPlan returns why the active seat may not give action 2 decision
// a.Plan with its action 1 decision a, as things stand: the colour sum
// must come from the dice in play and fit the sheet once a is marked (Q2).
// A row that another seat locks in action 1 may still forbid it later
// (Q5): the plan is then dropped.
func (g *Game) legalPlan(seat int, a Action) error {
	illegal := func(err error, format string, args ...any) error {
		return fmt.Errorf("%w: %w: "+format, append([]any{engine.ErrIllegalMove, err}, args...)...)
	}
	p := a.Plan
	switch {
	case a.Kind != ActWhite || seat != g.Active:
		return illegal(ErrWrongAction, "only the active seat plans action 2 with action 1")
	case p.Pass:
		return nil
	case p.Color > Blue:
		return fmt.Errorf("%w: %w: no row %d", engine.ErrBadMove, ErrBadMove, p.Color)
	case g.Locked[p.Color]:
		return illegal(ErrDieRemoved, "the %s die", p.Color)
	}
	if _, ok := g.colourDie(p.Color, p.Number); !ok {
		return illegal(ErrWrongSum, "no white die and the %s die make %d", p.Color, p.Number)
	}
	sh := g.Sheets[seat]
	if !a.Pass && sh.Check(a.Color, a.Number) == nil {
		sh.Mark(a.Color, a.Number)
	}
	if err := sh.Check(p.Color, p.Number); err != nil {
		return illegal(err, "planned %s%d", p.Color, p.Number)
	}
	return nil
}

// colourDie returns the white die that, with the die of colour c, makes n
// (§3 action 2: one white die and one coloured die still in play).
func (g *Game) colourDie(c Color, n int) (Die, bool) {
	v := int(g.Dice[DieOf(c)])
	if v == 0 {
		return 0, false
	}
	for _, w := range []Die{W1, W2} {
		if int(g.Dice[w])+v == n {
			return w, true
		}
	}
	return 0, false
}

func (g *Game) applyWhite(seat int, a Action) []Event {
	var evs []Event
	if seat == g.Active {
		g.plan = a.Plan
	}
	if a.Pass {
		g.Choices[seat] = ChoicePass
		evs = append(evs, Event{Kind: EvPassed, Seat: seat, Action: 1})
	} else {
		g.Choices[seat] = ChoiceRed + Choice(a.Color)
		lock := g.Sheets[seat].Mark(a.Color, a.Number)
		evs = append(evs, Event{Kind: EvMarked, Seat: seat, Action: 1, Color: a.Color, Number: a.Number, Lock: lock})
	}
	for _, c := range g.Choices {
		if c == ChoiceNone {
			return evs
		}
	}
	return g.endWhite(evs)
}

// endWhite closes action 1 once every seat decided: the rows locked in it
// are locked for everyone and their dice removed (Q4, Q5); then the game
// ends on two locks (Q8: no action 2, no penalty) or action 2 starts.
func (g *Game) endWhite(evs []Event) []Event {
	for _, c := range Colors {
		var by []int
		for s, ch := range g.Choices {
			if col, ok := ch.Marked(); ok && col == c && g.Sheets[s].Rows[c].Locked() {
				by = append(by, s)
			}
		}
		if len(by) > 0 {
			evs = g.lock(c, by, evs)
		}
	}
	plan := g.plan
	g.plan = Plan{}
	if g.LockCount() >= 2 {
		// Q8: no action 2, so no planned one either.
		return g.end(EndLocks, evs)
	}
	g.Phase = PhaseColour
	if plan.Set {
		if g.Legal(g.Active, plan.Action()) != nil {
			// Q5: a row locked in action 1 forbids the plan; the active
			// seat decides action 2 as usual.
			return append(evs, Event{Kind: EvPlanDropped, Seat: g.Active})
		}
		return g.applyColour(plan.Action(), evs)
	}
	return evs
}

// lock locks row c for everyone and removes its die (§5).
func (g *Game) lock(c Color, by []int, evs []Event) []Event {
	g.Locked[c] = true
	g.Dice[DieOf(c)] = 0
	return append(evs,
		Event{Kind: EvLocked, Seat: by[0], Color: c, Seats: by},
		Event{Kind: EvDieRemoved, Seat: g.Active, Color: c})
}

func (g *Game) end(why End, evs []Event) []Event {
	g.Phase = PhaseOver
	g.Ended = why
	return append(evs, Event{Kind: EvGameOver, Seat: -1, End: why})
}

func (g *Game) applyColour(a Action, evs []Event) []Event {
	seat := g.Active
	if a.Pass {
		evs = append(evs, Event{Kind: EvPassed, Seat: seat, Action: 2})
		if _, marked := g.Choices[seat].Marked(); !marked {
			// §3: nothing in action 1 nor in action 2 is a penalty; Q9:
			// the fourth ends the game at the end of the turn.
			g.Sheets[seat].Penalties++
			evs = append(evs, Event{Kind: EvPenalty, Seat: seat, Count: g.Sheets[seat].Penalties})
		}
	} else {
		w, _ := g.colourDie(a.Color, a.Number)
		lock := g.Sheets[seat].Mark(a.Color, a.Number)
		evs = append(evs, Event{Kind: EvMarked, Seat: seat, Action: 2, Color: a.Color, Number: a.Number, Lock: lock, Die: w})
		if lock {
			evs = g.lock(a.Color, []int{seat}, evs)
		}
	}
	switch {
	case g.LockCount() >= 2:
		return g.end(EndLocks, evs)
	case g.Sheets[seat].Penalties >= MaxPenalties:
		return g.end(EndPenalties, evs)
	}
	// The next seat rolls every die still in play (§3); in solitaire the
	// same seat.
	g.Active = (g.Active + 1) % g.Players
	g.Turn++
	g.Phase = PhaseWhite
	for s := range g.Choices {
		g.Choices[s] = ChoiceNone
	}
	g.Dice = g.roll()
	return append(evs, Event{Kind: EvRolled, Seat: g.Active, Dice: g.Dice, Turn: g.Turn})
}

// LegalActions returns every decision open to seat now, passing last (none
// when seat is not deciding): in action 1 the white sum in each row that
// takes it, in action 2 each distinct colour sum (a white die and a
// coloured die in play) that its row takes. The order is fixed: rows
// r y g b, and in action 2 the sum with W1 before the sum with W2. The
// active seat's action 1 decisions with a Plan are not listed: each is
// one of these with one of LegalPlans.
func (g *Game) LegalActions(seat int) []Action {
	return g.AppendLegal(nil, seat)
}

// AppendLegal appends LegalActions(seat) to dst: the allocation-free form
// for search loops.
func (g *Game) AppendLegal(dst []Action, seat int) []Action {
	if !g.Deciding(seat) {
		return dst
	}
	sh := &g.Sheets[seat]
	if g.Phase == PhaseWhite {
		n := g.Dice.WhiteSum()
		for _, c := range Colors {
			if !g.Locked[c] && sh.CanMark(c, n) {
				dst = append(dst, Action{Kind: ActWhite, Color: c, Number: n})
			}
		}
		return append(dst, Action{Kind: ActWhite, Pass: true})
	}
	for _, c := range Colors {
		v := int(g.Dice[DieOf(c)])
		if v == 0 || g.Locked[c] {
			continue
		}
		a, b := int(g.Dice[W1])+v, int(g.Dice[W2])+v
		if sh.CanMark(c, a) {
			dst = append(dst, Action{Kind: ActColour, Color: c, Number: a})
		}
		if b != a && sh.CanMark(c, b) {
			dst = append(dst, Action{Kind: ActColour, Color: c, Number: b})
		}
	}
	return append(dst, Action{Kind: ActColour, Pass: true})
}

// LegalPlans returns the action 2 decisions the active seat may plan with
// its action 1 decision a (see Plan), passing last; none when a is not an
// action 1 decision the active seat may take now.
func (g *Game) LegalPlans(a Action) []Action {
	if a.Kind != ActWhite || g.Legal(g.Active, Action{Kind: ActWhite, Pass: a.Pass, Color: a.Color, Number: a.Number}) != nil {
		return nil
	}
	var out []Action
	for _, c := range Colors {
		v := int(g.Dice[DieOf(c)])
		if v == 0 {
			continue
		}
		for _, w := range []Die{W1, W2} {
			n := int(g.Dice[w]) + v
			if w == W2 && g.Dice[W2] == g.Dice[W1] {
				continue
			}
			a.Plan = Plan{Set: true, Color: c, Number: n}
			if g.legalPlan(g.Active, a) == nil {
				out = append(out, a.Plan.Action())
			}
		}
	}
	return append(out, Action{Kind: ActColour, Pass: true})
}

// ForcedAction returns seat's only decision when it is to mark nothing
// (no number it may mark), ok false otherwise or when seat is not
// deciding.
func (g *Game) ForcedAction(seat int) (Action, bool) {
	if !g.Deciding(seat) {
		return Action{}, false
	}
	var buf [10]Action
	l := g.AppendLegal(buf[:0], seat)
	if len(l) == 1 {
		return l[0], true
	}
	return Action{}, false
}
