package bot

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// gamePerms are the permissions a game needs in its channel, and more.
const gamePerms = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionSendMessagesInThreads |
	discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles | discordgo.PermissionReadMessageHistory

// carriesEmbeds reports whether c posts, edits or answers with embeds.
func carriesEmbeds(c tabletest.Call) bool {
	switch {
	case c.Resp != nil && c.Resp.Data != nil:
		return len(c.Resp.Data.Embeds) > 0
	case c.Edit != nil && c.Edit.Embeds != nil:
		return len(*c.Edit.Embeds) > 0
	case c.Send != nil:
		return len(c.Send.Embeds) > 0
	case c.Params != nil:
		return len(c.Params.Embeds) > 0
	}
	return false
}

// noEmbedLinks refuses what Discord refuses in a channel where the bot
// lacks Embed Links: any message or answer with embeds, 403 50013.
func noEmbedLinks(c tabletest.Call) error {
	if !carriesEmbeds(c) {
		return nil
	}
	return &discordgo.RESTError{
		Response: &http.Response{StatusCode: http.StatusForbidden},
		Message:  &discordgo.APIErrorMessage{Code: discordgo.ErrCodeMissingPermissions, Message: "Missing Permissions"},
	}
}

// refuse sets what the harness's Discord refuses (nil: nothing) and the
// bot's permissions its interactions tell.
func (h *harness) refuse(f func(tabletest.Call) error, perms int64) {
	h.Rec.Mu.Lock()
	h.Rec.Refuse = f
	h.Rec.Mu.Unlock()
	h.AppPerm = perms
}

// told are the private texts of calls: answers, follow-ups and their
// edits.
func told(calls []tabletest.Call) string {
	var out []string
	for _, c := range calls {
		switch {
		case c.Refused:
		case c.Resp != nil && c.Resp.Data != nil && c.Resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0:
			out = append(out, c.Resp.Data.Content)
		case c.Params != nil && c.Params.Flags&discordgo.MessageFlagsEphemeral != 0:
			out = append(out, c.Params.Content)
		case c.Op == "followupEdit" && c.Edit != nil && c.Edit.Content != nil:
			out = append(out, *c.Edit.Content)
		}
	}
	return strings.Join(out, "\n")
}

