package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/locales"
)

// The white-sum buttons keep their custom ids for the whole of a roll's
// action 1: another player's decision redraws the board, and a click on
// the button as it was before that redraw is still the same button
// (present.Game.SteadyButtons), so people deciding at once do not take
// each other's buttons away. A new
// roll's buttons are new, and those of the roll before are stale.
func TestQwixxWhiteButtonsStableWithinARoll(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	users := []string{"u1", "u2", "u3"}
	board := h.openQwixx(users)
	g, _, _ := h.qstate()
	require.Equal(t, rules.PhaseWhite, g.Phase)
	deciding := g.ToDecide()
	require.GreaterOrEqual(t, len(deciding), 2)
	before := h.qmust(board, verbMove, "w -")
	first, second := deciding[0], deciding[1]
	if first == g.Active {
		first, second = second, first
	}
	board = h.ClickOn(users[first], board, before).Shown(board)
	after, ok := qfind(board, verbMove, "w -")
	require.True(t, ok)
	assert.Equal(t, before, after, "the Pass button after another's decision")
	res := h.ClickOn(users[second], board, before)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, res.Response().Type, "%v", res.Texts())

	// Everyone decides: the next roll's buttons are new; the old ones stale.
	for {
		g, _, _ = h.qstate()
		if g.Turn > 1 && g.Phase == rules.PhaseWhite {
			break
		}
		s := g.ToDecide()[0]
		arg := "w -"
		if g.Phase == rules.PhaseColour {
			arg = "c -"
		}
		board = h.ClickOn(users[s], board, h.qmust(board, verbMove, arg)).Shown(board)
	}
	next := h.qmust(board, verbMove, "w -")
	assert.NotEqual(t, before, next, "a new roll has new buttons")
	stale := h.ClickOn(users[g.ToDecide()[0]], board, before)
	assert.Contains(t, stale.Texts(), locales.T("en", "err_stale", nil), "a button of the roll before is stale")
}
