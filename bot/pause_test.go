package bot

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// qwixxMove is a move of seat's open decision on board: a white-sum pass
// or colour pass button the seat may click.
func (h *harness) qwixxMove(board *tabletest.Message) string {
	h.T.Helper()
	for _, id := range tabletest.ComponentIDs(board.Components) {
		if p, err := parseID(id, gameVerbs); err == nil && p.Verb == verbMove {
			return id
		}
	}
	h.T.Fatalf("no move on the board: %v", tabletest.ComponentIDs(board.Components))
	return ""
}

// Only the creator or a channel manager pauses and resumes; while paused
// the board says so, clicks are refused and no clock runs; on resume every
// deadline has moved on by the pause's length.
func TestPauseResume(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			h := newQwixxHarness(t, false)
			if lang == "fr" {
				h.Locale = discordgo.French
			}
			now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
			h.b.now = func() time.Time { return now }
			h.Perms["u3"] = discordgo.PermissionManageChannels
			lobby := h.qcommand("u1", "start", "language", lang).Shown(nil)
			assert.Equal(t, locales.T(lang, "table_err_not_started", nil), h.qcommand("u1", "pause").EphemeralText())
			lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
			lobby = h.ClickOn("u1", lobby, h.qmust(lobby, verbCPU, "easy")).Shown(lobby)
			board := h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, "")).Shown(lobby)
			r0, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			_, _, v := h.qstate()

			assert.Equal(t, locales.T(lang, "err_no_permission_pause", nil), h.qcommand("u2", "pause").EphemeralText())
			assert.Equal(t, locales.T(lang, "err_not_paused", nil), h.qcommand("u1", "resume").EphemeralText())
			_, _, v2 := h.qstate()
			assert.Equal(t, v, v2, "a refused pause changed the game")

			assert.Equal(t, locales.T(lang, "table_pause_done", map[string]any{"Command": "/qwixx"}), h.qcommand("u1", "pause").EphemeralText())
			_, td, v := h.qstate()
			assert.Equal(t, "Alice", td.Paused)
			r, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			assert.True(t, r.Due.IsZero(), "no clock runs while paused")
			shown := h.Rec.Message(board.ID)
			assert.Contains(t, shown.Content, locales.T(lang, "table_paused", map[string]any{"Name": "Alice", "Command": "/qwixx"}))
			assert.NotContains(t, shown.Content, "<t:")
			assert.Equal(t, locales.T(lang, "err_already_paused", map[string]any{"Name": "Alice"}), h.qcommand("u1", "pause").EphemeralText())

			// Clicks are refused, and the clock does not run out.
			txt := h.ClickOn("u2", shown, h.qwixxMove(shown)).EphemeralText()
			assert.Equal(t, locales.T(lang, "table_err_paused", map[string]any{"Name": "Alice", "Command": "/qwixx"}), txt)
			now = now.Add(time.Hour)
			require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
			_, _, v2 = h.qstate()
			assert.Equal(t, v, v2, "a paused game changed")

			// A channel manager resumes: each deadline is an hour later.
			assert.Equal(t, locales.T(lang, "resume_done", nil), h.qcommand("u3", "resume").EphemeralText())
			r, err = h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			assert.True(t, r0.Due.Add(time.Hour).Equal(r.Due), "the deadline %v moved on by the pause: %v", r0.Due, r.Due)
			_, td, _ = h.qstate()
			assert.Empty(t, td.Paused)
			shown = h.Rec.Message(board.ID)
			assert.Contains(t, shown.Content, "<t:"+strconv.Itoa(int(r.Due.Unix()))+":R>")
			// The click goes through again.
			res := h.ClickOn("u2", shown, h.qwixxMove(shown))
			assert.Equal(t, discordgo.InteractionResponseUpdateMessage, res.Response().Type)
		})
	}
}

