package bot

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// A person out of time may have their seat handed to the computer: by a
// majority of the others or the creator's click alone, as at DIX's table;
// a stranger, a repeated vote, a seat that may not be voted on and forged
// seats are refused in words and change nothing.
func TestKickVote(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	board := h.openQwixx([]string{"u1", "u2", "u3"})
	// Chloé (u3) ran out of time once.
	_, err := h.Db.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
		td, err := decodeTableData(r.Meta)
		require.NoError(t, err)
		td.Seats[2].Late = 1
		r.Meta = td.Encode()
		return nil
	})
	require.NoError(t, err)
	board = h.qcommand("u1", "board").Shown(nil) // the board from now on
	_, td, _ := h.qstate()
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	pb, st, err := h.b.drawBoard(h.b.games["qwixx"], r, td, "")
	require.NoError(t, err)
	kick := buttonID("qwixx", verbKick, 0, "2")
	assert.Contains(t, tabletest.ComponentIDs(tableComponents(h.b.games["qwixx"], st, td, pb)), kick, "the board offers the vote")

	_, _, v := h.qstate()
	for _, tc := range []struct{ user, id, key string }{
		{"u9", kick, "table_err_not_seated"},
		{"u2", buttonID("qwixx", verbKick, 0, "0"), "err_no_kick"},
		{"u2", buttonID("qwixx", verbKick, 0, "3"), "err_no_kick"},
		{"u2", buttonID("qwixx", verbKick, 0, "7"), "err_bad_custom_id"},
		{"u2", "qwixx:kick:0:x", "err_bad_custom_id"},
		{"u2", "qwixx:kick:0", "err_bad_custom_id"},
	} {
		assert.Equal(t, locales.T("en", tc.key, nil), h.ClickOn(tc.user, board, tc.id).EphemeralText(), tc.id)
	}
	_, _, v2 := h.qstate()
	assert.Equal(t, v, v2, "a refused vote changed the game")

	assert.Equal(t, locales.T("en", "kick_done", nil), h.ClickOn("u2", board, kick).EphemeralText())
	_, td, _ = h.qstate()
	assert.Equal(t, []string{"u2"}, td.Seats[2].Votes)
	assert.Empty(t, td.Seats[2].Level, "one vote of two needed")
	assert.Contains(t, strings.Join(td.Log, "\n"), locales.T("en", "log_kick_vote", map[string]any{"Voter": "Bob", "Name": "Chloé", "Votes": 1, "Need": 2}))
	assert.Equal(t, locales.T("en", "err_already_voted", nil), h.ClickOn("u2", board, kick).EphemeralText())
	// The creator decides alone.
	assert.Equal(t, locales.T("en", "kick_done", nil), h.ClickOn("u1", board, kick).EphemeralText())
	g, td, _ := h.qstate()
	assert.Equal(t, "normal", td.Seats[2].Level)
	assert.NotContains(t, g.ToDecide(), 2, "the computer plays the seat at once")
	assert.Equal(t, locales.T("en", "table_err_handed_over", nil), h.ClickOn("u3", board, h.qwixxMove(h.Rec.Message(board.ID))).EphemeralText())
}

// The sixth seat of a six-player Dixxit table may be voted on like any
// other: the seat a vote carries is bounded by the game's seats, not by
// DIX's five.
func TestKickVoteOnTheSixthSeat(t *testing.T) {
	t.Parallel()
	h := newDixxitHarness(t, nil)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	board := h.openDixxit("en", []string{"u1", "u2", "u3", "u4", "u5", "u6"}, 0)
	_, err := h.Db.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
		td, err := decodeTableData(r.Meta)
		require.NoError(t, err)
		require.Len(t, td.Seats, 6)
		td.Seats[5].Late = 1
		r.Meta = td.Encode()
		return nil
	})
	require.NoError(t, err)
	_, _, v := h.dstate()
	assert.Equal(t, locales.T("en", "err_bad_custom_id", nil),
		h.ClickOn("u1", board, buttonID("dixxit", verbKick, 0, "6")).EphemeralText(), "a seventh seat")
	_, _, v2 := h.dstate()
	assert.Equal(t, v, v2, "a refused vote changed the game")

	assert.Equal(t, locales.T("en", "kick_done", nil), h.ClickOn("u1", board, buttonID("dixxit", verbKick, 0, "5")).EphemeralText())
	_, td, _ := h.dstate()
	assert.NotEmpty(t, td.Seats[5].Level, "the creator's vote hands the sixth seat to the computer")
}

