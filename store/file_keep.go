package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/dixgame/dixbot"
)

// Channel settings and retention on the embedded store. The settings have
// a bucket of their own:
//
//	settings  guild NUL channel → the channel's settings (bytes of the bot)
//
// Retention reads the update time of the archived records in the done
// bucket: the embedded store holds one server's worth of games, so a scan
// is cheap, and no index can disagree with the records.

var (
	_ dixbot.SettingsStore = (*File)(nil)
	_ dixbot.Retention     = (*File)(nil)
)

var bucketSettings = []byte("settings") // added to layout 1: older builds ignore it

func settingsKey(guild, channel string) []byte { return []byte(guild + "\x00" + channel) }

// Settings returns the saved settings of a channel of guild: ErrNotFound,
// ErrUnavailable.
func (s *File) Settings(ctx context.Context, guild, channel string) ([]byte, error) {
	var out []byte
	err := s.view(ctx, "settings "+channel, func(tx *bolt.Tx, _ time.Time) error {
		if b := tx.Bucket(bucketSettings).Get(settingsKey(guild, channel)); b != nil {
			out = append([]byte{}, b...)
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case out == nil:
		return nil, fmt.Errorf("%w: settings of channel %s", ErrNotFound, channel)
	}
	return out, nil
}

// SaveSettings stores the settings of a channel of guild: ErrBadRecord for
// an empty channel, ErrUnavailable.
func (s *File) SaveSettings(ctx context.Context, guild, channel string, settings []byte) error {
	if channel == "" {
		return fmt.Errorf("%w: empty channel id", ErrBadRecord)
	}
	v := append([]byte{}, settings...)
	return s.write(ctx, "save settings "+channel, func(tx *bolt.Tx, _ time.Time) error {
		return tx.Bucket(bucketSettings).Put(settingsKey(guild, channel), v)
	})
}

// Retired lists up to max channels whose archived record was archived at
// or before before, earliest first. ErrUnavailable.
func (s *File) Retired(ctx context.Context, before time.Time, max int) ([]string, error) {
	type entry struct {
		ch string
		at time.Time
	}
	var found []entry
	err := s.view(ctx, "retired", func(tx *bolt.Tx, _ time.Time) error {
		found = found[:0]
		return tx.Bucket(bucketDone).ForEach(func(k, v []byte) error {
			if at, ok := updatedAt(v); ok && !at.After(before) {
				found = append(found, entry{string(k), at})
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(found, func(a, b entry) int { return cmp.Or(a.at.Compare(b.at), cmp.Compare(a.ch, b.ch)) })
	out := []string{}
	for _, e := range found[:min(len(found), max)] {
		out = append(out, e.ch)
	}
	return out, nil
}

// Purge deletes the channel's archived record if it was archived at or
// before before. ErrUnavailable.
func (s *File) Purge(ctx context.Context, channel string, before time.Time) (bool, error) {
	deleted := false
	err := s.write(ctx, "purge "+channel, func(tx *bolt.Tx, _ time.Time) error {
		deleted = false
		done := tx.Bucket(bucketDone)
		b := done.Get([]byte(channel))
		if b == nil {
			return nil
		}
		if at, ok := updatedAt(b); !ok || at.After(before) {
			return nil // unreadable (left for Get to report), or kept
		}
		deleted = true
		return done.Delete([]byte(channel))
	})
	return deleted, err
}
