package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// selectMenu is the select menu of msg whose custom id is id.
func selectMenu(t *testing.T, msg *tabletest.Message, id string) discordgo.SelectMenu {
	t.Helper()
	for _, c := range msg.Components {
		for _, cc := range tabletest.RowComponents(c) {
			switch m := cc.(type) {
			case discordgo.SelectMenu:
				if m.CustomID == id {
					return m
				}
			case *discordgo.SelectMenu:
				if m.CustomID == id {
					return *m
				}
			}
		}
	}
	t.Fatalf("no menu %s", id)
	return discordgo.SelectMenu{}
}

// The lobby offers Qwixx's paces, live by default; only the creator
// chooses, among the game's paces, on the lobby as it stands; the game
// then runs on the pace chosen and its board tells each clock.
func TestPaceInLobby(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			h := newQwixxHarness(t, false)
			if lang == "fr" {
				h.Locale = discordgo.French
			}
			now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
			h.b.now = func() time.Time { return now }
			lobby := h.qcommand("u1", "start", "language", lang).Shown(nil)
			require.NotNil(t, lobby)
			lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
			paceID := h.qmust(lobby, verbPace, "")
			menu := selectMenu(t, lobby, paceID)
			require.Len(t, menu.Options, 2)
			assert.Equal(t, "live", menu.Options[0].Value)
			assert.True(t, menu.Options[0].Default, "live is the default")
			assert.Equal(t, locales.T(lang, "qwixx_pace_evening", nil), menu.Options[1].Label)
			assert.Contains(t, lobby.Content, locales.T(lang, "qwixx_pace_live", nil))

			_, _, v := h.qstate()
			// Another player may not choose; an unknown pace and a menu of
			// an older lobby change nothing.
			txt := h.ClickOn("u2", lobby, paceID, "evening").EphemeralText()
			assert.Equal(t, locales.T(lang, "err_not_creator", nil), txt)
			txt = h.ClickOn("u1", lobby, paceID, "forever").EphemeralText()
			assert.Equal(t, locales.T(lang, "err_bad_custom_id", nil), txt)
			txt = h.ClickOn("u1", lobby, buttonID("qwixx", verbPace, 0, "evening")).EphemeralText()
			assert.Equal(t, locales.T(lang, "err_bad_custom_id", nil), txt, "a pace id carrying its value is forged")
			_, td, v2 := h.qstate()
			assert.Equal(t, v, v2, "a refused choice changed the table")
			assert.Empty(t, td.Pace)
			h.ClickOn("u1", lobby, buttonID("qwixx", verbPace, 0, ""), "evening")
			_, td, v2 = h.qstate()
			assert.Equal(t, v, v2, "a menu of an older lobby changed the table")

			lobby = h.ClickOn("u1", lobby, paceID, "evening").Shown(lobby)
			_, td, _ = h.qstate()
			assert.Equal(t, "evening", td.Pace)
			assert.Contains(t, lobby.Content, locales.T(lang, "qwixx_pace_evening", nil))
			menu = selectMenu(t, lobby, h.qmust(lobby, verbPace, ""))
			assert.True(t, menu.Options[1].Default, "the menu shows the pace chosen")

			board := h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, "")).Shown(lobby)
			r, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			assert.True(t, now.Add(botqwixx.EveningTime/2).Equal(r.Due), "the first reminders: %v", r.Due)
			want := locales.T(lang, "table_clock", map[string]any{"Names": "Alice, Bob", "Unix": now.Add(botqwixx.EveningTime).Unix()})
			assert.Contains(t, board.Content, want)
		})
	}
}

// The live pace is the default: 90 s per decision, shown on the board for
// each person deciding; a computer seat has no clock.
func TestLivePaceClock(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	board := h.openQwixx([]string{"u1", "u2"}, "easy")
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.True(t, now.Add(botqwixx.DecisionTime).Equal(r.Due))
	g, td, _ := h.qstate()
	deciding := 0
	for _, s := range g.ToDecide() {
		if td.Seats[s].Level == "" {
			deciding++
		}
	}
	require.Positive(t, deciding)
	assert.Contains(t, board.Content, fmt.Sprintf("<t:%d:R>", now.Add(botqwixx.DecisionTime).Unix()))
	assert.NotContains(t, board.Content, "Robot 3 <t:", "a computer seat has no clock")
	assert.Equal(t, 1, strings.Count(board.Content, "⏳"), "seats with one deadline share one clock")
}

