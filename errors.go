package dixbot

import "errors"

// Store errors. Store implementations return these (wrapped with %w); the bot
// matches them with errors.Is and maps each to a message.
var (
	ErrNotFound     = errors.New("store: no game in this channel")
	ErrExists       = errors.New("store: the channel already has a game")
	ErrConflict     = errors.New("store: too many concurrent updates")
	ErrDuplicate    = errors.New("store: interaction already applied")
	ErrUnavailable  = errors.New("store: unavailable")
	ErrSchemaTooNew = errors.New("store: record written by a newer schema")
	ErrCorrupt      = errors.New("store: corrupt record")
	ErrLocked       = errors.New("store: data file in use by another process")
)
