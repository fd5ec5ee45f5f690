package engine

import "errors"

// Sentinel errors of the contract. Every error a State or a Game returns
// wraps one of these (and may wrap a game's own sentinel too, for a finer
// message); the table maps each to a localised answer.
var (
	ErrBadOptions   = errors.New("engine: bad game options")
	ErrBadMove      = errors.New("engine: move not understood")
	ErrNotYourTurn  = errors.New("engine: not this seat's decision")
	ErrIllegalMove  = errors.New("engine: move not allowed now")
	ErrGameOver     = errors.New("engine: the game is over")
	ErrSchemaTooNew = errors.New("engine: state written by a newer schema")
	ErrCorrupt      = errors.New("engine: corrupt serialised state")
	ErrInvariant    = errors.New("engine: invariant violated")
	ErrWrongGame    = errors.New("engine: state of another game")
)
