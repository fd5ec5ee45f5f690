package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/browsertest"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// missingMark is the part of the bot's table data saying that the board
// it owes was refused by Discord for good (nil: the board is there).
type missingMark struct {
	Kind  string `json:"k"`
	Code  int    `json:"c"`
	Tries int    `json:"n"`
}

func boardMissing(t *testing.T, r *dixbot.Record) *missingMark {
	t.Helper()
	var m struct {
		Missing *missingMark `json:"bm"`
	}
	require.NoError(t, json.Unmarshal(r.Meta, &m))
	return m.Missing
}

// owesBoardEdit reports whether the shared table's data of r owes an edit
// of the board.
func owesBoardEdit(t *testing.T, r *dixbot.Record) bool {
	t.Helper()
	var m struct {
		Outbox []struct {
			Kind string `json:"k"`
		} `json:"ob"`
	}
	require.NoError(t, json.Unmarshal(r.Meta, &m))
	for _, e := range m.Outbox {
		if e.Kind == "cedit" {
			return true
		}
	}
	return false
}

// TestBoardMissingInTheChannel plays a game whose channel loses the bot's
// Embed Links permission mid-game, at a live pace.
//
// The board is one message, edited in place: an edit needs no Send
// Messages, but its embeds need Embed Links, through an interaction's
// token as through the bot's. A player lets the time run out until the
// computer decides for them, and the board's edit (no click causes it) is
// refused for good. The game waits, its clock held: the player to act
// runs out of no time. The player to act clicks the old board and is told
// privately, in their language, that the board could not be shown, which
// permission is missing and what to do (never "This interaction failed");
// so is the other player on /dix log. Once the permission is back, the
// board comes back, the clock runs again with the time held given back,
// and the game plays to its end.
//
// It runs on the gateway and in HTTP interactions mode.
func TestBoardMissingInTheChannel(t *testing.T) {
	t.Parallel()
	for _, overHTTP := range []bool{false, true} {
		name := "gateway"
		if overHTTP {
			name = "http"
		}
		t.Run(name, func(t *testing.T) { boardMissingInTheChannel(t, overHTTP) })
	}
}

// tableClock is the part of the shared table's data that holds the
// clocks, by seat: the time left in the bank, and when the decision in
// progress opened (Unix ms).
type tableClock struct {
	Banks  []int64 `json:"bk"`
	OpenAt []int64 `json:"oa"`
}

