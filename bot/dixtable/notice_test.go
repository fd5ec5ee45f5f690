package dixtable

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
)

// allPerms are the bot's usual permissions in a game's channel.
const allPerms int64 = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionSendMessagesInThreads |
	discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles | discordgo.PermissionReadMessageHistory

// discordWithout is Discord in a channel where the bot lost the
// permissions lost, by the rules the stand-in applies with their sources
// (internal/fakediscord/channels.go): a post with the bot token needs Send
// Messages; anything carrying embeds needs Embed Links, interaction
// answers and follow-ups included (they need no Send Messages).
func discordWithout(lost int64) func(tabletest.Call) error {
	return func(c tabletest.Call) error {
		embeds := false
		switch {
		case c.Resp != nil:
			embeds = c.Resp.Data != nil && len(c.Resp.Data.Embeds) > 0
		case c.Params != nil:
			embeds = len(c.Params.Embeds) > 0
		case c.Send != nil:
			embeds = len(c.Send.Embeds) > 0
		case c.Edit != nil:
			embeds = c.Edit.Embeds != nil && len(*c.Edit.Embeds) > 0
		}
		if c.Op == "send" && lost&discordgo.PermissionSendMessages != 0 || embeds && lost&discordgo.PermissionEmbedLinks != 0 {
			return missingPermissions()
		}
		return nil
	}
}

// lose takes perms from the bot in the harness's channel: Discord refuses
// what needs them, and interactions say so in app_permissions.
func lose(h *harness, perms int64) {
	h.Rec.Mu.Lock()
	h.Rec.Refuse = discordWithout(perms)
	h.Rec.Mu.Unlock()
	h.AppPerm = allPerms &^ perms
}

// restore gives the bot its permissions back.
func restore(h *harness) {
	h.Rec.Mu.Lock()
	h.Rec.Refuse = nil
	h.Rec.Mu.Unlock()
	h.AppPerm = allPerms
}

// seedClocked seeds a two-player game dealt from quickTurnDeck, with a
// clock at the live pace (see clocked) started at now.
func seedClocked(h *harness, now time.Time) {
	h.T.Helper()
	seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
	_, err := h.St.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
		m := mustDixTable(r.Meta)
		m.Pace = "live"
		newClock(h.b, m, dix.GameOf(r.State), now)
		m.setDue(r, now)
		r.Meta = m.Encode()
		return nil
	})
	require.NoError(h.T, err)
}

// toldPrivately is what an interaction told its user privately, as it
// reads now: its answer and its ephemeral follow-ups.
func toldPrivately(r result) []string {
	var out []string
	for _, c := range r.Calls {
		switch {
		case c.Refused:
		case c.Op == "respond" && c.Resp.Data != nil && c.Resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0:
			if msg := r.H.Rec.Message("orig-" + c.Interaction); msg != nil {
				out = append(out, msg.Content)
			}
		case c.Op == "followup" && c.Params.Flags&discordgo.MessageFlagsEphemeral != 0:
			out = append(out, c.Params.Content)
		}
	}
	return out
}

// posts are the posts (sends and follow-ups) among calls, refused or not.
func posts(calls []tabletest.Call) (made, refused []tabletest.Call) {
	for _, c := range calls {
		switch {
		case !c.Posted() || c.Params != nil && c.Params.Flags&discordgo.MessageFlagsEphemeral != 0:
		case c.Refused:
			refused = append(refused, c)
		default:
			made = append(made, c)
		}
	}
	return made, refused
}

