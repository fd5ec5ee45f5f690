package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// /qwixx board posts the board again at the bottom of the channel and
// makes that message the board, as /dix board does: the old one loses its
// buttons and its clicks are outdated, the game goes on on the new one,
// and the table stays the same table (its log, an abandon confirmation
// asked before). Posted again twice, the first repost loses its buttons
// to the second.
func TestBoardPostedAgainIsTheBoard(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	old := h.openQwixx([]string{"u1", "u2"})
	_, td, _ := h.qstate()
	require.Equal(t, old.ID, td.Board)
	old = h.ClickOn("u1", old, h.qwixxMove(old)).Shown(old) // Alice decides, on the old board
	oldMove := h.qwixxMove(old)                             // Bob's decision, still open
	ask := h.qcommand("u1", "abandon").Shown(nil)           // the confirmation, asked at the old board
	require.NotNil(t, ask)

	res := h.qcommand("u2", "board")
	resp := res.Response()
	require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type)
	assert.Zero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "the board is posted for everyone")
	nb := res.Shown(nil)
	require.NotNil(t, nb)
	require.NotEqual(t, old.ID, nb.ID)
	_, td, v := h.qstate()
	assert.Equal(t, nb.ID, td.Board, "the new message is the board")
	assert.Equal(t, old.ID, td.Began, "the game started on the old one")
	assert.Empty(t, td.Outbox, "the work owed is done")
	assert.Empty(t, tabletest.ComponentIDs(h.Rec.Message(old.ID).Components), "the old board keeps no button")
	assert.NotEmpty(t, tabletest.ComponentIDs(nb.Components), "the new board has the buttons")
	var ping *tabletest.Message // Bob's, who has not decided yet
	for _, m := range h.Rec.Messages() {
		if strings.Contains(m.Content, "your decision") {
			ping = m
		}
	}
	require.NotNil(t, ping, "Bob is pinged")
	assert.Contains(t, ping.Content, messageURL(h.Guild, h.Channel, nb.ID), "the ping leads to the new board")
	assert.Contains(t, ping.Content, "<@u2>")
	for _, c := range res.Calls {
		assert.NotContains(t, []string{"send", "edit"}, c.Op, "no request with the bot token")
	}

	// A click on the old board is outdated and changes nothing: the old
	// board loses its buttons (had its retirement not landed), and the
	// clicker is led to the board.
	stale := h.ClickOn("u2", &tabletest.Message{ID: old.ID, Channel: h.Channel, Components: nb.Components}, oldMove)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, stale.Response().Type)
	assert.Empty(t, stale.Response().Data.Components, "retired")
	assert.Contains(t, stale.Texts(), locales.T("en", "err_stale", nil))
	assert.Contains(t, stale.Texts(), messageURL(h.Guild, h.Channel, nb.ID))
	_, _, v2 := h.qstate()
	assert.Equal(t, v, v2, "the stale click changed the game")

	// The game goes on on the new board, answered in place.
	moved := h.ClickOn("u2", nb, h.qwixxMove(nb))
	assert.Contains(t, []discordgo.InteractionResponseType{discordgo.InteractionResponseUpdateMessage,
		discordgo.InteractionResponseDeferredMessageUpdate}, moved.Response().Type, "answered on the new board")
	_, td, v3 := h.qstate()
	assert.Greater(t, v3, v2, "the click on the new board is applied")
	assert.Equal(t, nb.ID, td.Board)

	// The table is the same: its log goes back before the repost.
	log := h.qcommand("u2", "log").EphemeralText()
	assert.Contains(t, log, "📜")
	assert.GreaterOrEqual(t, strings.Count(log, "\n"), 2, "the log keeps the lines before the repost: %q", log)

	// Posted again once more: the first repost is no longer the board.
	again := h.qcommand("u1", "board").Shown(nil)
	require.NotNil(t, again)
	_, td, _ = h.qstate()
	assert.Equal(t, again.ID, td.Board)
	assert.Equal(t, old.ID, td.Began, "still the table that started on the first board")
	assert.Empty(t, tabletest.ComponentIDs(h.Rec.Message(nb.ID).Components), "the first repost keeps no button")

	// The confirmation asked at the old board still ends this table.
	yes := tabletest.ComponentIDs(ask.Components)[0]
	assert.Equal(t, locales.T("en", "abandon_done", nil), h.ClickOn("u1", ask, yes).Shown(ask).Content)
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.True(t, r.Finished, "the game is ended")
	assert.Empty(t, tabletest.ComponentIDs(h.Rec.Message(again.ID).Components), "the board keeps no button")
}

// A board of an earlier game of the channel that kept its buttons (an
// edit that never landed) carries ids that look like the new game's: a
// click on it changes nothing in the new game, and retires it.
func TestOldBoardOfAnEarlierGame(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	first := h.openQwixx([]string{"u1", "u2"})
	kept := &tabletest.Message{ID: first.ID, Channel: h.Channel, Components: first.Components}
	move := h.qwixxMove(kept)
	ask := h.qcommand("u1", "abandon").Shown(nil)
	require.NotNil(t, ask)
	h.ClickOn("u1", ask, tabletest.ComponentIDs(ask.Components)[0])
	h.openQwixx([]string{"u1", "u2"})
	before, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	res := h.ClickOn("u2", kept, move)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, res.Response().Type)
	assert.Empty(t, res.Response().Data.Components, "retired")
	assert.Contains(t, res.Texts(), locales.T("en", "err_stale", nil))
	after, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.Equal(t, before.Data, after.Data, "the new game is unchanged")
}

// In a lobby, /qwixx board posts the lobby again and that message is the
// lobby from then on: the old one loses its buttons, people join on the
// new one and the game starts there. A table written before tables were
// named (no opening recorded) keeps both lobbies, as before.
func TestLobbyPostedAgainIsTheLobby(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	old := h.qcommand("u1", "start").Shown(nil)
	require.NotNil(t, old)
	res := h.qcommand("u2", "board")
	nl := res.Shown(nil)
	require.NotNil(t, nl)
	require.NotEqual(t, old.ID, nl.ID)
	assert.Empty(t, tabletest.ComponentIDs(h.Rec.Message(old.ID).Components), "the old lobby keeps no button")
	assert.NotEmpty(t, tabletest.ComponentIDs(nl.Components))
	for _, c := range res.Calls {
		assert.NotContains(t, []string{"send", "edit"}, c.Op, "no request with the bot token")
	}
	nl = h.ClickOn("u2", nl, h.qmust(nl, verbJoin, "")).Shown(nl)
	board := h.ClickOn("u1", nl, h.qmust(nl, verbGo, "")).Shown(nl)
	_, td, _ := h.qstate()
	assert.Equal(t, nl.ID, td.Board, "the game starts on the new lobby")
	assert.NotEmpty(t, tabletest.ComponentIDs(board.Components))

	// A lobby of a table recorded without its opening.
	h2 := newQwixxHarness(t, false)
	first := h2.qcommand("u1", "start").Shown(nil)
	_, err := h2.Db.Update(context.Background(), h2.Channel, "", func(r *dixbot.Record) error {
		td, err := decodeTableData(r.Meta)
		require.NoError(t, err)
		td.Opened = ""
		r.Meta = td.Encode()
		return nil
	})
	require.NoError(t, err)
	again := h2.qcommand("u2", "board").Shown(nil)
	require.NotNil(t, again)
	assert.NotEmpty(t, tabletest.ComponentIDs(h2.Rec.Message(first.ID).Components), "the first lobby is left as it was")
}
