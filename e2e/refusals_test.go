package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// drawHeavy makes the random player draw most of the time, so wilds (and
// their auctions) come up quickly.
var drawHeavy = map[string]int{"draw": 30, "stop": 1, "num": 3, "money": 1, "buy": 1, "end": 3, "cons": 1, "bbuy": 1, "bid": 3, "pass": 1, "pay": 1}

func inAuction(g *dix.Game) bool { return g.Phase == dix.PhaseAuction }

// bidding holds in an auction whose bidder may bid (one who cannot afford
// the minimum only has Pass).
func bidding(g *dix.Game) bool {
	return inAuction(g) && slices.Contains(g.Choices(g.ToAct()).Actions, dix.ActBid)
}

// assertRefused checks that an answer is an ephemeral message, in lang,
// containing the text of key, and that the stored game did not change.
func (tb *table) assertRefused(r *fakediscord.Response, lang, key string, data map[string]any, before []byte) {
	tb.t.Helper()
	require.NotNil(tb.t, r.Message, "an answer message: %s", describe(r))
	assert.True(tb.t, r.Ephemeral(), "the refusal is ephemeral: %s", describe(r))
	assert.Contains(tb.t, r.Message.Content, locales.T(lang, key, data), "refusal text (%s, %s)", lang, key)
	assert.Equal(tb.t, before, tb.stateBytes(), "the stored game is unchanged")
}

// clickIx is click returning the interaction too (to submit a modal).
func (tb *table) clickIx(user fakediscord.User, msgID, customID string) (*fakediscord.Interaction, *fakediscord.Response) {
	tb.t.Helper()
	ctx := waitCtx(tb.t)
	ix, err := tb.fake.Click(ctx, user.ID, msgID, customID)
	require.NoError(tb.t, err, "click %s as %s", customID, user.Username)
	r, err := ix.Wait(ctx)
	require.NoError(tb.t, err)
	return ix, r
}

// openForm clicks the button customID that opens a form, as user, and
// returns the interaction the form answered. A busy machine may defer the
// click: a form cannot follow a deferral, so the player is told privately
// to click again, and does.
func (tb *table) openForm(user fakediscord.User, msgID, customID string) *fakediscord.Interaction {
	tb.t.Helper()
	note := locales.T(locales.For(user.Locale), "slow_modal", nil)
	for try := 0; ; try++ {
		seen := len(tb.fake.Ephemerals(tb.channel.ID, user.ID))
		ix, opened := tb.clickIx(user, msgID, customID)
		if opened.Type == fakediscord.CallbackModal {
			return ix
		}
		require.Equal(tb.t, fakediscord.CallbackDeferredUpdateMessage, opened.Type, "the form: %s", describe(opened))
		require.Less(tb.t, try, 5, "the form's click deferred again and again")
		require.NoError(tb.t, waitUntil(waitCtx(tb.t), tb.fake, func() bool {
			return slices.ContainsFunc(tb.fake.Ephemerals(tb.channel.ID, user.ID)[seen:], func(m fakediscord.Message) bool { return m.Content == note })
		}), "a deferred form's click is told to click again")
	}
}

func (tb *table) submit(user fakediscord.User, opened *fakediscord.Interaction, values map[string]string) *fakediscord.Response {
	tb.t.Helper()
	ctx := waitCtx(tb.t)
	ix, err := tb.fake.SubmitModal(ctx, user.ID, opened, values)
	require.NoError(tb.t, err)
	r, err := ix.Wait(ctx)
	require.NoError(tb.t, err)
	return r
}

func firstOf(m fakediscord.Message, verb string) customID {
	for _, c := range components(m) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == verb {
			return id
		}
	}
	return customID{}
}

