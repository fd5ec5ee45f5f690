package qwixx

import "fmt"

// Check verifies the invariants of §9 that a single state shows, and
// the consistency of the fields, and returns the first violation (wrapping
// ErrInvariant). CheckStep verifies those of a move.
func (g *Game) Check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrInvariant}, args...)...)
	}
	switch {
	case g.Solitaire && g.Players != 1, !g.Solitaire && (g.Players < MinPlayers || g.Players > MaxPlayers):
		return bad("%d players (solitaire %v)", g.Players, g.Solitaire)
	case len(g.Sheets) != g.Players || len(g.Choices) != g.Players:
		return bad("%d sheets, %d choices for %d players", len(g.Sheets), len(g.Choices), g.Players)
	case g.First < 0 || g.First >= g.Players || (g.firstIn != -1 && g.firstIn != g.First):
		return bad("first seat %d (given %d)", g.First, g.firstIn)
	case g.Turn < 1:
		return bad("turn %d", g.Turn)
	case g.Active != (g.First+g.Turn-1)%g.Players:
		// §3: play goes in seat order, one roll per turn.
		return bad("seat %d active on roll %d from seat %d", g.Active, g.Turn, g.First)
	case g.Phase > PhaseOver || g.Ended > EndPenalties:
		return bad("phase %d, end %d", g.Phase, g.Ended)
	case (g.Phase == PhaseOver) != (g.Ended != EndNone):
		return bad("phase %s with end %q", g.Phase, g.Ended)
	}
	for d := W1; d <= DieBlue; d++ {
		// §5: a locked row's die is never rolled again.
		if v := g.Dice[d]; g.InPlay(d) != (v != 0) || v > 6 {
			return bad("die %d is %d (in play %v)", d, v, g.InPlay(d))
		}
	}
	decided := 0
	for s := range g.Sheets {
		sh, ch := &g.Sheets[s], g.Choices[s]
		if sh.Penalties < 0 || sh.Penalties > MaxPenalties {
			return bad("seat %d has %d penalties", s, sh.Penalties)
		}
		if rolls := penaltyTurns(g, s); sh.Penalties > rolls {
			// Only the active player takes a penalty, at most one a turn.
			return bad("seat %d has %d penalties after %d rolls of its own that could give one", s, sh.Penalties, rolls)
		}
		if ch > ChoiceBlue {
			return bad("seat %d choice %d", s, ch)
		}
		if ch != ChoiceNone {
			decided++
		}
		if c, ok := ch.Marked(); ok && !sh.Rows[c].Has(Pos(c, g.Dice.WhiteSum())) {
			return bad("seat %d marked row %s in action 1 without the white sum %d", s, c, g.Dice.WhiteSum())
		}
		for _, c := range Colors {
			r := sh.Rows[c]
			if r&^rowMask != 0 {
				return bad("seat %d row %s bits %#x", s, c, uint16(r))
			}
			// §5: the lock goes with the last number, after five marks.
			if r.Locked() != r.Has(LastPos) {
				return bad("seat %d row %s: last number %v, lock %v", s, c, r.Has(LastPos), r.Locked())
			}
			if r.Locked() && r.Count() < 7 {
				return bad("seat %d row %s locked with %d marks", s, c, r.Count())
			}
			if r.Locked() && !g.Locked[c] {
				// Q4: a lock of action 1 is pending until every seat decided.
				if col, ok := ch.Marked(); !ok || col != c || g.Phase != PhaseWhite {
					return bad("seat %d locked row %s, not locked for everyone", s, c)
				}
			}
		}
	}
	for _, c := range Colors {
		if !g.Locked[c] {
			continue
		}
		found := false
		for s := range g.Sheets {
			found = found || g.Sheets[s].Rows[c].Locked()
		}
		if !found {
			return bad("row %s locked by nobody", c)
		}
	}
	if p := g.plan; p.Set {
		if g.Phase != PhaseWhite || g.Choices[g.Active] == ChoiceNone {
			return bad("a plan of action 2 in phase %s, the active seat's choice %d", g.Phase, g.Choices[g.Active])
		}
		if !p.Pass && (p.Color > Blue || Pos(p.Color, p.Number) < 0) {
			return bad("plan %s%d", p.Color, p.Number)
		}
	}
	switch g.Phase {
	case PhaseWhite:
		if decided == g.Players {
			return bad("every seat decided and action 1 goes on")
		}
	default:
		if decided != g.Players {
			return bad("%d of %d seats decided in phase %s", decided, g.Players, g.Phase)
		}
	}
	// §6: the game is over exactly when two rows are locked or a player
	// has four penalties.
	maxPen := 0
	for s := range g.Sheets {
		maxPen = max(maxPen, g.Sheets[s].Penalties)
	}
	locks := g.LockCount()
	switch g.Ended {
	case EndNone:
		if locks >= 2 || maxPen >= MaxPenalties {
			return bad("%d locks, %d penalties and the game goes on", locks, maxPen)
		}
	case EndLocks:
		if locks < 2 {
			return bad("ended on locks with %d", locks)
		}
	case EndPenalties:
		if g.Sheets[g.Active].Penalties != MaxPenalties || locks >= 2 {
			return bad("ended on penalties: active seat has %d, %d locks", g.Sheets[g.Active].Penalties, locks)
		}
	}
	return nil
}

