package store

import (
	"errors"
	"fmt"

	"github.com/dixgame/dixbot"
)

// The store's sentinel errors are those of the root package, so the bot can
// match them without importing this package. They are repeated here for
// readability at call sites inside the store and its tests.
var (
	ErrNotFound     = dixbot.ErrNotFound
	ErrExists       = dixbot.ErrExists
	ErrConflict     = dixbot.ErrConflict
	ErrDuplicate    = dixbot.ErrDuplicate
	ErrUnavailable  = dixbot.ErrUnavailable
	ErrSchemaTooNew = dixbot.ErrSchemaTooNew
	ErrCorrupt      = dixbot.ErrCorrupt
	ErrLocked       = dixbot.ErrLocked
)

// Errors of this package only: programming or configuration mistakes that the
// bot never needs to explain to a player.
var (
	ErrBadOptions = errors.New("store: bad options")
	ErrBadRecord  = errors.New("store: bad record")
)

func notFound(channel string) error { return fmt.Errorf("%w: channel %s", ErrNotFound, channel) }

func duplicate(channel, interactionID string) error {
	return fmt.Errorf("%w: channel %s interaction %s", ErrDuplicate, channel, interactionID)
}
