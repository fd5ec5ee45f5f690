package bot

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	computer "github.com/dixgame/dixbot/computer/qwixx"
	"github.com/dixgame/dixbot/engine"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// A Qwixx game with two people and two computer seats plays to its final
// scoreboard by clicks on the public board alone; along the way a row the
// clicker may not mark, a stale button, a forged id, a decision that is
// not the clicker's and a click by a stranger are refused and change
// nothing.
func TestQwixxPlaysToTheEnd(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	h.Locale = discordgo.EnglishUS
	board := h.openQwixx([]string{"u1", "u2"}, "easy", "strong")
	users := []string{"u1", "u2"}
	assert.Contains(t, board.Content, "Waiting for:")

	refusedRow, staleSeen, notYours := false, false, false
	var old *tabletest.Message
	rng := rand.New(rand.NewPCG(3, 4))
	// unchanged checks that a refused click changed nothing.
	unchanged := func(version uint64) {
		t.Helper()
		_, _, v := h.qstate()
		assert.Equal(t, version, v, "a refused click changed the game")
	}
	for step := 0; ; step++ {
		require.Less(t, step, 2000, "the game does not end")
		g, td, version := h.qstate()
		if g.Over() {
			t.Fatal("the game ended without its record being archived")
		}
		toDecide := g.ToDecide()
		require.NotEmpty(t, toDecide)
		for _, s := range toDecide {
			require.Empty(t, td.Seats[s].Level, "a computer seat is waited for")
			_, forced := rules.StateOf(g).Forced(s)
			require.False(t, forced, "a seat with one forced decision is asked")
		}
		seat := toDecide[rng.IntN(len(toDecide))]
		user := users[seat]
		other := users[1-seat]

		if !refusedRow && g.Phase == rules.PhaseWhite {
			for _, c := range rules.Colors {
				a := rules.Action{Kind: rules.ActWhite, Color: c, Number: g.Dice.WhiteSum()}
				id, shown := qfind(board, verbMove, a.String())
				if shown && g.Legal(seat, a) != nil {
					txt := h.ClickOn(user, board, id).EphemeralText()
					assert.NotContains(t, txt, "⟦")
					assert.Contains(t, txt, locales.T("en", "qwixx_colour_"+[]string{"red", "yellow", "green", "blue"}[c], nil))
					unchanged(version)
					refusedRow = true
					break
				}
			}
		}
		if !notYours && g.Phase == rules.PhaseColour && !slices_contains(toDecide, 1-seat) {
			if id, ok := qfind(board, verbMove, "c -"); ok {
				txt := h.ClickOn(other, board, id).EphemeralText()
				assert.Equal(t, locales.T("en", "qwixx_err_not_your_turn", nil), txt)
				unchanged(version)
				notYours = true
			}
		}
		if old != nil && !staleSeen {
			// A button of an earlier decision of this seat.
			if id, ok := qfind(old, verbMove, "w -"); ok {
				p, _ := parseID(id, gameVerbs)
				if p.n < td.Open[seat] {
					res := h.ClickOn(user, old, id)
					assert.Contains(t, res.Texts(), locales.T("en", "err_stale", nil))
					unchanged(version)
					staleSeen = true
				}
			}
		}
		if step == 0 {
			cp := *board // the recorder updates the shown message in place
			old = &cp
			for _, forged := range []string{"qwixx:mv:" + strconv.Itoa(int(g.Seq)) + ":w r99", "qwixx:mv:x:w -", "qwixx:zz:1", "qwixx:mv:1",
				"qwixx:mv:" + strconv.Itoa(int(g.Seq)) + ":" + strings.Repeat("w", 90)} {
				res := h.ClickOn(user, board, forged)
				assert.NotEmpty(t, res.EphemeralText(), forged)
				unchanged(version)
			}
			txt := h.ClickOn("u9", board, h.qmust(board, verbMove, "w -")).EphemeralText()
			assert.Equal(t, locales.T("en", "table_err_not_seated", nil), txt)
			unchanged(version)
		}

		m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rand.New(rand.NewPCG(uint64(step), 1)))
		require.NoError(t, err)
		id := h.qmust(board, verbMove, string(m))
		res := h.ClickOn(user, board, id)
		require.Equal(t, discordgo.InteractionResponseUpdateMessage, res.Response().Type, "%s: %v", id, res.Texts())
		board = res.Shown(board)
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		if r.Finished {
			break
		}
	}
	t.Logf("%d clicks; final board:\n%s", h.N, board.Content)
	assert.True(t, refusedRow, "no click on a row the clicker may not mark")
	assert.True(t, staleSeen, "no stale click")
	assert.True(t, notYours, "no click on another's decision")
	assert.Contains(t, board.Content, locales.T("en", "qwixx_over_title", nil))
	assert.Equal(t, []string{"qwixx:again:0"}, tabletest.ComponentIDs(board.Components), "the scoreboard has only Rematch")
	assert.Contains(t, board.Content, "1. ")
	assert.NotContains(t, board.Content, "⟦")

	// The channel is free again, for any game.
	lobby := h.qcommand("u1", "start").Shown(nil)
	assert.Contains(t, lobby.Content, "Qwixx")
}

