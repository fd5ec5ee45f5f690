package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/locales"
)

// newOpsWorld is newWorld with Redis and the /healthz and /metrics listener.
func newOpsWorld(t *testing.T) *world {
	t.Helper()
	w := &world{fake: fakediscord.Start(t, fakediscord.Options{DisableWeb: true})}
	t.Cleanup(func() { noViolations(t, w.fake) })
	w.redis = redistest.Start(t)
	w.cfg = baseConfig(t, w.fake, w.redis.URL())
	w.cfg.HTTPAddr = "127.0.0.1:0"
	w.bot = startApp(t, w.cfg)
	return w
}

// metric returns one sample of the running program's /metrics (0 if absent).
func (w *world) metric(t *testing.T, name string) float64 {
	t.Helper()
	return scrapeMetrics(t, w.bot.started.HTTPAddr)[name]
}

// handled is how many interactions the program counted as handled.
func (w *world) handled(t *testing.T) float64 {
	t.Helper()
	total := 0.0
	for k, v := range scrapeMetrics(t, w.bot.started.HTTPAddr) {
		if strings.HasPrefix(k, "dix_interactions_total{") {
			total += v
		}
	}
	return total
}

// settled waits until the program has counted every interaction the
// stand-in dispatched (it counts one just after answering it) and returns
// that count.
func (w *world) settled(t *testing.T) float64 {
	t.Helper()
	want := float64(len(w.fake.Interactions()))
	require.NoError(t, waitUntil(waitCtx(t), w.fake, func() bool { return w.handled(t) >= want }))
	return w.handled(t)
}

// oneClickVerbs are the board's decisions made in one click (no prompt).
var oneClickVerbs = []string{"draw", "stop", "numbers", "money", "end", "pass", "consolation", "bustbuy"}

// oneClickDecision returns a board button that decides in one click.
func oneClickDecision(t *testing.T, buttons map[string]customID) customID {
	t.Helper()
	for _, v := range oneClickVerbs {
		if id, ok := buttons[v]; ok {
			return id
		}
	}
	t.Fatalf("no one-click decision among %v", buttons)
	return customID{}
}

// untilOneClick plays on until the board offers a decision made in one
// click (an auction winner, for one, can only open the payment prompt), and
// returns the record, the board, its buttons and the user to act.
func (tb *table) untilOneClick() (*dixbot.Record, fakediscord.Message, map[string]customID, fakediscord.User) {
	tb.t.Helper()
	return tb.untilVerbs(oneClickVerbs, 100)
}

// untilVerbs plays on (at most max decisions) until the board offers one
// of verbs, and returns the record, the board, its buttons and the user to
// act.
func (tb *table) untilVerbs(verbs []string, max int) (*dixbot.Record, fakediscord.Message, map[string]customID, fakediscord.User) {
	tb.t.Helper()
	for i := 0; ; i++ {
		require.Less(tb.t, i, max, "never any of %v", verbs)
		rec := tb.record()
		board, buttons := tb.boardFor(rec)
		for _, v := range verbs {
			if _, ok := buttons[v]; ok {
				return rec, board, buttons, tb.user(seats(tb.t, rec)[dixOf(rec).ToAct()])
			}
		}
		require.True(tb.t, tb.decide(), "the game ended")
	}
}

