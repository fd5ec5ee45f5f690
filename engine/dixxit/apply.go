package dixxit

import (
	"fmt"
	"slices"

	"github.com/dixgame/dixbot/engine"
)

// Apply takes seat's move m (see the package documentation) and returns
// the events, all of type Event. On error nothing changes and the error
// wraps engine.ErrGameOver, engine.ErrBadMove (m not understood),
// engine.ErrNotYourTurn (seat has nothing to decide now, or the turn's
// guessing is closed) or engine.ErrIllegalMove (a move of the wrong kind
// for the phase, or a *TakenError for a square held by an earlier finger,
// X7), together with the package's own sentinel.
func (g *Game) Apply(seat int, m engine.Move) ([]engine.Event, error) {
	if g.phase == PhaseOver {
		return nil, fmt.Errorf("%w: %w", engine.ErrGameOver, ErrGameOver)
	}
	p, err := ParseMove(m)
	if err != nil {
		return nil, err
	}
	if p.Kind == MoveFinger && p.OnTurn && p.Turn != g.turn {
		// A click on the board of a turn already scored, however fast the
		// next clue came.
		return nil, fmt.Errorf("%w: %w: turn %d, now %d", engine.ErrNotYourTurn, ErrTurnOver, p.Turn, g.turn)
	}
	if g.phase == PhaseClue && (p.Kind == MoveFinger || p.Kind == MoveOut) {
		// Nobody guesses before the clue, nor once the turn is scored: a
		// late click of the turn before lands here.
		return nil, fmt.Errorf("%w: %w: seat %d", engine.ErrNotYourTurn, ErrNoClue, seat)
	}
	if !g.deciding(seat) {
		why := ErrNotYourTurn
		switch {
		case g.phase == PhaseClue:
			why = ErrNotActive
		case seat == g.active:
			why = ErrNotGuessing
		case seat >= 0 && seat < g.players:
			why = ErrAlreadyDone
		}
		return nil, fmt.Errorf("%w: %w: seat %d", engine.ErrNotYourTurn, why, seat)
	}
	var evs []Event
	switch {
	case g.phase == PhaseClue && (p.Kind == MoveClue || p.Kind == MoveAloud):
		g.phase = PhaseGuess
		g.clue, g.aloud = p.Clue, p.Kind == MoveAloud
		evs = []Event{{Kind: EvClue, Seat: seat, Text: p.Clue, Aloud: g.aloud}}
	case g.phase == PhaseClue && p.Kind == MoveSkip:
		// X9: nothing is scored, the grid is unchanged, the turn passes.
		g.last = nil
		evs = g.nextTurn([]Event{{Kind: EvSkipped, Seat: seat}})
	case g.phase == PhaseGuess && p.Kind == MoveFinger:
		evs, err = g.finger(seat, p)
		if err != nil {
			return nil, err
		}
	case g.phase == PhaseGuess && p.Kind == MoveOut:
		g.out |= 1 << seat // X9
		evs = g.afterGuess([]Event{{Kind: EvOut, Seat: seat}})
	default:
		why := ErrNoClue
		if g.phase == PhaseGuess {
			why = ErrClueGiven
		}
		return nil, fmt.Errorf("%w: %w: %q in phase %v", engine.ErrIllegalMove, why, m, g.phase)
	}
	g.seq++
	out := make([]engine.Event, len(evs))
	for i, e := range evs {
		out[i] = e
	}
	return out, nil
}