// /<game> abandon is the creator's, or a channel manager's, and asks for
// confirmation, as /dix abandon does: another player is refused, "Keep
// playing" changes nothing, and the confirmation ends the game, tells the
// channel and takes the board's buttons; a confirmation asked at an
// earlier table is outdated.
func TestAbandonConfirmed(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	board := h.openQwixx([]string{"u1", "u2"})
	_, _, v := h.qstate()
	var ping *tabletest.Message // the ping of Bob's decision, who has not clicked yet
	for _, m := range h.Rec.Messages() {
		if strings.Contains(m.Content, "your decision") {
			ping = m
		}
	}
	require.NotNil(t, ping, "Bob is pinged")
	unchanged := func() {
		t.Helper()
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		assert.False(t, r.Finished, "the game ended")
		assert.Equal(t, v, r.Version, "the game changed")
	}
	assert.Equal(t, locales.T("en", "err_no_permission", nil), h.qcommand("u2", "abandon").EphemeralText())
	unchanged()

	ask := h.qcommand("u1", "abandon")
	assert.Equal(t, locales.T("en", "abandon_confirm", nil), ask.EphemeralText())
	confirm := ask.Shown(nil)
	require.NotNil(t, confirm)
	ids := tabletest.ComponentIDs(confirm.Components)
	require.Len(t, ids, 2)
	yes, no := ids[0], ids[1]
	assert.True(t, strings.HasPrefix(yes, "qwixx:abyes:"), yes)
	assert.Equal(t, "qwixx:abno:0", no)

	assert.Equal(t, locales.T("en", "abandon_kept", nil), h.ClickOn("u1", confirm, no).Shown(confirm).Content)
	unchanged()
	// A forged confirmation, or one of another table, changes nothing.
	assert.Equal(t, locales.T("en", "err_stale", nil), h.ClickOn("u1", confirm, "qwixx:abyes:"+strconv.FormatUint(v, 10)+":x/y").EphemeralText())
	assert.Equal(t, locales.T("en", "err_bad_custom_id", nil), h.ClickOn("u1", confirm, "qwixx:abyes:5").EphemeralText())
	unchanged()

	// A channel manager who does not play may end it too.
	h.Perms["u9"] = discordgo.PermissionManageChannels
	res := h.ClickOn("u9", confirm, yes)
	assert.Equal(t, locales.T("en", "abandon_done", nil), res.Shown(confirm).Content)
	var notice []string
	for _, ms := range res.Sends() {
		notice = append(notice, ms.Content)
	}
	assert.Equal(t, []string{locales.T("en", "table_abandoned", map[string]any{"Name": "Mallory", "Game": "Qwixx"})}, notice, "the channel is told, once")
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.True(t, r.Finished, "the game is archived")
	ended := h.Rec.Message(board.ID)
	assert.Empty(t, tabletest.ComponentIDs(ended.Components), "the board keeps no button")
	notice0 := locales.T("en", "table_abandoned", map[string]any{"Name": "Mallory", "Game": "Qwixx"})
	assert.True(t, strings.HasSuffix(ended.Content, "\n"+notice0), "the board says it ended: %q", ended.Content)
	assert.NotContains(t, ended.Content, "⏳", "and shows no clock")
	assert.NotContains(t, ended.Content, "Waiting for", "nor who was to decide")
	assert.Equal(t, locales.T("en", "table_ping_abandoned", nil), h.Rec.Message(ping.ID).Content, "the ping says there is nothing to decide")
	said := 0
	for _, m := range h.Rec.Messages() {
		said += strings.Count(m.Content, notice0)
	}
	assert.Equal(t, 2, said, "the board and the channel's message say who abandoned, nothing else")
	assert.Contains(t, h.qcommand("u1", "board").EphemeralText(), "no game")

	// The same confirmation, at the next table, is outdated.
	h.openQwixx([]string{"u1", "u2"})
	assert.Equal(t, locales.T("en", "err_stale", nil), h.ClickOn("u1", confirm, yes).EphemeralText())
	r, err = h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.False(t, r.Finished, "the next game goes on")
}