// playOut ends the channel's Qwixx game by letting every clock run out,
// and returns the final scoreboard (the board message, edited).
func (h *harness) playOut(board *tabletest.Message, now *time.Time) *tabletest.Message {
	h.T.Helper()
	for i := 0; ; i++ {
		require.Less(h.T, i, 2000, "the game does not end")
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(h.T, err)
		if r.Finished {
			break
		}
		require.False(h.T, r.Due.IsZero())
		*now = r.Due
		require.NoError(h.T, h.b.runDueOn(context.Background(), h.Rec, h.Channel, *now))
	}
	return h.Rec.Message(board.ID)
}

// Rematch on a Qwixx scoreboard with two people: a lobby with the same
// seats (people and computer levels) and options, the clicker its creator,
// the seat after the last game's first starting. A stranger, a forged id,
// a second click and the old scoreboard after the new game started are
// refused in words and open nothing.
func TestRematchLobby(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			h := newQwixxHarness(t, false)
			if lang == "fr" {
				h.Locale = discordgo.French
			}
			now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
			h.b.now = func() time.Time { return now }
			lobby := h.qcommand("u1", "start", "language", lang).Shown(nil)
			lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
			lobby = h.ClickOn("u1", lobby, h.qmust(lobby, verbCPU, "strong")).Shown(lobby)
			lobby = h.ClickOn("u1", lobby, h.qmust(lobby, verbPace, ""), "evening").Shown(lobby)
			board := h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, "")).Shown(lobby)
			_, td0, _ := h.qstate()
			require.Positive(t, td0.First)
			score := h.playOut(board, &now)
			assert.Equal(t, []string{rematchID}, tabletest.ComponentIDs(score.Components), "the scoreboard offers Rematch alone")

			finished, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			require.True(t, finished.Finished)
			// A stranger and forged ids open nothing.
			assert.Equal(t, locales.T(lang, "err_rematch_not_seated", nil), h.ClickOn("u9", score, rematchID).EphemeralText())
			for _, id := range []string{"qwixx:again:1:x", "qwixx:again:x", "qwixx:again"} {
				assert.Equal(t, locales.T(lang, "err_bad_custom_id", nil), h.ClickOn("u2", score, id).EphemeralText(), id)
			}
			other := &tabletest.Message{ID: "m-other", Components: score.Components}
			assert.Equal(t, locales.T(lang, "err_rematch_gone", nil), h.ClickOn("u2", other, rematchID).EphemeralText(),
				"Rematch on a message that is not the game's scoreboard")
			r, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			assert.True(t, r.Finished, "a refused Rematch opened a game")

			res := h.ClickOn("u2", score, rematchID)
			again := res.Shown(nil)
			require.NotNil(t, again)
			resp := res.Response()
			assert.Zero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "the rematch's lobby is public")
			assert.Contains(t, again.Content, "<@u1>", "the other person is called")
			assert.Equal(t, []string{"u1"}, resp.Data.AllowedMentions.Users)
			_, td, _ := h.qstate()
			assert.Equal(t, "u2", td.Creator)
			assert.Equal(t, "evening", td.Pace)
			assert.Equal(t, lang, td.Lang)
			require.Len(t, td.Seats, 3)
			assert.Equal(t, []string{"u1", "u2", ""}, []string{td.Seats[0].User, td.Seats[1].User, td.Seats[2].User})
			assert.Equal(t, "strong", td.Seats[2].Level)
			assert.Equal(t, td0.First%3+1, td.Starts, "the next seat starts")
			assert.Equal(t, td0.First%3, td.Starts-1)

			// A second click on the scoreboard is told where the table is.
			txt := h.ClickOn("u1", score, rematchID).EphemeralText()
			assert.Equal(t, locales.T(lang, "table_err_rematch_lobby", map[string]any{"Name": "Bob"}), txt)
			// Only the new creator starts it, the next seat first.
			assert.Equal(t, locales.T(lang, "err_not_creator", nil), h.ClickOn("u1", again, h.qmust(again, verbGo, "")).EphemeralText())
			board2 := h.ClickOn("u2", again, h.qmust(again, verbGo, "")).Shown(again)
			g2, td2, _ := h.qstate()
			require.NotNil(t, g2)
			assert.Equal(t, td0.First%3+1, td2.First)
			assert.Equal(t, td0.First%3, g2.First, "the engine starts with the seat the table gave")
			assert.NotEmpty(t, tabletest.ComponentIDs(board2.Components))
			// The old scoreboard now points to the running game.
			txt = h.ClickOn("u1", score, rematchID).EphemeralText()
			assert.Equal(t, locales.T(lang, "err_rematch_exists", map[string]any{"Name": "Bob", "URL": messageURL(h.Guild, h.Channel, again.ID)}), txt)
		})
	}
}

