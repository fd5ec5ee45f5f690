package dixtable

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	computer "github.com/dixgame/dixbot/computer/qwixx"
	"github.com/dixgame/dixbot/engine/dix"
	rules "github.com/dixgame/dixbot/engine/qwixx"
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
	t.Parallel()
	rs, err := store.OpenRedis(context.Background(), store.Options{URL: redistest.Start(t).URL(), Prefix: fmt.Sprintf("rt%d:", time.Now().UnixNano())})
	require.NoError(t, err)
	t.Cleanup(func() { rs.Close() })
	h := newHarnessOn(t, rs)
	h.b.FoldWait = time.Hour // written with the next click only
	startGame(h, "u1", "u2")
	measured := 0
	for n := 0; n < 20 && measured < 3; n++ {
		rec, m := h.Record()
		g := dix.GameOf(rec.State)
		if g.Phase != dix.PhaseDraw || !slices.Contains(g.Choices(g.ToAct()).Actions, dix.ActDraw) {
			break
		}
		board := h.Board()
		user := m.Seats[g.ToAct()].ID
		_, before := rs.Sent()
		r := h.ClickOn(user, board, h.MustFind(board, verbDraw))
		_, after := rs.Sent()
		rec, m2 := h.Record()
		require.Greater(t, dix.GameOf(rec.State).Seq, g.Seq, "the click changed the game")
		if m2.Turn != m.Turn || len(r.Calls) != 1 {
			continue // the turn ended (its log is written too), or a message was posted
		}
		measured++
		assert.Equal(t, uint64(1), after-before, "round trips of click %d", n)
		_, m = h.Record()
		assert.Len(t, m.Outbox, 1, "the effect of this click is done, recorded with the next change")
	}
	assert.Positive(t, measured, "no click within a turn")
}

// foldedClick plays a draw within a turn whose answer shows everything it
// changes, and returns its record: its effect is done, and waits to be
// recorded (a fold). It fails t when the game offers no such click.
func foldedClick(t *testing.T, h *harness) *dixbot.Record {
	for n := 0; n < 20; n++ {
		rec, m := h.Record()
		g := dix.GameOf(rec.State)
		require.Equal(t, dix.PhaseDraw, g.Phase)
		board := h.Board()
		r := h.ClickOn(m.Seats[g.ToAct()].ID, board, h.MustFind(board, verbDraw))
		if len(r.Calls) == 1 && h.b.Folds.Get(h.Channel) != nil {
			rec, _ := h.Record()
			return rec
		}
	}
	t.Fatal("no click whose effects fold")
	return nil
}

// TestFoldWrittenOnItsOwn: effects done whose record waits for the
// channel's next change are recorded on their own when no change comes.
func TestFoldWrittenOnItsOwn(t *testing.T) {
	t.Parallel()
	h, _, _ := redisHarness(t)
	startGame(h, "u1", "u2")
	foldedClick(t, h)
	require.Eventually(t, func() bool {
		_, m := h.Record()
		return len(m.Outbox) == 0 && h.b.Folds.Get(h.Channel) == nil
	}, 20*time.Second, 50*time.Millisecond, "recorded within the grace")
}

// TestFoldLostLeavesTheEffectsOwed: a process that dies with effects done
// but not recorded leaves them owed: another process takes them over once
// the grace is over, as if they had not been done.
func TestFoldLostLeavesTheEffectsOwed(t *testing.T) {
	t.Parallel()
	h, rs, _ := redisHarness(t)
	h.b.FoldWait = time.Hour
	startGame(h, "u1", "u2")
	rec := foldedClick(t, h)
	other, err := bot.New(bot.Options{Store: rs, DefaultLanguage: "en", Seed: func() int64 { return 7 }})
	require.NoError(t, err)
	// This process is gone: its fold is never written.
	h.b.Folds.All()

	due, err := rs.Due(context.Background(), rec.Due, 10)
	require.NoError(t, err)
	assert.Equal(t, []string{h.Channel}, due, "due at the end of the grace")
	before := h.Rec.Count()
	require.NoError(t, other.RunDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
	_, m := h.Record()
	assert.Empty(t, m.Outbox, "taken over and done")
	assert.Greater(t, h.Rec.Count(), before, "the board edited by the other process")
}

// TestCloseWritesTheFolds: a bot that stops records the effects it did,
// when the time it is given to stop is not over already (the first call
// of a shutdown only turns new interactions away).
func TestCloseWritesTheFolds(t *testing.T) {
	t.Parallel()
	h, _, _ := redisHarness(t)
	h.b.FoldWait = time.Hour
	startGame(h, "u1", "u2")
	foldedClick(t, h)
	spent, cancel := context.WithCancel(context.Background())
	cancel()
	_ = h.b.Close(spent)
	require.NotNil(t, h.b.Folds.Get(h.Channel), "kept for the next call")
	require.NoError(t, h.b.Close(context.Background()))
	_, m := h.Record()
	assert.Empty(t, m.Outbox)
}

// TestContractRoundTripsPerClick: on Redis, a Qwixx click on the board
// whose answer shows all it changes costs one round trip, its change: its
// effects are recorded done with the next change, or on their own within
// the grace.
func TestContractRoundTripsPerClick(t *testing.T) {
	t.Parallel()
	h, rs, _ := redisHarness(t)
	b, err := bot.New(bot.Options{Store: rs, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs,
		NoPictures: true, Games: []present.Game{botqwixx.Game()}})
	require.NoError(t, err)
	h.b = b
	h.b.FoldWait = time.Hour
	users := []string{"u1", "u2"}
	board := h.openQwixx(users)
	measured := 0
	for step := 0; step < 40 && measured < 3; step++ {
		g, _, _ := h.qstate()
		seat := g.ToDecide()[0]
		m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rand.New(rand.NewPCG(uint64(step), 1)))
		require.NoError(t, err)
		logBefore := logVersion(t, h)
		_, before := rs.Sent()
		res := h.ClickOn(users[seat], board, h.qmust(board, bot.CverbMove, string(m)))
		_, after := rs.Sent()
		board = res.Shown(board)
		if len(res.Calls) != 1 || h.b.Folds.Get(h.Channel) == nil || logVersion(t, h) != logBefore {
			continue // a message posted, or the board edited: recorded at once; or the log written
		}
		measured++
		assert.Equal(t, uint64(1), after-before, "round trips of step %d", step)
	}
	assert.Positive(t, measured, "no click whose answer showed all it changed")
	fd := h.b.Folds.Get(h.Channel)
	require.NotNil(t, fd)
	h.b.WriteFold(context.Background(), h.Channel, fd)
	_, td, _ := h.qstate()
	assert.Empty(t, td.Outbox, "recorded")
}

// logVersion is the version of the channel's game log record (0: none).
func logVersion(t *testing.T, h *harness) uint64 {
	r, err := h.Db.Get(context.Background(), bot.LogChannel(h.Channel))
	if errors.Is(err, dixbot.ErrNotFound) {
		return 0
	}
	require.NoError(t, err)
	return r.Version
}
