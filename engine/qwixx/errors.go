package qwixx

import "errors"

// Sentinel errors. Every rejected move wraps one of these and one of the
// engine contract's (engine.ErrBadMove, ErrNotYourTurn, ErrIllegalMove,
// ErrGameOver); the bot maps each to a message.
var (
	ErrBadOptions    = errors.New("qwixx: bad game options")
	ErrBadMove       = errors.New("qwixx: move not understood")
	ErrGameOver      = errors.New("qwixx: the game is over")
	ErrNotYourTurn   = errors.New("qwixx: not this seat's decision")
	ErrDecided       = errors.New("qwixx: this seat already decided on the white sum") // Q12
	ErrWrongAction   = errors.New("qwixx: not the action being decided")
	ErrWrongSum      = errors.New("qwixx: the dice do not make this number")
	ErrRowLocked     = errors.New("qwixx: the row is locked")
	ErrDieRemoved    = errors.New("qwixx: the die of this colour is out of play")
	ErrNotRightOf    = errors.New("qwixx: the number is not right of the row's marks")
	ErrLockNeedsFive = errors.New("qwixx: the last number needs five marks in the row")
	ErrBadRoll       = errors.New("qwixx: bad roll")
	ErrSchemaTooNew  = errors.New("qwixx: state written by a newer schema")
	ErrCorrupt       = errors.New("qwixx: corrupt serialised state")
	ErrInvariant     = errors.New("qwixx: invariant violated")
)

// Rejections returns, by Go name, the sentinel errors a rejected move may
// wrap, for the tools and scenario files that cite them by name. The map is
// new on every call.
func Rejections() map[string]error {
	return map[string]error{
		"ErrBadMove": ErrBadMove, "ErrGameOver": ErrGameOver, "ErrNotYourTurn": ErrNotYourTurn,
		"ErrDecided": ErrDecided, "ErrWrongAction": ErrWrongAction, "ErrWrongSum": ErrWrongSum,
		"ErrRowLocked": ErrRowLocked, "ErrDieRemoved": ErrDieRemoved, "ErrNotRightOf": ErrNotRightOf,
		"ErrLockNeedsFive": ErrLockNeedsFive,
	}
}
