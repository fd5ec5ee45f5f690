package engine

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
)

// Move is one decision in its game's notation ("bid 3", "7"). Only the game
// that defines the notation reads it; the table passes it on unchanged.
type Move string

// MaxMoveLen bounds a move that a button's custom id carries, so that
// "<game>:<verb>:<seq>:<move>" stays within Discord's 100 characters. A
// move typed in a modal (a clue) may be longer.
const MaxMoveLen = 80

// Event is one thing that happened while applying a move; its concrete type
// belongs to the game, whose presenter renders it. Events are public.
type Event any

// Public is the seat given to View for what everyone may see.
const Public = -1

// Setup is what the table knows when it starts a game.
type Setup struct {
	Players int               // seated players, people and computers
	Seed    int64             // all the game's randomness; same seed, same moves, same game
	First   int               // the seat that starts; -1: drawn from Seed
	Options map[string]string // the game's own options, in its words ("difficulty": "6")
}

// Result is one seat's final standing.
type Result struct {
	Seat  int
	Rank  int // 1 for the winners; tied seats share a rank
	Score int // the game's score (points, cards, marks)
}

// Game is the definition of one game: what the table registers, one per
// game. Implementations are safe for concurrent use (they hold no state).
type Game interface {
	// Name is the game's prefix in custom ids, commands and locale keys
	// ("dix"): lowercase letters only.
	Name() string
	// New starts a game. It returns an error wrapping ErrBadOptions for a
	// setup the game does not accept.
	New(Setup) (State, error)
	// Decode reads what State.Encode wrote, under any schema version up to
	// the game's own. It returns an error wrapping ErrSchemaTooNew or
	// ErrCorrupt; it never panics.
	Decode(data []byte) (State, error)
}

// State is one game in progress. It changes only through Apply. A State is
// not safe for concurrent use: the table decodes its own from the store for
// every update.
type State interface {
	// Encode returns the state's bytes: the schema version as a uvarint
	// (see SchemaOf), then the game's own form. The same state always gives
	// the same bytes.
	Encode() []byte
	// Seq is the state's version: it grows with every successful Apply.
	Seq() uint64
	// ToDecide lists the seats that must decide now, in seat order, several
	// when they decide at once; none once the game is over.
	ToDecide() []int
	// Forced returns the only decision open to seat when it has exactly one
	// and that decision chooses nothing, so that the table takes it without
	// asking anyone; ok is false otherwise.
	Forced(seat int) (m Move, ok bool)
	// Apply takes seat's decision m and returns what happened. On error it
	// changes nothing and the error wraps ErrBadMove (m not understood),
	// ErrNotYourTurn, ErrIllegalMove or ErrGameOver.
	Apply(seat int, m Move) ([]Event, error)
	// View returns what seat may see (Public: what everyone may see), as a
	// JSON-ready value sharing nothing with the state.
	View(seat int) any
	// Over reports whether the game has ended.
	Over() bool
	// Results returns the standings, best first; final once Over.
	Results() []Result
	// Check verifies the game's invariants and returns the first violation,
	// wrapping ErrInvariant.
	Check() error
}

// Player is a game's computer player. Its randomness comes only from r.
type Player interface {
	// Decide returns the decision of seat, one of those open to it. It
	// returns an error wrapping ErrWrongGame for another game's state and
	// ErrNotYourTurn when seat has nothing to decide.
	Decide(s State, seat int, r *rand.Rand) (Move, error)
	// Timeout returns the decision taken for seat when its time runs out,
	// one it could have made; errors as Decide.
	Timeout(s State, seat int, r *rand.Rand) (Move, error)
}

// AbsentPlayer is a Player with a decision of its own for a seat whose
// person is absent (out of time twice in a row, until they come back),
// which the table takes at once; a Player without it takes its Timeout
// decision there. Errors as Decide.
type AbsentPlayer interface {
	Absent(s State, seat int, r *rand.Rand) (Move, error)
}

// AbsentMove is p's decision for seat, whose person is absent: its
// Absent decision when it has one, else its Timeout.
func AbsentMove(p Player, s State, seat int, r *rand.Rand) (Move, error) {
	if a, ok := p.(AbsentPlayer); ok {
		return a.Absent(s, seat, r)
	}
	return p.Timeout(s, seat, r)
}

// SchemaOf returns the schema version at the start of data (see
// State.Encode). It returns an error wrapping ErrCorrupt when there is none.
func SchemaOf(data []byte) (uint64, error) {
	v, n := binary.Uvarint(data)
	if n <= 0 {
		return 0, fmt.Errorf("%w: no schema version", ErrCorrupt)
	}
	return v, nil
}
