package bot

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	computer "github.com/dixgame/dixbot/computer/qwixx"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// toActivePrompt plays Qwixx clicks on the board until the active player
// may open their private prompt, opens it and returns it with the custom
// id of its menu and the menu's first decision.
func toActivePrompt(t *testing.T, h *harness, users []string, board *tabletest.Message) (*tabletest.Message, *tabletest.Message, string, string) {
	t.Helper()
	for step := 0; ; step++ {
		require.Less(t, step, 50, "the active player never had a prompt")
		g, _, _ := h.qstate()
		if g.Phase == rules.PhaseWhite && g.Deciding(g.Active) {
			res := h.clickOn(users[g.Active], board, h.qmust(board, cverbPrompt, ""))
			prompt := res.shown(nil)
			require.NotNil(t, prompt)
			sel, ok := qfind(prompt, cverbSelect, "")
			require.True(t, ok, "a menu of decisions")
			vals := tabletest.SelectOptions(prompt, sel)
			require.NotEmpty(t, vals)
			return board, prompt, sel, vals[0]
		}
		seat := g.ToDecide()[0]
		m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rand.New(rand.NewPCG(uint64(step), 1)))
		require.NoError(t, err)
		board = h.clickOn(users[seat], board, h.qmust(board, CverbMove, string(m))).shown(board)
	}
}

// boardShows reports whether the board message shows the channel's game
// as it stands.
func boardShows(t *testing.T, h *harness, board string) bool {
	t.Helper()
	r, err := h.db.Get(context.Background(), h.channel)
	require.NoError(t, err)
	td, err := DecodeTableData(r.Meta)
	require.NoError(t, err)
	pb, _, err := h.b.contractBoard(h.b.Games[r.Game], r, td, "")
	require.NoError(t, err)
	return h.rec.Message(board).Content == pb.Content
}

// A decision taken in a private prompt while Discord fails leaves the
// board's edit owed in the record, which becomes due after the grace;
// whoever finds it due then edits the board, once, through the token of
// the board's last click rather than the bot token.
func TestContractBoardEditOwedSurvivesAFailure(t *testing.T) {
	h := newQwixxHarness(t, false)
	users := []string{"u1", "u2"}
	board, prompt, sel, val := toActivePrompt(t, h, users, h.openQwixx(users))
	g, _, _ := h.qstate()
	h.rec.Mu.Lock()
	h.rec.Fail = errors.New("discord unreachable")
	h.rec.Mu.Unlock()
	res := h.clickOn(users[g.Active], prompt, sel, val)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, res.response().Type, "the prompt says the decision is taken")
	h.rec.Mu.Lock()
	h.rec.Fail = nil
	h.rec.Mu.Unlock()

	r, err := h.db.Get(context.Background(), h.channel)
	require.NoError(t, err)
	td, err := DecodeTableData(r.Meta)
	require.NoError(t, err)
	require.NotEmpty(t, td.Outbox, "the board's edit is still owed")
	assert.Equal(t, ceffEdit, td.Outbox[0].Kind)
	require.False(t, r.Due.IsZero())
	assert.False(t, boardShows(t, h, board.ID), "the board is behind the game")

	// Within the grace, the process that made the change has the effects.
	n := h.rec.Count()
	require.NoError(t, h.b.RunDueOn(context.Background(), h.rec, h.channel, time.Now()))
	assert.Equal(t, n, h.rec.Count(), "nothing done before the grace is over")

	require.NoError(t, h.b.RunDueOn(context.Background(), h.rec, h.channel, r.Due))
	assert.True(t, boardShows(t, h, board.ID), "the board shows the game")
	for _, c := range h.rec.Since(n) {
		assert.NotContains(t, []string{"edit", "send"}, c.Op, "no request with the bot token")
	}
	_, td, _ = h.qstate()
	assert.Empty(t, td.Outbox, "nothing left owed")

	// Found due again, it does nothing.
	n = h.rec.Count()
	require.NoError(t, h.b.RunDueOn(context.Background(), h.rec, h.channel, time.Now().Add(time.Hour)))
	for _, c := range h.rec.Since(n) {
		assert.NotEqual(t, "followupEdit", c.Op, "the board is not edited twice")
	}
}

// A click on the board delivered twice, the first delivery having died
// before its answer, is applied once and answered as the first answer
// would have been: the board as it stands, in place.
func TestContractRedeliveredClickShowsTheBoard(t *testing.T) {
	h := newQwixxHarness(t, false)
	users := []string{"u1", "u2"}
	board := h.openQwixx(users)
	g, _, _ := h.qstate()
	seq := g.Seq
	seat := g.ToDecide()[0]
	ix := h.clickIx(users[seat], board, h.qmust(board, CverbMove, "w -"))
	h.rec.Mu.Lock()
	h.rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "respond" && c.Interaction == ix.ID {
			return errors.New("the process died before answering")
		}
		return nil
	}
	h.rec.Mu.Unlock()
	h.run(ix)
	h.rec.Mu.Lock()
	h.rec.Refuse = nil
	h.rec.Mu.Unlock()

	again := *ix
	res := h.run(&again)
	g, _, _ = h.qstate()
	assert.Equal(t, seq+1, g.Seq, "applied once")
	resp := res.response()
	require.NotNil(t, resp)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "the board in place")
	assert.True(t, boardShows(t, h, board.ID), "the board shows the game")
}

