package qwixx

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/dixgame/dixbot/computer"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/qwixx"
)

// Level is how well the computer plays: the levels of package computer.
type Level = computer.Level

const (
	Easy   = computer.Easy
	Normal = computer.Normal
	Strong = computer.Strong
)

// Levels lists the levels, weakest first.
var Levels = computer.Levels

// ErrLevel is returned by ParseLevel for an unknown name.
var ErrLevel = computer.ErrLevel

// ParseLevel reads a level name (any case). It returns ErrLevel otherwise.
func ParseLevel(s string) (Level, error) { return computer.ParseLevel(s) }

// Decide returns seat's decision at level l: one of g.LegalActions(seat).
// Easy draws from r; normal and strong do not. It returns an error
// wrapping engine.ErrNotYourTurn when seat has nothing to decide.
func Decide(g *qwixx.Game, seat int, l Level, r *rand.Rand) (qwixx.Action, error) {
	var a qwixx.Action
	var ok bool
	switch l {
	case Easy:
		a, ok = decideEasy(g, seat, r)
	case Normal:
		a, ok = bestOption(g, seat, normalFuture(g))
	default:
		a, ok = decideStrong(g, seat)
	}
	if !ok {
		return qwixx.Action{}, fmt.Errorf("%w: seat %d", engine.ErrNotYourTurn, seat)
	}
	return a, nil
}

// decideStrong is the strong level's decision: alone, the best by points
// (strongFuture, exact); with others at the table, the one its search of
// the best by points picks (search).
func decideStrong(g *qwixx.Game, seat int) (qwixx.Action, bool) {
	return decideStrongBy(g, seat, search)
}

// decideStrongToEnd is decideStrong with every rollout played to the end
// of the game (FitWinModel's player, which must not depend on the model
// it fits).
func decideStrongToEnd(g *qwixx.Game, seat int) (qwixx.Action, bool) {
	return decideStrongBy(g, seat, func(g *qwixx.Game, seat int, opts []Option) (searched, bool) {
		return searchTo(g, seat, opts, nil)
	})
}

// decideStrongBy is the strong level's decision with weigh as its
// search.
func decideStrongBy(g *qwixx.Game, seat int, weigh func(*qwixx.Game, int, []Option) (searched, bool)) (qwixx.Action, bool) {
	var buf [10]Option
	opts := appendOptions(buf[:0], g, seat, strongFuture(g, seat))
	if len(opts) == 0 {
		return qwixx.Action{}, false
	}
	if res, ok := weigh(g, seat, opts); ok {
		return res.cands[res.chosen], true
	}
	return bestOf(opts), true
}

// Timeout returns the decision taken for seat when its time runs out: a
// pass on the white sum (never a penalty, since action 2 follows for the
// active seat), and the strong level's decision on a colour sum (a
// penalty when that is the best, or the only, choice). Errors as Decide.
func Timeout(g *qwixx.Game, seat int, r *rand.Rand) (qwixx.Action, error) {
	if !g.Deciding(seat) {
		return qwixx.Action{}, fmt.Errorf("%w: seat %d", engine.ErrNotYourTurn, seat)
	}
	if g.Phase == qwixx.PhaseWhite {
		return qwixx.Action{Kind: qwixx.ActWhite, Pass: true}, nil
	}
	return Decide(g, seat, Strong, r)
}

// Options returns every decision open to seat with the points the strong
// level expects seat to finish the game with after it (for a hint), in
// g.LegalActions' order; none when seat has nothing to decide. For the
// active seat's white sum, a decision is valued with the best colour sum
// of this roll to follow. Alone, the points are the exact expectation of
// perfect play from each decision (Exact); with others at the table
// the points still to come are the strong level's measure (the next roll
// looked at, then the shrunk table, strongScale), made to rank the options
// rather than to forecast a score. With others at the table, the
// decisions the strong level plays out also carry their chance of winning
// (Win): near the end (EndNear) it decides among them, before it
// overrules the first (the best by points, at three seats the value
// network's) only when clear. The one the strong level takes is
// Chosen.
func Options(g *qwixx.Game, seat int) []Option {
	opts := appendOptions(nil, g, seat, strongFuture(g, seat))
	if res, ok := search(g, seat, opts); ok {
		for i := range opts {
			if k := slices.Index(res.cands, opts[i].Action); k >= 0 {
				opts[i].Win, opts[i].Chosen = res.wins[k], k == res.chosen
			}
		}
	}
	return opts
}