// TestRedeliveredInteraction: Discord may dispatch the same interaction
// (same id and token) again when a gateway session resumes. The program
// handles it once: the game is not changed twice, and nothing is sent for
// the second delivery (a second initial answer would get 40060).
func TestRedeliveredInteraction(t *testing.T) {
	t.Parallel()
	w := newOpsWorld(t)
	tb := w.table(t, "en-US", "Alice", "Bob/fr")
	tb.lobby("/dix start")
	for range 3 {
		require.True(t, tb.decide())
	}
	redelivered := func() float64 { return w.metric(t, "dix_interactions_redelivered_total") }
	// redeliver sends ix again and waits until the program has seen it.
	redeliver := func(ix *fakediscord.Interaction) {
		t.Helper()
		before := redelivered()
		require.NoError(t, ix.Redeliver(waitCtx(t)))
		require.NoError(t, waitUntil(waitCtx(t), w.fake, func() bool { return redelivered() > before }))
		assert.Equal(t, 2, ix.Deliveries())
	}

	t.Run("answered decision", func(t *testing.T) {
		rec, board, buttons, user := tb.untilOneClick()
		ix, r := tb.clickIx(user, board.ID, oneClickDecision(t, buttons).raw)
		require.False(t, r.Ephemeral(), "applied: %s", describe(r))
		after := tb.record()
		// One step, and any decision with one possible answer it led to.
		require.Greater(t, dixOf(after).Seq, dixOf(rec).Seq)
		tb.boardFor(after)
		state, handled := tb.stateBytes(), w.settled(t)
		// The first delivery's work (the next board, a ping) went out as
		// its follow-ups; the second delivery adds none.
		require.Eventually(t, func() bool {
			var m struct {
				Outbox []json.RawMessage `json:"ob"`
			}
			return json.Unmarshal(tb.record().Meta, &m) == nil && len(m.Outbox) == 0
		}, 10*time.Second, 10*time.Millisecond, "the first delivery's work is done")
		followups := len(ix.Followups())

		redeliver(ix)
		assert.Equal(t, state, tb.stateBytes(), "the game did not change")
		assert.Equal(t, handled, w.handled(t), "the bot was not handed the second delivery")
		assert.Len(t, ix.Followups(), followups, "no follow-up for the second delivery")
	})

	t.Run("redelivered while the first is in flight", func(t *testing.T) {
		rec, board, buttons, user := tb.untilOneClick()
		hold := w.fake.HoldCallbacks(user.ID)
		defer hold.Release()
		ix, err := w.fake.Click(waitCtx(t), user.ID, board.ID, oneClickDecision(t, buttons).raw)
		require.NoError(t, err)
		select {
		case <-hold.Arrived():
		case <-waitCtx(t).Done():
			t.Fatal("the bot never answered")
		}
		redeliver(ix)
		hold.Release()
		r, err := ix.Wait(waitCtx(t))
		require.NoError(t, err)
		assert.False(t, r.Ephemeral(), "the first delivery was applied: %s", describe(r))
		applied := dixOf(tb.record()).Seq
		assert.Greater(t, applied, dixOf(rec).Seq, "applied")
		w.settled(t)
		assert.Equal(t, applied, dixOf(tb.record()).Seq, "applied once")
	})

	t.Run("private prompt and command", func(t *testing.T) {
		ix, err := w.fake.RunCommand(waitCtx(t), tb.users[1].ID, tb.channel.ID, "/dix hand")
		require.NoError(t, err)
		r, err := ix.Wait(waitCtx(t))
		require.NoError(t, err)
		require.True(t, r.Ephemeral(), describe(r))
		handled := w.settled(t)
		redeliver(ix)
		assert.Equal(t, handled, w.handled(t), "the bot was not handed the second delivery")
		assert.Empty(t, ix.Followups(), "no follow-up")
	})

	// The game goes on.
	require.True(t, tb.decide())
}

// TestRedeliveryUnknownToTheProcess covers a delivery the program's own
// memory of interaction ids does not know (here: the program restarted in
// between). The store's exactly-once record recognises it, and the bot must
// then send nothing: the interaction was answered by the first delivery.
func TestRedeliveryUnknownToTheProcess(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	rs := redistest.Start(t)
	w := &world{fake: fake, redis: rs, cfg: baseConfig(t, fake, rs.URL())}
	w.cfg.HTTPAddr = "127.0.0.1:0"
	w.bot = startApp(t, w.cfg)
	tb := w.table(t, "en-US", "Alice", "Bob")
	tb.lobby("/dix start")
	require.True(t, tb.decide())

	_, board, buttons, user := tb.untilOneClick()
	ix, r := tb.clickIx(user, board.ID, oneClickDecision(t, buttons).raw)
	require.False(t, r.Ephemeral(), describe(r))
	tb.boardFor(tb.record())
	w.restart(t)
	state, transcript := tb.stateBytes(), len(fake.Transcript(tb.channel.ID))

	require.NoError(t, ix.Redeliver(waitCtx(t)))
	// The bot reports every interaction it is handed to its Observer (the
	// metrics), a duplicate included: that is what tells it was handled.
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return w.handled(t) >= 1 }), "the bot handled the delivery")
	assert.Equal(t, state, tb.stateBytes(), "the store's exactly-once record kept the game unchanged")

	// A second initial answer would be refused by Discord (40060):
	// noViolations below fails on it.
	assert.Len(t, fake.Transcript(tb.channel.ID), transcript, "nothing was posted")
	noViolations(t, fake)
	require.True(t, tb.decide())
}

