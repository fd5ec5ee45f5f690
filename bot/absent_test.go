package bot

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	computer "github.com/dixgame/dixbot/computer/qwixx"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// reminders counts the reminders posted to user so far.
func (h *harness) reminders(user string) int {
	n := 0
	for _, c := range h.Rec.Since(0) {
		if content, _ := postedText(c); strings.HasPrefix(content, "⏰ <@"+user+">") {
			n++
		}
	}
	return n
}

// postedText is the content and allowed mentions of a posted message.
func postedText(c tabletest.Call) (string, []string) {
	switch {
	case c.Op == "send" && c.Send != nil && c.Send.AllowedMentions != nil:
		return c.Send.Content, c.Send.AllowedMentions.Users
	case c.Op == "send" && c.Send != nil:
		return c.Send.Content, nil
	case c.Op == "followup" && c.Params != nil && c.Params.AllowedMentions != nil:
		return c.Params.Content, c.Params.AllowedMentions.Users
	case c.Op == "followup" && c.Params != nil:
		return c.Params.Content, nil
	}
	return "", nil
}

// At the evening pace each person deciding is reminded once per decision,
// half way through its time, with a link to the board; at the live pace
// (90 s) nobody is.
func TestRemindersOncePerDecision(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	lobby := h.qcommand("u1", "start").Shown(nil)
	lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	lobby = h.ClickOn("u1", lobby, h.qmust(lobby, verbPace, ""), "evening").Shown(lobby)
	h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, ""))
	g, _, _ := h.qstate()
	require.Len(t, g.ToDecide(), 2, "a white sum: both decide")
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	half := now.Add(botqwixx.EveningTime / 2)
	assert.True(t, half.Equal(r.Due), "due for the reminders: %v", r.Due)

	now = half.Add(-time.Second)
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	assert.Zero(t, h.reminders("u1")+h.reminders("u2"), "no reminder before half time")
	now = half
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	assert.Equal(t, 1, h.reminders("u1"))
	assert.Equal(t, 1, h.reminders("u2"))
	// Again, and later: still one per decision.
	for range 3 {
		now = now.Add(time.Hour)
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	}
	assert.Equal(t, 1, h.reminders("u1"))
	assert.Equal(t, 1, h.reminders("u2"))
	r, err = h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	for !r.Due.IsZero() && r.Due.Before(half.Add(botqwixx.EveningTime/2)) {
		now = r.Due // the outbox's own due times
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
		r, err = h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
	}
	_, td, _ := h.qstate()
	assert.True(t, half.Add(botqwixx.EveningTime/2).Equal(r.Due), "then due at the deadline: %v", r.Due)
	var remind string
	for _, c := range h.Rec.Since(0) {
		if content, users := postedText(c); strings.HasPrefix(content, "⏰ <@u1>") {
			remind = content
			assert.Equal(t, []string{"u1"}, users, "a reminder mentions its person alone")
		}
	}
	assert.Equal(t, locales.T("en", "table_remind", map[string]any{"Mentions": "<@u1>", "Game": "Qwixx",
		"Unix": half.Add(botqwixx.EveningTime / 2).Unix(), "URL": messageURL(h.Guild, h.Channel, td.Board)}), remind)

	// The live pace reminds nobody.
	h2 := newQwixxHarness(t, false)
	h2.b.now = func() time.Time { return now }
	h2.openQwixx([]string{"u1", "u2"})
	r, err = h2.Db.Get(context.Background(), h2.Channel)
	require.NoError(t, err)
	assert.True(t, now.Add(botqwixx.DecisionTime).Equal(r.Due), "due at the deadline alone")
}