// finger places seat's finger p: by its time among the fingers down (X7),
// taking its square from a later finger, refused on a square an earlier
// finger holds; on the target it scores the turn (§3.4).
func (g *Game) finger(seat int, p Parsed) ([]Event, error) {
	sq := p.Square - 1
	at := p.At
	if !p.Timed {
		// After every finger seen so far: ties keep the order of Apply.
		at = 0
		for _, f := range g.fingers {
			at = max(at, f.at)
		}
	}
	var evs []Event
	if h := g.holderOf(sq); h >= 0 {
		held := g.fingers[h]
		if held.at <= at {
			return nil, fmt.Errorf("%w", &TakenError{Square: p.Square, Holder: held.seat})
		}
		// X7: whoever got there first keeps the square; the later finger
		// is lifted and its guesser may pick again.
		g.fingers = slices.Delete(g.fingers, h, h+1)
		evs = append(evs, Event{Kind: EvLifted, Seat: held.seat, Square: p.Square, By: seat})
	}
	// Insert after every finger of an earlier or equal time.
	i := 0
	for i < len(g.fingers) && g.fingers[i].at <= at {
		i++
	}
	g.fingers = slices.Insert(g.fingers, i, finger{seat: seat, square: sq, at: at})
	if sq != g.target {
		evs = append(evs, Event{Kind: EvFinger, Seat: seat, Square: p.Square, Card: g.grid[sq]})
		return g.afterGuess(evs), nil
	}
	// Found (§3.4). Fingers with a later time came after the find: they
	// never count.
	for _, f := range g.fingers[i+1:] {
		evs = append(evs, Event{Kind: EvIgnored, Seat: f.seat, Square: f.square + 1})
	}
	before := g.fingers[:i]
	g.fingers = g.fingers[:i+1]
	g.last = g.scoredNow(sq)
	card := g.grid[sq]
	g.grid[sq] = noCard
	g.won[seat] = append(g.won[seat], card)
	evs = append(evs, Event{Kind: EvFound, Seat: seat, Square: p.Square, Card: card})
	if len(before) > 0 {
		took := Event{Kind: EvTook, Seat: g.active}
		for _, f := range before {
			c := g.grid[f.square]
			g.grid[f.square] = noCard
			g.won[g.active] = append(g.won[g.active], c)
			took.Squares = append(took.Squares, f.square+1)
			took.Cards = append(took.Cards, c)
		}
		evs = append(evs, took)
	}
	return g.nextTurn(evs), nil
}

// afterGuess scores the turn as not found (§3.4) when no guesser is left
// to decide.
func (g *Game) afterGuess(evs []Event) []Event {
	for s := range g.players {
		if g.deciding(s) {
			return evs
		}
	}
	a := g.active
	g.last = g.scoredNow(-1)
	card := g.grid[g.target]
	evs = append(evs, Event{Kind: EvNotFound, Seat: a, Square: g.target + 1, Card: card})
	if n := len(g.won[a]); n > 0 {
		// The rulebook ("Le décompte des points": "ce dernier perd une
		// carte image devant lui (s'il en possède) et la replace sous la
		// pioche"; §3.4) names no card and gives no moment to choose one;
		// every card counts one, so the engine returns the last one taken
		// and asks nothing.
		c := g.won[a][n-1]
		g.won[a] = g.won[a][: n-1 : n-1]
		g.pile = append(g.pile, c)
		evs = append(evs, Event{Kind: EvReturned, Seat: a, Card: c})
	}
	disc := Event{Kind: EvDiscarded, Seat: a}
	sqs := []int{g.target}
	for _, f := range g.fingers {
		sqs = append(sqs, f.square)
	}
	slices.Sort(sqs)
	for _, sq := range sqs {
		disc.Squares = append(disc.Squares, sq+1)
		disc.Cards = append(disc.Cards, g.grid[sq])
		g.discard = append(g.discard, g.grid[sq])
		g.grid[sq] = noCard
	}
	return g.nextTurn(append(evs, disc))
}

// nextTurn refills the grid (§3.5) and passes the turn to the next seat,
// or ends the game when the grid cannot be refilled (X5).
func (g *Game) nextTurn(evs []Event) []Event {
	var empty []int
	for sq, c := range g.grid {
		if c == noCard {
			empty = append(empty, sq)
		}
	}
	if len(empty) > len(g.pile) {
		g.phase = PhaseOver
		g.fingers, g.out, g.clue, g.aloud = nil, 0, "", false
		return append(evs, Event{Kind: EvGameOver, Seat: -1})
	}
	if len(empty) > 0 {
		fill := Event{Kind: EvRefilled, Seat: g.active}
		for _, sq := range empty {
			g.grid[sq] = g.pile[0]
			g.pile = g.pile[1:]
			fill.Squares = append(fill.Squares, sq+1)
			fill.Cards = append(fill.Cards, g.grid[sq])
		}
		evs = append(evs, fill)
	}
	g.active = (g.active + 1) % g.players
	g.startTurn()
	return append(evs, Event{Kind: EvTurnStarted, Seat: g.active})
}
