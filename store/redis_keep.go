package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"time"

	"github.com/redis/go-redis/v9"

	"github.com/dixgame/dixbot"
)

// Channel settings and retention on Redis. Keys, with P the prefix:
//
//	P settings:{g:<guild>}  hash: channel → the channel's settings (bytes
//	                        of the bot), one key per server, so a server's
//	                        settings share the Cluster slot of its other
//	                        data ("{g:<guild>}")
//	P retired               index: sorted set of the channels with an
//	                        archived record, scored by the time it was
//	                        archived (Unix ms)
//
// The retired index, like the due index, is a hint written before the
// archive (a crash in between leaves an entry too many, never one too few)
// and corrected by Retired against the archived records themselves.

var (
	_ dixbot.SettingsStore = (*Redis)(nil)
	_ dixbot.Retention     = (*Redis)(nil)
)

func (s *Redis) settingsKey(guild string) string { return s.o.Prefix + "settings:{g:" + guild + "}" }
func (s *Redis) retiredKey() string              { return s.o.Prefix + "retired" }

// Settings returns the saved settings of a channel of guild: ErrNotFound,
// ErrUnavailable.
func (s *Redis) Settings(ctx context.Context, guild, channel string) ([]byte, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	b, err := s.rdb.HGet(ctx, s.settingsKey(guild), channel).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, fmt.Errorf("%w: settings of channel %s", ErrNotFound, channel)
	case err != nil:
		return nil, fmt.Errorf("store: settings %s: %w", channel, mapErr(err))
	}
	return b, nil
}

// SaveSettings stores the settings of a channel of guild: ErrBadRecord for
// an empty channel, ErrUnavailable.
func (s *Redis) SaveSettings(ctx context.Context, guild, channel string, settings []byte) error {
	if channel == "" {
		return fmt.Errorf("%w: empty channel id", ErrBadRecord)
	}
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	if err := s.rdb.HSet(ctx, s.settingsKey(guild), channel, settings).Err(); err != nil {
		return fmt.Errorf("store: save settings %s: %w", channel, mapErr(err))
	}
	return nil
}

// retire indexes channel as archived at at, before its archive is written.
func (s *Redis) retire(ctx context.Context, channel string, at time.Time) error {
	return s.rdb.ZAdd(ctx, s.retiredKey(), redis.Z{Score: float64(at.UnixMilli()), Member: channel}).Err()
}

// Retired lists up to max channels whose archived record was archived at
// or before before, earliest first. It reads the index, checks each entry
// against the archived record and corrects the entries that disagree (an
// archive gone, or archived again later). ErrUnavailable.
func (s *Redis) Retired(ctx context.Context, before time.Time, max int) ([]string, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	rk := s.retiredKey()
	entries, err := s.rdb.ZRangeArgsWithScores(ctx, redis.ZRangeArgs{
		Key: rk, Start: "-inf", Stop: strconv.FormatInt(before.UnixMilli(), 10), ByScore: true, Count: int64(2 * max),
	}).Result()
	if err != nil {
		return nil, fmt.Errorf("store: retired: %w", mapErr(err))
	}
	out := []string{}
	if len(entries) == 0 {
		return out, nil
	}
	gets := make([]*redis.StringCmd, len(entries))
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, e := range entries {
			gets[i] = p.GetRange(ctx, s.doneKey(e.Member.(string)), 0, headerSize-1)
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("store: retired: %w", mapErr(err))
	}
	for i, e := range entries {
		ch := e.Member.(string)
		fix := "" // remove the entry, unless set below
		if b, err := gets[i].Bytes(); err == nil && len(b) > 0 {
			at, ok := updatedAt(b)
			switch {
			case !ok:
				continue // unreadable: left for Get to report
			case !at.After(before):
				if len(out) < max {
					out = append(out, ch)
				}
				if float64(at.UnixMilli()) == e.Score {
					continue
				}
				fix = strconv.FormatInt(at.UnixMilli(), 10)
			default:
				fix = strconv.FormatInt(at.UnixMilli(), 10)
			}
		}
		// Best effort: a failure leaves the entry for the next call.
		_ = redueScript.Run(ctx, s.rdb, []string{rk}, ch, formatScore(e.Score), fix).Err()
	}
	return out, nil
}

// purgeScript deletes an archived record if it is unchanged.
//
//	KEYS[1] done key; ARGV[1] the archived record read
var purgeScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`)

// Purge deletes the channel's archived record if it was archived at or
// before before, and its index entry. ErrUnavailable.
func (s *Redis) Purge(ctx context.Context, channel string, before time.Time) (bool, error) {
	if channel == "" {
		return false, nil // see noChannel
	}
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	dk := s.doneKey(channel)
	deleted := false
	b, err := s.rdb.Get(ctx, dk).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
	case err != nil:
		return false, fmt.Errorf("store: purge %s: %w", channel, mapErr(err))
	default:
		at, ok := updatedAt(b)
		if !ok || at.After(before) {
			return false, nil // unreadable (left for Get to report), or kept
		}
		n, err := purgeScript.Run(ctx, s.rdb, []string{dk}, b).Int()
		if err != nil {
			return false, fmt.Errorf("store: purge %s: %w", channel, mapErr(err))
		}
		if n == 0 {
			return false, nil // archived again meanwhile
		}
		deleted = true
	}
	// The index entry goes if it still dates from before: the entry of an
	// archive written meanwhile stays. Best effort: Retired drops it later.
	rk := s.retiredKey()
	if sc, err := s.rdb.ZScore(ctx, rk, channel).Result(); err == nil && sc <= float64(before.UnixMilli()) {
		_ = redueScript.Run(ctx, s.rdb, []string{rk}, channel, formatScore(sc), "").Err()
	}
	return deleted, nil
}