// findMove is the first of m's move buttons whose move starts with
// prefix.
func findMove(m fakediscord.Message, prefix string) customID {
	for _, c := range components(m) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == "mv" && strings.HasPrefix(id.arg, prefix) {
			return id
		}
	}
	return customID{}
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld(t, true)
	// Bob plays in French; Eve (French) and Dan (English) are members of
	// the server but not players.
	tb := w.table(t, "en-US", "Alice", "Bob/fr", "Chloe", "Eve/fr", "Dan")
	players, eve, dan := tb.users[:3], tb.users[3], tb.users[4]
	outsiders := []fakediscord.User{eve, dan}
	tb.users = players
	tb.lobby("/dix start")
	tb.users = append(tb.users, outsiders...)
	tb.weights = drawHeavy

	rec := tb.playUntil(bidding)
	g := dixOf(rec)
	bidderSeat := g.ToAct()
	ids := seats(t, rec)
	bidder := tb.user(ids[bidderSeat])
	var others []fakediscord.User
	for s, id := range ids {
		if s != bidderSeat {
			others = append(others, tb.user(id))
		}
	}
	langOf := func(u fakediscord.User) string { return locales.For(u.Locale) }
	require.Equal(t, "fr", langOf(eve))
	require.Equal(t, "en", langOf(dan))
	// The board offers Pass and the bid's private prompt.
	board, buttons := tb.boardFor(rec)
	require.Contains(t, buttons, "pr")
	require.Contains(t, buttons, "pass")
	before := tb.stateBytes()

	t.Run("wrong user", func(t *testing.T) {
		for _, other := range others {
			for _, b := range []string{"pr", "pass"} {
				r := tb.click(other, board.ID, buttons[b].raw)
				tb.assertRefused(r, langOf(other), "dix_err_not_your_turn", map[string]any{"Name": bidder.Username}, before)
			}
		}
	})
	t.Run("outsider", func(t *testing.T) {
		for _, u := range outsiders {
			for _, b := range []string{"pass", "pr"} {
				r := tb.click(u, board.ID, buttons[b].raw)
				tb.assertRefused(r, langOf(u), "table_err_not_seated", nil, before)
			}
		}
		// The two languages say it differently.
		assert.NotEqual(t, locales.T("en", "table_err_not_seated", nil), locales.T("fr", "table_err_not_seated", nil))
	})

	t.Run("forged custom ids", func(t *testing.T) {
		v := strconv.FormatUint(uint64(version(t, rec)), 10)
		// Unreadable ids are refused before anything else, for anyone, in
		// the clicker's language; an id of no verb the table reads is
		// taken for a button of the table DIX had before, outdated. A
		// move DIX does not read, a step that is not one of the decision
		// and an outdated move are refused to the bidder; an outsider is
		// told they do not play.
		forged := []struct {
			id, key, outsider string
		}{
			{"garbage", "err_bad_custom_id", "err_bad_custom_id"},
			{"dix:mv", "err_bad_custom_id", "err_bad_custom_id"},
			{"dix:mv:x", "err_bad_custom_id", "err_bad_custom_id"},
			{"dix:nosuchverb:" + v, "err_stale", "err_stale"},
			{"dix:mv:" + v + ":bid abc", "err_bad_custom_id", "table_err_not_seated"},
			{"dix:mv:" + v + ":zz", "err_bad_custom_id", "table_err_not_seated"},
			{"dix:st:" + v + ":a abc", "err_bad_custom_id", "table_err_not_seated"},
			{"dix:mv:" + strconv.FormatUint(uint64(version(t, rec)-1), 10) + ":pass", "err_stale", "table_err_not_seated"},
			{"dix:mv:" + v + ":draw", "dix_err_wrong_phase", "table_err_not_seated"},
		}
		ids := make([]string, len(forged))
		for i, f := range forged {
			ids[i] = f.id
		}
		msg := postButtons(t, w.fake, tb.channel.ID, ids)
		for _, f := range forged {
			t.Run(f.id, func(t *testing.T) {
				tb.assertRefused(tb.click(bidder, msg, f.id), langOf(bidder), f.key, nil, before)
				for _, u := range outsiders {
					tb.assertRefused(tb.click(u, msg, f.id), langOf(u), f.outsider, nil, before)
				}
			})
		}
	})

	// The bidder's private prompt, kept open for the stale click below.
	prompt := tb.click(bidder, board.ID, buttons["pr"].raw)
	require.True(t, prompt.Ephemeral(), "the bid prompt: %s", describe(prompt))
	quick := findMove(*prompt.Message, "bid ")
	require.NotEmpty(t, quick.raw, "quick amounts")
	sel := firstOf(*prompt.Message, "sel")
	require.NotEmpty(t, sel.raw, "the menu of amounts")
	ch := g.Choices(bidderSeat)

	t.Run("menu input", func(t *testing.T) {
		// Values of the menu of amounts the bot never offered (a menu of
		// the same id posted with the bot's token): each refused in
		// words, nothing changed.
		cases := []struct {
			name, value, key string
			data             map[string]any
		}{
			{"not a number", "mv:bid abc", "err_bad_custom_id", nil},
			{"negative", "mv:bid -3", "err_bad_custom_id", nil},
			{"above capacity", "mv:bid 999", "dix_err_bid_too_high", nil},
			{"below minimum", "mv:bid " + strconv.Itoa(ch.MinBid-1), "dix_err_bid_too_low", nil},
			{"a forged step", "st:a abc", "err_bad_custom_id", nil},
			{"no such step", "st:zz", "err_bad_custom_id", nil},
		}
		values := make([]string, len(cases))
		for i, tc := range cases {
			values[i] = tc.value
		}
		menu := postSelect(t, w.fake, tb.channel.ID, sel.raw, values)
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := tb.pick(bidder, menu, sel.raw, tc.value)
				tb.assertRefused(r, langOf(bidder), tc.key, tc.data, before)
			})
		}
	})

	t.Run("stale prompt", func(t *testing.T) {
		r := tb.click(bidder, board.ID, buttons["pass"].raw)
		require.False(t, r.Ephemeral(), "pass is applied: %s", describe(r))
		after := tb.stateBytes()
		require.NotEqual(t, before, after)
		// The bidder's decision is taken: the prompt's bid is refused,
		// as outdated or, the auction gone on, as another's decision.
		r = tb.click(bidder, prompt.Message.ID, quick.raw)
		require.NotNil(t, r.Message, describe(r))
		assert.True(t, r.Ephemeral(), "refused privately: %s", describe(r))
		now := tb.record()
		lang := langOf(bidder)
		wants := []string{locales.T(lang, "err_stale", nil), locales.T(lang, "dix_err_wrong_phase", nil)}
		if to := dixOf(now).ToAct(); to >= 0 && to != bidderSeat {
			wants = append(wants, locales.T(lang, "dix_err_not_your_turn", map[string]any{"Name": tb.user(seats(t, now)[to]).Username}))
		}
		assert.True(t, slices.ContainsFunc(wants, func(w string) bool { return strings.Contains(r.Message.Content, w) }),
			"%q says one of %q", r.Message.Content, wants)
		assert.Equal(t, after, tb.stateBytes(), "the stored game is unchanged")
	})

	tb.users = players
	tb.weights = nil
	tb.playToEnd()
	tb.checkScoreboard([]string{"Alice", "Bob", "Chloe"})
}