// In every game's lobby only its creator seats and removes computer
// players, as at DIX's table: a person who joined, or a stranger, is
// refused and the lobby is unchanged.
func TestLobbyComputersAreTheCreators(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	lobby := h.qcommand("u1", "start").Shown(nil)
	lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	lobby = h.ClickOn("u1", lobby, h.qmust(lobby, verbCPU, "normal")).Shown(lobby)
	_, td, _ := h.qstate()
	require.Len(t, td.Seats, 3)
	for _, u := range []string{"u2", "u3"} {
		for _, id := range []string{h.qmust(lobby, verbCPU, "easy"), h.qmust(lobby, verbRmCPU, "")} {
			assert.Equal(t, locales.T("en", "err_not_creator", nil), h.ClickOn(u, lobby, id).EphemeralText(), "%s by %s", id, u)
		}
	}
	_, after, _ := h.qstate()
	assert.Equal(t, td.Seats, after.Seats, "the seats changed")
	h.ClickOn("u1", lobby, h.qmust(lobby, verbRmCPU, ""))
	_, after, _ = h.qstate()
	assert.Len(t, after.Seats, 2, "the creator removes the computer")
}

// At the end of a game every person seated is told, once, with a link to
// the final scoreboard (the board), as at DIX's table.
func TestGameOverTellsEveryone(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	h.openQwixx([]string{"u1", "u2"})
	h.qcommand("u1", "leave")
	h.qcommand("u2", "leave") // the computers finish the game
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.True(t, r.Finished)
	td, err := decodeTableData(r.Meta)
	require.NoError(t, err)
	want := locales.T("en", "table_over_ping", map[string]any{"Mentions": "<@u1> <@u2>", "Game": "Qwixx",
		"URL": messageURL(h.Guild, h.Channel, td.Board)})
	var told []*tabletest.Message
	for _, m := range h.Rec.Messages() {
		if m.Content == want {
			told = append(told, m)
		}
	}
	require.Len(t, told, 1, "one message tells the end")
	require.NotNil(t, told[0].Mentions)
	assert.ElementsMatch(t, []string{"u1", "u2"}, told[0].Mentions.Users, "it notifies both people")
	assert.False(t, told[0].Ephemeral)
}

// A confirmation of /<game> abandon clicked once another confirmation
// ended the game says that this game is over already, and loses its
// buttons: not that the bot lost its record, nor another game's command.
func TestAbandonConfirmedBySomeoneElseFirst(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	h.openQwixx([]string{"u1", "u2"})
	h.Perms["u9"] = discordgo.PermissionManageChannels
	mine := h.qcommand("u1", "abandon").Shown(nil)
	theirs := h.qcommand("u9", "abandon").Shown(nil)
	require.NotNil(t, mine)
	require.NotNil(t, theirs)
	yes := tabletest.ComponentIDs(theirs.Components)[0]
	assert.Equal(t, locales.T("en", "abandon_done", nil), h.ClickOn("u9", theirs, yes).Shown(theirs).Content)
	res := h.ClickOn("u1", mine, tabletest.ComponentIDs(mine.Components)[0])
	shown := res.Shown(mine)
	require.NotNil(t, shown)
	assert.Equal(t, locales.T("en", "table_abandon_over", map[string]any{"Game": "Qwixx"}), shown.Content)
	assert.Empty(t, tabletest.ComponentIDs(shown.Components), "the confirmation keeps no button")
	assert.NotContains(t, res.Texts(), "/dix")
}

// A kick vote's button names the seats as typed: a label is plain text,
// where an escape would show as a backslash.
func TestKickButtonNamesAsTyped(t *testing.T) {
	t.Parallel()
	td := &tableData{Lang: "en", Creator: "u1", Seats: []tableSeat{{User: "u1", Name: "Al_x"}, {User: "u2", Name: "**Bo**"}, {User: "u3", Name: "Cy"}}}
	label := td.kickLabel(1)
	assert.Contains(t, label, "**Bo**")
	assert.Contains(t, label, "Al_x")
	assert.NotContains(t, label, `\`)
}