// A DIX board Discord refuses for good on the shared table (Embed Links
// taken from the bot mid-game): the decision out of time is taken, but
// its board's edit stays owed and the game is marked missing; no clock
// runs meanwhile (an hour later nobody is out of time), the bot token
// tries again at growing intervals, and every click or command tells its
// user privately, in their language, what is missing and how to end the
// game. Once Embed Links is back, the next command shows the board, the
// mark goes and the clock runs again with the time held given back.
func TestBoardMissing(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 6, false)
	t0 := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	now := t0
	h.b.now = func() time.Time { return now }
	h.AppPerm = gamePerms
	lobby := h.Run(h.startIx("dix", "u1", map[string]string{"pace": "live"})).Shown(nil)
	require.NotNil(t, lobby)
	lobby = h.ClickOn("u2", lobby, h.dixMust(lobby, verbJoin, "")).Shown(lobby)
	h.ClickOn("u1", lobby, h.dixMust(lobby, verbGo, ""))
	g, td, _, _ := h.dixNow()
	board0 := *h.Rec.Message(td.Board)
	require.NotEmpty(t, board0.Embeds, "the board carries embeds")
	require.True(t, t0.Add(clock.Live.Bank).Equal(h.due()))

	// Embed Links goes; the first player's time runs out.
	h.refuse(noEmbedLinks, gamePerms&^discordgo.PermissionEmbedLinks)
	now = h.due()
	refusedAt := now
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	g2, td, _, _ := h.dixNow()
	assert.Greater(t, g2.Seq, g.Seq, "the decision out of time is taken")
	require.NotNil(t, td.Missing, "the board's edit was refused")
	assert.Equal(t, missingBoard, td.Missing.Kind)
	assert.Equal(t, discordgo.ErrCodeMissingPermissions, td.Missing.Code)
	assert.Equal(t, http.StatusForbidden, td.Missing.Status)
	assert.Equal(t, 1, td.Missing.Tries)
	assert.True(t, refusedAt.Equal(td.Missing.Since))
	assert.True(t, refusedAt.Add(missingFirst).Equal(h.due()), "due at the next try: %v", h.due())
	require.True(t, owesEdit(td.Outbox), "the edit stays owed")
	assert.Equal(t, board0.Content, h.Rec.Message(td.Board).Content, "the board is as it was")
	toAct := g2.ToAct()
	banks := append([]int64(nil), td.Banks...)
	late := td.Seats[toAct].Late

	// An hour later: tried again at each try, nobody ran out of time.
	for i := 2; i <= 4; i++ {
		now = h.due().Add(time.Hour / 3)
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
		g3, td, _, _ := h.dixNow()
		assert.Equal(t, g2.Seq, g3.Seq, "nothing is played while the board is missing")
		require.NotNil(t, td.Missing)
		assert.Equal(t, i, td.Missing.Tries)
		assert.True(t, now.Add(missingRetry(i)).Equal(h.due()), "try %d: due %v", i, h.due())
		assert.Equal(t, banks, td.Banks, "no bank runs")
		assert.Equal(t, late, td.Seats[toAct].Late)
	}

	// The player to act clicks the board they still see, the other
	// asks for the log in French: each is told privately, in their
	// language, what is missing and how to end the game.
	users := []string{"u1", "u2"}
	ids := tabletest.ComponentIDs(board0.Components)
	require.NotEmpty(t, ids)
	click := h.ClickOn(users[toAct], &board0, ids[0])
	text := told(click.Calls)
	assert.Contains(t, text, locales.T("en", "perm_embed_links", nil), "told why: %s", click.Describe())
	assert.Contains(t, text, "`/dix "+locales.T("en", "cmd_abandon_name", nil)+"`")
	assert.NotContains(t, text, locales.T("en", "perm_send_messages", nil), "an edit needs no Send Messages")
	// A click refused (not the clicker's turn) tells it too.
	g3, _, _, _ := h.dixNow()
	cur := h.Rec.Message(board0.ID)
	var move string
	for _, id := range tabletest.ComponentIDs(cur.Components) {
		if p, err := parseID(id, gameVerbs); err == nil && p.Verb == verbMove {
			move = id
		}
	}
	require.NotEmpty(t, move, "a move on the board")
	refused := h.ClickOn(users[1-g3.ToAct()], cur, move)
	assert.Contains(t, told(refused.Calls), locales.T("en", "perm_embed_links", nil), "told why: %s", refused.Describe())
	h.Locale = discordgo.French
	cmd := h.Run(h.GameCommandIx("dix", users[1-toAct], "log"))
	h.Locale = ""
	text = told(cmd.Calls)
	assert.Contains(t, text, locales.T("fr", "perm_embed_links", nil), "told in French: %s", cmd.Describe())
	assert.Contains(t, text, "`/dix "+locales.T("fr", "cmd_abandon_name", nil)+"`")
	g3, td, _, _ = h.dixNow()
	require.NotNil(t, td.Missing, "still missing")
	assert.Greater(t, td.Missing.Tries, 4, "each call tried again")

	// Embed Links is back: the next command shows the board.
	h.refuse(nil, gamePerms)
	now = now.Add(time.Minute)
	shownAt := now
	cmd = h.Run(h.GameCommandIx("dix", users[1-toAct], "log"))
	assert.NotContains(t, told(cmd.Calls), "⚠️", "nobody is told anything any more")
	g4, td, _, _ := h.dixNow()
	assert.Nil(t, td.Missing, "the mark goes")
	assert.False(t, owesEdit(td.Outbox), "the edit is done")
	assert.Equal(t, g3.Seq, g4.Seq)
	toAct = g4.ToAct()
	left := clock.Live.Bank
	if toAct < len(td.Banks) {
		left = time.Duration(td.Banks[toAct]) * time.Millisecond
	}
	deadline := shownAt.Add(left)
	assert.True(t, deadline.Equal(h.due()), "the clock runs again, the time held given back: due %v, want %v", h.due(), deadline)
	shown := h.Rec.Message(td.Board)
	assert.NotEqual(t, board0.Content, shown.Content, "the board shows the game as it stands")
	assert.Contains(t, shown.Content, fmt.Sprintf("<t:%d:R>", deadline.Unix()), "with its clock")

	// The game goes on: out of time at the deadline.
	now = deadline
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	g5, td, _, _ := h.dixNow()
	assert.Greater(t, g5.Seq, g4.Seq)
	assert.Nil(t, td.Missing)
}

// The bot token stops trying by itself after missingTries refusals; a
// channel gone (10003 Unknown Channel) is not tried again by itself.
func TestMissingTries(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	refusal := noEmbedLinks(tabletest.Call{Send: &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{}}}})
	td := &tableData{}
	for range missingTries - 1 {
		td.refused(false, refusal, now)
		assert.False(t, td.Missing.Next.IsZero())
	}
	td.refused(false, refusal, now)
	assert.True(t, td.Missing.Next.IsZero(), "no more tries without a click")
	assert.Contains(t, string(td.Encode()), string(missingKey), "the mark as boardMissingSeen looks for it")

	gone := &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusNotFound},
		Message: &discordgo.APIErrorMessage{Code: discordgo.ErrCodeUnknownChannel}}
	td = &tableData{}
	td.refused(true, gone, now)
	assert.Equal(t, missingScores, td.Missing.Kind, "the final scoreboard")
	assert.True(t, td.Missing.Next.IsZero())
}

