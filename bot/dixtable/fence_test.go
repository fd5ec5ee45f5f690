package dixtable

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/discordapi"
)

func TestFenceKeepsEachBoardMovingForward(t *testing.T) {
	t.Parallel()
	var f bot.Fences
	now := time.Unix(1_700_000_000, 0)
	var landed []string
	show := func(msg string, s bot.Shows, what string) bool {
		sent, err := f.Send(msg, s, now, func() error {
			landed = append(landed, what)
			return nil
		})
		require.NoError(t, err)
		return sent
	}
	assert.True(t, show("m1", bot.Shows{Seq: 54}, "54"), "the first render of a board")
	assert.False(t, show("m1", bot.Shows{Seq: 53}, "53"), "an older render after a newer one")
	assert.True(t, show("m1", bot.Shows{Seq: 54}, "54 again"), "the same state again (a pause, a clock)")
	assert.True(t, show("m2", bot.Shows{Seq: 10}, "other board"), "another board has its own fence")
	assert.True(t, show("m1", bot.Shows{Retire: true}, "summary"), "a retire")
	assert.False(t, show("m1", bot.Shows{Seq: 55}, "55"), "a newer render on a retired board")
	assert.True(t, show("m1", bot.Shows{Retire: true}, "retire again"), "a retire sent again")
	assert.Equal(t, []string{"54", "54 again", "other board", "summary", "retire again"}, landed)
}

func TestFenceMovesUnlessTheRequestWasRefused(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	tooMany := &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusTooManyRequests}}
	for _, tc := range []struct {
		name  string
		err   error
		moved bool
	}{
		{"sent", nil, true},
		{"failed, may have landed", assert.AnError, true},
		{"a 5xx", &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusBadGateway}}, true},
		{"a 429", tooMany, false},
		{"a 403", &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusForbidden}}, false},
		{"held by the rate limiter", &discordapi.RateLimited{After: time.Second}, false},
		{"an answer that did not show the board", bot.ErrNotShown, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f bot.Fences
			_, err := f.Send("m", bot.Shows{Seq: 7}, now, func() error { return tc.err })
			require.ErrorIs(t, err, tc.err)
			sent, _ := f.Send("m", bot.Shows{Seq: 6}, now, func() error { return nil })
			assert.Equal(t, !tc.moved, sent, "an older render after it")
			_, _ = f.Send("r", bot.Shows{Retire: true}, now, func() error { return tc.err })
			sent, _ = f.Send("r", bot.Shows{Seq: 8}, now, func() error { return nil })
			assert.Equal(t, !tc.moved, sent, "a render after its retire")
		})
	}
}

func TestFenceSendsOneRequestPerBoardAtATime(t *testing.T) {
	t.Parallel()
	var f bot.Fences
	now := time.Unix(1_700_000_000, 0)
	var mu sync.Mutex
	inFlight, most := 0, 0
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = f.Send("m", bot.Shows{Seq: uint64(i)}, now, func() error {
				mu.Lock()
				inFlight++
				most = max(most, inFlight)
				mu.Unlock()
				time.Sleep(time.Millisecond)
				mu.Lock()
				inFlight--
				mu.Unlock()
				return nil
			})
		}()
	}
	wg.Wait()
	assert.Equal(t, 1, most, "requests on one board in flight at once")
	sent, _ := f.Send("m", bot.Shows{Seq: 48}, now, func() error { return nil })
	assert.False(t, sent, "the board shows the newest render sent")
}

func TestFencePrunesIdleBoards(t *testing.T) {
	t.Parallel()
	var f bot.Fences
	start := time.Unix(1_700_000_000, 0)
	for i := range bot.FencePrune {
		_, _ = f.Send(string(rune('a'+i%26))+time.Duration(i).String(), bot.Shows{Seq: 1}, start, func() error { return nil })
	}
	require.Len(t, f.M, bot.FencePrune)
	_, _ = f.Send("late", bot.Shows{Seq: 1}, start.Add(bot.FenceKeep+time.Second), func() error { return nil })
	assert.Len(t, f.M, 1, "only the board just used is kept")
}

func TestOlderMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"1574975907527917569", "1574975907867656193", true},
		{"1574975907867656193", "1574975907527917569", false},
		{"1574975907527917569", "1574975907527917569", false},
		{"1574975907527917569", "", false},
		{"m3", "m4", false},
	} {
		assert.Equal(t, tc.want, bot.OlderMessage(tc.a, tc.b), "%s before %s", tc.a, tc.b)
	}
}

