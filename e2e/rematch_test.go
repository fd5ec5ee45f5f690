package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/browsertest"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// rematchMeta is the part of the table's data the rematch test reads.
type rematchMeta struct {
	Creator string `json:"c"`
	Lang    string `json:"l"`
	Seats   []struct {
		User  string `json:"u"`
		Level string `json:"cpu"`
	} `json:"s"`
	Board      string            `json:"b"`
	Pace       string            `json:"pc"`
	NoPictures bool              `json:"np"`
	Starts     int               `json:"st"`
	Opts       map[string]string `json:"oo"`
	Outbox     []json.RawMessage `json:"ob"`
	Origin     string            `json:"or"`
}

// TestRematch plays a short game of two people and a computer player at
// the live pace in the bust variant through the stand-in to its end; Bruno
// clicks Rematch on the final scoreboard: the answer itself is a lobby
// with the same seats and options and both people seated, made without a
// request with the bot token. Alice's click after it is told where that
// game is; a stranger's is refused. Bruno starts it and the seat after the
// one that started the last game plays first. The scoreboard with its
// button and the lobby are rendered in headless Chromium (written to
// DIX_SCREENSHOT_DIR when set).
func TestRematch(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t)
	t.Cleanup(func() { noViolations(t, fake) })
	w := &world{fake: fake, cfg: baseConfig(t, fake, "")}
	w.bot = startApp(t, w.cfg)
	tb := w.table(t, "en-US", "Alice", "Bruno", "Mallory")
	alice, bruno, mallory := tb.users[0], tb.users[1], tb.users[2]
	tb.users = tb.users[:2] // Mallory watches

	r := tb.command(alice, "/dix start pace:live bust:on")
	require.NotNil(t, r.Message, describe(r))
	lobby := tb.clickVerb(bruno, *r.Message, "join")
	add, ok := gameButton("dix", lobby, "cpu", "easy")
	require.True(t, ok, "the lobby offers an easy computer seat")
	require.False(t, tb.click(alice, lobby.ID, add).Ephemeral())
	lobby, _ = tb.fake.Message(lobby.ID)
	tb.clickVerb(alice, lobby, "go")
	var before rematchMeta
	started := tb.record()
	require.NoError(t, json.Unmarshal(started.Meta, &before))
	first := dixOf(started).Opts.FirstPlayer
	require.GreaterOrEqual(t, first, 0, "the rules state keeps who started")

	tb.playToEnd()
	computer := locales.T("en", "table_cpu_name", map[string]any{"N": 3})
	board := tb.checkScoreboard([]string{"Alice", "Bruno", computer})
	again := ""
	for _, c := range components(board) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == "again" {
			again = c.CustomID
			assert.Equal(t, locales.T("en", "btn_rematch", nil), c.Label)
		}
	}
	require.NotEmpty(t, again, "the scoreboard offers a rematch")

	ctx := browsertest.Start(t, 1280, 1400, 120*time.Second)
	shootMessage(t, ctx, fake, tb.channel.ID, bruno.ID, board.ID, `button.btn`, "h9-scoreboard-rematch")

	r = tb.click(mallory, board.ID, again)
	require.True(t, r.Ephemeral(), describe(r))
	assert.Equal(t, locales.T("en", "err_rematch_not_seated", nil), r.Message.Content)

	fake.ResetStats()
	r = tb.click(bruno, board.ID, again)
	require.NotNil(t, r.Message, describe(r))
	require.False(t, r.Ephemeral(), "the lobby is public: %s", describe(r))
	next := *r.Message
	assert.Contains(t, next.Content, "<@"+alice.ID+">", "Alice is called back")
	var after rematchMeta
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool {
		after = rematchMeta{}
		require.NoError(t, json.Unmarshal(tb.record().Meta, &after))
		// The rematch's lobby, owed until its answer went out: the
		// answer was the lobby, so nothing is left owed.
		return after.Origin != "" && len(after.Outbox) == 0
	}))
	assert.Zero(t, fake.Stats().BotToken, "the rematch is the click's answer: no bot-token request")
	rec := tb.record()
	require.Nil(t, dixOf(rec), "a lobby")
	assert.Equal(t, bruno.ID, after.Creator)
	assert.Equal(t, before.Seats, after.Seats, "the same seats")
	assert.Equal(t, "live", after.Pace)
	assert.Equal(t, "on", after.Opts["bust"], "the same variant")
	assert.Equal(t, before.Lang, after.Lang)
	assert.Equal(t, before.NoPictures, after.NoPictures)
	assert.Equal(t, (first+1)%3+1, after.Starts, "the next seat starts")

	r = tb.click(alice, board.ID, again)
	require.True(t, r.Ephemeral(), describe(r))
	assert.Equal(t, locales.T("en", "table_err_rematch_lobby", map[string]any{"Name": "Bruno"}), r.Message.Content)

	shootMessage(t, ctx, fake, tb.channel.ID, alice.ID, next.ID, `button.btn`, "h9-rematch-lobby")

	tb.clickVerb(bruno, next, "go")
	rec = tb.record()
	require.NotNil(t, dixOf(rec), "the rematch started")
	assert.Equal(t, (first+1)%3, dixOf(rec).Opts.FirstPlayer, "the seat after the last first player starts")
	assert.True(t, dixOf(rec).Opts.BustVariant)
	assert.Len(t, dixOf(rec).Players, 3)
	var shown rematchMeta
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool {
		shown = rematchMeta{}
		require.NoError(t, json.Unmarshal(tb.record().Meta, &shown))
		_, ok := fake.Message(shown.Board)
		return shown.Board != "" && ok
	}))
	shootMessage(t, ctx, fake, tb.channel.ID, alice.ID, shown.Board, `button.btn`, "h9-rematch-board")
}

// shootMessage renders one message of channel as user sees it, once what
// css names is shown in it, and writes it to DIX_SCREENSHOT_DIR as
// name.png when that is set. It returns the picture.
func shootMessage(t *testing.T, ctx context.Context, fake *fakediscord.Server, channel, user, message, css, name string) []byte {
	t.Helper()
	sel := `[data-id="` + message + `"]`
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(fake.URL()+"?channel="+channel+"&user="+user),
		chromedp.WaitVisible(chromedp.CSS(`#status.ok`)),
		chromedp.WaitVisible(chromedp.CSS(sel+` `+css)),
	))
	// The page redraws the channel whenever a message of it changes
	// (another player's prompt answered and removed, a board edited),
	// which may replace the node between finding it and taking its
	// picture: it is found again then.
	var png []byte
	for try := 0; ; try++ {
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(async () => {
			const m = document.querySelector('`+sel+`');
			m.scrollIntoView({block: "start"});
			for (const img of m.querySelectorAll("img")) {
				if (!img.complete) await new Promise((ok) => img.addEventListener("load", ok, {once: true}));
			}
			return true;
		})()`, chromedp.EvalAwaitPromise))
		if err == nil {
			png, err = chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel), chromedp.NodeVisible))
		}
		if err == nil || try == 4 {
			require.NoError(t, err)
			break
		}
		require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(sel+` `+css))))
	}
	require.Greater(t, len(png), 5000, "a message was drawn")
	if dir := os.Getenv("DIX_SCREENSHOT_DIR"); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644))
	}
	return png
}