// The board edit of a change made while another change lands shows the
// older game; the table owes the board again, and the next run shows the
// newer game: an older render is never the board's last word.
func TestContractBoardEditOvertakenIsShownAgain(t *testing.T) {
	h := newQwixxHarness(t, false)
	users := []string{"u1", "u2", "u3"}
	board, prompt, sel, val := toActivePrompt(t, h, users, h.openQwixx(users))
	g, _, _ := h.qstate()
	var other int = -1
	for _, s := range g.ToDecide() {
		if s != g.Active {
			other = s
		}
	}
	require.GreaterOrEqual(t, other, 0)
	overtaken := false
	h.rec.Mu.Lock()
	h.rec.Refuse = func(c tabletest.Call) error {
		if c.Op != "followupEdit" || c.Edit.ID != board.ID || overtaken {
			return nil
		}
		overtaken = true
		// Another player's decision lands while this edit is on its way.
		_, err := h.db.Update(context.Background(), h.channel, "", func(r *dixbot.Record) error {
			st, err := rules.Rules{}.Decode(r.Data)
			if err != nil {
				return err
			}
			if _, err := st.Apply(other, "w -"); err != nil {
				return err
			}
			r.Data = st.Encode()
			return nil
		})
		return err
	}
	h.rec.Mu.Unlock()
	h.clickOn(users[g.Active], prompt, sel, val)
	h.rec.Mu.Lock()
	h.rec.Refuse = nil
	h.rec.Mu.Unlock()
	require.True(t, overtaken)
	assert.False(t, boardShows(t, h, board.ID), "the edit showed the older game")
	r, err := h.db.Get(context.Background(), h.channel)
	require.NoError(t, err)
	td, err := DecodeTableData(r.Meta)
	require.NoError(t, err)
	require.Len(t, td.Outbox, 1, "the board is owed again")
	assert.True(t, td.Outbox[0].Again)
	require.NoError(t, h.b.RunDueOn(context.Background(), h.rec, h.channel, r.Due))
	assert.True(t, boardShows(t, h, board.ID), "the board shows the newer game")
}

// A ping owed by a change is posted as a follow-up of the clicking
// interaction and settled through it; a finished game's last effects
// archive it, and the board then shows the final scoreboard.
func TestContractGameEndIsOwed(t *testing.T) {
	h := newQwixxHarness(t, false)
	users := []string{"u1"}
	board := h.openQwixx(users, "easy")
	for step := 0; ; step++ {
		require.Less(t, step, 2000, "the game does not end")
		r, err := h.db.Get(context.Background(), h.channel)
		require.NoError(t, err)
		if r.Finished {
			break
		}
		td, err := DecodeTableData(r.Meta)
		require.NoError(t, err)
		assert.Empty(t, td.Outbox, "every click's effects are done after its answer")
		st, err := rules.Rules{}.Decode(r.Data)
		require.NoError(t, err)
		require.False(t, st.Over(), "a game over is archived by its last effect")
		m, err := computer.Player{Level: computer.Normal}.Decide(st, 0, rand.New(rand.NewPCG(uint64(step), 3)))
		require.NoError(t, err)
		board = h.clickOn("u1", board, h.qmust(board, CverbMove, string(m))).shown(board)
	}
	assert.Contains(t, h.rec.Message(board.ID).Content, locales.T("en", "qwixx_over_title", nil))
	for _, c := range h.rec.Since(0) {
		assert.NotContains(t, []string{"edit", "send"}, c.Op, "no request with the bot token at human pace")
	}
}

// A ping owed while Discord fails, then settled by later clicks before it
// was ever posted: the effects wait in order, and the run that posts the
// ping settles that very message, as a follow-up edited through its token.
func TestContractPingSettledBeforePosted(t *testing.T) {
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.Now = func() time.Time { return now }
	users := []string{"u1", "u2", "u3"}
	h.rec.Mu.Lock()
	h.rec.Fail = errors.New("discord unreachable")
	h.rec.Mu.Unlock()
	board := h.openQwixx(users)
	_, td, _ := h.qstate()
	require.NotNil(t, td.Ping, "a ping is owed")
	assert.Empty(t, td.Ping.ID, "not posted")
	g, _, _ := h.qstate()
	for _, s := range g.ToDecide() {
		board = h.clickOn(users[s], board, h.qmust(board, CverbMove, "w -")).shown(board)
	}
	r, err := h.db.Get(context.Background(), h.channel)
	require.NoError(t, err)
	td, err = DecodeTableData(r.Meta)
	require.NoError(t, err)
	settle := -1
	for i, e := range td.Outbox {
		if n, ok := pingRef(e); ok {
			settle = i
			assert.Less(t, uint32(0), n)
		}
	}
	require.GreaterOrEqual(t, settle, 0, "the settle names the ping by its effect")
	h.rec.Mu.Lock()
	h.rec.Fail = nil
	h.rec.Mu.Unlock()
	n := h.rec.Count()
	require.NoError(t, h.b.RunDueOn(context.Background(), h.rec, h.channel, r.Due))
	posted, settled := false, false
	for _, c := range h.rec.Since(n) {
		if c.Op == "followup" && c.Params.AllowedMentions != nil && len(c.Params.AllowedMentions.Users) > 0 {
			posted = true
		}
		if c.Op == "followupEdit" && c.Edit.Content != nil && *c.Edit.Content == locales.T("en", "table_ping_settled", map[string]any{"Names": "Bob, Chloé"}) {
			settled = true
		}
	}
	assert.True(t, posted, "the ping is posted")
	assert.True(t, settled, "and settled")
	_, td, _ = h.qstate()
	assert.Empty(t, td.Outbox)
}
