package e2e

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// TestRedisLosesItsData: Redis goes back to an older copy of a game, then
// loses everything. The first click on a board the store no longer matches
// says what happened, in the clicker's language, and retires that board's
// buttons in the answer itself; a game restored from an older copy gets a
// fresh board and goes on from there, and once the data is gone the
// channel is free for a new game.
func TestRedisLosesItsData(t *testing.T) {
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