// TestBoardMissingAfterADeadline: the bot lost Send Messages mid-game; a
// deadline ends a turn, and the next board, posted with the bot token, is
// refused for good. The game keeps it owed and says why, holds the clock,
// tries again later (not at once), and the next command in the game posts
// it through its interaction, which needs no Send Messages: the board is
// back, pinging the player to act, with the clock running again.
func TestBoardMissingAfterADeadline(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	now := clocked(h)
	h.AppPerm = allPerms
	seedClocked(h, *now)
	board := h.Board()
	h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	h.ClickOn("u1", board, h.MustFind(board, verbStop))
	lose(h, discordgo.PermissionSendMessages)

	// Alice lets her time run out: the computer decides for her until her
	// turn ends and a board is owed.
	var m *dixTable
	for i := 0; m == nil || m.Missing == nil; i++ {
		require.Less(t, i, 10, "the turn never ended")
		*now = now.Add(5 * time.Minute)
		due(h)
		_, m = h.Record()
	}
	rec, m := h.Record()
	assert.Equal(t, 1, dix.GameOf(rec.State).Active, "the turn passed to Bob")
	require.NotNil(t, m.Missing)
	assert.Equal(t, bot.EffBoard, m.Missing.Kind)
	assert.Equal(t, http.StatusForbidden, m.Missing.Status)
	assert.Equal(t, discordgo.ErrCodeMissingPermissions, m.Missing.Code)
	assert.Equal(t, 1, m.Missing.Tries)
	require.NotEmpty(t, m.Outbox)
	assert.Equal(t, bot.EffBoard, m.Outbox[0].Kind, "the board stays owed")
	assert.True(t, m.Clock.Paused(), "no time runs on a board nobody sees")
	assert.Equal(t, now.Add(bot.MissingFirst), rec.Due, "tried again later, not at once")
	assert.Empty(t, board.Components, "the old board became the turn's summary")

	// Nothing before its moment.
	assert.Empty(t, due(h), "no call before the next try")
	// Then the bot token tries again, refused: the next try twice as late.
	*now = rec.Due
	made, refused := posts(due(h))
	assert.Empty(t, made)
	require.NotEmpty(t, refused, "the bot token tried again")
	for _, c := range refused {
		assert.Equal(t, "send", c.Op)
	}
	rec, m = h.Record()
	assert.Equal(t, 2, m.Missing.Tries)
	assert.Equal(t, now.Add(2*bot.MissingFirst), rec.Due)

	// Bob asks for his hand: answered, and his interaction posts the
	// board at once. Nobody is told anything.
	r := h.Command("u2", "hand")
	assert.NotEmpty(t, r.Response().Data.Embeds, "his hand, as usual")
	assert.Len(t, toldPrivately(r), 1, "his hand, and no notice")
	made, _ = posts(r.Calls)
	require.Len(t, made, 1, "the board, posted once")
	assert.Equal(t, "followup", made[0].Op, "through his interaction")
	rec, m = h.Record()
	assert.Nil(t, m.Missing, "the mark is gone")
	assert.Empty(t, m.Outbox)
	assert.False(t, m.Clock.Paused(), "the clock runs again")
	assert.Equal(t, 1, m.Clock.Seat)
	back := h.Board()
	assert.NotEqual(t, board.ID, back.ID)
	assert.Contains(t, back.Content, "<@u2>", "the board pings the player to act")
	assert.Contains(t, back.Embeds[0].Description, "<t:"+strconv.FormatInt(m.Clock.Deadline().Unix(), 10)+":R>",
		"the board counts down from its post")
	assert.Equal(t, now.Add(m.Clock.Pace.Bank), m.Clock.Deadline(), "Bob's whole bank, from the moment the board came back")
	assert.Empty(t, board.Components, "the old board lost its buttons")
	tabletest.CheckAllCalls(t, h.Rec.Calls)
}