// The time the clocks stood still is given back to every decision in
// progress: all of it to one opened before, the rest of it to one opened
// meanwhile; a computer's reaction ends as much later; a pause that
// began meanwhile gives back the rest itself.
func TestMissingGivesTimeBack(t *testing.T) {
	t.Parallel()
	at := func(m int) int64 { return time.Date(2026, 1, 2, 3, m, 0, 0, time.UTC).UnixMilli() }
	since := time.UnixMilli(at(10))
	td := &tableData{OpenAt: []int64{at(5), at(12), 0}, Wake: []int64{0, at(13), 0}, Missing: &Missing{Since: since}}
	assert.True(t, since.Equal(td.clockNow(time.UnixMilli(at(30)))), "the clocks stand still")
	td.found(time.UnixMilli(at(30)))
	assert.Nil(t, td.Missing)
	assert.Equal(t, []int64{at(25), at(30), 0}, td.OpenAt)
	assert.Equal(t, []int64{0, at(31), 0}, td.Wake)

	td = &tableData{OpenAt: []int64{at(5)}, Missing: &Missing{Since: since}, Paused: "Ann", PausedAt: at(20)}
	td.found(time.UnixMilli(at(30)))
	assert.Equal(t, []int64{at(15)}, td.OpenAt, "up to the pause")
}

// refuseScoreboard refuses what shows a final scoreboard (its Rematch
// button): 403 50013, as for a permission it needs.
func refuseScoreboard(c tabletest.Call) error {
	var comps []discordgo.MessageComponent
	switch {
	case c.Resp != nil && c.Resp.Data != nil:
		comps = c.Resp.Data.Components
	case c.Edit != nil && c.Edit.Components != nil:
		comps = *c.Edit.Components
	case c.Params != nil:
		comps = c.Params.Components
	}
	for _, id := range tabletest.ComponentIDs(comps) {
		if p, err := parseID(id, gameVerbs); err == nil && p.Verb == verbAgain {
			return noEmbedLinks(tabletest.Call{Send: &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{}}}})
		}
	}
	return nil
}

// A Qwixx final scoreboard Discord refuses for good: the game is over but
// stays in the channel, unarchived, its scoreboard owed and tried again;
// a command in the game tells its user, in their language, that the
// scoreboard is missing and tries again; once it goes through, the game
// ends as any game does (archived, its scoreboard with Rematch).
func TestScoreboardMissing(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	h.AppPerm = gamePerms
	board := h.openQwixx([]string{"u1", "u2"})
	require.NotNil(t, board)
	h.refuse(refuseScoreboard, gamePerms)
	var td *tableData
	for i := 0; ; i++ {
		require.Less(t, i, 2000, "the game does not end")
		_, td, _ = h.qstate()
		if td.Missing != nil {
			break
		}
		require.False(t, h.due().IsZero())
		now = h.due()
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	}
	g, _, _ := h.qstate()
	assert.True(t, g.Over(), "the game is over")
	assert.Equal(t, missingScores, td.Missing.Kind)
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.False(t, r.Finished, "not archived while its scoreboard is missing")
	assert.True(t, td.Missing.Next.Equal(r.Due), "due at the next try")
	kinds := make([]string, len(td.Outbox))
	for i, e := range td.Outbox {
		kinds[i] = e.Kind
	}
	assert.Contains(t, kinds, effFinish, "its end waits for the scoreboard")

	now = r.Due
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	_, td, _ = h.qstate()
	require.NotNil(t, td.Missing)
	assert.Equal(t, 2, td.Missing.Tries)

	h.Locale = discordgo.French
	res := h.qcommand("u2", "log")
	h.Locale = ""
	_, td, _ = h.qstate()
	require.NotNil(t, td.Missing)
	reason, fix := refusalText("fr", td.Missing.Code, td.Missing.Status, gamePerms, false)
	assert.Contains(t, told(res.Calls), locales.T("fr", "table_scores_missing", map[string]any{"Reason": reason, "Fix": fix}), "told in French: %s", res.Describe())

	h.refuse(nil, gamePerms)
	res = h.qcommand("u1", "log")
	assert.NotContains(t, told(res.Calls), "⚠️")
	r, err = h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.True(t, r.Finished, "archived once its scoreboard is shown")
	_, ok := qfind(h.Rec.Message(board.ID), verbAgain, "")
	assert.True(t, ok, "the scoreboard, with Rematch")
}

