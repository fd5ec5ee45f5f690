package bot

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dixgame/dixbot/locales"
)

// On a DIX board, a seated player whose decision it is not is told whose
// it is, by the prompt's button as by a move's; a move DIX does not read
// (a forged button) is refused as a button not recognised; neither
// changes the game.
func TestDixRefusalsSayWhoseDecisionAndForgedMoves(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 3, false)
	h.Names["u1"], h.Names["u2"] = "Ann", "Bob"
	board := h.openGame("dix", []string{"u1", "u2"}, nil)
	g, td, before, _ := h.dixNow()
	to := td.Seats[g.ToAct()]
	waiting := td.Seats[1-g.ToAct()].User
	want := locales.T("en", "dix_err_not_your_turn", map[string]any{"Name": to.Name})

	pr := buttonID("dix", verbPrompt, uint64(g.Seq), "")
	assert.Equal(t, want, h.ClickOn(waiting, board, pr).EphemeralText(), "the prompt's button")
	assert.Equal(t, want, h.ClickOn(waiting, board, h.dixMust(board, verbMove, "draw")).EphemeralText(), "a move's button")
	for _, m := range []string{"bid abc", "zz", "draw now"} {
		id := buttonID("dix", verbMove, uint64(g.Seq), m)
		assert.Equal(t, locales.T("en", "err_bad_custom_id", nil), h.ClickOn(to.User, board, id).EphemeralText(), m)
	}
	_, _, after, _ := h.dixNow()
	assert.Equal(t, before, after, "nothing changed")
}
