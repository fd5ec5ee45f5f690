package qwixx

import (
	"math/rand/v2"

	"github.com/dixgame/dixbot/engine/qwixx"
)

// heuristic is the normal level's measure of a sheet: every open row
// expects to mark about 35% of the boxes right of its last mark, each
// mark worth one more than the one before (§7); a penalty still to come
// is not foreseen. (Of 0.25, 0.3, …, 0.45, 0.35 won most often against
// the easy level, with 2, 3 and 4 seats.)
func heuristic(p Position) float64 {
	const share = 0.35
	v := 0.0
	for _, code := range p.Rows {
		if code == rowClosed {
			continue
		}
		left := float64(lastPos - int(rowLast[code]))
		n := float64(rowCount[code])
		m := share * left
		v += m*n + m*(m+1)/2
	}
	return v
}

// decideEasy is the easy level: it marks the number that skips the fewest
// boxes when it skips at most one (two on a colour sum, three when the
// alternative is a penalty), choosing among equals at random, and passes
// otherwise. It does not plan both actions together.
func decideEasy(g *qwixx.Game, seat int, r *rand.Rand) (qwixx.Action, bool) {
	var buf [10]qwixx.Action
	acts := g.AppendLegal(buf[:0], seat)
	if len(acts) == 0 {
		return qwixx.Action{}, false
	}
	tolerance := 1
	if g.Phase == qwixx.PhaseColour {
		tolerance = 2
		if _, marked := g.Choices[seat].Marked(); !marked {
			tolerance = 3
		}
	}
	sh := &g.Sheets[seat]
	best, n := acts[len(acts)-1], 0 // the pass comes last
	least := tolerance + 1
	for _, a := range acts {
		if a.Pass {
			continue
		}
		row := sh.Rows[a.Color]
		skip := qwixx.Pos(a.Color, a.Number) - row.Right() - 1
		switch {
		case skip < least:
			best, least, n = a, skip, 1
		case skip == least:
			n++
			if r.IntN(n) == 0 {
				best = a
			}
		}
	}
	return best, true
}