// Rematch of a game with one person and computer seats starts at once:
// the answer is the new board, the computer seats at their levels, the
// next seat first; the board is recorded and its buttons play.
func TestRematchStartsAtOnce(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	board := h.openQwixx([]string{"u1"}, "easy", "normal")
	_, td0, _ := h.qstate()
	score := h.playOut(board, &now)
	res := h.ClickOn("u1", score, rematchID)
	nb := res.Shown(nil)
	require.NotNil(t, nb)
	g, td, _ := h.qstate()
	require.NotNil(t, g, "the rematch started")
	assert.Equal(t, []string{"easy", "normal"}, []string{td.Seats[1].Level, td.Seats[2].Level})
	assert.Equal(t, td0.First%3+1, td.First)
	assert.Equal(t, nb.ID, td.Board, "the answer is the new game's board")
	assert.Contains(t, strings.Join(td.Log, "\n"), locales.T("en", "table_rematch_started", map[string]any{"Name": td.Seats[td.First-1].Name}))
	assert.NotEmpty(t, tabletest.ComponentIDs(nb.Components))
	assert.NotContains(t, tabletest.ComponentIDs(nb.Components), rematchID)
}

// Several players clicking Rematch at once open exactly one game, whether
// the game over is archived already or not; the others are told.
func TestRematchConcurrent(t *testing.T) {
	t.Parallel()
	for _, archived := range []bool{true, false} {
		t.Run(fmt.Sprint("archived=", archived), func(t *testing.T) {
			h := newQwixxHarness(t, false)
			now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
			h.b.now = func() time.Time { return now }
			users := []string{"u1", "u2", "u3", "u4"}
			board := h.openQwixx(users)
			score := h.playOut(board, &now)
			if !archived {
				// The game over, its archiving not done: the record is
				// active again.
				r, err := h.Db.Get(context.Background(), h.Channel)
				require.NoError(t, err)
				r.Finished = false
				require.NoError(t, h.Db.Create(context.Background(), r))
				// A game over has been written many times: its version is
				// not the new table's first (the stores compare versions).
				for range 5 {
					_, err := h.Db.Update(context.Background(), h.Channel, "", func(*dixbot.Record) error { return nil })
					require.NoError(t, err)
				}
			}
			var wg sync.WaitGroup
			mark := h.Rec.Count()
			ixs := make([]*discordgo.Interaction, len(users))
			for k, u := range users {
				ixs[k] = h.ClickIx(u, score, rematchID)
			}
			for k := range users {
				wg.Add(1)
				go func() {
					defer wg.Done()
					h.b.Serve(h.Rec, &discordgo.InteractionCreate{Interaction: ixs[k]}, h.Raw())
				}()
			}
			wg.Wait()
			opened, answers := 0, 0
			for _, c := range h.Rec.Since(mark) {
				if c.Op != "respond" {
					continue
				}
				answers++
				resp := c.Resp
				if resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
					opened++
					continue
				}
				assert.Contains(t, []string{
					locales.T("en", "err_rematch_opening", nil),
					locales.T("en", "table_err_rematch_lobby", map[string]any{"Name": nameIn(h, resp.Data.Content)}),
				}, resp.Data.Content)
			}
			assert.Equal(t, len(users), answers, "every click is answered once")
			assert.Equal(t, 1, opened, "exactly one rematch opens")
			_, td, _ := h.qstate()
			assert.Len(t, td.Seats, 4)
		})
	}
}