// staleNotice reports whether the answer r to ix told the clicker,
// privately, that the button was outdated: in the answer itself, or in a
// follow-up after the answer redrew the board as it stands (the shared
// table's answer to an outdated click on the board).
func staleNotice(ix *fakediscord.Interaction, r *fakediscord.Response, lang string) bool {
	stale := locales.T(lang, "err_stale", nil)
	if r.Ephemeral() && strings.Contains(sentContent(r), stale) {
		return true
	}
	for _, f := range ix.Followups() {
		if f.Ephemeral() && strings.Contains(f.Content, stale) {
			return true
		}
	}
	return false
}

// refusal reports whether r refused the click privately: a private
// message of its own, or the private prompt clicked redrawn with the
// refusal on top (an applied click's prompt says it is done, or shows
// the next decision).
// A deferred update (a busy machine) is judged by the message once
// edited.
func refusal(ix *fakediscord.Interaction, r *fakediscord.Response, lang string) bool {
	if !r.Ephemeral() {
		return false
	}
	mark := locales.T(lang, "refusal_line", map[string]any{"Text": ""})
	switch r.Type {
	case fakediscord.CallbackUpdateMessage:
		return strings.HasPrefix(sentContent(r), mark)
	case fakediscord.CallbackDeferredUpdateMessage:
		cur, ok := ix.Response()
		return ok && cur.Message != nil && strings.HasPrefix(cur.Message.Content, mark)
	}
	return true
}

