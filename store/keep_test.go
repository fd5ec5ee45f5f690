package store

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/redistest"
)

// runKeepSuite tests the channel settings and the retention of archived
// records, which every store keeps the same way.
func runKeepSuite(t *testing.T, newEnv newEnv) {
	t.Run("Settings", func(t *testing.T) { testSettings(t, newEnv(t)) })
	t.Run("Retention", func(t *testing.T) { testRetention(t, newEnv(t)) })
}

func TestFileKeep(t *testing.T) { runKeepSuite(t, fileEnv) }

func TestRedisKeep(t *testing.T) { runKeepSuite(t, redisEnv(redistest.Start(t).URL(), false)) }

func testSettings(t *testing.T, e env) {
	s := e.open(Options{})
	ss, ok := s.(dixbot.SettingsStore)
	require.True(t, ok, "%T keeps no settings", s)
	_, err := ss.Settings(ctxb, "g1", "c1")
	require.ErrorIs(t, err, dixbot.ErrNotFound)
	require.ErrorIs(t, ss.SaveSettings(ctxb, "g1", "", []byte("x")), ErrBadRecord)

	require.NoError(t, ss.SaveSettings(ctxb, "g1", "c1", []byte(`{"a":1}`)))
	require.NoError(t, ss.SaveSettings(ctxb, "g1", "c2", []byte(`{"b":2}`)))
	require.NoError(t, ss.SaveSettings(ctxb, "g2", "c1", []byte(`{"c":3}`)))
	require.NoError(t, ss.SaveSettings(ctxb, "g1", "c1", []byte(`{"a":4}`)), "saving again replaces")
	// A game in the channel neither reads nor touches its settings.
	create(t, s, "c1", "g1")
	require.NoError(t, s.Finish(ctxb, "c1"))

	check := func(ss dixbot.SettingsStore) {
		t.Helper()
		for _, want := range []struct{ guild, channel, v string }{
			{"g1", "c1", `{"a":4}`}, {"g1", "c2", `{"b":2}`}, {"g2", "c1", `{"c":3}`},
		} {
			got, err := ss.Settings(ctxb, want.guild, want.channel)
			require.NoError(t, err)
			assert.Equal(t, want.v, string(got), "%s/%s", want.guild, want.channel)
		}
		_, err := ss.Settings(ctxb, "g2", "c2")
		assert.ErrorIs(t, err, dixbot.ErrNotFound, "another server's channel")
	}
	check(ss)
	// They outlive the process.
	require.NoError(t, s.Close())
	check(e.open(Options{}).(dixbot.SettingsStore))
}

func testRetention(t *testing.T, e env) {
	s := e.open(Options{})
	rs, ok := s.(dixbot.Retention)
	require.True(t, ok, "%T has no retention", s)
	retired := func(before time.Time, max int) []string {
		t.Helper()
		got, err := rs.Retired(ctxb, before, max)
		require.NoError(t, err)
		return got
	}
	purge := func(ch string, before time.Time) bool {
		t.Helper()
		ok, err := rs.Purge(ctxb, ch, before)
		require.NoError(t, err)
		return ok
	}
	// Stamps are taken a little apart: a write's time is exact to about a
	// microsecond.
	tick := func() time.Time {
		e.clock.pass(3 * time.Millisecond)
		now := e.now()
		e.clock.pass(3 * time.Millisecond)
		return now
	}
	t0 := tick()
	for _, ch := range []string{"c1", "c2", "c3"} {
		create(t, s, ch, "g1")
	}
	require.NoError(t, s.Finish(ctxb, "c1"))
	t1 := tick()
	require.NoError(t, s.Finish(ctxb, "c2"))
	t2 := tick()

	assert.Empty(t, retired(t0, 10))
	assert.Equal(t, []string{"c1"}, retired(t1, 10))
	assert.Equal(t, []string{"c1", "c2"}, retired(t2, 10), "earliest first; the active game is not archived")
	assert.Equal(t, []string{"c1"}, retired(t2, 1))

	assert.False(t, purge("c2", t1), "archived after the cutoff: kept")
	assert.True(t, get(t, s, "c2").Finished)
	assert.False(t, purge("c3", t2), "an active game is not an archive")
	assert.False(t, get(t, s, "c3").Finished)
	assert.True(t, purge("c1", t1))
	_, err := s.Get(ctxb, "c1")
	assert.ErrorIs(t, err, dixbot.ErrNotFound)
	assert.False(t, purge("c1", t1), "purged already")
	assert.Equal(t, []string{"c2"}, retired(t2, 10))

	// A channel archived again after the cutoff keeps its new archive.
	_, err = s.Update(ctxb, "c3", "", incr)
	require.NoError(t, err)
	require.NoError(t, s.Delete(ctxb, "c2"))
	create(t, s, "c2", "g1")
	require.NoError(t, s.Finish(ctxb, "c2"))
	t3 := tick()
	assert.Empty(t, retired(t2, 10))
	assert.False(t, purge("c2", t2))
	assert.True(t, get(t, s, "c2").Finished)
	assert.Equal(t, []string{"c2"}, retired(t3, 10))
	assert.True(t, purge("c2", t3))
	assert.Empty(t, retired(t3, 10))
	assert.False(t, get(t, s, "c3").Finished, "the active game stays")
}