func slices_contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Four people clicking the white sum at once on the same board are each
// applied exactly once, every one of them answered with the board.
func TestQwixxSimultaneousWhiteSums(t *testing.T) {
	t.Parallel()
	for round := range 3 {
		h := newQwixxHarness(t, false)
		h.Channel = "c" + strconv.Itoa(round+10)
		users := []string{"u1", "u2", "u3", "u4"}
		board := h.openQwixx(users)
		g, _, _ := h.qstate()
		require.Equal(t, rules.PhaseWhite, g.Phase)
		seq := g.Seq
		deciding := g.ToDecide()
		var ixs []*discordgo.Interaction
		for _, s := range deciding {
			ixs = append(ixs, h.ClickIx(users[s], board, h.qmust(board, verbMove, "w -")))
		}
		var wg sync.WaitGroup
		for _, ix := range ixs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				h.b.Serve(h.Rec, &discordgo.InteractionCreate{Interaction: ix}, nil)
			}()
		}
		wg.Wait()
		g, td, _ := h.qstate()
		for _, s := range deciding {
			assert.Equal(t, rules.ChoicePass, g.Choices[s], "seat %d", s)
		}
		assert.Equal(t, rules.PhaseColour, g.Phase)
		assert.Equal(t, seq+uint64(len(deciding)), g.Seq, "one move per click")
		if len(td.Outbox) > 0 {
			// A board edit that a newer click overtook owes the board
			// again, due at the end of the grace: the due work shows it.
			for _, e := range td.Outbox {
				require.True(t, e.Kind == effEdit && e.Again, "only a board shown again is left owed: %+v", e)
			}
			r, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			require.False(t, r.Due.IsZero(), "the edit owed is due")
			require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due))
			_, td, _ = h.qstate()
		}
		assert.Empty(t, td.Outbox, "the work the clicks owed is done")
		for _, ix := range ixs {
			for _, c := range h.Rec.Since(0) {
				if c.Op == "respond" && c.Interaction == ix.ID {
					assert.Contains(t, []discordgo.InteractionResponseType{discordgo.InteractionResponseUpdateMessage,
						discordgo.InteractionResponseDeferredMessageUpdate}, c.Resp.Type, "click %s answered %v", ix.ID, c.Resp.Data)
				}
			}
		}
	}
}

// The board carries the picture of the roll and the sheets; the lobby
// refuses what it must; a DIX command in a Qwixx channel, and a Qwixx
// command in a DIX channel, say which game runs there.
func TestQwixxTable(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, true)
	lobby := h.qcommand("u1", "start").Shown(nil)
	assert.Contains(t, h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, "")).EphemeralText(), "At least 2", "one seat is too few")
	assert.Contains(t, h.ClickOn("u1", lobby, h.qmust(lobby, verbJoin, "")).EphemeralText(), "already")
	lobby = h.ClickOn("u1", lobby, h.qmust(lobby, verbCPU, "normal")).Shown(lobby)
	assert.Contains(t, lobby.Content, "🤖")
	board := h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, "")).Shown(lobby)
	require.Len(t, board.Embeds, 1)
	assert.Equal(t, "attachment://qwixx.png", board.Embeds[0].Image.URL)
	assert.Contains(t, h.qcommand("u1", "rules").EphemeralText(), "Qwixx")
	g, _, _ := h.qstate()
	hint := h.qcommand("u1", "hint").EphemeralText()
	assert.NotContains(t, hint, "⟦")
	if g.Deciding(0) {
		assert.Contains(t, hint, "💡")
		assert.Equal(t, len(g.LegalActions(0))+1, strings.Count(hint, "\n")+1, "one line per decision open: %s", hint)
	} else {
		assert.Equal(t, locales.T("en", "qwixx_hint_nothing", nil), hint)
	}
	assert.Equal(t, locales.T("en", "table_err_not_seated", nil), h.qcommand("u5", "hint").EphemeralText())
	assert.Contains(t, h.qcommand("u3", "start").EphemeralText(), "Qwixx")

	// /qwixx leave: the computer plays the seat to the end.
	assert.Equal(t, locales.T("en", "table_left_you", nil), h.qcommand("u1", "leave").EphemeralText())
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.True(t, r.Finished, "with no one left the computers finish the game")
	_ = engine.Public
}

