package bot

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// The table's behaviour with DIX on it, where DIX brings something of its
// own: its prompts of several steps, its computer, its board of embeds.
// What the table does alike for every game is tested with Qwixx and
// Dixxit.

// openDixAt opens a DIX table of people at pace, starts it at the bot's
// clock and returns the board.
func (h *harness) openDixAt(people []string, pace string) *tabletest.Message {
	h.T.Helper()
	lobby := h.Run(h.GameCommandIx("dix", people[0], "start")).Shown(nil)
	require.NotNil(h.T, lobby)
	for _, u := range people[1:] {
		lobby = h.ClickOn(u, lobby, h.dixMust(lobby, verbJoin, "")).Shown(lobby)
	}
	lobby = h.ClickOn(people[0], lobby, h.dixMust(lobby, verbPace, ""), pace).Shown(lobby)
	return h.ClickOn(people[0], lobby, h.dixMust(lobby, verbGo, "")).Shown(lobby)
}

// setSeat changes seat s of the channel's table data as f says.
func (h *harness) setSeat(s int, f func(*tableSeat)) {
	h.T.Helper()
	_, err := h.Db.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
		td, err := decodeTableData(r.Meta)
		require.NoError(h.T, err)
		f(&td.Seats[s])
		r.Meta = td.Encode()
		return nil
	})
	require.NoError(h.T, err)
}

// A person whose time runs out twice in a row is absent: the board marks
// them and offers the vote to hand their seat over, the computer decides
// for them at once (auctions and payments included) and the game never
// waits for them; any click of theirs brings them back, and does only
// that. The game then plays to its end.
func TestDixSharedAbsentPlayerIsPlayedForThenComesBack(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 2, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	h.openDixAt([]string{"u1", "u2"}, "live")
	d := &dixDriver{h: h, users: []string{"u1", "u2"}, rng: rand.New(rand.NewPCG(2, 4)), seen: map[string]int{}, follow: true}
	// u1 decides at once; u2 never does.
	for i := 0; ; i++ {
		require.Less(t, i, 400, "u2 never becomes absent")
		g, td, _, over := h.dixNow()
		require.False(t, over, "the game ended before u2 was absent")
		if td.Seats[1].Away {
			break
		}
		if g.ToAct() == 0 {
			d.decide()
			continue
		}
		now = h.due()
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	}
	_, td, _, _ := h.dixNow()
	assert.Contains(t, h.Run(h.GameCommandIx("dix", "u1", "log")).EphemeralText(), locales.T("en", "log_absent", map[string]any{"Name": "Bob"}))
	board := h.Rec.Message(td.Board)
	assert.Contains(t, boardText(board), "Bob"+locales.T("en", "mark_away", nil), "the board marks the absent player")
	assert.Contains(t, tabletest.ComponentIDs(board.Components), buttonID("dix", verbKick, 0, "1"), "the board offers the vote")
	fitsDiscord(t, "board", board.Components)

	for range 8 {
		g, _, _, over := h.dixNow()
		if over || g.Phase == dix.PhaseOver {
			break
		}
		require.Equal(t, 0, g.ToAct(), "the absent seat is never waited for")
		d.decide()
	}
	g, td, before, over := h.dixNow()
	require.False(t, over || g.Phase == dix.PhaseOver, "the game ended before the absent player could come back")
	board = h.Rec.Message(td.Board)
	id, ok := dixID(board, verbMove, "")
	require.True(t, ok, "no move on the board: %v", tabletest.ComponentIDs(board.Components))
	assert.Equal(t, locales.T("en", "table_back_you", nil), h.ClickOn("u2", board, id).EphemeralText())
	_, td, after, _ := h.dixNow()
	assert.Equal(t, before, after, "coming back makes no move")
	assert.False(t, td.Seats[1].Away)
	assert.Zero(t, td.Seats[1].Late)
	assert.Contains(t, h.Run(h.GameCommandIx("dix", "u1", "log")).EphemeralText(), locales.T("en", "log_back", map[string]any{"Name": "Bob"}))
	assert.NotContains(t, boardText(h.Rec.Message(td.Board)), locales.T("en", "mark_away", nil), "the mark goes with their return")
	d.play(600)
}

// An absent person who only looks (their hand, on the board) or clicks
// clicks on an old board is back at the table too: the hand is shown,
// the old board's click answered, and nothing is played.
func TestDixSharedAbsentPersonBackByLookingOrAnOutdatedClick(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 2, false)
	first := h.openGame("dix", []string{"u1", "u2"}, nil)
	require.NotNil(t, first)
	h.setSeat(1, func(s *tableSeat) { s.Away, s.Late = true, 2 })
	_, td, before, _ := h.dixNow()
	board := h.Rec.Message(td.Board)
	res := h.ClickOn("u2", board, h.dixMust(board, verbStep, "hand"))
	hand := res.Shown(nil)
	require.NotNil(t, hand, res.Describe())
	assert.True(t, hand.Ephemeral)
	_, td, after, _ := h.dixNow()
	assert.False(t, td.Seats[1].Away, "looking at one's hand is being back")
	assert.Equal(t, before, after, "and plays nothing")

	h.setSeat(1, func(s *tableSeat) { s.Away, s.Late = true, 2 })
	stale := buttonID("dix", verbStep, 0, "text") // of a state long gone
	d := &dixDriver{h: h, users: []string{"u1", "u2"}, rng: rand.New(rand.NewPCG(2, 5)), seen: map[string]int{}, follow: true}
	for g, _, _, _ := h.dixNow(); g.Seq < 3; g, _, _, _ = h.dixNow() {
		require.True(t, d.decide())
	}
	h.setSeat(1, func(s *tableSeat) { s.Away, s.Late = true, 2 })
	_, _, before, _ = h.dixNow()
	res = h.ClickOn("u2", board, stale)
	assert.NotNil(t, res.Response(), "answered")
	_, td, after, _ = h.dixNow()
	assert.False(t, td.Seats[1].Away, "an outdated click is being back")
	assert.Equal(t, before, after)
}

