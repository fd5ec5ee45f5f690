package bot

import (
	"context"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// After the store lost a game (Redis restarted empty), the first click on
// its board says so, in the clicking player's language, and retires the
// board's buttons in the answer itself; the board keeps its text and
// nothing is stored.
func TestLostGameRetiresItsButtons(t *testing.T) {
	t.Parallel()
	for _, lc := range []discordgo.Locale{discordgo.EnglishUS, discordgo.French} {
		t.Run(string(lc), func(t *testing.T) {
			t.Parallel()
			h := newDixHarness(t, 4, false)
			board := h.openGame("dix", []string{"u1", "u2"}, nil)
			embeds := board.Embeds
			require.NoError(t, h.St.Delete(context.Background(), h.Channel)) // the store's data is gone
			h.Locale = lc

			r := h.ClickOn("u2", board, h.dixMust(board, verbStep, "hand"))
			resp := r.Response()
			require.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "the answer edits the board")
			assert.Equal(t, locales.T(locales.For(string(lc)), "err_game_gone", nil), resp.Data.Content)
			assert.Empty(t, tabletest.ComponentIDs(h.Rec.Message(board.ID).Components), "retired on the first click")
			assert.Equal(t, embeds, h.Rec.Message(board.ID).Embeds, "the board keeps its text")
			assert.Equal(t, 1, h.Obs.Outcomes["button/stale"])
			_, err := h.St.Get(context.Background(), h.Channel)
			assert.ErrorIs(t, err, dixbot.ErrNotFound, "nothing is stored")
		})
	}
}

// A custom id the board does not carry, of a game the store does not
// have, is forged, not a click on a lost game's board: it is told that
// there is no game and the board keeps its buttons.
func TestForgedClickOnAGoneGameKeepsTheButtons(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 4, false)
	board := h.openGame("dix", []string{"u1", "u2"}, nil)
	ids := tabletest.ComponentIDs(board.Components)
	require.NoError(t, h.St.Delete(context.Background(), h.Channel))

	r := h.ClickOn("u2", board, buttonID("dix", verbStep, 7, "hand"))
	resp := r.Response()
	require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type, r.Describe())
	assert.NotZero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral)
	assert.Equal(t, locales.T("en", "table_err_no_game", map[string]any{"Command": "/dix"}), resp.Data.Content)
	assert.Equal(t, ids, tabletest.ComponentIDs(h.Rec.Message(board.ID).Components), "the board keeps its buttons")
	assert.Zero(t, h.Obs.Outcomes["button/stale"])
}

// A private prompt whose decision is over loses its buttons when clicked:
// it turns into the "outdated" answer instead of staying live beside the
// prompt the decision was taken in.
func TestStalePromptLosesItsButtons(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	users := []string{"u1", "u2"}
	board, first, sel, val := toActivePrompt(t, h, users, h.openQwixx(users))
	g, _, _ := h.qstate()
	second := h.ClickOn(users[g.Active], board, h.qmust(board, verbPrompt, "")).Shown(nil)
	require.NotNil(t, second)
	require.True(t, second.Ephemeral)
	h.ClickOn(users[g.Active], first, sel, val) // decided from the first prompt
	// The other passes the white sum: the next roll opens.
	other := users[1-g.Active]
	h.ClickOn(other, board, buttonID("qwixx", verbMove, g.Seq, "w -"))
	g2, _, _ := h.qstate()
	require.Greater(t, g2.Seq, g.Seq, "the next roll")
	before := snapshot(h)
	r := h.ClickOn(users[g.Active], second, h.qmust(second, verbSelect, ""), val)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	assert.Contains(t, r.Response().Data.Content, locales.T("en", "err_stale", nil))
	assert.Empty(t, tabletest.ComponentIDs(r.Response().Data.Components), "no button is left on it")
	unchanged(h, before)
}

// A prompt of a game that ended since (abandoned here) says so, with a
// link to its last board, and keeps no button; a command then finds no
// game: the channel is free.
func TestPromptAfterTheGameEnded(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	users := []string{"u1", "u2"}
	board := h.openQwixx(users)
	_, prompt, sel, val := toActivePrompt(t, h, users, board)
	g, _, _ := h.qstate()
	confirm := h.qcommand("u1", "abandon").Shown(nil)
	require.NotNil(t, confirm)
	h.ClickOn("u1", confirm, h.qmust(confirm, verbEnd, ""))
	resp := h.ClickOn(users[g.Active], prompt, sel, val).Response()
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "the prompt itself says it")
	assert.Equal(t, locales.T("en", "err_over_abandoned", map[string]any{"URL": messageURL("g1", h.Channel, board.ID)}), resp.Data.Content)
	assert.Empty(t, tabletest.ComponentIDs(resp.Data.Components), "no button left on a prompt of a finished game")
	assert.Equal(t, locales.T("en", "table_err_no_game", map[string]any{"Command": "/qwixx"}), h.qcommand("u1", "hint").EphemeralText())
}