// The active player's "My turn…" prompt takes both decisions at once: the
// menu's first choice is the strong player's plan; once chosen the prompt
// says so and the public board is edited; another player has no prompt.
func TestQwixxMyTurnPrompt(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	users := []string{"u1", "u2"}
	board := h.openQwixx(users)
	for step := 0; ; step++ {
		require.Less(t, step, 50, "the active player never had a prompt")
		g, _, version := h.qstate()
		if g.Phase == rules.PhaseWhite && g.Deciding(g.Active) {
			active, other := users[g.Active], users[1-g.Active]
			assert.Equal(t, locales.T("en", "table_err_no_prompt", nil), h.ClickOn(other, board, h.qmust(board, verbPrompt, "")).EphemeralText())
			res := h.ClickOn(active, board, h.qmust(board, verbPrompt, ""))
			res.EphemeralText()
			prompt := res.Shown(nil)
			require.NotNil(t, prompt)
			sel, ok := qfind(prompt, verbSelect, "")
			require.True(t, ok, "a menu of decisions")
			vals := tabletest.SelectOptions(prompt, sel)
			require.NotEmpty(t, vals)
			white, colour, _, ok := computer.Plan(g, g.Active)
			require.True(t, ok)
			white.Plan = rules.Plan{Set: true, Pass: colour.Pass, Color: colour.Color, Number: colour.Number}
			assert.Equal(t, "mv:"+white.String(), vals[0], "the strong plan first")
			before := h.Rec.Count()
			res = h.ClickOn(active, prompt, sel, vals[0])
			assert.Equal(t, discordgo.InteractionResponseUpdateMessage, res.Response().Type)
			assert.Equal(t, locales.T("en", "table_prompt_done", nil), res.AnsweredText(prompt))
			assert.True(t, res.Dismissed(prompt), "the prompt goes once its decision is taken: %s", res.Describe())
			g2, _, v2 := h.qstate()
			assert.Greater(t, v2, version)
			assert.True(t, g2.Turn > g.Turn || g2.Choices[g.Active] != rules.ChoiceNone, "the decision was taken")
			edited := false
			for _, c := range h.Rec.Since(before) {
				edited = edited || (c.Op == "followupEdit" && c.Edit.ID == board.ID)
				assert.NotEqual(t, "edit", c.Op, "no request with the bot token")
				assert.NotEqual(t, "send", c.Op, "no request with the bot token")
			}
			assert.True(t, edited, "the public board is edited through the token of the last click on it")
			return
		}
		seat := g.ToDecide()[0]
		m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rand.New(rand.NewPCG(uint64(step), 1)))
		require.NoError(t, err)
		board = h.ClickOn(users[seat], board, h.qmust(board, verbMove, string(m))).Shown(board)
	}
}

