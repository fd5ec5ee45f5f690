package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/browsertest"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// TestScreens renders, in headless Chromium, the stand-in's view of a late
// 5-player board, of the buy prompt's payment step with its picture and of
// the payment picker, as the player to act sees them, and of the board as
// text another player asked for: each page must load with what it shows
// on it. With
// DIX_SCREENSHOT_DIR set the screenshots are written there to be looked at.
func TestScreens(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t)
	t.Cleanup(func() { noViolations(t, fake) })
	w := &world{fake: fake, cfg: baseConfig(t, fake, "")}
	w.bot = startApp(t, w.cfg)
	tb := w.table(t, "en-US", "Alice", "Bruno/fr", "Chloé", "Dmitri", "Eve")
	tb.lobby("/dix start")
	ctx := browsertest.Start(t, 1280, 1400, 120*time.Second)
	shoot := func(name, user string, waitFor string) {
		t.Helper()
		require.NoError(t, chromedp.Do(ctx,
			chromedp.Navigate(fake.URL()+"?channel="+tb.channel.ID+"&user="+user),
			chromedp.WaitVisible(chromedp.CSS(`#status.ok`)),
			chromedp.WaitVisible(waitFor),
		))
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		require.Greater(t, len(png), 10000, "a page was drawn")
		if dir := os.Getenv("DIX_SCREENSHOT_DIR"); dir != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644))
		}
	}

	// A late board: most of the deck drawn, and a purchase to make.
	rec := tb.playUntil(func(g *dix.Game) bool {
		if len(g.Deck) > 40 || g.Phase != dix.PhaseBuy {
			return false
		}
		s := g.ToAct()
		pl := g.Players[s]
		// The picker offers number cards only (R4: wilds never pay).
		if !slices.ContainsFunc(pl.Collection, func(c dix.Card) bool { return c.Kind == dix.KindNumber }) {
			return false
		}
		for _, c := range g.Choices(s).Buyable {
			if int(c.Value) >= 2 && pl.Money >= int(c.Value)-1 {
				return true
			}
		}
		return false
	})
	g := dixOf(rec)
	seat := g.ToAct()
	user := tb.user(seats(t, rec)[seat])
	shoot("board-5p-late", user.ID, `//div[contains(@class,"embed")]`)

	// The payment step, and its picture: the collection after paying.
	board, buttons := tb.boardFor(rec)
	var target dix.Card
	for _, c := range g.Choices(seat).Buyable {
		if int(c.Value) >= 2 && g.Players[seat].Money >= int(c.Value)-1 {
			target = c
		}
	}
	payStep := tb.buyStep(user, board, buttons, target)
	png := shootMessage(t, ctx, fake, tb.channel.ID, user.ID, payStep.Message.ID, `img.embed-image`, "buy-preview")
	require.Greater(t, len(png), 10000, "the preview's picture was drawn")
	// The payment picker, one card picked and the money to go with it.
	tb.pickPayment(user, payStep)
	shoot("payment-picker", user.ID, `//button[@data-custom-id[starts-with(., "dix:mv:`+strconv.FormatUint(uint64(g.Seq), 10)+`:buy ")]]`)

	// Another player asks for the board as text: the market and every
	// collection, for them alone, in their language.
	other := tb.user(seats(t, rec)[(seat+1)%len(g.Players)])
	text := tb.click(other, board.ID, stepButton(t, board, "text").raw)
	require.NotNil(t, text.Message)
	require.Len(t, text.Message.Embeds, 1)
	require.Empty(t, text.Message.Attachments, "text only")
	shoot("board-as-text", other.ID, `//*[contains(@class,"embed")][contains(., "Market") or contains(., "Marché")]`)
}