// A person out of time twice in a row is absent: the computer decides for
// them at once from then on, never waiting for them; a click of theirs
// brings them back (and does only that), and their clock runs again.
func TestAbsentPlayerComesBack(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	board := h.openQwixx([]string{"u1", "u2"}, "easy")
	rng := rand.New(rand.NewPCG(1, 2))
	// u1 decides at once; u2 never does.
	for i := 0; ; i++ {
		require.Less(t, i, 200, "u2 never becomes absent")
		_, td, _ := h.qstate()
		if td.Seats[1].Away {
			break
		}
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		require.False(t, r.Finished)
		st, err := rules.Rules{}.Decode(r.Data)
		require.NoError(t, err)
		if containsInt(st.ToDecide(), 0) {
			m, err := computer.Player{Level: computer.Normal}.Decide(st, 0, rng)
			require.NoError(t, err)
			res := h.ClickOn("u1", h.Rec.Message(board.ID), buttonID("qwixx", verbMove, st.Seq(), string(m)))
			require.NotNil(t, res.Response())
			continue
		}
		require.False(t, r.Due.IsZero())
		now = r.Due
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	}
	_, td, _ := h.qstate()
	assert.Contains(t, strings.Join(td.Log, "\n"), locales.T("en", "log_absent", map[string]any{"Name": "Bob"}))
	g, td, _ := h.qstate()
	assert.NotContains(t, g.ToDecide(), 1, "an absent seat is never waited for")
	assert.Contains(t, h.Rec.Message(board.ID).Content, "Bob"+locales.T("en", "mark_away", nil), "the board marks the absent player")
	// While u1 plays on, u2's seat never holds the game up.
	for range 5 {
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		if r.Finished {
			break
		}
		st, err := rules.Rules{}.Decode(r.Data)
		require.NoError(t, err)
		require.NotContains(t, st.ToDecide(), 1)
		m, err := computer.Player{Level: computer.Normal}.Decide(st, 0, rng)
		require.NoError(t, err)
		h.ClickOn("u1", h.Rec.Message(board.ID), buttonID("qwixx", verbMove, st.Seq(), string(m)))
	}
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.False(t, r.Finished, "the game ended before the absent player could come back")
	before := r.Data
	txt := h.ClickOn("u2", h.Rec.Message(board.ID), h.qwixxMove(h.Rec.Message(board.ID))).EphemeralText()
	assert.Equal(t, locales.T("en", "table_back_you", nil), txt)
	r, err = h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.Equal(t, before, r.Data, "coming back makes no move")
	_, td, _ = h.qstate()
	assert.False(t, td.Seats[1].Away)
	assert.Zero(t, td.Seats[1].Late)
	assert.Contains(t, strings.Join(td.Log, "\n"), locales.T("en", "log_back", map[string]any{"Name": "Bob"}))
	assert.NotContains(t, h.Rec.Message(board.ID).Content, locales.T("en", "mark_away", nil), "the mark goes with their return")
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// An evening game always finishes: in every game, a table whose people all
// stop clicking runs out of every clock, marks each seat absent and plays
// on by itself, through the due work alone, to its end.
func TestEveryTableOfAbsentPeopleEnds(t *testing.T) {
	t.Parallel()
	for _, game := range []string{"dix", "qwixx", "dixxit"} {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			h := newEveryGameHarness(t)
			now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
			h.b.now = func() time.Time { return now }
			board := h.openGame(game, []string{"u1", "u2", "u3"}, nil)
			require.NotNil(t, board)
			h.playOut(board, &now)
			r, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			st, err := h.b.games[game].Rules.Decode(r.Data)
			require.NoError(t, err)
			assert.True(t, st.Over(), "the game is over")
			td, err := decodeTableData(r.Meta)
			require.NoError(t, err)
			for s, seat := range td.Seats {
				assert.True(t, seat.Away, "seat %d is absent", s)
			}
		})
	}
}

// A game over brings nobody back: an absent person's click on its final
// scoreboard, before the game is archived, changes nothing, and the final
// scoreboard shows the game as it ended, not a return after its end.
func TestAbsentPersonsClickAfterTheEndBringsNobodyBack(t *testing.T) {
	t.Parallel()
	for _, click := range []string{"outdated move", "prompt"} {
		t.Run(click, func(t *testing.T) {
			t.Parallel()
			h, _, move := qwixxOverUnarchived(t)
			before, ok := h.St.Snapshot(h.Channel)
			require.True(t, ok, "the game over is not archived")
			gr := h.b.games["qwixx"]
			over, err := gr.Rules.Decode(before.Rec.Data)
			require.NoError(t, err)
			_, td, _ := h.qstate()
			require.True(t, td.Seats[1].Away, "Bob let every clock run out")
			score := h.Rec.Message(td.Board)
			require.NotNil(t, score)

			id := move
			if click == "prompt" {
				id = buttonID("qwixx", verbPrompt, over.Seq(), "")
			}
			res := h.ClickOn("u2", score, id)
			takenOnce(t, res)
			after, ok := h.St.Snapshot(h.Channel)
			require.True(t, ok)
			assert.Equal(t, string(before.Rec.Meta), string(after.Rec.Meta), "the table is as the game ended: %s", res.Describe())
			_, td, _ = h.qstate()
			assert.True(t, td.Seats[1].Away)
			assert.NotContains(t, td.Log, locales.T("en", "log_back", map[string]any{"Name": "Bob"}))
			pb := h.b.boardAt(gr, h.Channel, td, over, "")
			assert.Equal(t, pb.Content, h.Rec.Message(td.Board).Content, "the final scoreboard shows the game as it ended")
		})
	}
}
