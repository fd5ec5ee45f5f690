package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/locales"
)

// Outdated clicks on a board that shows the game as it stands (a player
// clicking Draw again and again, others clicking it too) are each told
// so privately in the answer itself: no redraw of the board, no
// follow-up, which would spend the channel's webhook messages.
func TestStaleClicksOnACurrentBoardCostNoRequest(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 3, false)
	board := h.openGame("dix", []string{"u1", "u2"}, nil)
	g, td, _, _ := h.dixNow()
	active := td.Seats[g.ToAct()].User
	draw := h.dixMust(board, verbMove, "draw")
	old := *board
	board = h.ClickOn(active, board, draw).Shown(board)
	after, _, _, _ := h.dixNow()
	require.Equal(t, g.Seq+1, after.Seq, "the draw applied")

	for i, u := range []string{active, active, td.Seats[1-g.ToAct()].User} {
		res := h.ClickOn(u, &old, draw)
		require.Len(t, res.Calls, 1, "one request, the answer: %s", res.Describe())
		resp := res.Response()
		assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type)
		assert.NotZero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral)
		if i < 2 {
			assert.Contains(t, resp.Data.Content, locales.T("en", "err_stale", nil))
		}
	}
	now, _, _, _ := h.dixNow()
	assert.Equal(t, after.Seq, now.Seq, "nothing applied")
}