// nameIn is the harness's player name the text contains ("" for none).
func nameIn(h *harness, text string) string {
	for _, n := range h.Names {
		if strings.Contains(text, n) {
			return n
		}
	}
	return ""
}

// A rematch calls the others seated again in its lobby's message; when
// the game starts within the minute after, that call is their
// notification: the first decision does not ping them a second time. A
// start later than that pings them as any decision does.
func TestRematchPingsOnce(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		wait  time.Duration
		pings int
	}{{"at once", 20 * time.Second, 1}, {"later", 3 * time.Minute, 2}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := newQwixxHarness(t, false)
			now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
			h.b.now = func() time.Time { return now }
			board := h.openQwixx([]string{"u1", "u2"})
			score := h.playOut(board, &now)
			now = now.Add(5 * time.Minute)
			mark := h.Rec.Count()
			again := h.ClickOn("u2", score, rematchID).Shown(nil)
			require.NotNil(t, again)
			now = now.Add(c.wait)
			h.ClickOn("u2", again, h.qmust(again, verbGo, ""))
			g, _, _ := h.qstate()
			require.NotNil(t, g)
			_, td, _ := h.qstate()
			require.Contains(t, g.ToDecide(), slices.IndexFunc(td.Seats, func(s tableSeat) bool { return s.User == "u1" }), "u1 decides the first roll: %+v", td.Seats)
			pinged := 0
			for _, call := range h.Rec.Since(mark) {
				var am *discordgo.MessageAllowedMentions
				switch {
				case call.Resp != nil && call.Resp.Data != nil:
					am = call.Resp.Data.AllowedMentions
				case call.Params != nil:
					am = call.Params.AllowedMentions
				case call.Send != nil:
					am = call.Send.AllowedMentions
				}
				if am != nil && slices.Contains(am.Users, "u1") {
					pinged++
				}
			}
			assert.Equal(t, c.pings, pinged, "notifications of u1")
		})
	}
}

// The lobby's buttons whose meaning does not depend on what it shows
// (join, leave, add a computer, start, cancel) keep their custom ids
// across its edits: a person who clicks Join on the lobby as it stood
// before another's Join lands too. A lobby button of an earlier table's
// message changes nothing of the channel's new lobby.
func TestLobbyButtonsSteady(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	lobby := h.qcommand("u1", "start").Shown(nil)
	before := *lobby
	steady := func(m *tabletest.Message) []string {
		var ids []string
		for _, v := range []string{verbJoin, verbLeave, verbGo, verbCancel} {
			ids = append(ids, h.qmust(m, v, ""))
		}
		return append(ids, h.qmust(m, verbCPU, "easy"))
	}
	ids := steady(lobby)
	lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	assert.Equal(t, ids, steady(lobby), "the same ids after a Join")
	res := h.ClickOn("u3", &before, h.qmust(&before, verbJoin, ""))
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, res.Response().Type, res.Texts())
	_, td, _ := h.qstate()
	assert.Len(t, td.Seats, 3, "both Joins landed")
	lobby = h.Rec.Message(lobby.ID)
	lobby = h.ClickOn("u1", lobby, h.qmust(lobby, verbCPU, "easy")).Shown(lobby)
	assert.Equal(t, ids, steady(lobby), "the same ids after a computer seat")
	old := *lobby
	h.ClickOn("u1", lobby, h.qmust(lobby, verbCancel, ""))

	// A new table: the old lobby's Join changes nothing.
	h.qcommand("u5", "start")
	_, td, v := h.qstate()
	require.Len(t, td.Seats, 1)
	res = h.ClickOn("u4", &old, h.qmust(&old, verbJoin, ""))
	assert.Contains(t, res.Texts(), locales.T("en", "err_stale", nil))
	_, td, v2 := h.qstate()
	assert.Len(t, td.Seats, 1, "the old lobby's Join seated nobody")
	assert.Equal(t, v, v2)
}

