package qwixx

import (
	"math/rand/v2"

	"github.com/dixgame/dixbot/engine/qwixx"
)

// normalShare is, by seats, the share of the boxes right of its last
// mark an open row is expected to mark: the more seats, the sooner a game
// ends (they lock rows and take penalties), so the fewer boxes are left to
// mark. Each is the one of 0.275, 0.3, …, 0.4 that won most often against
// three or four easy players (`dixsim sim -game qwixx -players N -games
// 2000 -seed 1 -policy normal,easy`): 0.35 with two or three seats, 0.3
// with four, 0.275 with five, where 0.35 made normal no better than easy.
var normalShare = [qwixx.MaxPlayers + 1]float64{1: 0.35, 2: 0.35, 3: 0.35, 4: 0.3, 5: 0.275}

// normalFuture is the normal level's measure of a sheet in g: every open
// row expects to mark normalShare of the boxes right of its last mark,
// each mark worth one more than the one before (§7); a penalty still to
// come is not foreseen.
func normalFuture(g *qwixx.Game) Future {
	share := normalShare[min(max(g.Players, 1), qwixx.MaxPlayers)]
	return func(p Position) float64 { return heuristicShare(p, share) }
}

// heuristic is normalFuture's measure at two seats.
func heuristic(p Position) float64 { return heuristicShare(p, normalShare[2]) }

func heuristicShare(p Position, share float64) float64 {
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
