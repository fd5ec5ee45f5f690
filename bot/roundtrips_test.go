package bot

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	computer "github.com/dixgame/dixbot/computer/qwixx"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/store"
)

// redisQwixx is a harness on Redis whose bot hosts Qwixx with text
// boards, its folds waiting an hour unless written.
func redisQwixx(t *testing.T) (*harness, *store.Redis) {
	t.Helper()
	h, rs, _ := redisHarness(t)
	b, err := New(Options{Store: rs, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs,
		NoPictures: true, Games: []present.Game{botqwixx.Game()}})
	require.NoError(t, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	b.hooks.foldWait = time.Hour
	h.b = b
	return h, rs
}

// foldedClick plays the normal computer's decisions by clicks on the
// board until one's effects wait for the channel's next change (a fold),
// and returns the board and the record that click wrote.
func foldedClick(t *testing.T, h *harness, board *tabletest.Message) (*tabletest.Message, *dixbot.Record) {
	t.Helper()
	users := []string{"u1", "u2"}
	for step := range 40 {
		g, _, _ := h.qstate()
		seat := g.ToDecide()[0]
		m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rand.New(rand.NewPCG(uint64(step), 1)))
		require.NoError(t, err)
		board = h.ClickOn(users[seat], board, h.qmust(board, verbMove, string(m))).Shown(board)
		if h.b.folds.Get(h.Channel) != nil {
			r, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			return board, r
		}
	}
	t.Fatal("no click whose effects fold")
	return nil, nil
}

// logVersion is the version of the channel's game log record (0: none).
func logVersion(t *testing.T, h *harness) uint64 {
	r, err := h.Db.Get(context.Background(), logChannel(h.Channel))
	if errors.Is(err, dixbot.ErrNotFound) {
		return 0
	}
	require.NoError(t, err)
	return r.Version
}

// On Redis, a click on the board whose answer shows all it changes costs
// one round trip, its change: its effects are recorded done with the next
// change, or on their own. A decision taken while another seat decides
// too costs two more: the read that keeps an older answer off the board
// (Call.overtaken), and the read once it landed that owes the board's
// edit again if another change came in between (settleAnswer).
func TestRoundTripsPerClick(t *testing.T) {
	t.Parallel()
	h, rs := redisQwixx(t)
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
		res := h.ClickOn(users[seat], board, h.qmust(board, verbMove, string(m)))
		_, after := rs.Sent()
		board = res.Shown(board)
		if len(res.Calls) != 1 || h.b.folds.Get(h.Channel) == nil || logVersion(t, h) != logBefore {
			continue // a message posted, or the board edited: recorded at once; or the log written
		}
		measured++
		// One: the update. A decision taken while the other seat decides
		// too reads the record before its answer and once it landed.
		want := uint64(1)
		if len(g.ToDecide()) > 1 {
			want += 2
		}
		assert.Equal(t, want, after-before, "round trips of step %d", step)
	}
	assert.Positive(t, measured, "no click whose answer showed all it changed")
	fd := h.b.folds.Get(h.Channel)
	require.NotNil(t, fd)
	h.b.writeFold(context.Background(), h.Channel, fd)
	_, td, _ := h.qstate()
	assert.Empty(t, td.Outbox, "recorded")
}

// A process that dies with effects done but not recorded leaves them
// owed: another process takes them over once the grace is over, as if they
// had not been done.
func TestFoldLostLeavesTheEffectsOwed(t *testing.T) {
	t.Parallel()
	h, rs := redisQwixx(t)
	_, rec := foldedClick(t, h, h.openQwixx([]string{"u1", "u2"}))
	other, err := New(Options{Store: rs, DefaultLanguage: "en", Seed: func() int64 { return 7 }, NoPictures: true,
		Games: []present.Game{botqwixx.Game()}})
	require.NoError(t, err)
	// This process is gone: its fold is never written.
	h.b.folds.All()

	due, err := rs.Due(context.Background(), rec.Due, 10)
	require.NoError(t, err)
	assert.Equal(t, []string{h.Channel}, due, "due at the end of the grace")
	before := h.Rec.Count()
	require.NoError(t, other.runDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
	_, td, _ := h.qstate()
	assert.Empty(t, td.Outbox, "taken over and done")
	assert.Greater(t, h.Rec.Count(), before, "the board edited by the other process")
}

// A bot that stops records the effects it did, when the time it is given
// to stop is not over already (the first call of a shutdown only turns new
// interactions away).
func TestCloseWritesTheFolds(t *testing.T) {
	t.Parallel()
	h, _ := redisQwixx(t)
	foldedClick(t, h, h.openQwixx([]string{"u1", "u2"}))
	spent, cancel := context.WithCancel(context.Background())
	cancel()
	_ = h.b.Close(spent)
	require.NotNil(t, h.b.folds.Get(h.Channel), "kept for the next call")
	require.NoError(t, h.b.Close(context.Background()))
	_, td, _ := h.qstate()
	assert.Empty(t, td.Outbox)
}