// TestBoardMissingToldToThePlayers: the bot lost Send Messages and Embed
// Links mid-game, so neither its answers with embeds, nor the board
// through an interaction or with the bot token, go through. Every click
// in the game is answered (never "This interaction failed") with a
// private notice in its user's language: the board could not be posted,
// which permissions are missing, what to do. The clicks still work where
// they can; the board is tried again at each, and later by itself; once
// Discord accepts, the board is back and the notices stop.
func TestBoardMissingToldToThePlayers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	now := clocked(h)
	h.AppPerm = allPerms
	seedClocked(h, *now)
	h.Perms["u1"] = discordgo.PermissionManageChannels
	board := h.Board()
	h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	h.ClickOn("u1", board, h.MustFind(board, verbStop))
	lost := int64(discordgo.PermissionSendMessages | discordgo.PermissionEmbedLinks)
	lose(h, lost)

	// Alice takes the money, which ends her turn: Discord refuses the
	// answer showing the turn's summary, then the next board.
	r := h.ClickOn("u1", board, h.MustFind(board, verbMoney))
	rec, m := h.Record()
	require.NotNil(t, m.Missing)
	assert.Equal(t, 1, dix.GameOf(rec.State).Active, "her click was applied: Bob's turn")
	en := bot.MissingText("en", m.Missing, allPerms&^lost)
	assert.Equal(t, []string{en}, toldPrivately(r), "one private message: the notice")
	assert.Contains(t, en, "I lack the **Send Messages** and **Embed Links** permissions here")
	assert.Contains(t, en, "`/dix abandon`")
	assert.Equal(t, now.Add(bot.MissingFirst), rec.Due, "tried again later, not at once")
	assert.True(t, m.Clock.Paused())
	tries := m.Missing.Tries

	// Bob, in French, clicks the old board (its update was refused: it
	// still has Alice's buttons). Outdated, and told in French; his click
	// tried the board again.
	h.Locale = discordgo.French
	r = h.ClickOn("u2", board, h.MustFind(board, verbMoney))
	fr := bot.MissingText("fr", m.Missing, allPerms&^lost)
	assert.Equal(t, []string{fr}, toldPrivately(r))
	assert.Contains(t, fr, "il me manque les permissions **Envoyer des messages** et **Intégrer des liens** ici")
	assert.Contains(t, fr, "`/dix abandonner`")
	_, refused := posts(r.Calls)
	assert.NotEmpty(t, refused, "his click tried the board again")
	_, m = h.Record()
	assert.Greater(t, m.Missing.Tries, tries)
	// His hand is refused too (an embed): the same notice instead.
	r = h.Command("u2", "hand")
	assert.Equal(t, []string{fr}, toldPrivately(r))
	h.Locale = discordgo.EnglishUS

	// A pause and a resume go through, with the notice; the clock stays
	// held while the board is missing.
	for _, cmd := range []string{"pause", "resume"} {
		r = h.Command("u1", cmd)
		told := toldPrivately(r)
		require.Len(t, told, 2, "/dix %s: its answer, then the notice", cmd)
		assert.Equal(t, en, told[1])
	}
	rec, m = h.Record()
	assert.Empty(t, m.PausedBy)
	assert.True(t, m.Clock.Paused(), "resumed, yet held for the board")

	// Discord accepts again: at the next try, with the bot token, the
	// board is posted; the mark goes and the clock runs.
	restore(h)
	assert.Empty(t, due(h), "not before its moment")
	*now = rec.Due
	made, refused := posts(due(h))
	assert.Empty(t, refused)
	require.Len(t, made, 1)
	assert.Equal(t, "send", made[0].Op)
	rec, m = h.Record()
	assert.Nil(t, m.Missing)
	assert.Empty(t, m.Outbox)
	assert.False(t, m.Clock.Paused())
	back := h.Board()
	assert.NotEqual(t, board.ID, back.ID)
	assert.Contains(t, back.Content, "<@u2>")
	assert.NotEmpty(t, h.MustFind(back, verbDraw))

	// No notice any more.
	r = h.Command("u2", "hand")
	assert.Len(t, toldPrivately(r), 1, "his hand alone")
	assert.NotEmpty(t, r.Response().Data.Embeds)
	made, refused = posts(r.Calls)
	assert.Empty(t, made)
	assert.Empty(t, refused)
	tabletest.CheckAllCalls(t, h.Rec.Calls)
}

// TestBoardCommandWhileMissing: /dix board where the board cannot be
// posted answers as usual, then tells why; asked again, the game still
// owes one board, not two, and posts one once it can. Abandoning a game
// whose board is missing ends it (the board it owed goes with it) and
// frees the channel.
func TestBoardCommandWhileMissing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.AppPerm = allPerms
	seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
	lost := int64(discordgo.PermissionSendMessages | discordgo.PermissionEmbedLinks)
	lose(h, lost)
	r := h.Command("u1", "board")
	_, m := h.Record()
	require.NotNil(t, m.Missing)
	told := toldPrivately(r)
	require.Len(t, told, 2)
	assert.Equal(t, enT("board_reposted", nil), told[0])
	assert.Equal(t, bot.MissingText("en", m.Missing, h.AppPerm), told[1])

	r = h.Command("u2", "board")
	assert.Len(t, toldPrivately(r), 2)
	_, m = h.Record()
	boards := 0
	for _, e := range m.Outbox {
		if e.Kind == bot.EffBoard {
			boards++
		}
	}
	assert.Equal(t, 1, boards, "one board owed: the game as it stands")

	restore(h)
	r = h.Command("u2", "hand")
	made, _ := posts(r.Calls)
	assert.Len(t, made, 1, "one board posted")
	_, m = h.Record()
	assert.Nil(t, m.Missing)
	assert.Equal(t, []string{m.Board}, liveBoards(h.Rec))

	lose(h, lost)
	h.Command("u1", "board")
	_, m = h.Record()
	require.NotNil(t, m.Missing)
	prompt := h.Command("u1", "abandon").Shown(nil)
	h.ClickOn("u1", prompt, h.MustFind(prompt, verbAbandonYes))
	rec, err := h.St.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.True(t, rec.Finished, "the game is over, archived")
}

