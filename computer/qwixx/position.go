package qwixx

import "github.com/dixgame/dixbot/engine/qwixx"

// positionOf returns seat's sheet in g as a Position: a row locked by
// anyone (or by seat itself in this action 1) is closed.
func positionOf(g *qwixx.Game, seat int) Position { return sheetPosition(g, &g.Sheets[seat]) }

// mark returns p with number n marked in row c and the points it adds;
// ok is false when the row does not take it.
func (p Position) mark(c qwixx.Color, n int) (Position, float64, bool) {
	pos := qwixx.Pos(c, n)
	if pos < 0 {
		return p, 0, false
	}
	m := markTab[p.Rows[c]][pos]
	if !m.ok {
		return p, 0, false
	}
	p.Rows[c] = m.code
	return p, float64(m.points), true
}

// over reports whether the game ends with p: two rows closed (§6).
func (p Position) over() bool { return p.closed() >= 2 }

// worth returns the points future expects from p, 0 once the game is over.
func worth(p Position, future Future) float64 {
	if p.over() || p.Penalties >= qwixx.MaxPenalties {
		return 0
	}
	return future(p)
}

// penalty returns p with one more penalty and its points (−5, §7).
func (p Position) penalty() (Position, float64) {
	p.Penalties++
	return p, -qwixx.PenaltyPoints
}
