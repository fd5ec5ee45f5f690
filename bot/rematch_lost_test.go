package bot

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/tabletest"
)

// A Rematch whose lobby was written but whose answer never went out (the
// process died in between) leaves no table nobody can see: the lobby is
// owed as a start's is, the due-work poller posts it once, and it works.
// A Rematch answered as it should owes nothing after its answer.
func TestRematchLobbyLostIsPosted(t *testing.T) {
	t.Parallel()
	for _, lost := range []bool{false, true} {
		h := newQwixxHarness(t, false)
		now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
		h.b.now = func() time.Time { return now }
		lobby := h.qcommand("u1", "start").Shown(nil)
		lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
		board := h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, "")).Shown(lobby)
		score := h.playOut(board, &now)
		before := len(lobbies(h, "qwixx"))

		if !lost {
			again := h.ClickOn("u2", score, rematchID).Shown(nil)
			require.NotNil(t, again)
			_, td, _ := h.qstate()
			assert.False(t, slices.ContainsFunc(td.Outbox, isLobbyOwed), "the answer was the lobby: nothing owed")
			continue
		}
		h.dieBeforeAnswering(func() { h.ClickOn("u2", score, rematchID) })
		require.Len(t, lobbies(h, "qwixx"), before, "no lobby shown")
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		require.Nil(t, r.Data, "the rematch's lobby is stored")
		require.False(t, r.Due.IsZero(), "the lobby is owed work")

		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due))
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due.Add(time.Hour)))
		ls := lobbies(h, "qwixx")
		require.Len(t, ls, before+1, "one lobby posted")
		again := ls[len(ls)-1]
		board2 := h.ClickOn("u2", again, h.qmust(again, verbGo, "")).Shown(again)
		g, td, _ := h.qstate()
		require.NotNil(t, g, "the rematch started")
		assert.NotEmpty(t, tabletest.ComponentIDs(board2.Components))
		assert.False(t, slices.ContainsFunc(td.Outbox, isLobbyOwed), "the lobby is no longer owed")
	}
}