// clicked is one click of a burst and its answer.
type clicked struct {
	ix   *fakediscord.Interaction
	r    *fakediscord.Response
	lang string
}

// burst tells apart the answers of clicks released at once: those told
// the button was outdated (waiting for their follow-ups, which come after
// the answers), those refused otherwise, and the others, the clicks
// applied.
func burst(t *testing.T, fake *fakediscord.Server, clicks []clicked) (applied, stale, refused int) {
	t.Helper()
	count := func() {
		applied, stale, refused = 0, 0, 0
		for _, c := range clicks {
			switch {
			case staleNotice(c.ix, c.r, c.lang):
				stale++
			case refusal(c.ix, c.r, c.lang):
				refused++
			default:
				applied++
			}
		}
	}
	// Every answer but one applied click's is a refusal or an outdated
	// notice; the notices that follow a redrawn board are waited for
	// (a failure waits the test's deadline, then says what came).
	_ = waitUntil(waitCtx(t), fake, func() bool {
		count()
		return applied <= 1
	})
	if applied != 1 {
		for _, c := range clicks {
			var fs []string
			for _, f := range c.ix.Followups() {
				fs = append(fs, f.Content)
			}
			t.Logf("answer %s follow-ups %q", describe(c.r), fs)
		}
	}
	return applied, stale, refused
}

func TestConcurrentClicks(t *testing.T) {
	t.Parallel()
	w := newWorld(t, true)
	tb := w.table(t, "en-US", "Alice", "Bob", "Chloe")
	tb.lobby("/dix start")

	for round := range 4 {
		rec := tb.record()
		g := dixOf(rec)
		if g.Phase != dix.PhaseDraw {
			// Get back to a turn start, where Draw is the only decision.
			tb.weights = map[string]int{"stop": 10, "num": 1, "money": 1, "end": 1, "cons": 1, "bbuy": 1, "pass": 1, "bid": 1, "pay": 1, "buy": 0, "draw": 1}
			rec = tb.playUntil(func(g *dix.Game) bool { return g.Phase == dix.PhaseDraw })
			g = dixOf(rec)
		}
		active := tb.user(seats(t, rec)[g.ToAct()])
		board, buttons := tb.boardFor(rec)
		draw := buttons["draw"]
		require.NotEmpty(t, draw.raw)

		// 20 clicks on the same Draw button by the player (a frantic
		// double-clicker) and 4 by the others, all released at once.
		const n = 24
		var (
			wg     sync.WaitGroup
			start  = make(chan struct{})
			mu     sync.Mutex
			clicks []clicked
			gone   int // the button had already been replaced when clicked
		)
		for i := range n {
			u := active
			if i >= 20 {
				u = tb.users[i%len(tb.users)]
			}
			wg.Go(func() {
				<-start
				ctx := waitCtx(t)
				ix, err := w.fake.Click(ctx, u.ID, board.ID, draw.raw)
				mu.Lock()
				defer mu.Unlock()
				if errors.Is(err, fakediscord.ErrUnknownComponent) {
					gone++
					return
				}
				if !assert.NoError(t, err) {
					return
				}
				r, err := ix.Wait(ctx)
				if !assert.NoError(t, err) {
					return
				}
				clicks = append(clicks, clicked{ix, r, locales.For(u.Locale)})
			})
		}
		close(start)
		wg.Wait()

		applied, stale, refused := burst(t, w.fake, clicks)
		after := dixOf(tb.record())
		assert.Equal(t, 1, applied, "round %d: exactly one click applied", round)
		assert.Equal(t, n-1, stale+refused+gone, "round %d: every other click refused", round)
		assert.GreaterOrEqual(t, stale+refused, 1, "round %d: concurrent clicks reached the bot", round)
		assert.Equal(t, g.Seq+1, after.Seq, "round %d: one action applied", round)
		assert.Len(t, after.Deck, len(g.Deck)-1, "round %d: exactly one card drawn", round)
		assert.NoError(t, after.Check(), "round %d: invariants", round)
	}
	// Different buttons of one decision at once: every quick bid amount of
	// the bidder's prompt and Pass on the board, each clicked three times.
	tb.weights = drawHeavy
	rec := tb.playUntil(bidding)
	g := dixOf(rec)
	bidder := tb.user(seats(t, rec)[g.ToAct()])
	board, buttons := tb.boardFor(rec)
	prompt := tb.click(bidder, board.ID, buttons["pr"].raw)
	require.True(t, prompt.Ephemeral(), describe(prompt))
	type target struct{ msg, id string }
	targets := []target{{board.ID, buttons["pass"].raw}}
	for _, c := range components(*prompt.Message) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == "mv" && strings.HasPrefix(id.arg, "bid ") {
			targets = append(targets, target{prompt.Message.ID, c.CustomID})
		}
	}
	require.Greater(t, len(targets), 1, "quick bid amounts")
	var (
		wg       sync.WaitGroup
		start    = make(chan struct{})
		mu       sync.Mutex
		clicks   []clicked
		notFound int
	)
	for _, tg := range targets {
		for range 3 {
			wg.Go(func() {
				<-start
				ctx := waitCtx(t)
				ix, err := w.fake.Click(ctx, bidder.ID, tg.msg, tg.id)
				if errors.Is(err, fakediscord.ErrUnknownComponent) {
					mu.Lock()
					notFound++
					mu.Unlock()
					return
				}
				if !assert.NoError(t, err) {
					return
				}
				r, err := ix.Wait(ctx)
				if assert.NoError(t, err) {
					mu.Lock()
					clicks = append(clicks, clicked{ix, r, locales.For(bidder.Locale)})
					mu.Unlock()
				}
			})
		}
	}
	close(start)
	wg.Wait()
	applied, stale, refused := burst(t, w.fake, clicks)
	after := dixOf(tb.record())
	// One decision applied, then those with a single possible answer
	// (taken by themselves); the others were refused privately: outdated,
	// or, once the auction moved on to the next bidder, not the clicker's
	// decision (the shared table judges a click by the decision its seat
	// had open at the button's version).
	assert.Greater(t, after.Seq, g.Seq, "one of the decisions was applied")
	assert.NoError(t, after.Check())
	assert.Equal(t, 1, applied, "one click applied")
	assert.Equal(t, len(clicks)-1, stale+refused, "all but one answer is a private refusal")
	assert.Positive(t, stale+refused)

	tb.weights = nil
	tb.playToEnd()
	tb.checkScoreboard([]string{"Alice", "Bob", "Chloe"})
}

