package bot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	computer "github.com/dixgame/dixbot/computer/qwixx"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/store"
)

// redisQwixx is a harness on Redis whose bot hosts Qwixx with text
// boards, its folds waiting an hour unless written.
func redisQwixx(t *testing.T) (*harness, *store.Redis) {
	t.Helper()
	h, rs, _ := redisHarness(t)
	redisQwixxBot(t, h, rs)
	return h, rs
}

// redisQwixxPair is redisQwixx with the store of another process on the
// same Redis.
func redisQwixxPair(t *testing.T) (*harness, *store.Redis, *store.Redis) {
	t.Helper()
	srv := redistest.Start(t)
	prefix := fmt.Sprintf("pair%d:", time.Now().UnixNano())
	open := func() *store.Redis {
		rs, err := store.OpenRedis(context.Background(), store.Options{URL: srv.URL(), Prefix: prefix, Timeout: testRedisTimeout})
		require.NoError(t, err)
		t.Cleanup(func() { rs.Close() })
		return rs
	}
	rs, elsewhere := open(), open()
	h := newHarnessOn(t, rs)
	redisQwixxBot(t, h, rs)
	return h, rs, elsewhere
}

// redisQwixxBot puts on h a bot of rs as redisQwixx's.
func redisQwixxBot(t *testing.T, h *harness, rs *store.Redis) {
	t.Helper()
	b, err := New(Options{Store: rs, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs,
		NoPictures: true, Games: []present.Game{botqwixx.Game()}})
	require.NoError(t, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	b.hooks.foldWait = time.Hour
	h.b = b
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
// change, or on their own. Once the process has read there a write of
// another process, a decision taken while another seat decides too costs
// one more: the read that keeps an older answer off the board
// (Call.overtaken). Whether another change came in once it landed is
// found by the write that records its effects (the fold's).
func TestRoundTripsPerClick(t *testing.T) {
	t.Parallel()
	h, rs, elsewhere := redisQwixxPair(t)
	users := []string{"u1", "u2"}
	board := h.openQwixx(users)
	for _, shared := range []bool{false, true} {
		if shared {
			// Another process writes the channel (the game as it was),
			// and this process reads that write with its next change.
			_, err := elsewhere.Update(context.Background(), h.Channel, "", func(*dixbot.Record) error { return nil })
			require.NoError(t, err)
			require.True(t, rs.Alone(h.Channel), "not read yet")
		}
		measured, raced := 0, 0
		for step := 0; step < 60 && (measured < 3 || raced == 0); step++ {
			g, _, _ := h.qstate()
			seat := g.ToDecide()[0]
			m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rand.New(rand.NewPCG(uint64(step), 1)))
			require.NoError(t, err)
			logBefore := logVersion(t, h)
			wasAlone := rs.Alone(h.Channel)
			_, before := rs.Sent()
			res := h.ClickOn(users[seat], board, h.qmust(board, verbMove, string(m)))
			_, after := rs.Sent()
			board = res.Shown(board)
			if len(res.Calls) != 1 || h.b.folds.Get(h.Channel) == nil || logVersion(t, h) != logBefore || wasAlone == shared {
				continue // a message posted, or the board edited: recorded at once; or the log written; or the other's write read now
			}
			measured++
			// One: the update. A decision taken while the other seat
			// decides too, where another process writes, reads the
			// record before its answer.
			want := uint64(1)
			if len(g.ToDecide()) > 1 {
				raced++
				if shared {
					want++
				}
			}
			assert.Equal(t, want, after-before, "round trips of step %d (another process writes there: %v)", step, shared)
		}
		assert.Positive(t, raced, "no decision taken with another seat's (another process writes there: %v)", shared)
		assert.Equal(t, !shared, rs.Alone(h.Channel))
	}
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

// Two seats decide at once on the white sum, each on its own process (two
// stores on one Redis). This click's answer puts its game on the board and
// its effects wait for the channel's next change (a fold); the other's
// change is written after the answer landed, its own answer not sent, so
// the board may show the older game. The fold's write finds the game moved
// on from the one the answer showed: it owes the board's edit again, due at
// once, and the due work shows the game as it stands. So it does when the
// other process did every effect owed, this click's included (its answer
// counted them shown), before the fold's write. Without the other's
// change, the fold's write owes nothing.
func TestFoldedAnswerOvertakenIsShownAgain(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ moved, took bool }{{true, false}, {true, true}, {false, false}} {
		moved := c.moved
		h, rs, elsewhere := redisQwixxPair(t)
		users := []string{"u1", "u2", "u3"}
		board := h.openQwixx(users)
		g, _, _ := h.qstate()
		deciding := g.ToDecide()
		require.Len(t, deciding, 3, "the white sum: every seat decides")
		me, other := deciding[0], deciding[1]
		third := 3 - me - other

		require.True(t, rs.Alone(h.Channel), "no read before the answer: this process alone wrote there")
		resp := h.ClickOn(users[me], board, h.qmust(board, verbMove, "w -")).Response()
		require.NotNil(t, resp)
		require.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "the board in place")
		shown := h.Rec.Message(board.ID).Content
		fd := h.b.folds.Get(h.Channel)
		require.NotNil(t, fd, "the click's effects wait for the next change")
		require.NotNil(t, fd.shown, "with the game its answer showed")

		if moved {
			require.NoError(t, passWhiteSum(elsewhere, h.Channel, other))
		}
		if c.took {
			require.NoError(t, outboxDoneElsewhere(elsewhere, h.Channel))
		}
		now := time.Now()
		h.b.writeFold(context.Background(), h.Channel, fd)
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		_, td, _ := h.qstate()
		if !moved {
			assert.Empty(t, td.Outbox, "nothing owed: the board shows the game")
			assert.Equal(t, shown, h.Rec.Message(board.ID).Content)
			continue
		}
		require.True(t, cedAgain(td.Outbox), "the board's edit owed again: %+v", td.Outbox)
		assert.False(t, r.Due.After(time.Now()), "due at once (%v, written after %v)", r.Due, now)
		assert.Equal(t, shown, h.Rec.Message(board.ID).Content, "not shown yet")
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, time.Now()))
		names := []string{"Alice", "Bob", "Chloé"}
		assert.Contains(t, h.Rec.Message(board.ID).Content, "Waiting for: "+names[third], "the board shows the game as it stands")
		_, td, _ = h.qstate()
		assert.Empty(t, td.Outbox, "every effect done")
	}
}

// outboxDoneElsewhere empties the outbox of channel's table straight in
// db, as another process that did every effect owed would.
func outboxDoneElsewhere(db dixbot.Store, channel string) error {
	_, err := db.Update(context.Background(), channel, "", func(r *dixbot.Record) error {
		td, err := decodeTableData(r.Meta)
		if err != nil {
			return err
		}
		td.Outbox = nil
		r.Meta = td.Encode()
		return nil
	})
	return err
}

// passWhiteSum writes seat's pass on the white sum of channel's Qwixx game
// straight to db, as another process would.
func passWhiteSum(db dixbot.Store, channel string, seat int) error {
	_, err := db.Update(context.Background(), channel, "", func(r *dixbot.Record) error {
		st, err := rules.Rules{}.Decode(r.Data)
		if err != nil {
			return err
		}
		if _, err := st.Apply(seat, "w -"); err != nil {
			return err
		}
		r.Data = st.Encode()
		return nil
	})
	return err
}