// TestStoreDownMidGame: with Redis hung (paused) or stopped while a game is
// in progress, a click is answered within Discord's deadline (noViolations
// checks that no answer was late): deferred, it gets the localised "store
// unreachable" privately once the store has stayed down for the bot's whole
// budget; nothing panics, and once Redis is back the same game goes on from
// where it was.
func TestStoreDownMidGame(t *testing.T) {
	t.Parallel()
	w := newOpsWorld(t)
	tb := w.table(t, "en-US", "Alice", "Bob/fr")
	tb.lobby("/dix start")
	for range 3 {
		require.True(t, tb.decide())
	}

	for _, tc := range []struct {
		name       string
		down, back func()
	}{
		{"hung", w.redis.Pause, w.redis.Resume},
		{"stopped", w.redis.Stop, w.redis.Restart},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, board, buttons, user := tb.untilOneClick()
			before := tb.stateBytes()
			other := tb.users[0]
			if other.ID == user.ID {
				other = tb.users[1]
			}
			id := oneClickDecision(t, buttons)

			tc.down()
			ix, err := tb.fake.Click(waitCtx(t), user.ID, board.ID, id.raw)
			require.NoError(t, err)
			told(t, w.fake, ix, locales.T(locales.For(user.Locale), "err_store_unavailable", nil))
			// The other player, in the other language, gets it too.
			ix, err = tb.fake.RunCommand(waitCtx(t), other.ID, tb.channel.ID, "/dix board")
			require.NoError(t, err)
			told(t, w.fake, ix, locales.T(locales.For(other.Locale), "err_store_unavailable", nil))
			tc.back()

			assert.Equal(t, before, tb.stateBytes(), "no game lost or changed")
			// The same button, clicked again, now plays.
			r := tb.click(user, board.ID, id.raw)
			assert.False(t, r.Ephemeral(), "applied once the store is back: %s", describe(r))
			assert.Greater(t, dixOf(tb.record()).Seq, dixOf(rec).Seq)
		})
	}
	assert.Zero(t, w.metric(t, `dix_interactions_total{kind="button",outcome="panic"}`))
	assert.Zero(t, w.metric(t, `dix_interactions_total{kind="command",outcome="panic"}`))
	assert.Positive(t, w.metric(t, `dix_store_errors_total{op="update"}`))
	code, _ := getHealth(t, w.bot.started.HTTPAddr)
	assert.Equal(t, http.StatusOK, code)

	tb.playToEnd()
	tb.checkScoreboard([]string{"Alice", "Bob"})
}

// told waits until the answer to ix, first or through its token (the
// message it made or updated, a follow-up), privately says text.
func told(t *testing.T, fake *fakediscord.Server, ix *fakediscord.Interaction, text string) {
	t.Helper()
	_, err := ix.Wait(waitCtx(t))
	require.NoError(t, err)
	says := func(m fakediscord.Message) bool { return m.Ephemeral() && strings.Contains(m.Content, text) }
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool {
		if r, ok := ix.Response(); ok && r.Message != nil && says(*r.Message) {
			return true
		}
		for _, m := range ix.Followups() {
			if says(m) {
				return true
			}
		}
		return false
	}), "told privately %q", text)
}

