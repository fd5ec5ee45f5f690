package dixxit

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/dixgame/dixbot/engine"
)

// Rules is Dixxit as an engine.Game. It is safe for concurrent use.
type Rules struct{}

var _ engine.Game = Rules{}

// Name returns "dixxit".
func (Rules) Name() string { return Name }

// New starts a game of s: 3–6 players, no options. It returns an error
// wrapping engine.ErrBadOptions and ErrBadOptions.
func (Rules) New(s engine.Setup) (engine.State, error) {
	for k, v := range s.Options {
		return nil, fmt.Errorf("%w: %w: unknown option %s=%q", engine.ErrBadOptions, ErrBadOptions, k, v)
	}
	g, err := newGame(s.Players, s.Seed, s.First)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", engine.ErrBadOptions, err)
	}
	return g, nil
}

// Decode reads what Game.Encode wrote, and nothing else: other bytes for
// the same state (an over-long varint) are corrupt. It returns an error
// wrapping engine.ErrSchemaTooNew or engine.ErrCorrupt (and
// ErrSchemaTooNew or ErrCorrupt); it never panics.
func (Rules) Decode(data []byte) (engine.State, error) {
	g, err := decode(data)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// Seq returns the state's version; it grows with every successful Apply.
func (g *Game) Seq() uint64 { return g.seq }

// ToDecide returns the active player while the clue is awaited, the
// guessers with no finger down who are not out while they race (X7), in
// seat order, and none once the game is over.
func (g *Game) ToDecide() []int {
	var seats []int
	for s := range g.players {
		if g.deciding(s) {
			seats = append(seats, s)
		}
	}
	return seats
}

// DecisionKey names seat's current decision: the turn and the phase. It
// changes when a seat deciding as a guesser becomes the next clue-giver
// in the same move (another guesser's find), so the table's clock for
// that seat starts again.
func (g *Game) DecisionKey(seat int) uint64 { return g.turn<<2 | uint64(g.phase) }

// Forced always reports false: no decision of Dixxit chooses nothing (a
// guesser always has several free squares; the clue is a choice).
func (g *Game) Forced(int) (engine.Move, bool) { return "", false }

// Over reports whether the game has ended (X5).
func (g *Game) Over() bool { return g.phase == PhaseOver }

// Results returns the standings, most cards first (§4); tied seats share a
// rank (X6). The score is the number of cards in front of the seat.
func (g *Game) Results() []engine.Result {
	res := make([]engine.Result, g.players)
	for s := range g.players {
		res[s] = engine.Result{Seat: s, Score: len(g.won[s])}
	}
	slices.SortStableFunc(res, func(a, b engine.Result) int { return cmp.Compare(b.Score, a.Score) })
	for i := range res {
		if i > 0 && res[i].Score == res[i-1].Score {
			res[i].Rank = res[i-1].Rank
		} else {
			res[i].Rank = i + 1
		}
	}
	return res
}
