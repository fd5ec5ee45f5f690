package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	botdix "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// boardText is the text of a board message: its content and its embeds'
// descriptions, fields and footers.
func boardText(msg *tabletest.Message) string {
	parts := []string{msg.Content}
	for _, e := range msg.Embeds {
		parts = append(parts, e.Description)
		for _, f := range e.Fields {
			parts = append(parts, f.Name, f.Value)
		}
		if e.Footer != nil {
			parts = append(parts, e.Footer.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// due is the channel's record's Due.
func (h *harness) due() time.Time {
	h.T.Helper()
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(h.T, err)
	return r.Due
}

// DIX on the shared table plays on time banks (package clock): the lobby
// offers its paces by bank and increment, evening first; each person's
// decision has what is left of their bank, a decision made takes its time
// from the bank and adds the increment, a decision out of time leaves the
// increment alone, the bank of a person not deciding shows on the board,
// and a pause holds every clock.
func TestDixSharedTimeBanks(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			h := newDixHarness(t, 6, false)
			now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
			h.b.now = func() time.Time { return now }
			lobby := h.Run(h.startIx("dix", "u1", map[string]string{"language": lang})).Shown(nil)
			require.NotNil(t, lobby)
			lobby = h.ClickOn("u2", lobby, h.dixMust(lobby, verbJoin, "")).Shown(lobby)
			menu := selectMenu(t, lobby, h.dixMust(lobby, verbPace, ""))
			require.Len(t, menu.Options, len(clock.Defaults))
			assert.Equal(t, clock.DefaultPace, menu.Options[0].Value)
			assert.True(t, menu.Options[0].Default, "evening is the default")
			for _, o := range menu.Options {
				p, ok := clock.Find(clock.Defaults, o.Value)
				require.True(t, ok)
				assert.Equal(t, present.PaceText(lang, p), o.Label)
			}
			assert.Contains(t, lobby.Content, present.PaceText(lang, clock.Evening))
			lobby = h.ClickOn("u1", lobby, h.dixMust(lobby, verbPace, ""), "live").Shown(lobby)
			assert.Contains(t, lobby.Content, present.PaceText(lang, clock.Live))
			h.ClickOn("u1", lobby, h.dixMust(lobby, verbGo, ""))

			// The first decision has the whole bank; a bank of 5 min is
			// too short for a reminder.
			g, td, _, _ := h.dixNow()
			a := g.ToAct()
			other := 1 - a
			users := []string{"u1", "u2"}
			assert.True(t, now.Add(clock.Live.Bank).Equal(h.due()), "due at the deadline: %v", h.due())
			board := h.Rec.Message(td.Board)
			assert.Contains(t, board.Content, fmt.Sprintf("<t:%d:R>", now.Add(clock.Live.Bank).Unix()))
			full := locales.T(lang, "dix_player_time", map[string]any{"Left": present.TimeLeftText(lang, clock.Live.Bank)})
			assert.Contains(t, boardText(board), full, "the bank of the person not deciding")

			// Two minutes, then a draw: 5 − 2 + 1 min left.
			now = now.Add(2 * time.Minute)
			draw := string(dix.FormatMove(dix.Action{Kind: dix.ActDraw}))
			board = h.ClickOn(users[a], board, h.dixMust(board, verbMove, draw)).Shown(board)
			g, td, _, _ = h.dixNow()
			require.Len(t, td.Banks, 2)
			assert.Equal(t, (4 * time.Minute).Milliseconds(), td.Banks[a])
			assert.Equal(t, clock.Live.Bank.Milliseconds(), td.Banks[other], "the other's bank did not run")
			next := g.ToAct()
			left := map[int]time.Duration{a: 4 * time.Minute, other: clock.Live.Bank}[next]
			assert.True(t, now.Add(left).Equal(h.due()), "the next decision has its bank: %v", h.due())

			// A pause of an hour holds the clock.
			h.Run(h.GameCommandIx("dix", "u1", "pause"))
			now = now.Add(time.Hour)
			h.Run(h.GameCommandIx("dix", "u1", "resume"))
			assert.True(t, now.Add(left).Equal(h.due()), "the pause held the clock: %v", h.due())

			// Out of time: the bank is spent, the increment is all it has.
			now = h.due()
			require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
			_, td, _, _ = h.dixNow()
			assert.Equal(t, clock.Live.Increment.Milliseconds(), td.Banks[next])
			assert.Equal(t, 1, td.Seats[next].Late)
		})
	}
}

// The operator's setting of the paces (clock.ParsePaces) gives the banks
// and increments of every game's paces of time banks by name.
func TestSharedTimeBanksFollowTheOperatorsPaces(t *testing.T) {
	t.Parallel()
	paces, err := clock.ParsePaces("live=10m+30s")
	require.NoError(t, err)
	h := newHarness(t)
	b, err := New(Options{Store: h.Db, DefaultLanguage: "en", Observer: h.Obs, NoPictures: true, Paces: paces,
		Games: []present.Game{botdix.Game()}})
	require.NoError(t, err)
	h.b = b
	live := b.games["dix"].PaceOf("live")
	assert.Equal(t, clock.Pace{Name: "live", Bank: 10 * time.Minute, Increment: 30 * time.Second}, live.Bank)
	assert.Equal(t, clock.Live, botdix.Paces[1].Bank, "the game's own paces are left as they are")
	lobby := h.Run(h.GameCommandIx("dix", "u1", "start")).Shown(nil)
	require.NotNil(t, lobby)
	menu := selectMenu(t, lobby, h.dixMust(lobby, verbPace, ""))
	assert.Contains(t, fmt.Sprint(menu.Options), present.PaceText("en", live.Bank))
}
