package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// TestOneHumanTwoComputers: one person seats two computer players from the
// lobby and plays a whole game against them through the stand-in; the
// computers' moves appear on the board, only the person is ever pinged, and
// the scoreboard names the computer players.
func TestOneHumanTwoComputers(t *testing.T) {
	t.Parallel()
	w := newWorld(t, true)
	tb := w.table(t, "en-US", "Alice")
	alice := tb.users[0]
	r := tb.command(alice, "/dix start")
	require.NotNil(t, r.Message, describe(r))
	lobby := *r.Message
	for _, level := range []string{"normal", "easy"} {
		id := ""
		for _, c := range components(lobby) {
			if c.CustomID != "" && strings.HasPrefix(c.CustomID, "dix:cpu:") && strings.HasSuffix(c.CustomID, ":"+level) {
				id = c.CustomID
			}
		}
		require.NotEmpty(t, id, "the lobby offers computer players")
		resp := tb.click(alice, lobby.ID, id)
		require.False(t, resp.Ephemeral(), "added: %s", describe(resp))
		var ok bool
		lobby, ok = tb.fake.Message(lobby.ID)
		require.True(t, ok)
	}
	tb.clickVerb(alice, lobby, "go")
	rec := tb.record()
	require.NotNil(t, dixOf(rec))
	require.Len(t, dixOf(rec).Players, 3)

	computer2 := locales.T("en", "table_cpu_name", map[string]any{"N": 2})
	computer3 := locales.T("en", "table_cpu_name", map[string]any{"N": 3})
	// The computers play where everyone sees it: once they have taken
	// cards, the board Alice decides on tells their moves.
	played := false
	for turn := 0; turn < 20 && !played; turn++ {
		rec := tb.playUntil(func(g *dix.Game) bool {
			return g.ToAct() == 0 && len(g.Players[1].Collection)+len(g.Players[2].Collection) > 0
		})
		board, _ := tb.boardFor(rec)
		for _, e := range board.Embeds {
			played = played || strings.Contains(e.Description, computer2) || strings.Contains(e.Description, computer3)
		}
		if !played {
			require.True(t, tb.decide(), "the game ended before a board told the computers' moves")
		}
	}
	assert.True(t, played, "the board tells the computers' moves")

	tb.playToEnd()
	tb.checkScoreboard([]string{"Alice", computer2, computer3})
	for _, m := range tb.fake.Transcript(tb.channel.ID) {
		for _, u := range m.Pinged {
			assert.Equal(t, alice.ID, u, "only the person is pinged")
		}
	}
}

// TestHintInBothLanguages: /dix hint answers the player to act privately
// in their language, and tells the other whose decision it is.
func TestHintInBothLanguages(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)
	tb := w.table(t, "en-US", "Alice", "Bruno/fr")
	tb.lobby("/dix start")
	for range 2 {
		rec := tb.record()
		actor := tb.user(seats(t, rec)[dixOf(rec).ToAct()])
		other := tb.users[0]
		if other.ID == actor.ID {
			other = tb.users[1]
		}
		lang := locales.For(string(actor.Locale))
		r := tb.command(actor, "/dix hint")
		require.True(t, r.Ephemeral(), describe(r))
		assert.True(t, strings.HasPrefix(r.Message.Content, "**"+locales.T(lang, "dix_hint_title", nil)+"**"), describe(r))
		if dixOf(rec).Phase == dix.PhaseDraw {
			assert.Contains(t, r.Message.Content, "%", "the odds of the next card")
		}
		r = tb.command(other, "/dix hint")
		require.True(t, r.Ephemeral(), describe(r))
		assert.Equal(t, locales.T(locales.For(string(other.Locale)), "dix_err_not_now", nil), r.Message.Content)
		require.True(t, tb.decide())
	}
}