// TestChannelGone: a channel deleted mid-game (10003 Unknown Channel) is
// not tried again: nobody can click there; the game stays, untouched,
// until it expires.
func TestChannelGone(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if !c.Posted() {
			return nil
		}
		return &discordgo.RESTError{
			Response: &http.Response{StatusCode: http.StatusNotFound},
			Message:  &discordgo.APIErrorMessage{Code: discordgo.ErrCodeUnknownChannel, Message: "Unknown Channel"},
		}
	}
	h.Rec.Mu.Unlock()
	rec, err := h.St.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
		m := mustDixTable(r.Meta)
		m.owe(r, bot.Effect{Kind: bot.EffBoard})
		r.Meta = m.Encode()
		return nil
	})
	require.NoError(t, err)
	require.NoError(t, runDixOutbox(h.b, context.Background(), h.Rec, rec, nil))
	rec, m := h.Record()
	require.NotNil(t, m.Missing)
	assert.Equal(t, discordgo.ErrCodeUnknownChannel, m.Missing.Code)
	assert.True(t, m.Missing.Next.IsZero())
	assert.True(t, rec.Due.IsZero(), "never due again by itself")
	assert.Contains(t, bot.MissingText("en", m.Missing, 0), "this channel no longer exists")
}

// TestMissingRetries: the bot token tries a refused board again at
// growing intervals, a bounded number of times.
func TestMissingRetries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tries int
		want  time.Duration
	}{
		{0, 0},
		{1, 15 * time.Second},
		{2, 30 * time.Second},
		{3, time.Minute},
		{7, 16 * time.Minute},
		{8, 30 * time.Minute},
		{11, 30 * time.Minute},
		{12, 0},
		{40, 0},
	} {
		t.Run(strconv.Itoa(tc.tries), func(t *testing.T) {
			assert.Equal(t, tc.want, bot.MissingRetry(tc.tries))
		})
	}
	var total time.Duration
	for n := 1; bot.MissingRetry(n) > 0; n++ {
		total += bot.MissingRetry(n)
	}
	assert.Less(t, total, 3*time.Hour, "bounded")
	assert.Greater(t, total, 2*time.Hour, "yet long enough for someone to fix the permission")

	m := &dixTable{}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for range bot.MissingTries - 1 {
		m.refused(bot.EffBoard, missingPermissions(), now)
		assert.False(t, m.Missing.Next.IsZero())
	}
	m.refused(bot.EffBoard, missingPermissions(), now)
	assert.True(t, m.Missing.Next.IsZero(), "no more tries without a click")
	assert.Equal(t, now, m.Missing.Since)
	assert.True(t, bytes.Contains(m.Encode(), bot.MissingKey), "the table data holds the mark as seenMissing looks for it")
}

// TestRefusalText names what the bot lacks, from app_permissions.
func TestRefusalText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		perms  int64
		code   int
		files  bool
		reason string
	}{
		{"no send", allPerms &^ discordgo.PermissionSendMessages &^ discordgo.PermissionSendMessagesInThreads, 50013, false, "I lack the **Send Messages** permission here"},
		{"no embeds", allPerms &^ discordgo.PermissionEmbedLinks, 50013, false, "I lack the **Embed Links** permission here"},
		{"three", discordgo.PermissionAttachFiles, 50013, false, "I lack the **View Channel**, **Send Messages** and **Embed Links** permissions here"},
		{"files", allPerms &^ discordgo.PermissionAttachFiles, 50013, true, "I lack the **Attach Files** permission here"},
		{"a thread without Send Messages in Threads", allPerms &^ discordgo.PermissionSendMessagesInThreads, 50013, false, "I lack the **Send Messages in Threads** permission here"},
		{"a channel without Send Messages", allPerms &^ discordgo.PermissionSendMessages, 50013, false, "I lack the **Send Messages** permission here"},
		{"unknown permissions", 0, 50013, false, "Discord says I lack a permission here"},
		{"unknown permissions, no access", 0, 50001, false, "I lack the **View Channel** permission here"},
		{"administrator", discordgo.PermissionAdministrator, 50013, false, "Discord says I lack a permission here"},
		{"archived thread", allPerms, 50083, false, "this thread is archived"},
		{"another refusal", allPerms, 50035, false, "Discord refused it (error 50035)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reason, fix := bot.RefusalText("en", tc.code, 400, tc.perms, tc.files)
			assert.Equal(t, tc.reason, reason)
			assert.NotEmpty(t, fix)
		})
	}
}
