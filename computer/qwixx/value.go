package qwixx

import (
	"fmt"
	"math"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/qwixx"
)

// Option is one decision open to a seat, the points the seat can expect
// to finish the game with if it takes it and, when the strong level plays
// it out (with others at the table), its chance of finishing first.
type Option struct {
	Action qwixx.Action
	Points float64
	Win    float64 // the share of the strong level's rollouts won after it, each by its chance when it stops short of the end (search); −1 when not weighed
	Chosen bool    // the decision the strong level takes among those weighed (Win ≥ 0)
}

// appendOptions appends every decision open to seat (g.LegalActions'
// order) valued under future: the seat's score now, plus the points the
// decision adds, plus future's value of the sheet that follows. The active
// seat's action 1 is valued with its best action 2 on this roll to follow
// (Q2, Q5, Q6, Q8 as the rules have them).
func appendOptions(dst []Option, g *qwixx.Game, seat int, future Future) []Option {
	var buf [10]qwixx.Action
	acts := g.AppendLegal(buf[:0], seat)
	if len(acts) == 0 {
		return dst
	}
	p := positionOf(g, seat)
	score := float64(g.Sheets[seat].Score())
	for _, a := range acts {
		dst = append(dst, Option{Action: a, Points: score + actionValue(g, seat, p, a, future), Win: -1})
	}
	return dst
}

// actionValue returns the points a adds to p (seat's position) now and
// later, under future.
func actionValue(g *qwixx.Game, seat int, p Position, a qwixx.Action, future Future) float64 {
	if a.Kind == qwixx.ActColour {
		if a.Pass {
			if _, marked := g.Choices[seat].Marked(); !marked {
				q, pts := p.penalty() // §3
				return pts + worth(q, future)
			}
			return worth(p, future)
		}
		q, pts, _ := p.mark(a.Color, a.Number)
		return pts + worth(q, future)
	}
	q, pts := p, 0.0
	if !a.Pass {
		q, pts, _ = p.mark(a.Color, a.Number)
	}
	if seat != g.Active {
		return pts + worth(q, future)
	}
	best, _ := followUp(g, q, !a.Pass, future)
	return pts + best
}

// followUp returns the best colour sum for the active seat whose position
// after its action 1 is q (marked: it marked something there), on the roll
// on the table, and its value under future: the pass (a penalty when it
// marked nothing, §3) or a mark. Rows locked by other seats in the same
// action 1 are unknown until it ends and are not foreseen.
func followUp(g *qwixx.Game, q Position, marked bool, future Future) (float64, qwixx.Action) {
	var a qwixx.Action
	if q.over() {
		return 0, qwixx.Action{Kind: qwixx.ActColour, Pass: true} // Q8: no action 2 after the game ended in action 1
	}
	var pass float64
	if marked {
		pass = worth(q, future)
	} else {
		pq, ppts := q.penalty()
		pass = ppts + worth(pq, future)
	}
	best := math.Inf(-1)
	for _, c := range qwixx.Colors { // g.LegalActions' order: the first best
		d := int(g.Dice[qwixx.DieOf(c)])
		if d == 0 || q.Rows[c] == rowClosed { // Q5: removed die, locked row
			continue
		}
		for _, w := range [2]int{int(g.Dice[qwixx.W1]), int(g.Dice[qwixx.W2])} {
			if q2, pts2, ok := q.mark(c, w+d); ok && pts2+worth(q2, future) > best+1e-9 {
				best = pts2 + worth(q2, future)
				a = qwixx.Action{Kind: qwixx.ActColour, Color: c, Number: w + d}
			}
		}
	}
	if pass > best+1e-9 {
		return pass, qwixx.Action{Kind: qwixx.ActColour, Pass: true}
	}
	return best, a
}

// bestOption returns the decision of seat with the highest value under
// future, the first such in g.LegalActions' order; ok is false when seat
// has nothing to decide.
func bestOption(g *qwixx.Game, seat int, future Future) (qwixx.Action, bool) {
	var buf [10]Option
	opts := appendOptions(buf[:0], g, seat, future)
	if len(opts) == 0 {
		return qwixx.Action{}, false
	}
	return bestOf(opts), true
}

// bestOf returns the decision of opts with the most points, the first
// such.
func bestOf(opts []Option) qwixx.Action {
	best, v := opts[0].Action, math.Inf(-1)
	for _, o := range opts {
		if o.Points > v+1e-9 {
			best, v = o.Action, o.Points
		}
	}
	return best
}

// DecideUnder returns seat's best decision under future (as the strong
// level decides under its table): for tools that measure other tables.
// It returns an error wrapping engine.ErrNotYourTurn when seat has nothing
// to decide.
func DecideUnder(g *qwixx.Game, seat int, future Future) (qwixx.Action, error) {
	a, ok := bestOption(g, seat, future)
	if !ok {
		return a, fmt.Errorf("%w: seat %d", engine.ErrNotYourTurn, seat)
	}
	return a, nil
}