func boardMissingInTheChannel(t *testing.T, overHTTP bool) {
	// The web view only when a screenshot is asked for.
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: os.Getenv("DIX_SCREENSHOT_DIR") == ""})
	t.Cleanup(func() { onlyRefusedForPermissions(t, fake) })
	w := &world{fake: fake, cfg: baseConfig(t, fake, "")}
	const bank = 4 * time.Second
	w.cfg.Paces = "live=4s+2s"
	if overHTTP {
		w.cfg.InteractionsAddr, w.cfg.PublicKey = "127.0.0.1:0", fake.PublicKey()
	}
	w.bot = startApp(t, w.cfg)
	if overHTTP {
		require.NoError(t, fake.SetInteractionsEndpoints(waitCtx(t), "http://"+w.bot.started.InteractionsAddr+"/interactions"))
	}
	tb := w.table(t, "en-US", "Alice", "Bruno/fr")
	tb.lobby("/dix start pace:live")
	langOf := func(u fakediscord.User) string {
		if u.Username == "Bruno" {
			return "fr"
		}
		return "en"
	}

	// The game is played until a player stopped drawing and must choose
	// between numbers and money; then Embed Links goes and that player
	// lets the time run out: the computer chooses for them, and the
	// board's edit is refused.
	tb.weights = map[string]int{"draw": 1, "stop": 8, "bid": 1, "pass": 1, "pay": 1, "buy": 1, "end": 1, "num": 1, "money": 1}
	before := tb.playUntil(func(g *dix.Game) bool { return g.Phase == dix.PhaseChoose })
	old, _ := tb.boardFor(before)
	// The last click's own edits of the board are done (an edit of the
	// board refused now would be one of them, not the time running out).
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return !owesBoardEdit(t, tb.record()) }))
	require.NoError(t, fake.SetBotPermissions(tb.channel.ID, fakediscord.BotPermissions&^fakediscord.PermEmbedLinks))
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return boardMissing(t, tb.record()) != nil }),
		"the player's time runs out, and the board's edit is refused")
	rec := tb.record()
	mark := boardMissing(t, rec)
	assert.Equal(t, "board", mark.Kind)
	assert.Equal(t, 50013, mark.Code)
	assert.Greater(t, dixOf(rec).Seq, dixOf(before).Seq, "the computer decided for the player")
	// The board shows a state before the record's: the one shown when the
	// permission went (on a busy machine, a time may have run out and
	// moved the game on before that).
	shown, ok := fake.Message(old.ID)
	require.True(t, ok)
	shownAt := boardVersion(shown)
	assert.Less(t, shownAt, uint64(dixOf(rec).Seq), "the board still shows the game before: %q", shown.Content)
	assert.GreaterOrEqual(t, shownAt, uint64(dixOf(before).Seq), "the board showed the game played")
	old = shown

	// The game waits, its clock held: the player to act runs out of no
	// time, even once their bank is past.
	toAct := dixOf(rec).ToAct()
	var clk tableClock
	require.NoError(t, json.Unmarshal(rec.Meta, &clk))
	left := bank
	if toAct < len(clk.Banks) {
		left = time.Duration(clk.Banks[toAct]) * time.Millisecond
	}
	seq := dixOf(rec).Seq
	time.Sleep(left + time.Second)
	assert.Equal(t, seq, dixOf(tb.record()).Seq, "no deadline while the board is missing")

	// The player to act clicks the old board, still there with its
	// buttons (Discord refused its edits): told why, in their language.
	user := tb.user(seats(t, rec)[toAct])
	other := tb.user(seats(t, rec)[1-toAct])
	button := ""
	for _, c := range components(old) {
		if id, ok := parseCustomID(c.CustomID); ok && slices.Contains(gameVerbs, id.verb) {
			button = c.CustomID
		}
	}
	require.NotEmpty(t, button, "the old board's buttons")
	// checkNotice waits for the notice among the private messages of u
	// after their first seen: in the answer or a follow-up.
	checkNotice := func(u fakediscord.User, seen int) {
		t.Helper()
		lang := langOf(u)
		var text string
		err := waitUntil(waitCtx(t), fake, func() bool {
			for _, m := range fake.Ephemerals(tb.channel.ID, u.ID)[seen:] {
				if strings.HasPrefix(m.Content, "⚠️") {
					text = m.Content
					return true
				}
			}
			return false
		})
		require.NoError(t, err, "%s is told", u.Username)
		assert.Contains(t, text, locales.T(lang, "perm_embed_links", nil), "in %s: %s", lang, text)
		assert.NotContains(t, text, locales.T(lang, "perm_send_messages", nil), "an edit needs no Send Messages")
		assert.Contains(t, text, "/dix "+locales.T(lang, "cmd_abandon_name", nil))
	}
	seen := len(fake.Ephemerals(tb.channel.ID, user.ID))
	r := tb.click(user, old.ID, button)
	require.True(t, r.Ephemeral(), "answered privately: %s", describe(r))
	checkNotice(user, seen)
	seen = len(fake.Ephemerals(tb.channel.ID, other.ID))
	r = tb.command(other, "/dix log")
	require.True(t, r.Ephemeral(), "answered privately: %s", describe(r))
	checkNotice(other, seen)
	assert.NotNil(t, boardMissing(t, tb.record()), "still missing")
	if dir := os.Getenv("DIX_SCREENSHOT_DIR"); dir != "" && !overHTTP {
		// What the player sees, for a look (not run in CI).
		ctx := browsertest.Start(t, 1280, 1000, 120*time.Second)
		require.NoError(t, chromedp.Do(ctx,
			chromedp.Navigate(fake.URL()+"?channel="+tb.channel.ID+"&user="+other.ID),
			chromedp.WaitVisible(chromedp.CSS(`#status.ok`)),
		))
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
			const m = [...document.querySelectorAll(".msg, .message, li, article, div")].filter((e) => e.children.length < 8 && e.textContent.includes("⚠️"));
			if (m.length) m[m.length - 1].scrollIntoView({block: "end"});
			return m.length > 0;
		})()`))
		require.NoError(t, err)
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "board-missing-notice.png"), shot, 0o644))
	}

	// The permission comes back: the next click brings the board back,
	// and the clock runs again with the time it held given back (without
	// it, the deadline of the player to act would be past: the wait
	// above was longer than their bank).
	backAt := time.Now()
	require.NoError(t, fake.SetBotPermissions(tb.channel.ID, fakediscord.BotPermissions))
	r = tb.click(user, old.ID, button)
	require.True(t, r.Ephemeral(), "the old board is outdated: %s", describe(r))
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return boardMissing(t, tb.record()) == nil }), "the board is shown")
	rec = tb.record()
	require.NoError(t, json.Unmarshal(rec.Meta, &clk))
	// The seat deciding now (the clicks meanwhile may have moved the game
	// on): its decision opened before the board was back.
	deciding := dixOf(rec).ToAct()
	require.Greater(t, len(clk.OpenAt), deciding)
	left = bank
	if deciding < len(clk.Banks) {
		left = time.Duration(clk.Banks[deciding]) * time.Millisecond
	}
	deadline := time.UnixMilli(clk.OpenAt[deciding]).Add(left)
	assert.True(t, deadline.After(backAt), "the time held is given back: deadline %v, the board back at %v", deadline, backAt)
	// The board, edited in place: the old message shows this state, or a
	// later one, or the end, when times ran out meanwhile (the bank is
	// seconds, and a seat out of time is played by the computer at once).
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool {
		m, _ := fake.Message(old.ID)
		if boardVersion(m) >= uint64(dixOf(rec).Seq) {
			return true
		}
		now := tb.record()
		return now.Finished || dixOf(now).Phase == dix.PhaseOver
	}), "the board, edited in place")
	tb.playToEnd()
	tb.checkScoreboard([]string{"Alice", "Bruno"})
	if overHTTP {
		assert.Equal(t, len(fake.Interactions()), fake.Stats().HTTPDeliveries, "every interaction was delivered over HTTP")
	}
}

// boardVersion is the state version of a board's game buttons (0: none).
func boardVersion(m fakediscord.Message) uint64 {
	var v uint64
	for _, c := range components(m) {
		if id, ok := parseCustomID(c.CustomID); ok && slices.Contains(gameVerbs, id.verb) {
			v = max(v, id.version)
		}
	}
	return v
}

// onlyRefusedForPermissions checks that the only requests the stand-in
// refused are the ones the missing permissions explain (403 50013), and
// that every interaction was answered in time (no "This interaction
// failed").
func onlyRefusedForPermissions(t *testing.T, fake *fakediscord.Server) {
	t.Helper()
	for _, err := range fake.Violations() {
		var v *fakediscord.Violation
		if assert.ErrorAs(t, err, &v) {
			assert.Equal(t, 50013, v.Code, "only refusals for a missing permission: %v", v)
		}
	}
	for _, r := range fake.Interactions() {
		assert.True(t, r.Responded && r.InTime, "interaction %s answered in time (latency %v, callback %d)", r.ID, r.Latency, r.CallbackType)
	}
}
