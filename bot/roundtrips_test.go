package bot

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/store"
)

// TestRedisRoundTripsPerClick: on Redis, a click on the board that draws a
// card, within a turn, whose answer shows all it changes, costs one round
// trip: its change (the record, its
// interaction id and the due index in one script), which also records the
// effects of the click before it done (fold.go). Neither the computer
// players' foresight nor the effects read the record again: they start
// from the one this process wrote.
func TestRedisRoundTripsPerClick(t *testing.T) {
	rs, err := store.OpenRedis(context.Background(), store.Options{URL: redistest.Start(t).URL(), Prefix: fmt.Sprintf("rt%d:", time.Now().UnixNano())})
	require.NoError(t, err)
	t.Cleanup(func() { rs.Close() })
	h := newHarnessOn(t, rs)
	h.startGame("u1", "u2")
	measured := 0
	for n := 0; n < 20 && measured < 3; n++ {
		rec, m := h.record()
		g := rec.State
		if g.Phase != dix.PhaseDraw || !slices.Contains(g.Choices(g.ToAct()).Actions, dix.ActDraw) {
			break
		}
		board := h.board()
		user := m.Seats[g.ToAct()].ID
		_, before := rs.Sent()
		r := h.clickOn(user, board, h.mustFind(board, verbDraw))
		_, after := rs.Sent()
		rec, m2 := h.record()
		require.Greater(t, rec.State.Seq, g.Seq, "the click changed the game")
		if m2.Turn != m.Turn || len(r.calls) != 1 {
			continue // the turn ended (its log is written too), or a message was posted
		}
		measured++
		assert.Equal(t, uint64(1), after-before, "round trips of click %d", n)
		_, m = h.record()
		assert.Len(t, m.Outbox, 1, "the effect of this click is done, recorded with the next change")
	}
	assert.Positive(t, measured, "no click within a turn")
}

// redisHarness is a harness on a Redis store of its own.
func redisHarness(t *testing.T) (*harness, *store.Redis, *redistest.Server) {
	srv := redistest.Start(t)
	rs, err := store.OpenRedis(context.Background(), store.Options{URL: srv.URL(), Prefix: fmt.Sprintf("rt%d:", time.Now().UnixNano())})
	require.NoError(t, err)
	t.Cleanup(func() { rs.Close() })
	return newHarnessOn(t, rs), rs, srv
}

// foldedClick plays a draw within a turn whose answer shows everything it
// changes, and returns its record: its effect is done, and waits to be
// recorded (a fold). It fails t when the game offers no such click.
func foldedClick(t *testing.T, h *harness) *dixbot.Record {
	for n := 0; n < 20; n++ {
		rec, m := h.record()
		g := rec.State
		require.Equal(t, dix.PhaseDraw, g.Phase)
		board := h.board()
		r := h.clickOn(m.Seats[g.ToAct()].ID, board, h.mustFind(board, verbDraw))
		if len(r.calls) == 1 && h.b.folds.get(h.channel) != nil {
			rec, _ := h.record()
			return rec
		}
	}
	t.Fatal("no click whose effects fold")
	return nil
}

// TestFoldWrittenOnItsOwn: effects done whose record waits for the
// channel's next change are recorded on their own when no change comes.
func TestFoldWrittenOnItsOwn(t *testing.T) {
	h, _, _ := redisHarness(t)
	h.startGame("u1", "u2")
	rec := foldedClick(t, h)
	m, err := decodeMeta(rec.Meta)
	require.NoError(t, err)
	require.NotEmpty(t, m.Outbox, "the effects wait")
	require.False(t, rec.Due.IsZero(), "the record is due at the end of the grace meanwhile")
	require.Eventually(t, func() bool {
		_, m := h.record()
		return len(m.Outbox) == 0
	}, 20*time.Second, 50*time.Millisecond, "recorded within the grace")
	assert.Nil(t, h.b.folds.get(h.channel))
}

// TestFoldLostLeavesTheEffectsOwed: a process that dies with effects done
// but not recorded leaves them owed: another process takes them over once
// the grace is over, as if they had not been done.
func TestFoldLostLeavesTheEffectsOwed(t *testing.T) {
	h, rs, _ := redisHarness(t)
	h.startGame("u1", "u2")
	rec := foldedClick(t, h)
	other, err := New(Options{Store: rs, DefaultLanguage: "en", Seed: func() int64 { return 7 }})
	require.NoError(t, err)
	// This process is gone: its fold is never written.
	h.b.folds.all()

	due, err := rs.Due(context.Background(), rec.Due, 10)
	require.NoError(t, err)
	assert.Equal(t, []string{h.channel}, due, "due at the end of the grace")
	before := h.rec.count()
	require.NoError(t, other.runDue(context.Background(), h.rec, h.channel, rec.Due))
	_, m := h.record()
	assert.Empty(t, m.Outbox, "taken over and done")
	assert.Greater(t, h.rec.count(), before, "the board edited by the other process")
}

// TestCloseWritesTheFolds: a bot that stops records the effects it did.
func TestCloseWritesTheFolds(t *testing.T) {
	h, _, _ := redisHarness(t)
	h.startGame("u1", "u2")
	foldedClick(t, h)
	require.NoError(t, h.b.Close(context.Background()))
	_, m := h.record()
	assert.Empty(t, m.Outbox)
}
