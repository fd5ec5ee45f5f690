package e2e

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/locales"
)

// TestRedisLosesItsData: Redis goes back to an older copy of a game, then
// loses everything. The first click on a board the store no longer matches
// says what happened, in the clicker's language, and retires that board's
// buttons in the answer itself; a game restored from an older copy gets a
// fresh board and goes on from there, and once the data is gone the
// channel is free for a new game.
func TestRedisLosesItsData(t *testing.T) {
	t.Parallel()
	w := newOpsWorld(t)
	tb := w.table(t, "en-US", "Alice", "Bob/fr")
	tb.lobby("/dix start")
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: w.redis.Addr()})
	defer rdb.Close()
	key := w.cfg.RedisPrefix + "game:{" + tb.channel.ID + "}"

	// An older copy, taken now; the game goes on past it.
	older, err := rdb.Get(ctx, key).Bytes()
	require.NoError(t, err)
	kept := tb.stateBytes()
	for range 3 {
		require.True(t, tb.decide())
	}
	rec := tb.record()
	board, buttons := tb.boardFor(rec)
	require.NoError(t, rdb.Set(ctx, key, older, redis.KeepTTL).Err())
	require.Equal(t, kept, tb.stateBytes(), "the store went back")

	alice, bob := tb.users[0], tb.users[1]
	var id customID
	for _, b := range buttons {
		id = b
		break
	}
	r := tb.click(alice, board.ID, id.raw)
	retired(t, r, board.ID, locales.T("en", "err_game_restored", nil))
	// A fresh board shows the game as the store has it, and it goes on.
	fresh, _ := tb.boardFor(tb.record())
	assert.NotEqual(t, board.ID, fresh.ID)
	require.True(t, tb.decide())
	require.True(t, tb.decide())

	// Then everything is lost.
	rec = tb.record()
	board, buttons = tb.boardFor(rec)
	require.NoError(t, rdb.FlushDB(ctx).Err())
	for _, b := range buttons {
		id = b
		break
	}
	r = tb.click(bob, board.ID, id.raw)
	retired(t, r, board.ID, locales.T("fr", "err_game_gone", nil))

	// The channel is free: /dix start opens a new lobby.
	r = tb.command(alice, "/dix start")
	require.NotNil(t, r.Message, describe(r))
	assert.False(t, r.Ephemeral(), "a lobby: %s", describe(r))
	assert.NotEmpty(t, components(*r.Message))
	noViolations(t, w.fake)
}

// retired checks that r updated message in place to say text, without
// buttons.
func retired(t *testing.T, r *fakediscord.Response, message, text string) {
	t.Helper()
	require.Equal(t, 7, r.Type, describe(r))
	require.NotNil(t, r.Message, describe(r))
	assert.Equal(t, message, r.Message.ID)
	assert.Equal(t, text, r.Message.Content)
	assert.Empty(t, components(*r.Message), "the buttons are retired")
}

// TestKilledBeforeTheLobby: the bot is killed (SIGKILL) after creating the
// lobby's record, while its answer to /dix start is on its way (held by
// the stand-in). When that answer is lost, nothing shows the lobby; it is
// owed all the same: once its grace is over the bot, started again, posts
// it, and /dix start asked meanwhile is answered with it at once instead
// of "a game exists" with no way in. When the answer did get through, it is the
// lobby: the bot posts no second one. Every channel ends with one lobby
// whose buttons work.
func TestKilledBeforeTheLobby(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	redisURL := redistest.Start(t).URL()
	cfg := baseConfig(t, fake, redisURL)
	env := []string{
		"DISCORD_TOKEN=" + fake.Token(),
		"DISCORD_API_URL=" + fake.URL(),
		"REDIS_URL=" + redisURL,
		"REDIS_PREFIX=" + cfg.RedisPrefix,
		"LOG_LEVEL=debug",
	}
	w := &world{fake: fake, cfg: cfg}
	asked := w.table(t, "en-US", "Alice", "Bob")    // answer lost; /dix start asked again
	owed := w.table(t, "en-US", "Carol", "Dan")     // answer lost; nobody asks
	answered := w.table(t, "en-US", "Erin", "Finn") // the kill once the answer is through
	for _, tb := range []*table{asked, owed, answered} {
		creator := tb.users[0]
		hold := fake.HoldCallbacks(creator.ID)
		p := startProcess(t, env)
		_, err := fake.RunCommand(waitCtx(t), creator.ID, tb.channel.ID, "/dix start")
		require.NoError(t, err)
		select {
		case <-hold.Arrived():
		case <-time.After(waitTimeout):
			t.Fatalf("no answer to /dix start:\n%s", p.log())
		}
		if tb == answered {
			hold.Release()
			require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return len(lobbies(fake, tb.channel.ID)) == 1 }))
		}
		require.NoError(t, p.cmd.Process.Signal(syscall.SIGKILL))
		<-p.done
		if tb != answered {
			// Held until the end: its sender gone, this answer is lost.
			t.Cleanup(hold.Release)
			assert.Empty(t, lobbies(fake, tb.channel.ID), "no lobby shown")
		}
	}
	w.bot = startApp(t, cfg)
	restarted := time.Now()

	// The lobby is still owed: /dix start is answered with the lobby
	// itself, which then is the table's. Unless the restarted bot's run of
	// the due work has begun to show it (the grace may be over by now):
	// then the answer says the channel has a game, and the run's lobby is
	// the one.
	r := asked.command(asked.users[1], "/dix start")
	require.NotNil(t, r.Message, describe(r))
	if r.Ephemeral() {
		assert.Contains(t, r.Message.Content, "This channel already has a game", describe(r))
	} else {
		assert.True(t, hasVerb(*r.Message, "join"), "the answer is the lobby: %s", describe(r))
	}
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return len(lobbies(fake, asked.channel.ID)) == 1 }),
		"/dix start shows the lobby")

	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return len(lobbies(fake, owed.channel.ID)) == 1 }),
		"the owed lobby is posted")
	t.Logf("the owed lobby came %v after the restart", time.Since(restarted).Round(100*time.Millisecond))

	// Past the grace, no channel has a second lobby, and each one works.
	time.Sleep(time.Until(restarted.Add(15 * time.Second)))
	for _, tb := range []*table{asked, owed, answered} {
		l := lobbies(fake, tb.channel.ID)
		require.Len(t, l, 1, "one lobby")
		tb.clickVerb(tb.users[1], l[0], "join")
		assert.Len(t, seats(t, tb.record()), 2, "its buttons work")
	}
}

// lobbies are the channel's public messages with a live Join button.
func lobbies(fake *fakediscord.Server, channel string) []fakediscord.Message {
	var out []fakediscord.Message
	for _, m := range fake.Transcript(channel) {
		if m.Deleted || m.Ephemeral() {
			continue
		}
		for _, c := range components(m) {
			if id, ok := parseCustomID(c.CustomID); ok && id.verb == "join" {
				out = append(out, m)
				break
			}
		}
	}
	return out
}
