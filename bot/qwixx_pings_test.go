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
)

// qwixxPingsPerRoll plays a 4-person game by clicks, every click gap
// after the one before, and returns the people notified per player per
// roll (the pings' mentions summed over the game) and the rolls.
func qwixxPingsPerRoll(t *testing.T, gap time.Duration, seed uint64) (float64, int) {
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	users := []string{"u1", "u2", "u3", "u4"}
	board := h.openQwixx(users)
	rng := rand.New(rand.NewPCG(seed, 9))
	turns := 0
	for step := 0; ; step++ {
		require.Less(t, step, 2000, "the game does not end")
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		g, _, _ := h.qstate()
		turns = max(turns, g.Turn)
		if r.Finished {
			break
		}
		deciding := g.ToDecide()
		seat := deciding[rng.IntN(len(deciding))]
		m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rng)
		require.NoError(t, err)
		now = now.Add(gap)
		res := h.ClickOn(users[seat], board, h.qmust(board, verbMove, string(m)))
		require.Equal(t, discordgo.InteractionResponseUpdateMessage, res.Response().Type, "%s: %v", m, res.Texts())
		board = res.Shown(board)
	}
	notified := 0
	for _, c := range h.Rec.Since(0) {
		if c.Op == "followup" && c.Params != nil && c.Params.AllowedMentions != nil {
			notified += len(c.Params.AllowedMentions.Users)
		}
	}
	return float64(notified) / float64(len(users)*turns), turns
}

// Pings per player per roll in 4-person Qwixx games: at most one on
// average (reminders apart) whether people click within seconds of each
// other, or each click comes two minutes after the one before, so that
// nobody counts as at the board.
func TestQwixxPingsPerPlayerPerRoll(t *testing.T) {
	t.Parallel()
	for _, gap := range []time.Duration{3 * time.Second, 2 * time.Minute} {
		total, rolls := 0.0, 0
		for seed := range uint64(3) {
			per, n := qwixxPingsPerRoll(t, gap, seed)
			total += per * float64(n)
			rolls += n
		}
		per := total / float64(rolls)
		t.Logf("clicks %v apart: %d rolls, %.3f notifications per player per roll", gap, rolls, per)
		assert.LessOrEqual(t, per, 1.0, "clicks %v apart", gap)
	}
}