// strongScale is the share of the solitaire table's values the strong
// level counts on, by seats: all of them alone (solitaire); with others at
// the table, who lock rows and take penalties that end the game well
// before a solitaire sheet would, a box kept for later is worth much less.
// Each factor is the one of 0.2, 0.25, …, 0.4 that won most often against
// normal players (`dixsim sim -game qwixx -policy table:F,normal`; the
// figures are in the package's notes).
var strongScale = [qwixx.MaxPlayers + 1]float64{1: 1, 2: 0.35, 3: 0.25, 4: 0.25, 5: 0.25}

// strongFuture is the strong level's measure of seat's sheet in g once
// this roll is decided: alone, the exact solitaire values (Exact); with
// others at the table, the expectation over the next roll of the best the
// seat can make of it, valued by TableFuture: both actions when the next
// roll is its own (turnValue), the white sum alone when it is another's
// (whiteValue). Looking that roll ahead sees what a mark now does to the
// chances of marking on the next roll, which the table alone blurs.
func strongFuture(g *qwixx.Game, seat int) Future {
	if g.Solitaire {
		return Exact().Value
	}
	k := strongScale[min(max(g.Players, 1), qwixx.MaxPlayers)]
	f := TableFuture(g, seat, k)
	if (g.Active+1)%g.Players == seat {
		return func(p Position) float64 { return turnValue(p, f) }
	}
	return func(p Position) float64 { return whiteValue(p, f) }
}

// TableFuture returns the measure of seat's sheet that the strong level
// uses, with the solitaire table's values times k: a sheet is valued with
// the penalties of the most penalised seat at the table (capped at 3), its
// own or another's (Q11: they are public), since any seat's fourth penalty
// ends the game (§6).
func TableFuture(g *qwixx.Game, seat int, k float64) Future {
	clock := 0
	for s := range g.Sheets {
		if s != seat {
			clock = max(clock, g.Sheets[s].Penalties)
		}
	}
	if clock == 0 && k == 1 {
		return compactTable.Value
	}
	return func(p Position) float64 {
		q := p
		q.Penalties = min(max(p.Penalties, clock), qwixx.MaxPenalties-1)
		if p.Penalties >= qwixx.MaxPenalties {
			return 0
		}
		return k * compactTable.Value(q)
	}
}

// Plan returns the strong level's two decisions for the active seat at
// the start of its roll (a "My turn" prompt that takes both at once): its
// white sum, then the colour sum it would mark if every other seat
// passes in the same action 1 (their decisions are not known yet), and
// the points it expects to finish with after its white sum (as Options).
// ok is false unless seat is the active seat deciding its white sum.
func Plan(g *qwixx.Game, seat int) (white, colour qwixx.Action, points float64, ok bool) {
	if g.Phase != qwixx.PhaseWhite || seat != g.Active || !g.Deciding(seat) {
		return white, colour, 0, false
	}
	future := strongFuture(g, seat)
	white, _ = decideStrong(g, seat)
	p := positionOf(g, seat)
	q, pts := p, 0.0
	if !white.Pass {
		q, pts, _ = p.mark(white.Color, white.Number)
	}
	best, colour := followUp(g, q, !white.Pass, future)
	points = float64(g.Sheets[seat].Score()) + pts + best
	// The colour sum: the strong level's decision once every other seat
	// passed (their decisions under way are not known, and are not read).
	h := g.Clone()
	var buf [qwixx.MaxPlayers]qwixx.Sheet
	copy(h.Sheets, publicSheets(g, buf[:]))
	for s := range h.Choices {
		h.Choices[s] = qwixx.ChoicePass
	}
	h.Choices[seat] = qwixx.ChoiceNone
	if _, err := h.Apply(seat, white); err != nil || h.Over() {
		return white, colour, points, true
	}
	if c, ok := decideStrong(h, seat); ok {
		colour = c
	}
	return white, colour, points, true
}

// Player is the computer player at Level as an engine.Player, for the
// table that knows games only through the contract. It is safe for
// concurrent use.
type Player struct{ Level Level }

var _ engine.Player = Player{}

// Decide returns Decide's action as a move. It returns an error wrapping
// engine.ErrWrongGame for a state that is not a qwixx.State and
// engine.ErrNotYourTurn when seat has nothing to decide.
func (p Player) Decide(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	return move(s, func(g *qwixx.Game) (qwixx.Action, error) { return Decide(g, seat, p.Level, r) })
}

// Timeout returns Timeout's action as a move; errors as Decide.
func (Player) Timeout(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	return move(s, func(g *qwixx.Game) (qwixx.Action, error) { return Timeout(g, seat, r) })
}

func move(s engine.State, decide func(*qwixx.Game) (qwixx.Action, error)) (engine.Move, error) {
	st, ok := s.(qwixx.State)
	if !ok {
		return "", fmt.Errorf("%w: %T", engine.ErrWrongGame, s)
	}
	a, err := decide(st.Game())
	if err != nil {
		return "", err
	}
	return a.Move(), nil
}