// TestClickOnAReplacedBoardAdoptsNothing: a click applied from a board
// other than the recorded one makes it the board only when it was posted
// after the recorded one (a board whose id could not be recorded), never
// when it was replaced by the recorded one or retired by this process.
func TestClickOnAReplacedBoardAdoptsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
	rec, m := h.Record()
	m.Board = "1574975907867656193"
	out := played{rec: rec, m: m, prevPhase: dix.GameOf(rec.State).Phase, active: dix.GameOf(rec.State).Active}
	adopts := func(o origin) bool {
		for _, e := range effectsOf(out, dix.GameOf(rec.State), o) {
			if e.Kind == bot.EffAdopt {
				return true
			}
		}
		return false
	}
	assert.True(t, adopts(origin{fromBoard: true, clicked: "1574975907999999999"}), "a board posted after the recorded one")
	assert.False(t, adopts(origin{fromBoard: true, clicked: "1574975907527917569"}), "a board posted before the recorded one")
	assert.False(t, adopts(origin{fromBoard: true, clicked: "1574975907999999999", retired: true}), "a board this process retired")
	assert.False(t, adopts(origin{fromBoard: true, clicked: m.Board}), "the recorded board")
}

// TestAdoptAfterAFreshBoardKeepsTheFreshOne: a click on a board is owed as
// its adoption, but the effects of another change posted a fresh board
// first (the clicked one is older): the fresh board stays the board and
// the clicked one keeps no buttons.
func TestAdoptAfterAFreshBoardKeepsTheFreshOne(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
	clicked := h.Board()
	rec, err := h.b.Store.Update(context.Background(), h.Channel, "", onTable(func(r *dixbot.Record, m *dixTable) error {
		m.owe(r, bot.Effect{Kind: bot.EffBoard}, bot.Effect{Kind: bot.EffAdopt, Msg: clicked.ID}, bot.Effect{Kind: bot.EffEdit})
		return nil
	}))
	require.NoError(t, err)
	require.NoError(t, runDixOutbox(h.b, context.Background(), h.Rec, rec, nil))
	_, m := h.Record()
	assert.Empty(t, m.Outbox)
	assert.NotEqual(t, clicked.ID, m.Board, "the fresh board is the board")
	assert.Equal(t, []string{m.Board}, liveBoards(h.Rec), "exactly one board with buttons")
}

// TestOwnBatchLeftToItself: past the grace, this process's poller finds a
// change of its own due while that change's batch is still to run (its
// answer was slow): the poller leaves it to the batch, which does the
// effects once, without reading the channel's messages for an earlier try
// (a request with the bot token).
func TestOwnBatchLeftToItself(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	h.ClickOn("u1", board, h.MustFind(board, verbStop))
	h.b.EffectDelay = 300 * time.Millisecond
	before, _ := h.Record()
	start := h.Rec.Count()
	polled := make(chan error, 1)
	go func() {
		// The poller, once the click's change is written.
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if r, err := h.b.Store.Get(context.Background(), h.Channel); err == nil && r.Version > before.Version {
				polled <- h.b.RunDueOn(context.Background(), h.Rec, h.Channel, time.Now().Add(time.Hour))
				return
			}
		}
		polled <- errors.New("the click's change was never written")
	}()
	h.ClickOn("u1", board, h.MustFind(board, verbMoney)) // the turn ends: a fresh board is owed
	require.NoError(t, <-polled)
	posts, reads := 0, 0
	for _, c := range h.Rec.Since(start) {
		switch {
		case c.Posted():
			posts++
		case c.Op == "recent":
			reads++
		}
	}
	assert.Equal(t, 1, posts, "one fresh board")
	assert.Zero(t, reads, "no look for an earlier try")
	_, m := h.Record()
	assert.Empty(t, m.Outbox)
	assert.Equal(t, []string{m.Board}, liveBoards(h.Rec))
}

// TestFencePrunesAtMostOncePerInterval: a process holding more fences
// than fencePrune, all of them in use, looks for idle ones once per
// fencePruneEvery, not on every request.
func TestFencePrunesAtMostOncePerInterval(t *testing.T) {
	t.Parallel()
	var f bot.Fences
	start := time.Unix(1_700_000_000, 0)
	for i := range bot.FencePrune + 10 {
		_, _ = f.Send("m"+time.Duration(i).String(), bot.Shows{Seq: 1}, start, func() error { return nil })
	}
	require.Len(t, f.M, bot.FencePrune+10, "none idle: all kept")
	looked := f.Pruned
	_, _ = f.Send("next", bot.Shows{Seq: 1}, start.Add(time.Second), func() error { return nil })
	assert.Equal(t, looked, f.Pruned, "no second look within the interval")
	_, _ = f.Send("later", bot.Shows{Seq: 1}, start.Add(bot.FencePruneEvery+time.Second), func() error { return nil })
	assert.Equal(t, start.Add(bot.FencePruneEvery+time.Second), f.Pruned, "a look once the interval is over")
	assert.Len(t, f.M, bot.FencePrune+12, "still none idle")
}
