package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/browsertest"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// TestBrowserWithRealBot drives the stand-in's web view in headless
// Chromium against the real program: /dix start typed in the page, Join
// clicked by a second user, and a screenshot (written to $DIX_SCREENSHOT
// when set).
func TestBrowserWithRealBot(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t)
	t.Cleanup(func() { noViolations(t, fake) })
	w := &world{fake: fake, cfg: baseConfig(t, fake, "")}
	w.bot = startApp(t, w.cfg)
	tb := w.table(t, "en-US", "alice", "bruno/fr")
	alice, bruno := tb.users[0], tb.users[1]

	ctx := browsertest.Start(t, 1280, 900, 90*time.Second)

	join := `button[data-custom-id^="dix:join:"]`
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(fake.URL()+"?channel="+tb.channel.ID+"&user="+alice.ID),
		chromedp.WaitVisible(chromedp.CSS(`#status.ok`)),
		chromedp.SendKeys(chromedp.CSS(`#box`), "/dix start"),
		chromedp.WaitVisible(chromedp.CSS(`.suggestion`)),
		chromedp.SendKeys(chromedp.CSS(`#box`), kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(join)),
		// bruno joins from his own view.
		chromedp.Click(chromedp.CSS(`.user[data-name="bruno"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.user.active[data-name="bruno"]`)),
		chromedp.WaitVisible(chromedp.CSS(join)),
		chromedp.Click(chromedp.CSS(join)),
		chromedp.WaitVisible(`//div[contains(@class,"content")][contains(., "bruno")]`),
	))

	// The lobby really has both players.
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool {
		return len(seats(t, tb.record())) == 2
	}))
	assert.Equal(t, []string{alice.ID, bruno.ID}, seats(t, tb.record()))

	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100 gives a PNG
	require.NoError(t, err)
	shot := filepath.Join(t.TempDir(), "dix-lobby.png")
	require.NoError(t, os.WriteFile(shot, png, 0o644))
	if p := os.Getenv("DIX_SCREENSHOT"); p != "" {
		require.NoError(t, os.WriteFile(p, png, 0o644))
	}
	t.Logf("screenshot: %s (%d bytes)", shot, len(png))

	// A computer player joins from the lobby's menu, the game starts, and
	// the player to act asks for a hint: the board and the hint as that
	// player sees them (written to $DIX_SCREENSHOT_GAME when set).
	lobby, ok := fake.LatestPublic(tb.channel.ID)
	require.True(t, ok)
	for _, c := range components(lobby) {
		if strings.HasPrefix(c.CustomID, "dix:cpu:") && strings.HasSuffix(c.CustomID, ":strong") {
			tb.click(alice, lobby.ID, c.CustomID)
			break
		}
	}
	lobby, _ = fake.Message(lobby.ID)
	tb.clickVerb(alice, lobby, "go")
	rec := tb.record()
	require.Len(t, dixOf(rec).Players, 3)
	actor := tb.user(seats(t, rec)[dixOf(rec).ToAct()])
	hint := tb.command(actor, "/dix hint")
	require.True(t, hint.Ephemeral(), describe(hint))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(fake.URL()+"?channel="+tb.channel.ID+"&user="+actor.ID),
		chromedp.WaitVisible(chromedp.CSS(`#status.ok`)),
		chromedp.WaitVisible(`//div[contains(@class,"content")][contains(., "💡")]`),
	))
	png, err = chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	if p := os.Getenv("DIX_SCREENSHOT_GAME"); p != "" {
		require.NoError(t, os.WriteFile(p, png, 0o644))
	}
}