// /qwixx log shows the game's event lines, more than the board keeps,
// those not written to the log record yet among them, privately and page
// by page, the pause and resume among them; it stays
// readable once the game is over; a forged page shows the oldest.
func TestLog(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	board := h.openQwixx([]string{"u1", "u2"}, "easy")
	h.qcommand("u1", "pause")
	h.qcommand("u1", "resume")
	// The lines not written to the log record yet are shown all the same.
	assert.Contains(t, h.qcommand("u2", "log").EphemeralText(), locales.T("en", "log_resumed", map[string]any{"Name": "Alice"}))
	score := h.playOut(board, &now)
	require.NotNil(t, score)

	res := h.qcommand("u2", "log")
	txt := res.EphemeralText()
	assert.Contains(t, txt, "📜")
	resp := res.Response()
	older := ""
	for _, id := range tabletest.ComponentIDs(resp.Data.Components) {
		if strings.HasPrefix(id, "qwixx:log:") {
			older = id
		}
	}
	require.NotEmpty(t, older, "a whole game's log has more than one page")
	page := h.ClickOn("u2", &tabletest.Message{ID: "orig-x", Ephemeral: true}, older)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, page.Response().Type)
	all := h.ClickOn("u2", &tabletest.Message{ID: "orig-x", Ephemeral: true}, buttonID("qwixx", verbLog, 99999, "")).Response().Data.Content
	assert.Contains(t, all, locales.T("en", "log_paused", map[string]any{"Name": "Alice"}), "the oldest page")
	assert.Contains(t, all, locales.T("en", "log_resumed", map[string]any{"Name": "Alice"}))
	assert.Contains(t, all, locales.T("en", "table_timed_out", map[string]any{"Name": "Bob"}))
	assert.Contains(t, all, locales.T("en", "log_absent", map[string]any{"Name": "Bob"}))
	_, td, _ := h.qstate()
	assert.NotContains(t, strings.Join(td.Log, "\n"), locales.T("en", "log_paused", map[string]any{"Name": "Alice"}), "the board keeps only the latest lines")
	assert.Equal(t, locales.T("en", "err_bad_custom_id", nil), h.ClickOn("u2", nil, "qwixx:log:1:x").EphemeralText())
}

// Every game's command and subcommand fits Discord's limits in
// every language: names of 1–32 characters, descriptions of 1–100
// (https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-structure).
func TestCommandsFitDiscord(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	check := func(name string, names map[discordgo.Locale]string, desc string, descs map[discordgo.Locale]string) {
		t.Helper()
		all := []string{name}
		for _, n := range names {
			all = append(all, n)
		}
		for _, n := range all {
			assert.True(t, len([]rune(n)) >= 1 && len([]rune(n)) <= 32, "name %q", n)
		}
		all = []string{desc}
		for _, d := range descs {
			all = append(all, d)
		}
		for _, d := range all {
			assert.True(t, len([]rune(d)) >= 1 && len([]rune(d)) <= 100, "description %q (%d)", d, len([]rune(d)))
		}
	}
	cmds := h.b.gameCommands()
	require.NotEmpty(t, cmds)
	for _, c := range cmds {
		check(c.Name, *c.NameLocalizations, c.Description, *c.DescriptionLocalizations)
		var subs []string
		for _, o := range c.Options {
			check(o.Name, o.NameLocalizations, o.Description, o.DescriptionLocalizations)
			subs = append(subs, o.Name)
		}
		for _, want := range []string{"pause", "resume", "log"} {
			assert.Contains(t, subs, want)
		}
	}
}

// A person who leaves while the game is paused hands their seat to the
// computer, which plays nothing, and no clock runs, until the game
// resumes; then the computer plays the seat at once and the next person
// is called.
func TestLeaveWhilePausedMovesNothingUntilResume(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 6, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	users := []string{"u1", "u2", "u3"}
	h.openGame("dix", users, nil)
	g, _, _, _ := h.dixNow()
	actor := g.ToAct()
	leaver := users[actor]
	h.Run(h.GameCommandIx("dix", "u1", "pause"))
	g, td, _, _ := h.dixNow()
	seq, banks := g.Seq, slices.Clone(td.Banks)

	start := h.Rec.Count()
	assert.Equal(t, locales.T("en", "table_left_you", nil), h.Run(h.GameCommandIx("dix", leaver, "leave")).EphemeralText())
	now = now.Add(5 * time.Hour)
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	g, td, _, _ = h.dixNow()
	assert.NotEmpty(t, td.Seats[actor].Level, "the seat is handed to the computer")
	assert.Equal(t, seq, g.Seq, "the computer plays nothing while paused")
	assert.Equal(t, actor, g.ToAct())
	assert.Equal(t, banks, td.Banks, "no clock runs while paused")
	for _, c := range h.Rec.Since(start) {
		for _, u := range users {
			assert.NotContains(t, callText(c), "<@"+u+">", "nobody is called while paused")
		}
	}

	// Resumed: the computer plays the seat at once and the next person is
	// called.
	start = h.Rec.Count()
	h.Run(h.GameCommandIx("dix", "u1", "resume"))
	g, _, _, _ = h.dixNow()
	assert.Greater(t, g.Seq, seq, "the computer plays the seat once the game runs again")
	assert.NotEqual(t, actor, g.ToAct())
	called := ""
	for _, c := range h.Rec.Since(start) {
		called += callText(c)
	}
	assert.Contains(t, called, "<@"+users[g.ToAct()]+">", "the person to decide next is called")
	assert.NotContains(t, called, "<@"+leaver+">")
}

// callText is the text a recorded call sends or edits in.
func callText(c tabletest.Call) string {
	switch {
	case c.Send != nil:
		return c.Send.Content
	case c.Params != nil:
		return c.Params.Content
	case c.Edit != nil && c.Edit.Content != nil:
		return *c.Edit.Content
	}
	return ""
}
