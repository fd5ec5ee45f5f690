package dixtable

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	computer "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
)

// A game of one person and two computer players: the computer players'
// turns a click leads to are decided before the click's store update, not
// inside it (where their thinking would eat the store's deadline), and the
// game plays to its end exactly as when they are decided inside it.
func TestComputerTurnsDecidedOutsideTheStoreUpdate(t *testing.T) {
	// Not parallel: it replaces the package's computer player.
	play := func(memo bool) (*dixbot.Record, int, int) {
		ws := &tabletest.WatchedStore{Store: tabletest.NewMemStore()}
		h := newHarnessOn(t, ws)
		var inside, outside atomic.Int32
		cpuDecide = func(g *dix.Game, seat int, lvl computer.Level, r *rand.Rand) dix.Action {
			if ws.Inside.Load() > 0 {
				inside.Add(1)
			} else {
				outside.Add(1)
			}
			return computer.Decide(g, seat, lvl, r)
		}
		t.Cleanup(func() { cpuDecide = computer.Decide })
		if !memo {
			foreseeOff = true
			t.Cleanup(func() { foreseeOff = false })
		}
		lobby := h.Command("u1", "start").Shown(nil)
		h.ClickOn("u1", lobby, h.MustFind(lobby, verbAddCPU), "strong")
		h.ClickOn("u1", lobby, h.MustFind(lobby, verbAddCPU), "normal")
		h.ClickOn("u1", lobby, h.MustFind(lobby, verbGo))
		inside.Store(0)
		outside.Store(0)
		playToEnd(t, h, 7)
		rec, err := ws.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		require.True(t, rec.Finished)
		foreseeOff = false
		return rec, int(inside.Load()), int(outside.Load())
	}
	with, in, out := play(true)
	assert.Zero(t, in, "no computer decision inside a store update")
	assert.Positive(t, out, "the computer players played")
	without, in, _ := play(false)
	assert.Positive(t, in, "decided inside the update without the memo")
	assert.Equal(t, dix.GameOf(without.State).Players, dix.GameOf(with.State).Players, "the same game either way")
}