// TestInteractionsDuringShutdown: while the program drains at shutdown, an
// interaction in flight finishes and is saved, and new ones are still read
// from the gateway and answered "restarting, try again in a moment" in each
// user's language instead of failing. Restarted, the game goes on.
//
// What is not tested: an interaction Discord dispatches during the round
// trip of the gateway's close frame is not read (see app.shutdown); nothing
// in the stand-in can place one there deterministically.
func TestInteractionsDuringShutdown(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	t.Cleanup(func() { noViolations(t, fake) })
	w := &world{fake: fake, cfg: baseConfig(t, fake, "")}
	draining := make(chan struct{})
	w.cfg.Draining = func() { close(draining) }
	// Once the bot has drained, and before the gateway closes, one more
	// interaction arrives; its answer is held until the gateway is closed,
	// so Run must wait for it.
	var lateUser fakediscord.User
	var lateChannel string
	late := make(chan *fakediscord.Interaction, 1)
	lateErr := make(chan error, 1)
	w.cfg.Drained = func() {
		hold := fake.HoldCallbacks(lateUser.ID)
		ix, err := fake.RunCommand(waitCtx(t), lateUser.ID, lateChannel, "/dix rules")
		if err != nil {
			hold.Release()
			lateErr <- err
			return
		}
		select {
		case <-hold.Arrived():
		case <-time.After(waitTimeout):
		}
		late <- ix
		go func() {
			_ = fake.WaitFor(waitCtx(t), func() bool { return !fake.Connected() })
			hold.Release()
		}()
	}
	w.bot = startApp(t, w.cfg)
	tb := w.table(t, "en-US", "Alice", "Bob/fr", "Chloe")
	lateChannel = tb.channel.ID
	tb.lobby("/dix start")
	require.True(t, tb.decide())

	rec, board, buttons, actor := tb.untilOneClick()
	var waiting []fakediscord.User
	for _, u := range tb.users {
		if u.ID != actor.ID {
			waiting = append(waiting, u)
		}
	}
	// Two onlookers, so that both languages are seen whoever acts.
	for _, n := range []fakediscord.UserSpec{{Name: "Dan", Locale: "en-US"}, {Name: "Eve", Locale: "fr"}} {
		u := fake.AddUser(n)
		require.NoError(t, fake.AddMember(tb.guild.ID, u.ID, 0))
		waiting = append(waiting, u)
	}
	lateUser = waiting[0]

	// A click whose answer is held on its way to Discord: in flight.
	hold := fake.HoldCallbacks(actor.ID)
	defer hold.Release()
	inFlight, err := fake.Click(waitCtx(t), actor.ID, board.ID, oneClickDecision(t, buttons).raw)
	require.NoError(t, err)
	select {
	case <-hold.Arrived():
	case <-waitCtx(t).Done():
		t.Fatal("the click never reached its answer")
	}

	stopped := make(chan error, 1)
	run := w.bot
	run.cancel()
	run.cancel = nil // stopped here, not by the clean-up
	go func() { stopped <- <-run.done }()
	select {
	case <-draining:
	case <-time.After(waitTimeout):
		t.Fatal("the program never started draining")
	}

	// New interactions during the drain: answered, in each user's language.
	langs := map[string]bool{}
	for _, u := range waiting {
		r := tb.command(u, "/dix hand")
		require.NotNil(t, r.Message, describe(r))
		assert.True(t, r.Ephemeral(), describe(r))
		lang := locales.For(u.Locale)
		assert.Contains(t, r.Message.Content, locales.T(lang, "err_restarting", nil), "%s (%s)", u.Username, lang)
		langs[lang] = true
	}
	assert.Len(t, langs, 2, "checked in English and French")

	hold.Release()
	r, err := inFlight.Wait(waitCtx(t))
	require.NoError(t, err)
	assert.False(t, r.Ephemeral(), "the click in flight was applied: %s", describe(r))
	select {
	case err := <-stopped:
		require.NoError(t, err, "clean shutdown")
	case <-time.After(waitTimeout):
		t.Fatal("app.Run did not return")
	}
	select {
	case err := <-lateErr:
		t.Fatalf("the late interaction: %v", err)
	case ix := <-late:
		r, ok := ix.Response()
		require.True(t, ok, "the interaction read just before the gateway closed was answered before Run returned")
		require.NotNil(t, r.Message, describe(r))
		assert.True(t, r.Ephemeral(), describe(r))
		assert.Contains(t, r.Message.Content, locales.T(locales.For(lateUser.Locale), "err_restarting", nil))
	}
	// Started again (the stopped program's store is closed).
	w.cfg.Draining, w.cfg.Drained = nil, nil
	w.bot = startApp(t, w.cfg)
	after := tb.record()
	assert.Greater(t, dixOf(after).Seq, dixOf(rec).Seq, "saved")
	// What the bot posts after answering was posted before it stopped.
	tb.boardFor(after)
	require.True(t, tb.decide())
}
