package app

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/schedule"
)

// DefaultRetention is how long finished and abandoned games are kept when
// DIX_RETENTION is not set.
const DefaultRetention = 90 * 24 * time.Hour

// retentionPoll is how often the store is asked for games kept long enough.
const retentionPoll = time.Hour

// Days is a duration read as a number of days ("90d") or as a Go duration
// ("2160h").
type Days time.Duration

// UnmarshalText reads "<n>d" or a Go duration.
func (d *Days) UnmarshalText(b []byte) error {
	t := strings.TrimSpace(string(b))
	if n, ok := strings.CutSuffix(t, "d"); ok {
		if v, err := strconv.Atoi(n); err == nil && v >= 0 && v <= 100*365 {
			*d = Days(time.Duration(v) * 24 * time.Hour)
			return nil
		}
	} else if v, err := time.ParseDuration(t); err == nil {
		*d = Days(v)
		return nil
	}
	return fmt.Errorf("DIX_RETENTION %q must be a number of days such as 90d, or a duration such as 720h", t)
}

// retention is how long finished games are kept (DIX_RETENTION; zero: the
// default).
func (c *Config) retention() time.Duration {
	if c.Retention == 0 {
		return DefaultRetention
	}
	return time.Duration(c.Retention)
}

// archiveTTL is the store's own expiry of an archived game (ARCHIVE_TTL;
// zero: a day after DIX_RETENTION, so that the scheduler deletes it first
// and the store only cleans up after a bot that stopped running).
func (c *Config) archiveTTL() time.Duration {
	if c.ArchiveTTL == 0 {
		return c.retention() + 24*time.Hour
	}
	return c.ArchiveTTL
}

// retiredSource lists the channels whose archived game is older than keep.
type retiredSource struct {
	st   dixbot.Retention
	keep time.Duration
}

func (s retiredSource) Due(ctx context.Context, now time.Time, max int) ([]string, error) {
	return s.st.Retired(ctx, now.Add(-s.keep), max)
}

// retentionRunner is the scheduler that deletes the games kept longer than
// DIX_RETENTION with retire (bot.Bot.Retire), or nil for a store without
// retention.
func retentionRunner(cfg Config, st dixbot.Store, retire func(ctx context.Context, channel string, before time.Time) error, logger *slog.Logger) *schedule.Runner {
	rs, ok := st.(dixbot.Retention)
	if !ok {
		return nil
	}
	keep := cfg.retention()
	return &schedule.Runner{
		Source: retiredSource{st: rs, keep: keep},
		Handle: func(ctx context.Context, channel string, asOf time.Time) error {
			return retire(ctx, channel, asOf.Add(-keep))
		},
		Every:  retentionPoll,
		Logger: logger,
	}
}
