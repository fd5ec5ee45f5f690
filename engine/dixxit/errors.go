package dixxit

import (
	"errors"
	"fmt"

	"github.com/dixgame/dixbot/engine"
)

// Sentinel errors of the rules. Every error Apply returns wraps one of the
// engine contract's sentinels and, for a finer message, one of these.
var (
	ErrBadOptions   = errors.New("dixxit: bad game options")
	ErrBadMove      = errors.New("dixxit: move not understood")
	ErrBadClue      = errors.New("dixxit: a clue is 1 to 100 characters without control characters")
	ErrBadSquare    = errors.New("dixxit: a square is 1 to 9")
	ErrNotYourTurn  = errors.New("dixxit: not this seat's decision")
	ErrNotActive    = errors.New("dixxit: only the active player gives the clue")
	ErrNotGuessing  = errors.New("dixxit: the active player does not guess")
	ErrClueGiven    = errors.New("dixxit: the clue is already given")
	ErrNoClue       = errors.New("dixxit: the clue is not given yet")
	ErrAlreadyDone  = errors.New("dixxit: this guesser has a finger down or is out of the turn")
	ErrSquareTaken  = errors.New("dixxit: someone was there first")
	ErrTurnOver     = errors.New("dixxit: the turn of this finger is over")
	ErrGameOver     = errors.New("dixxit: the game is over")
	ErrSchemaTooNew = errors.New("dixxit: state written by a newer schema")
	ErrCorrupt      = errors.New("dixxit: corrupt serialised state")
	ErrInvariant    = errors.New("dixxit: invariant violated")
)

// TakenError is the refusal of a finger on a square another guesser holds
// with an earlier time (X7). It wraps ErrSquareTaken and
// engine.ErrIllegalMove; the bot names Holder ("Chloe was there first").
type TakenError struct {
	Square int // 1–9
	Holder int // the seat whose finger is there
}

func (e *TakenError) Error() string {
	return fmt.Sprintf("%v: square %d is held by seat %d", ErrSquareTaken, e.Square, e.Holder)
}

// Unwrap returns ErrSquareTaken and engine.ErrIllegalMove.
func (e *TakenError) Unwrap() []error { return []error{ErrSquareTaken, engine.ErrIllegalMove} }