// Pings: when a roll opens, the people who must decide and have not been
// at the board for a minute get one message mentioning them all, never
// the clicker; it is edited to say so once they have decided; someone who
// clicked within the minute is not pinged.
func TestQwixxPings(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	users := []string{"u1", "u2", "u3"}
	board := h.openQwixx(users)
	pings := func(from int) []tabletest.Call {
		var out []tabletest.Call
		for _, c := range h.Rec.Since(from) {
			if c.Op == "followup" && c.Params != nil && c.Params.AllowedMentions != nil && len(c.Params.AllowedMentions.Users) > 0 {
				out = append(out, c)
			}
		}
		return out
	}
	first := pings(0)
	require.Len(t, first, 1, "one ping for the first roll")
	g, td, _ := h.qstate()
	var want []string
	for _, s := range g.ToDecide() {
		if users[s] != "u1" {
			want = append(want, users[s])
		}
	}
	assert.ElementsMatch(t, want, first[0].Params.AllowedMentions.Users, "everyone deciding but the clicker")
	require.NotNil(t, td.Ping, "the ping is recorded")
	pingID := td.Ping.ID

	// Everyone decides the white sum: the ping says it is settled.
	mark := h.Rec.Count()
	for _, s := range g.ToDecide() {
		board = h.ClickOn(users[s], board, h.qmust(board, verbMove, "w -")).Shown(board)
	}
	settled := false
	for _, c := range h.Rec.Since(mark) {
		if c.Op == "followupEdit" && c.Edit.ID == pingID {
			settled = true
			assert.Equal(t, locales.T("en", "table_ping_settled", map[string]any{"Names": strings.Join(td.Ping.Names, ", ")}), *c.Edit.Content)
		}
	}
	assert.True(t, settled, "the ping is edited once settled")
	assert.Empty(t, pings(mark), "nobody who just clicked is pinged")

	// A minute later, the next decisions ping again, once per person.
	now = now.Add(2 * pingPresent)
	g, _, _ = h.qstate()
	mark = h.Rec.Count()
	seat := g.ToDecide()[0]
	m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	board = h.ClickOn(users[seat], board, h.qmust(board, verbMove, string(m))).Shown(board)
	g2, _, _ := h.qstate()
	if g2.Turn > g.Turn {
		later := pings(mark)
		require.Len(t, later, 1)
		assert.NotContains(t, later[0].Params.AllowedMentions.Users, users[seat])
		seen := map[string]int{}
		for _, u := range later[0].Params.AllowedMentions.Users {
			seen[u]++
			assert.Equal(t, 1, seen[u])
		}
	}
}

// A clocked game where nobody answers still ends: each decision out of
// time is taken for its seat (a white sum passed, never a penalty; a
// colour sum the strong player's choice), the board is edited each time,
// and nothing happens before a deadline.
func TestQwixxClockPlaysForTheAbsent(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	board := h.openQwixx([]string{"u1", "u2"}, "easy")
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.True(t, now.Add(botqwixx.DecisionTime).Equal(r.Due), "the first deadline: %v", r.Due)

	// Before the deadline nothing changes.
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now.Add(time.Second)))
	_, _, v := h.qstate()
	assert.Equal(t, r.Version, v)

	g, _, _ := h.qstate()
	white := g.Phase == rules.PhaseWhite
	before := slices.Clone(g.Sheets)
	deciding := g.ToDecide()
	now = r.Due
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	g2, _, _ := h.qstate()
	if white {
		for _, s := range deciding {
			if s != g.Active || g2.Turn == g.Turn {
				assert.Equal(t, before[s].Rows, g2.Sheets[s].Rows, "a white sum out of time is a pass")
				assert.Equal(t, before[s].Penalties, g2.Sheets[s].Penalties, "never a penalty")
			}
		}
	}
	for i := 0; ; i++ {
		require.Less(t, i, 1000, "the game does not end")
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		if r.Finished {
			break
		}
		require.False(t, r.Due.IsZero(), "a game waiting for people has a deadline")
		now = r.Due
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	}
	timedOut, absent := 0, false
	for _, c := range h.Rec.Since(0) {
		if (c.Op == "edit" || c.Op == "followupEdit") && c.Edit.ID == board.ID && c.Edit.Content != nil && strings.Contains(*c.Edit.Content, "⏰") {
			timedOut++
			absent = absent || strings.Contains(*c.Edit.Content, "💤")
		}
	}
	// Out of time twice in a row, each person is absent and the computer
	// plays their seat without waiting (absent.go).
	assert.GreaterOrEqual(t, timedOut, 2, "the board says who ran out of time")
	assert.True(t, absent, "the board says who is absent")
	shown := h.Rec.Message(board.ID)
	assert.Contains(t, shown.Content, locales.T("en", "qwixx_over_title", nil))
	assert.Equal(t, []string{"qwixx:again:0"}, tabletest.ComponentIDs(shown.Components))
}

// A message posted before the game's board belongs to an earlier game of
// the channel: its buttons are stale whatever version they carry.
func TestOlderThanBoard(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, msg, board string
		want             bool
	}{
		{"older", "1100000000000000000", "1200000000000000000", true},
		{"the board", "1200000000000000000", "1200000000000000000", false},
		{"newer", "1300000000000000000", "1200000000000000000", false},
		{"not snowflakes", "orig-i5", "orig-i3", false},
		{"no board", "1100000000000000000", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, olderThanBoard(&discordgo.Message{ID: tc.msg}, tc.board))
		})
	}
	assert.False(t, olderThanBoard(nil, "1"))
}
