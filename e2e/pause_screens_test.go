package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/browsertest"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// currentBoard is the table's board message as the stand-in shows it now.
func (tb *table) currentBoard() (fakediscord.Message, bool) {
	tb.t.Helper()
	var meta struct {
		Board string `json:"b"`
	}
	require.NoError(tb.t, json.Unmarshal(tb.record().Meta, &meta))
	return tb.fake.Message(meta.Board)
}

// boardText is the text of a board: the message's own text (the table's
// line: the clock, the pause), and its embeds' description, fields,
// footer.
func boardText(m fakediscord.Message) string {
	var b strings.Builder
	b.WriteString(m.Content + "\n")
	for _, e := range m.Embeds {
		b.WriteString(e.Description + "\n")
		for _, f := range e.Fields {
			b.WriteString(f.Name + "\n" + f.Value + "\n")
		}
		if e.Footer != nil {
			b.WriteString(e.Footer.Text + "\n")
		}
	}
	return b.String()
}

// TestPauseKickAndClockScreens renders in headless Chromium (written to
// DIX_SCREENSHOT_DIR when set) what the table shows around the clock, in
// English and in French:
//   - a paused live game where a player ran out of time twice (absent) and
//     the player to act leaves: nothing moves, the board stays paused, and
//     the vote button says what decides it;
//   - a relaxed game's board with everyone's time left, to the minute;
//   - the answer to a button of a game that has ended, with the link to
//     its final scoreboard.
func TestPauseKickAndClockScreens(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t)
	t.Cleanup(func() { noViolations(t, fake) })
	w := &world{fake: fake, cfg: baseConfig(t, fake, "")}
	w.cfg.Paces = "live=2s+1s,relaxed=2h40m+4m"
	w.bot = startApp(t, w.cfg)
	ctx := browsertest.Start(t, 1280, 1400, 180*time.Second)
	shoot := func(t *testing.T, tb *table, viewer, name, text string) {
		t.Helper()
		require.NoError(t, chromedp.Do(ctx,
			chromedp.Navigate(fake.URL()+"?channel="+tb.channel.ID+"&user="+viewer),
			chromedp.WaitVisible(chromedp.CSS(`#status.ok`)),
			chromedp.WaitVisible(`//div[contains(@class,"message")]`),
		))
		found, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
			const all = [...document.querySelectorAll(".message")].filter((e) => e.textContent.includes(%q));
			if (all.length) all[all.length - 1].scrollIntoView({block: "start"});
			return all.length > 0;
		})()`, text)))
		require.NoError(t, err)
		require.True(t, found, "%s: %q is on the page", name, text)
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		require.Greater(t, len(shot), 10000, "a page was drawn")
		if dir := os.Getenv("DIX_SCREENSHOT_DIR"); dir != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), shot, 0o644))
		}
	}

	for _, tc := range []struct {
		lang, start, paused, left string
		kick, kickCreator         string // what decides: the creator's click or votes; votes only (the creator's seat, or the creator left)
		paceName                  string
		names                     []string
	}{
		{"en", "/dix start", "Paused by", "left: the computer plays that seat", "'s click or 2 votes)", "(0 of 2 votes)", "live",
			[]string{"Alice", "Bruno", "Chloé", "Dmitri"}},
		{"fr", "/dix start language:fr", "En pause", "quitte la partie", " en un clic, ou 2 voix)", "(0 voix sur 2)", "live",
			[]string{"Amélie/fr", "Bruno/fr", "Chloé/fr", "Dmitri/fr"}},
	} {
		t.Run("paused-"+tc.lang, func(t *testing.T) {
			tb := w.table(t, "en-US", tc.names...)
			tb.lobbyAtPace(tc.start, tc.paceName)
			s := dixOf(tb.record()).ToAct()
			require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return clockSeats(t, tb.record())[s].Away }))
			require.True(t, tb.command(tb.users[0], "/dix pause").Ephemeral())
			rec := tb.record()
			actor := tb.user(seats(t, rec)[dixOf(rec).ToAct()])
			r := tb.command(actor, "/dix leave")
			require.True(t, r.Ephemeral(), "%s", describe(r))
			var board fakediscord.Message
			require.NoError(t, waitUntil(waitCtx(t), fake, func() bool {
				m, ok := tb.currentBoard()
				board = m
				return ok && strings.Contains(boardText(m), tc.left)
			}))
			after := tb.record()
			assert.Equal(t, dixOf(rec).Seq, dixOf(after).Seq, "nothing moved while paused")
			assert.Contains(t, boardText(board), tc.paused)
			kick := ""
			for _, c := range components(board) {
				if id, ok := parseCustomID(c.CustomID); ok && id.verb == "kick" && id.arg == fmt.Sprint(s) {
					kick = c.Label
				}
			}
			want := tc.kick
			if late := readMeta(t, rec).Seats[s].User; late == tb.users[0].ID || actor.ID == tb.users[0].ID {
				// The creator's own seat, or a creator who left: votes only.
				want = tc.kickCreator
			}
			assert.Contains(t, kick, want, "the vote button says what decides")
			shoot(t, tb, tb.users[(s+1)%len(tb.users)].ID, "board-paused-leave-kick-"+tc.lang, tc.left)
		})
	}

	for _, tc := range []struct {
		lang, start, left, pace string
		paceName                string
		names                   []string
	}{
		{"en", "/dix start", "⏳\u00a02\u00a0h\u00a040", "Relaxed (2\u00a0h\u00a040 + 4\u00a0min per decision)", "relaxed", []string{"Alice", "Bruno", "Chloé"}},
		{"fr", "/dix start language:fr", "⏳\u00a02\u00a0h\u00a040", "Détendu (2\u00a0h\u00a040 + 4\u00a0min par décision)", "relaxed", []string{"Amélie/fr", "Bruno/fr", "Chloé/fr"}},
	} {
		t.Run("clock-"+tc.lang, func(t *testing.T) {
			tb := w.table(t, "en-US", tc.names...)
			tb.lobbyAtPace(tc.start, tc.paceName)
			require.True(t, tb.decide())
			var board fakediscord.Message
			require.NoError(t, waitUntil(waitCtx(t), fake, func() bool {
				m, ok := tb.currentBoard()
				board = m
				return ok && strings.Contains(boardText(m), tc.left)
			}))
			assert.Contains(t, boardText(board), tc.pace)
			assert.NotRegexp(t, `⏳\s*\d+\s*s\b`, boardText(board), "no time left in seconds")
			shoot(t, tb, tb.users[0].ID, "board-clock-"+tc.lang, tc.left)
		})
	}

	t.Run("over", func(t *testing.T) {
		tb := w.table(t, "en-US", "Alice", "Bruno")
		tb.lobby("/dix start")
		// A player opens the market prompt and keeps it open.
		rec := tb.playUntil(func(g *dix.Game) bool {
			return g.Phase == dix.PhaseBuy && len(g.Choices(g.ToAct()).Buyable) > 0
		})
		user := tb.user(seats(t, rec)[dixOf(rec).ToAct()])
		board, buttons := tb.boardFor(rec)
		prompt := tb.click(user, board.ID, buttons["pr"].raw)
		require.True(t, prompt.Ephemeral(), "%s", describe(prompt))
		sel := promptMenu(t, *prompt.Message)
		tb.playToEnd()
		tb.checkScoreboard([]string{"Alice", "Bruno"})
		r := tb.pick(user, prompt.Message.ID, sel.CustomID, sel.Options[0].Value)
		require.NotNil(t, r.Message, "%s", describe(r))
		assert.Contains(t, r.Message.Content, "This game is over. Its final scoreboard: http")
		assert.Empty(t, components(*r.Message), "no button left on the prompt")
		shoot(t, tb, user.ID, "prompt-after-the-game", "This game is over")
	})
}
