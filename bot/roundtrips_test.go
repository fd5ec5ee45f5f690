package bot

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/store"
)

// TestRedisRoundTripsPerClick: on Redis, a click on the board that draws a
// card, within a turn, costs two round trips: its change (the record, its
// interaction id and the due index in one script) and the record of its
// effects done. Neither the computer players' foresight nor the effects
// read the record again: they start from the one this process wrote.
func TestRedisRoundTripsPerClick(t *testing.T) {
	rs, err := store.OpenRedis(context.Background(), store.Options{URL: redistest.Start(t).URL(), Prefix: fmt.Sprintf("rt%d:", time.Now().UnixNano())})
	require.NoError(t, err)
	t.Cleanup(func() { rs.Close() })
	h := newHarnessOn(t, rs)
	h.startGame("u1", "u2")
	measured := 0
	for n := 0; n < 20 && measured < 3; n++ {
		rec, m := h.record()
		g := rec.State
		if g.Phase != dix.PhaseDraw || !slices.Contains(g.Choices(g.ToAct()).Actions, dix.ActDraw) {
			break
		}
		board := h.board()
		user := m.Seats[g.ToAct()].ID
		_, before := rs.Sent()
		h.clickOn(user, board, h.mustFind(board, verbDraw))
		_, after := rs.Sent()
		rec, m2 := h.record()
		require.Greater(t, rec.State.Seq, g.Seq, "the click changed the game")
		if m2.Turn != m.Turn {
			continue // the turn ended: its log is written too
		}
		measured++
		assert.Equal(t, uint64(2), after-before, "round trips of click %d", n)
	}
	assert.Positive(t, measured, "no click within a turn")
}
