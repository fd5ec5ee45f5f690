package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/browsertest"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// TestClockScreens: a live game whose first player lets her time run out
// twice is marked absent; she pauses the game. The board (checked, and
// rendered in headless Chromium, written to DIX_SCREENSHOT_DIR when set)
// shows her absent, the pause, the vote to hand her seat to the computer
// and the pace, and the reminders she got.
func TestClockScreens(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t)
	t.Cleanup(func() { noViolations(t, fake) })
	w := &world{fake: fake, cfg: baseConfig(t, fake, "")}
	w.cfg.Paces = "live=2s+1s"
	w.bot = startApp(t, w.cfg)
	tb := w.table(t, "en-US", "Alice", "Bruno", "Chloé")
	tb.lobbyAtPace("/dix start", "live")

	// Whoever plays first lets the time run out twice in a row.
	first := tb.record()
	s := dixOf(first).ToAct()
	late := tb.user(seats(t, first)[s])
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return clockSeats(t, tb.record())[s].Away }))
	r := tb.command(tb.users[0], "/dix pause")
	require.True(t, r.Ephemeral(), "%s", describe(r))
	var board fakediscord.Message
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool {
		var meta struct {
			Board string `json:"b"`
		}
		require.NoError(t, json.Unmarshal(tb.record().Meta, &meta))
		m, ok := tb.fake.Message(meta.Board)
		board = m
		return ok && len(m.Embeds) > 0 && strings.Contains(boardText(m), "Paused by")
	}))
	var names []string
	for _, f := range board.Embeds[0].Fields {
		names = append(names, f.Name)
	}
	assert.Contains(t, strings.Join(names, "\n"), late.Username+" 💤")
	assert.Contains(t, board.Embeds[0].Footer.Text, "Pace: Live")
	kick := false
	for _, c := range components(board) {
		kick = kick || strings.Contains(c.Label, "seat to the computer")
	}
	assert.True(t, kick, "the board offers the vote")

	ctx := browsertest.Start(t, 1280, 1400, 120*time.Second)
	viewer := tb.users[(s+1)%3].ID
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(fake.URL()+"?channel="+tb.channel.ID+"&user="+viewer),
		chromedp.WaitVisible(chromedp.CSS(`#status.ok`)),
		chromedp.WaitVisible(`//div[contains(@class,"embed")]`),
	))
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		const boards = [...document.querySelectorAll(".message")].filter((e) => e.textContent.includes("Paused by"));
		if (boards.length) boards[boards.length - 1].scrollIntoView({block: "start"});
		return boards.length > 0;
	})()`))
	require.NoError(t, err)
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	require.Greater(t, len(shot), 10000, "a page was drawn")
	if dir := os.Getenv("DIX_SCREENSHOT_DIR"); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "board-absent-paused.png"), shot, 0o644))
	}
}