// refuseEdits refuses every edit of a message, by the bot token or an
// interaction's: 403 50013.
func refuseEdits(c tabletest.Call) error {
	if c.Op != "edit" && c.Op != "followupEdit" {
		return nil
	}
	return noEmbedLinks(tabletest.Call{Send: &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{}}}})
}

// While a Dixxit board is missing, the computer guessers' reaction times
// stand still too: none of them puts a finger down on a race nobody sees,
// however late the due work runs; once the board is shown, each has the
// rest of its reaction time, and plays then.
func TestMissingHoldsComputerReactions(t *testing.T) {
	t.Parallel()
	h := newDixxitHarness(t, nil)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	h.AppPerm = gamePerms
	users := []string{"u1", "u2"}
	board := h.openDixxit("en", users, 2)
	g, _, _ := h.dstate()
	h.refuse(refuseEdits, gamePerms)
	h.giveClue(users[g.Active()], board, "hidden")
	g, td, _ := h.dstate()
	require.NotNil(t, td.Missing, "the board's edit was refused")
	cpus := map[int]int64{}
	for _, s := range g.ToDecide() {
		if td.Seats[s].Level != "" && s < len(td.Wake) && td.Wake[s] != 0 {
			cpus[s] = td.Wake[s]
		}
	}
	require.NotEmpty(t, cpus, "computer guessers taking their time")
	seq := g.Seq()

	now = now.Add(time.Minute) // every reaction time is past
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	g, td, _ = h.dstate()
	require.NotNil(t, td.Missing)
	assert.Equal(t, seq, g.Seq(), "no computer finger while the board is missing")

	h.refuse(nil, gamePerms)
	shownAt := now
	h.dcommand("u1", "log")
	g, td, _ = h.dstate()
	require.Nil(t, td.Missing, "the board is shown")
	assert.Equal(t, seq, g.Seq(), "not at once")
	since := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC).UnixMilli()
	first := int64(0)
	for s, was := range cpus {
		assert.Equal(t, was+shownAt.UnixMilli()-since, td.Wake[s], "seat %d has the rest of its reaction time", s)
		if first == 0 || td.Wake[s] < first {
			first = td.Wake[s]
		}
	}
	assert.Equal(t, first, h.due().UnixMilli(), "due when the first of them decides")
	now = h.due()
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	g, _, _ = h.dstate()
	assert.Greater(t, g.Seq(), seq, "the computer plays on")
}

// A game paused while its board is missing: the pause and the missing
// board hold the clocks together, and the decision in progress loses
// only the time it ran before either began.
func TestMissingAndPause(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 6, false)
	t0 := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	now := t0
	h.b.now = func() time.Time { return now }
	h.AppPerm = gamePerms
	lobby := h.Run(h.startIx("dix", "u1", map[string]string{"pace": "live"})).Shown(nil)
	require.NotNil(t, lobby)
	lobby = h.ClickOn("u2", lobby, h.dixMust(lobby, verbJoin, "")).Shown(lobby)
	h.ClickOn("u1", lobby, h.dixMust(lobby, verbGo, ""))
	g, _, _, _ := h.dixNow()
	toAct := g.ToAct()

	// A minute in, Embed Links goes and the game is paused: the pause's
	// board is refused.
	now = t0.Add(time.Minute)
	h.refuse(noEmbedLinks, gamePerms&^discordgo.PermissionEmbedLinks)
	h.Run(h.GameCommandIx("dix", "u1", "pause"))
	_, td, _, _ := h.dixNow()
	require.NotNil(t, td.Missing)
	require.NotEmpty(t, td.Paused)

	now = t0.Add(2 * time.Minute)
	h.Run(h.GameCommandIx("dix", "u1", "resume"))
	_, td, _, _ = h.dixNow()
	require.Empty(t, td.Paused)
	require.NotNil(t, td.Missing, "still missing: no clock runs yet")

	now = t0.Add(3 * time.Minute)
	h.refuse(nil, gamePerms)
	h.Run(h.GameCommandIx("dix", "u2", "log"))
	g, td, _, _ = h.dixNow()
	require.Nil(t, td.Missing)
	require.Equal(t, toAct, g.ToAct())
	want := now.Add(clock.Live.Bank - time.Minute)
	assert.True(t, want.Equal(h.due()), "a minute of the bank spent: due %v, want %v", h.due(), want)
}
