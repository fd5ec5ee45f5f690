// Package dixbot holds the few types shared by the adapters: the record of
// one channel's game as the store keeps it, and the store contract the bot
// relies on. It imports no game.
package dixbot

import (
	"context"
	"time"
)

// Record is everything persisted for one channel's game.
type Record struct {
	Channel string // Discord channel id: one game per channel
	Guild   string // Discord server id ("" for none)
	// Version is managed by the store: it is incremented by every successful
	// write and is the compare-and-set token of Update.
	Version uint64
	// Meta is the bot's own data (seats to users, language, board message),
	// opaque to the store.
	Meta []byte
	// Game is the name of the game (engine.Game.Name) the record holds;
	// "" for a record of no game (a game's log) or one kept before records
	// named their game.
	Game string
	// Data is that game's state, the bytes its Decode reads
	// (engine.State.Encode's); nil while its table is a lobby.
	Data []byte
	// Finished is true for an archived game (read-only history).
	Finished  bool
	UpdatedAt time.Time // set by the store on every write
	// Due, when not zero, is when the bot has work to do on this game
	// without a click (unfinished effects of a change, a deadline). The
	// store indexes it so that Store.Due finds the game then. Kept with
	// millisecond precision.
	Due time.Time
}

// Store persists one Record per channel. Implementations are safe for
// concurrent use by many goroutines and processes.
type Store interface {
	// Create stores a new record; ErrExists if the channel has an active game.
	Create(ctx context.Context, r *Record) error
	// Get returns the active record of a channel, or else the archived one
	// (Finished true), or ErrNotFound.
	Get(ctx context.Context, channel string) (*Record, error)
	// Update loads the active record, calls fn on it and writes it back only
	// if nobody wrote in between, retrying a bounded number of times
	// (ErrConflict after that). An error from fn aborts and is returned as is.
	// When interactionID is not empty, it is recorded atomically with the
	// write and an interaction already recorded gives ErrDuplicate.
	Update(ctx context.Context, channel, interactionID string, fn func(*Record) error) (*Record, error)
	// Finish archives the active record (kept for the configured time) and
	// frees the channel for a new game.
	Finish(ctx context.Context, channel string) error
	// Delete removes the channel's active and archived records.
	Delete(ctx context.Context, channel string) error
	// Active lists the channels of a server with an active game. A record
	// without a server (Guild "") is in no list.
	Active(ctx context.Context, guild string) ([]string, error)
	// Due lists up to max channels whose active record has a Due time at
	// or before now, earliest first. Acting on one goes through Update, so
	// that of several processes finding it only one claims it.
	Due(ctx context.Context, now time.Time, max int) ([]string, error)
	// Ping reports whether the store is reachable.
	Ping(ctx context.Context) error
	Close() error
}
