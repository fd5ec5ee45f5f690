package app

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/store"
)

func TestRetentionSetting(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"90d", 90 * 24 * time.Hour, true},
		{" 7d ", 7 * 24 * time.Hour, true},
		{"720h", 720 * time.Hour, true},
		{"90", 0, false},
		{"d", 0, false},
		{"-3d", 0, false},
		{"soon", 0, false},
	} {
		var d Days
		err := d.UnmarshalText([]byte(tc.in))
		if !tc.ok {
			require.Error(t, err, tc.in)
			assert.Contains(t, err.Error(), "DIX_RETENTION", "the message names its variable")
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, time.Duration(d), tc.in)
	}
	cfg := testConfig(t)
	cfg.Retention = Days(-time.Hour)
	assert.ErrorContains(t, cfg.Validate(), "DIX_RETENTION")
	cfg.Retention, cfg.ArchiveTTL = 0, 0
	require.NoError(t, cfg.Validate())
	assert.Equal(t, DefaultRetention, cfg.retention(), "zero: the default")
	assert.Equal(t, DefaultRetention+24*time.Hour, cfg.archiveTTL(), "the store's expiry comes after the scheduler")
	cfg.ArchiveTTL = time.Hour
	assert.Equal(t, time.Hour, cfg.archiveTTL())
}

// TestRetentionDeletesOldGames: the retention scheduler, on a clock moved
// forward, deletes the archived games older than DIX_RETENTION and their
// logs, and keeps newer archives, a newer game's log and active games; on
// both stores.
func TestRetentionDeletesOldGames(t *testing.T) {
	stores := map[string]func(t *testing.T) dixbot.Store{
		"file": func(t *testing.T) dixbot.Store {
			st, err := store.OpenFile(filepath.Join(t.TempDir(), "dix.db"), store.Options{})
			require.NoError(t, err)
			return st
		},
		"redis": func(t *testing.T) dixbot.Store {
			st, err := store.OpenRedis(context.Background(), store.Options{URL: redistest.Start(t).URL()})
			require.NoError(t, err)
			return st
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st := open(t)
			defer st.Close()
			b, err := bot.New(bot.Options{Store: st, DefaultLanguage: "en"})
			require.NoError(t, err)
			put := func(channel string, finish bool) {
				t.Helper()
				require.NoError(t, st.Create(ctx, &dixbot.Record{Channel: channel, Guild: "g1", Meta: []byte(`{"v":1}`)}))
				if finish {
					require.NoError(t, st.Finish(ctx, channel))
				}
			}
			exists := func(channel string) bool {
				t.Helper()
				_, err := st.Get(ctx, channel)
				if err != nil {
					require.ErrorIs(t, err, dixbot.ErrNotFound)
				}
				return err == nil
			}
			// old: archived with its log, then the cutoff, then newer games.
			put("old", true)
			put("old/log", false)
			put("shared", true)
			time.Sleep(5 * time.Millisecond)
			cutoff := time.Now()
			time.Sleep(5 * time.Millisecond)
			put("shared/log", false) // the log of a newer game of that channel
			put("new", true)
			put("new/log", false)
			put("playing", false)

			keep := 30 * 24 * time.Hour
			cfg := Config{Retention: Days(keep)}
			r := retentionRunner(cfg, st, b.Retire, slog.New(slog.DiscardHandler))
			require.NotNil(t, r)
			now := cutoff.Add(keep).Add(-time.Hour)
			r.Now = func() time.Time { return now }
			r.Poll(ctx, 0)
			for _, ch := range []string{"old", "old/log", "shared", "shared/log", "new", "new/log", "playing"} {
				assert.True(t, exists(ch), "%s deleted an hour before its time", ch)
			}

			now = cutoff.Add(keep)
			r.Poll(ctx, 0)
			assert.False(t, exists("old"))
			assert.False(t, exists("old/log"))
			assert.False(t, exists("shared"))
			for _, ch := range []string{"shared/log", "new", "new/log", "playing"} {
				assert.True(t, exists(ch), "%s is newer than the cutoff", ch)
			}

			// Years later, every archive and log goes; the active game stays.
			now = now.Add(1000 * 24 * time.Hour)
			r.Poll(ctx, 0)
			assert.False(t, exists("new"))
			assert.False(t, exists("new/log"))
			assert.True(t, exists("playing"))
			assert.True(t, exists("shared/log"), "a log without an archive is left to its own expiry (GAME_TTL)")
		})
	}
}
