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

// TestBoardMissingInTheChannel plays a game whose channel loses the bot's
// permissions twice, at a live pace.
//
// First a moderator takes Send Messages from the bot. The first player
// lets the time run out until the computer ends the turn, and the next
// board, posted with the bot token (no click causes it), is refused for
// good. The other player's /dix hand posts it at once through the
// interaction (a follow-up needs no Send Messages): nobody is told
// anything, the game goes on.
//
// Then Embed Links goes too, and the same happens to the next turn's
// board; now neither a follow-up nor an answer with embeds goes through.
// The game waits, its clock held. The player to act clicks the old board
// and is told privately, in their language, that the board could not be
// posted, which permissions are missing and what to do (never "This
// interaction failed"); so is the other player on /dix hand. Once the
// permissions are back, the next click brings the board back and the game
// plays to its end.
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

func boardMissingInTheChannel(t *testing.T, overHTTP bool) {
	// The web view only when a screenshot is asked for.
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: os.Getenv("DIX_SCREENSHOT_DIR") == ""})
	t.Cleanup(func() { onlyRefusedForPermissions(t, fake) })
	w := &world{fake: fake, cfg: baseConfig(t, fake, "")}
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
	warned := func(u fakediscord.User) int {
		n := 0
		for _, m := range fake.Ephemerals(tb.channel.ID, u.ID) {
			if strings.HasPrefix(m.Content, "⚠️") {
				n++
			}
		}
		return n
	}

	// timeOut has the game played until a player stopped drawing and must
	// choose between numbers and money; then the bot loses lost and that
	// player lets the time run out: the computer chooses for them, which
	// ends their turn (at most a purchase skipped after), and the next
	// board is refused. It returns the board the player left and the
	// record once the board is missing.
	timeOut := func(lost int64) (fakediscord.Message, *dixbot.Record) {
		t.Helper()
		tb.weights = map[string]int{"draw": 1, "stop": 8, "bid": 1, "pass": 1, "pay": 1, "buy": 1, "end": 1, "num": 1, "money": 1}
		before := tb.playUntil(func(g *dix.Game) bool { return g.Phase == dix.PhaseChoose })
		board, _ := tb.boardFor(before)
		require.NoError(t, fake.SetBotPermissions(tb.channel.ID, fakediscord.BotPermissions&^lost))
		require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return boardMissing(t, tb.record()) != nil }),
			"the player's time runs out, the turn ends, and its board is refused")
		rec := tb.record()
		mark := boardMissing(t, rec)
		assert.Equal(t, "board", mark.Kind)
		assert.Equal(t, 50013, mark.Code)
		assert.NotEqual(t, dixOf(before).Active, dixOf(rec).Active, "the computer ended the turn")
		return board, rec
	}

	// Send Messages goes: the next board comes back through a command.
	_, rec := timeOut(fakediscord.PermSendMessages)
	other := tb.user(seats(t, rec)[dixOf(rec).ToAct()])
	late := tb.user(seats(t, rec)[1-dixOf(rec).ToAct()])
	r := tb.command(other, "/dix hand")
	require.True(t, r.Ephemeral(), "%s", describe(r))
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return boardMissing(t, tb.record()) == nil }), "the board is posted")
	back, _ := tb.boardFor(rec)
	assert.Contains(t, back.Pinged, other.ID, "the board pings the player to act")
	assert.Zero(t, warned(other), "nobody is told anything")
	// The player whose time ran out (maybe twice: absent) is back.
	tb.command(late, "/dix hand")
	assert.Zero(t, warned(late))

	// Embed Links goes too.
	old, rec := timeOut(fakediscord.PermSendMessages | fakediscord.PermEmbedLinks)
	toAct := dixOf(rec).ToAct()

	// The game waits, its clock held: the player to act runs out of no
	// time, even once their bank is past.
	var clk struct {
		Clock struct {
			Banks    []time.Duration `json:"k"`
			PausedAt time.Time       `json:"pa"`
		} `json:"ck"`
	}
	require.NoError(t, json.Unmarshal(rec.Meta, &clk))
	assert.False(t, clk.Clock.PausedAt.IsZero(), "the clock is held")
	seq := dixOf(rec).Seq
	time.Sleep(clk.Clock.Banks[toAct] + time.Second)
	assert.Equal(t, seq, dixOf(tb.record()).Seq, "no deadline while the board is missing")

	// The player to act clicks the old board, still there with its
	// buttons (Discord refused its edits too): told why, in their
	// language.
	user := tb.user(seats(t, rec)[toAct])
	other = tb.user(seats(t, rec)[1-toAct])
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
		assert.Contains(t, text, locales.T(lang, "perm_send_messages", nil), "in %s: %s", lang, text)
		assert.Contains(t, text, locales.T(lang, "perm_embed_links", nil))
		assert.Contains(t, text, "/dix "+locales.T(lang, "cmd_abandon_name", nil))
	}
	seen := len(fake.Ephemerals(tb.channel.ID, user.ID))
	r = tb.click(user, old.ID, button)
	require.True(t, r.Ephemeral(), "answered privately: %s", describe(r))
	checkNotice(user, seen)
	seen = len(fake.Ephemerals(tb.channel.ID, other.ID))
	r = tb.command(other, "/dix hand")
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

	// The permissions come back: the next click brings the board back.
	require.NoError(t, fake.SetBotPermissions(tb.channel.ID, fakediscord.BotPermissions))
	r = tb.click(user, old.ID, button)
	require.True(t, r.Ephemeral(), "the old board is outdated: %s", describe(r))
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return boardMissing(t, tb.record()) == nil }), "the board is posted")
	rec = tb.record()
	assert.Equal(t, seq, dixOf(rec).Seq, "nothing was played meanwhile")
	tb.boardFor(rec)
	tb.playToEnd()
	tb.checkScoreboard([]string{"Alice", "Bruno"})
	if overHTTP {
		assert.Equal(t, len(fake.Interactions()), fake.Stats().HTTPDeliveries, "every interaction was delivered over HTTP")
	}
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
