package dixbot

import (
	"context"
	"time"
)

// SettingsStore keeps each channel's settings: bytes the bot owns, stored
// per server and channel until they are saved again.
type SettingsStore interface {
	// Settings returns the saved settings of a channel of guild, or
	// ErrNotFound when none are saved.
	Settings(ctx context.Context, guild, channel string) ([]byte, error)
	// SaveSettings stores the settings of a channel of guild, replacing
	// those saved before.
	SaveSettings(ctx context.Context, guild, channel string, settings []byte) error
}

// Retention finds and deletes the archived records that are older than the
// time they are kept.
type Retention interface {
	// Retired lists up to max channels whose archived record was archived
	// at or before before, earliest first.
	Retired(ctx context.Context, before time.Time, max int) ([]string, error)
	// Purge deletes the channel's archived record if it was archived at or
	// before before (a record archived later is kept), and reports whether
	// it deleted one. The active record is never touched.
	Purge(ctx context.Context, channel string, before time.Time) (bool, error)
}