// storedTable is the channel's record as stored, and its table data.
func storedTable(t *testing.T, h *harness) (*dixbot.Record, *tableData) {
	t.Helper()
	rec, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	td, err := decodeTableData(rec.Meta)
	require.NoError(t, err)
	return rec, td
}

// shownAsItStands checks that the lobby message id shows the lobby as
// the store has it: its seats, its settings and its controls' ids.
func shownAsItStands(t *testing.T, h *harness, game, id string) {
	t.Helper()
	rec, td := storedTable(t, h)
	require.Nil(t, rec.Data, "a lobby")
	content, comps := lobbyView(h.b.games[game], td)
	shown := h.Rec.Message(id)
	require.NotNil(t, shown)
	assert.Equal(t, content, shown.Content, "the lobby shows the table as it stands")
	assert.Equal(t, customIDs(comps), tabletest.ComponentIDs(shown.Components))
}

// /<game> leave in a lobby gives the seat back, and the lobby's message
// no longer lists it: the command's own answer is private, so the lobby
// is edited after it.
func TestLeaveCommandInLobbyShowsOnTheLobby(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	lobby := h.qcommand("u1", "start").Shown(nil)
	require.NotNil(t, lobby)
	lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	lobby = h.ClickOn("u3", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	require.Contains(t, lobby.Content, "Bob")
	assert.Equal(t, locales.T("en", "table_left_lobby_you", nil), h.qcommand("u2", "leave").EphemeralText())
	assert.NotContains(t, h.Rec.Message(lobby.ID).Content, "Bob")
	shownAsItStands(t, h, "qwixx", lobby.ID)

	// Once someone clicked the lobby, it is edited with the token of that
	// click; before, with the start's.
	h2 := newQwixxHarness(t, false)
	lobby = h2.qcommand("u1", "start").Shown(nil)
	h2.Run(h2.GameCommandIx("qwixx", "u2", "leave"))
	shownAsItStands(t, h2, "qwixx", lobby.ID)
}

// A lobby change whose answer Discord refused (a slow store deferred it,
// and the edit that was its answer got a 502) is shown on the lobby all
// the same: the lobby's edit is owed with the change, and done after the
// answer failed.
func TestLobbyChangeWhoseAnswerWasRefusedIsShown(t *testing.T) {
	t.Parallel()
	ps := tabletest.NewPausedStore(tabletest.NewMemStore())
	h := newQwixxHarnessOn(t, ps, false)
	lobby := h.qcommand("u1", "start").Shown(nil)
	require.NotNil(t, lobby)
	lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	slowThenRefused(h, ps)
	res := h.ClickOn("u1", lobby, h.qmust(lobby, verbPace, ""), "evening")
	require.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, res.Response().Type, "deferred: %s", res.Describe())
	_, td, _ := h.qstate()
	require.Equal(t, "evening", td.Pace, "the change is applied")
	assert.Contains(t, h.Rec.Message(lobby.ID).Content, locales.T("en", "qwixx_pace_evening", nil))
	shownAsItStands(t, h, "qwixx", lobby.ID)
	assert.Empty(t, td.Outbox, "nothing owed once shown")
}

// A lobby click whose write landed but whose reply was lost, the game
// started by the creator before the store is asked again: the click
// counts (its person plays), and its answer shows the board on the
// message clicked, now the board, not the lobby over it.
func TestLobbyClickWhoseReplyWasLostAfterTheStart(t *testing.T) {
	t.Parallel()
	st := &lostReplyStore{}
	h := newHarnessOver(t, st)
	lobby := h.Run(h.startIx("qwixx", "u1", nil)).Shown(nil)
	require.NotNil(t, lobby)
	lobby = h.ClickOn("u3", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	join := h.ClickIx("u2", lobby, h.qmust(lobby, verbJoin, ""))
	st.id = join.ID
	st.between = func() { h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, "")) }
	h.Run(join)
	_, td, _ := h.qstate()
	assert.Equal(t, 3, len(td.Seats), "the join counts")
	boardShowsTheGame(t, h, lobby.ID)
}