// penaltyTurns returns how many of seat s's rolls may have given it a
// penalty: those it made so far, less the current one while the game goes
// on (§3: the penalty comes with the active seat's action 2, which ends
// the roll; a game that ended on it stays on that roll).
func penaltyTurns(g *Game, s int) int {
	n := turnsActive(g, s)
	if s == g.Active && g.Phase != PhaseOver {
		n--
	}
	return n
}

// turnsActive returns how many rolls seat s made so far, the current one
// included.
func turnsActive(g *Game, s int) int {
	// Rolls 1..Turn; roll t is seat (First+t-1) mod Players.
	k := (s - g.First + g.Players) % g.Players // s rolls t = k+1, k+1+P, …
	if k+1 > g.Turn {
		return 0
	}
	return (g.Turn-k-1)/g.Players + 1
}

// CheckStep verifies the invariants of §9 that a move shows, from
// prev (the state before) to next (after seat's decision a): only seat's
// sheet gains marks (no more than one, Q1), right of its marks (§4); a row
// locked before gains none (§5); a penalty only for the active seat on its
// pass in action 2, with no action 1 mark (§3); a roll only after action
// 2, with no die of a locked row; Seq grows by one. The active seat's
// planned action 2 (Plan) counts as its own when the decision ends action
// 1. It returns the first
// violation, wrapping ErrInvariant.
func CheckStep(prev, next *Game, seat int, a Action) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: after seat %d %s: "+format, append([]any{ErrInvariant, seat, a}, args...)...)
	}
	if next.Seq != prev.Seq+1 {
		return bad("seq %d after %d", next.Seq, prev.Seq)
	}
	if next.Players != prev.Players || next.seed != prev.seed || next.First != prev.First {
		return bad("the setup changed")
	}
	// planRan: the active seat's action 2 decision, given with its action
	// 1 decision, may be applied on the decision that ends action 1.
	hasPlan := prev.plan.Set || (a.Plan.Set && seat == prev.Active)
	planRan := hasPlan && prev.Phase == PhaseWhite && (next.Phase != PhaseWhite || next.Turn != prev.Turn)
	_, activeMarked1 := prev.Choices[prev.Active].Marked()
	if seat == prev.Active && a.Kind == ActWhite && !a.Pass {
		activeMarked1 = true
	}
	for s := range prev.Sheets {
		p, n := &prev.Sheets[s], &next.Sheets[s]
		added := 0
		for _, c := range Colors {
			pr, nr := p.Rows[c], n.Rows[c]
			if pr&^nr != 0 {
				return bad("seat %d lost marks in row %s", s, c)
			}
			gain := nr &^ pr &^ (1 << LockPos)
			if gain == 0 {
				continue
			}
			added += gain.Count()
			if prev.Locked[c] {
				return bad("seat %d marked locked row %s", s, c)
			}
			for q := 0; q <= pr.Right(); q++ {
				if gain.Has(q) {
					return bad("seat %d marked row %s left of a mark", s, c)
				}
			}
		}
		own := 0 // marks of this decision; one more may be the plan's
		if s == seat && !a.Pass {
			own = 1
		}
		allowed := own
		if planRan && s == prev.Active {
			allowed++
		}
		if added < own || added > allowed {
			return bad("seat %d marked %d numbers on this decision", s, added)
		}
		if d := n.Penalties - p.Penalties; d != 0 {
			// §3: the active seat, marking nothing in either action.
			byPass := a.Kind == ActColour && a.Pass
			if d != 1 || s != prev.Active || activeMarked1 || !(byPass || planRan) {
				return bad("seat %d penalties %d → %d", s, p.Penalties, n.Penalties)
			}
		}
	}
	if next.Turn != prev.Turn {
		if next.Turn != prev.Turn+1 || (prev.Phase != PhaseColour && !planRan) {
			return bad("roll %d after %d in phase %s", next.Turn, prev.Turn, prev.Phase)
		}
	} else if next.Dice != prev.Dice {
		for d := W1; d <= DieBlue; d++ {
			if next.Dice[d] != prev.Dice[d] && (next.Dice[d] != 0 || d <= W2) {
				return bad("the dice changed within a roll")
			}
		}
	}
	for c := range prev.Locked {
		if prev.Locked[c] && !next.Locked[c] {
			return bad("row %s unlocked", Color(c))
		}
	}
	return next.Check()
}
