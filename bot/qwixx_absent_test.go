package bot

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	computer "github.com/dixgame/dixbot/computer/qwixx"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// A clocked two-player Qwixx game where one player decides every time and
// the other never answers still ends: only the absent seat's decisions run
// out of time (the one who answers is never decided for), a white sum out
// of time is a pass (no mark, no penalty), a colour sum out of time is the
// strong player's choice, and the final scoreboard comes.
func TestQwixxOnePlayerNeverAnswers(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	users := []string{"u1", "u2"}
	board := h.openQwixx(users)
	clicks, timeouts, whiteTimeouts := 0, 0, 0
	for step := 0; ; step++ {
		require.Less(t, step, 2000, "the game does not end")
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		if r.Finished {
			break
		}
		g, _, _ := h.qstate()
		deciding := g.ToDecide()
		require.NotEmpty(t, deciding)
		if slices_contains(deciding, 0) {
			// u1 answers at once, on the clock's same instant.
			m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), 0, rand.New(rand.NewPCG(uint64(step), 7)))
			require.NoError(t, err)
			res := h.ClickOn("u1", board, h.qmust(board, verbMove, string(m)))
			require.Equal(t, discordgo.InteractionResponseUpdateMessage, res.Response().Type, "%s: %v", m, res.Texts())
			board = res.Shown(board)
			clicks++
			continue
		}
		// Only u2, who never answers, is waited for: nothing happens
		// before the deadline, then the clock decides for u2 alone.
		require.Equal(t, []int{1}, deciding)
		require.False(t, r.Due.IsZero(), "a game waiting for a person has a deadline")
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due.Add(-time.Second)))
		_, _, v := h.qstate()
		require.Equal(t, r.Version, v, "nothing happens before the deadline")
		before := g.Sheets[1]
		white := g.Phase == rules.PhaseWhite
		now = r.Due
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
		g2, _, v2 := h.qstate()
		require.Greater(t, v2, r.Version, "the deadline decides")
		timeouts++
		if white {
			// Whoever is active, the next decision is a colour sum whose
			// clock starts now: u2's sheet is as it was.
			whiteTimeouts++
			assert.Equal(t, before.Rows, g2.Sheets[1].Rows, "a white sum out of time marks nothing")
			assert.Equal(t, before.Penalties, g2.Sheets[1].Penalties, "a white sum out of time is never a penalty")
		}
	}
	t.Logf("%d clicks by the player who answers, %d decisions out of time (%d white sums)", clicks, timeouts, whiteTimeouts)
	assert.Positive(t, clicks)
	assert.Positive(t, whiteTimeouts, "the absent player's white sums ran out of time")
	assert.Greater(t, timeouts, whiteTimeouts, "the absent player's colour sums ran out of time")
	shown := h.Rec.Message(board.ID)
	assert.Contains(t, shown.Content, locales.T("en", "qwixx_over_title", nil))
	assert.Equal(t, []string{"qwixx:again:0"}, tabletest.ComponentIDs(shown.Components), "the scoreboard has only Rematch")
}