// editBetween is the test Discord, but for the next edit of a message,
// through an interaction's token or with the bot token: between runs
// before it (another process's change and its answer).
type editBetween struct {
	*tabletest.Recorder
	between func()
}

func (d *editBetween) before() {
	if f := d.between; f != nil {
		d.between = nil
		f()
	}
}

func (d *editBetween) Edit(ctx context.Context, e *discordgo.MessageEdit) error {
	d.before()
	return d.Recorder.Edit(ctx, e)
}

func (d *editBetween) FollowupEdit(ctx context.Context, i *discordgo.Interaction, message string, e *discordgo.WebhookEdit) error {
	d.before()
	return d.Recorder.FollowupEdit(ctx, i, message, e)
}

// A lobby's edit that lands after another process's answer of a later
// change (the edit owed by a join whose answer's reply was lost) is owed
// again, and the lobby then shows the table as it stands.
func TestLobbyEditAfterALaterAnswerIsOwedAgain(t *testing.T) {
	t.Parallel()
	h := newEveryGameHarnessOn(t, tabletest.NewMemStore())
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	other := h.everyGameBot()
	other.now = h.b.now
	lobby := h.Run(h.startIx("qwixx", "u1", nil)).Shown(nil)
	require.NotNil(t, lobby)
	join := h.ClickIx("u2", lobby, h.qmust(lobby, verbJoin, ""))
	h.Rec.Mu.Lock()
	h.Rec.Lose = func(c tabletest.Call) error {
		if c.Op == "respond" && c.Interaction == join.ID {
			return errors.New("read: connection reset by peer")
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	d := &editBetween{Recorder: h.Rec, between: func() {
		// Another process: Chloé joins, and its answer lands.
		other.Serve(h.Rec, &discordgo.InteractionCreate{Interaction: h.ClickIx("u3", lobby, h.qmust(lobby, verbJoin, ""))}, h.Raw())
	}}
	h.b.Serve(d, &discordgo.InteractionCreate{Interaction: join}, h.Raw())
	require.Nil(t, d.between, "the join's lobby edited")
	assert.Contains(t, h.Rec.Message(lobby.ID).Content, "Bob")
	rec, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.False(t, rec.Due.IsZero(), "the lobby's edit is owed")
	now = rec.Due
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	shownAsItStands(t, h, "qwixx", lobby.ID)
	assert.Contains(t, h.Rec.Message(lobby.ID).Content, "Chloé")
}

// A Go refused (too few seats) with a private answer, then delivered
// again once someone joined, starts the game: its answer is refused
// (Discord took the first), and the board is drawn on the lobby's message
// with the bot token, not through the interaction, whose "@original" is
// the private refusal.
func TestGoDeliveredAgainAfterItsRefusalDrawsTheBoard(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	lobby := h.qcommand("u1", "start").Shown(nil)
	require.NotNil(t, lobby)
	goIx := h.ClickIx("u1", lobby, h.qmust(lobby, verbGo, ""))
	refusal := h.Run(goIx)
	require.NotNil(t, refusal.Shown(nil))
	require.True(t, refusal.Shown(nil).Ephemeral, "refused: %s", refusal.Describe())
	lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	again := *goIx
	h.Run(&again)
	assert.Equal(t, locales.T("en", "err_too_few", map[string]any{"Min": 2}), h.Rec.Message(refusal.Shown(nil).ID).Content, "the private refusal stays as it was")
	boardShowsTheGame(t, h, lobby.ID)
}

// boardShowsTheGame checks that the message id shows the channel's game
// as the store has it: a board with its buttons.
func boardShowsTheGame(t *testing.T, h *harness, id string) {
	t.Helper()
	rec, td := storedTable(t, h)
	require.NotNil(t, rec.Data, "started")
	g := h.b.games[rec.Game]
	st, err := g.Rules.Decode(rec.Data)
	require.NoError(t, err)
	board := h.Rec.Message(id)
	require.NotNil(t, board)
	assert.Equal(t, customIDs(tableComponents(g, st, td, h.b.boardAt(g, h.Channel, td, st, ""))), tabletest.ComponentIDs(board.Components), "the board shows the game")
}