// The creator's vote hands a seat out of time to the computer for good,
// on DIX's board: the computer (DIX's strong level) plays it at once to
// the end, its person's clicks are refused, and the final scoreboard says
// the seat was handed over.
func TestDixSharedKickHandsTheSeatToTheComputer(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 3, false)
	h.openGame("dix", []string{"u1", "u2"}, nil)
	h.setSeat(1, func(s *tableSeat) { s.Late = 1 })
	board := h.Run(h.GameCommandIx("dix", "u1", "board")).Shown(nil)
	require.NotNil(t, board)
	kick := buttonID("dix", verbKick, 0, "1")
	require.Contains(t, tabletest.ComponentIDs(board.Components), kick)
	fitsDiscord(t, "board", board.Components)
	assert.Equal(t, locales.T("en", "kick_done", nil), h.ClickOn("u1", board, kick).EphemeralText())
	g, td, _, _ := h.dixNow()
	assert.Equal(t, "strong", td.Seats[1].Level)
	assert.Equal(t, 0, g.ToAct(), "the computer plays the seat at once")
	board = h.Rec.Message(td.Board)
	if id, ok := dixID(board, verbMove, ""); ok {
		assert.Equal(t, locales.T("en", "table_err_handed_over", nil), h.ClickOn("u2", board, id).EphemeralText())
	}
	d := &dixDriver{h: h, users: []string{"u1"}, rng: rand.New(rand.NewPCG(3, 4)), seen: map[string]int{}, follow: true}
	d.play(600)
	_, td, _, _ = h.dixNow()
	assert.Contains(t, boardText(h.Rec.Message(td.Board)), "Bob"+locales.T("en", "mark_computer", nil))
}

// A game of three, one of whom leaves at once, played at people's pace
// (two minutes a decision): every turn and auction pings the people who
// must decide and never the one who left, and the whole game, pictures
// and final scoreboard included, makes no request with the bot token
// (answers, follow-ups and their edits carry the interactions' tokens).
func TestDixSharedPingsAndNoBotTokenRequests(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 5, true)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	h.openGame("dix", []string{"u1", "u2", "u3"}, nil)
	assert.Equal(t, locales.T("en", "table_left_you", nil), h.Run(h.GameCommandIx("dix", "u3", "leave")).EphemeralText())
	start := h.Rec.Count()
	d := &dixDriver{h: h, users: []string{"u1", "u2", "u3"}, rng: rand.New(rand.NewPCG(5, 4)), seen: map[string]int{},
		follow: true, gap: 2 * time.Minute, now: &now}
	d.play(800)
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.True(t, r.Finished, "the game was archived, its last effect")

	// The end is told to everyone seated, the one who left too.
	td, err := decodeTableData(r.Meta)
	require.NoError(t, err)
	over := locales.T("en", "table_over_ping", map[string]any{"Mentions": "<@u1> <@u2> <@u3>", "Game": "DIX",
		"URL": messageURL(h.Guild, h.Channel, td.Board)})
	pinged, told := map[string]int{}, 0
	for _, c := range h.Rec.Since(start) {
		assert.NotContains(t, []string{"send", "edit"}, c.Op, "a request with the bot token")
		if c.Op != "followup" || c.Params == nil || c.Params.AllowedMentions == nil {
			continue
		}
		if c.Params.Content == over {
			told++
			continue
		}
		for _, u := range c.Params.AllowedMentions.Users {
			pinged[u]++
		}
	}
	assert.Positive(t, pinged["u1"], "pinged: %v", pinged)
	assert.Positive(t, pinged["u2"], "pinged: %v", pinged)
	assert.Zero(t, pinged["u3"], "the one who left is never pinged to decide")
	assert.Equal(t, 1, told, "the end is told once")
	t.Logf("ways taken: %v; pinged %v", d.seen, pinged)
}

// A click on DIX's board whose answer was lost (the process died before
// answering) and that Discord delivers again is applied once, and its
// second delivery shows the board in place.
func TestDixSharedRedeliveredClickAppliesOnce(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 4, false)
	board := h.openGame("dix", []string{"u1", "u2"}, nil)
	g, _, _, _ := h.dixNow()
	draw := string(dix.FormatMove(dix.Action{Kind: dix.ActDraw}))
	ix := h.ClickIx([]string{"u1", "u2"}[g.ToAct()], board, h.dixMust(board, verbMove, draw))
	h.runAnswerLost(ix)
	once, _, data, _ := h.dixNow()
	require.Greater(t, once.Seq, g.Seq, "the click was applied")

	again := *ix
	res := h.Run(&again)
	_, _, data2, _ := h.dixNow()
	assert.Equal(t, data, data2, "applied once")
	resp := res.Response()
	require.NotNil(t, resp)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "the board in place")
	assert.True(t, slices.ContainsFunc(res.Calls, func(c tabletest.Call) bool { return c.Op == "respond" }))
}