// sentContent is the text the answer r itself carried. The clicks on one
// private prompt all update that same message, and r.Message is that
// message as it is when read, perhaps already updated by another click's
// answer (the applied one's, sent after this refusal): an answer that
// sent its message (4) or update (7) is judged by its callback data.
func sentContent(r *fakediscord.Response) string {
	if r.Type == fakediscord.CallbackChannelMessage || r.Type == fakediscord.CallbackUpdateMessage {
		var d struct {
			Content string `json:"content"`
		}
		if json.Unmarshal(r.Data, &d) == nil {
			return d.Content
		}
	}
	if r.Message == nil {
		return ""
	}
	return r.Message.Content
}

func TestRestartDuringAuction(t *testing.T) {
	t.Parallel()
	w := newWorld(t, true)
	tb := w.table(t, "en-US", "Alice", "Bob", "Chloe")
	tb.lobby("/dix start")
	tb.weights = drawHeavy
	rec := tb.playUntil(inAuction)
	before := tb.stateBytes()

	w.restart(t)
	assert.Equal(t, before, tb.stateBytes(), "the auction survived the restart")
	after := tb.record()
	assert.Equal(t, dixOf(rec).Auction, dixOf(after).Auction)

	tb.weights = nil
	tb.playToEnd()
	tb.checkScoreboard([]string{"Alice", "Bob", "Chloe"})
}

