package dixxit

import "github.com/dixgame/dixbot/engine/dixxit"

// ScoredGrid returns the grid as the turn that evs scored left it, before
// the refill: prev is the public view before the move, evs its events. The
// finder's square shows as found, the fingers that came after the find
// lose their mark, and when nobody found it the target is framed: the
// turn is scored, so the target is public (X11). Names as GridOf.
func ScoredGrid(prev dixxit.View, evs []dixxit.Event, names []string) Grid {
	g := GridOf(prev, names)
	g.Target = 0
	name := func(seat int) string {
		if seat >= 0 && seat < len(names) {
			return names[seat]
		}
		return "?"
	}
	ok := func(sq int) bool { return sq >= 1 && sq <= dixxit.Squares }
	for _, e := range evs {
		switch e.Kind {
		case dixxit.EvFinger:
			if ok(e.Square) {
				g.Squares[e.Square-1].Name = name(e.Seat)
			}
		case dixxit.EvLifted, dixxit.EvIgnored:
			if ok(e.Square) && g.Squares[e.Square-1].Name == name(e.Seat) {
				g.Squares[e.Square-1].Name = ""
			}
		case dixxit.EvFound:
			if ok(e.Square) {
				g.Squares[e.Square-1] = Square{Card: e.Card.String(), Name: name(e.Seat), Found: true}
			}
		case dixxit.EvNotFound:
			if ok(e.Square) {
				g.Target = e.Square
			}
		}
	}
	return g
}

// LastGrid returns the grid of a turn as it was scored (View.Last): each
// finger that counted with its guesser's name, the square found marked
// found, or, when nobody found it, the target framed. Names as GridOf.
func LastGrid(l dixxit.Scored, names []string) Grid {
	var g Grid
	for sq := range g.Squares {
		g.Squares[sq].Card = l.Grid[sq]
	}
	for _, f := range l.Fingers {
		if f.Square < 1 || f.Square > dixxit.Squares {
			continue
		}
		name := "?"
		if f.Seat >= 0 && f.Seat < len(names) {
			name = names[f.Seat]
		}
		g.Squares[f.Square-1].Name = name
		g.Squares[f.Square-1].Found = f.Square == l.Found
	}
	if l.Found == 0 && l.Target >= 1 && l.Target <= dixxit.Squares {
		g.Target = l.Target
	}
	return g
}