func TestLanguages(t *testing.T) {
	t.Parallel()
	w := newWorld(t, true)
	w.bot.stop()
	w.cfg.Seed = func() int64 { return 42 }
	w.bot = startApp(t, w.cfg)

	en := w.table(t, "en-US", "Alice", "Bob", "Chloe")
	fr := w.table(t, "fr", "Amelie/fr", "Benoit/fr", "Camille/fr")
	en.lobby("/dix start")
	fr.lobby("/dix start")

	boardEN, _ := en.boardFor(en.record())
	boardFR, _ := fr.boardFor(fr.record())
	assert.Equal(t, locales.T("en", "dix_btn_draw", nil), moveLabel(boardEN, "draw"))
	assert.Equal(t, locales.T("fr", "dix_btn_draw", nil), moveLabel(boardFR, "draw"))
	require.NotEmpty(t, boardFR.Embeds)
	assert.NotEqual(t, boardEN.Embeds[0].Title, boardFR.Embeds[0].Title, "the French board is in French")

	// The same decisions give the same game, whatever the language.
	for i := 0; ; i++ {
		require.Equal(t, en.stateBytes(), fr.stateBytes(), "decision %d", i)
		okEN, okFR := en.decide(), fr.decide()
		require.Equal(t, okEN, okFR)
		if !okEN {
			break
		}
	}
	sEN := en.checkScoreboard([]string{"Alice", "Bob", "Chloe"})
	sFR := fr.checkScoreboard([]string{"Amelie", "Benoit", "Camille"})
	assert.Equal(t, locales.T("en", "dix_score_title", nil), sEN.Embeds[0].Title)
	assert.Equal(t, locales.T("fr", "dix_score_title", nil), sFR.Embeds[0].Title)

	// Private answers follow the clicking user's language.
	r := fr.command(fr.users[0], "/dix rules")
	require.True(t, r.Ephemeral())
	r2 := en.command(en.users[0], "/dix rules")
	assert.NotEqual(t, r.Message.Content+embedText(r.Message), r2.Message.Content+embedText(r2.Message))
	// The French rules, longer than a message's content, come whole.
	assert.Contains(t, r.Message.Content+embedText(r.Message), "**Solo** : /dix solo")
}

// moveLabel is the label of m's button of the move.
func moveLabel(m fakediscord.Message, move string) string {
	for _, c := range components(m) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == "mv" && id.arg == move {
			return c.Label
		}
	}
	return ""
}

func embedText(m *fakediscord.Message) string {
	s := ""
	for _, e := range m.Embeds {
		s += e.Title + e.Description
	}
	return s
}

// postSelect posts, as postButtons, a message carrying a select menu of
// custom id id offering values.
func postSelect(t *testing.T, fake *fakediscord.Server, channel, id string, values []string) string {
	t.Helper()
	var opts []map[string]any
	for _, v := range values {
		opts = append(opts, map[string]any{"label": v, "value": v})
	}
	menu := map[string]any{"type": 3, "custom_id": id, "options": opts}
	return postComponents(t, fake, channel, []map[string]any{{"type": 1, "components": []map[string]any{menu}}})
}

// postButtons posts, with the bot's own token through the stand-in's REST
// API, a message carrying buttons with the given custom ids: components the
// bot never built, as a tampered client could send.
func postButtons(t *testing.T, fake *fakediscord.Server, channel string, ids []string) string {
	t.Helper()
	var rows []map[string]any
	for i := 0; i < len(ids); i += 5 {
		var row []map[string]any
		for _, id := range ids[i:min(i+5, len(ids))] {
			row = append(row, map[string]any{"type": 2, "style": 2, "label": "?", "custom_id": id})
		}
		rows = append(rows, map[string]any{"type": 1, "components": row})
	}
	return postComponents(t, fake, channel, rows)
}

// postComponents posts, with the bot's own token through the stand-in's
// REST API, a message carrying the component rows.
func postComponents(t *testing.T, fake *fakediscord.Server, channel string, rows []map[string]any) string {
	t.Helper()
	body, err := json.Marshal(map[string]any{"content": "forged", "components": rows})
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, fake.URL()+"api/v9/channels/"+channel+"/messages", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot "+fake.Token())
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var m struct {
		ID string `json:"id"`
	}
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
	return m.ID
}
