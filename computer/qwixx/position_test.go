package qwixx

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/qwixx"
)

// TestPositionFollowsTheEngine plays random games and checks, for every
// decision of every deciding seat, that the player's own model of a sheet
// (positionOf, mark, penalty) gives the engine's sheet and the engine's
// score (§7) after the engine applied it.
func TestPositionFollowsTheEngine(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	checked := 0
	for seed := range int64(60) {
		g, err := qwixx.New(qwixx.Options{Players: 1 + int(seed%5), Seed: seed, First: -1, Solitaire: seed%5 == 0})
		require.NoError(t, err)
		for !g.Over() {
			seats := g.ToDecide()
			for _, seat := range seats {
				for _, a := range g.LegalActions(seat) {
					h := g.Clone()
					before := h.Sheets[seat].Score()
					p := positionOf(h, seat)
					_, err := h.Apply(seat, a)
					require.NoError(t, err)
					want, pts := p, 0.0
					switch {
					case !a.Pass:
						var ok bool
						want, pts, ok = p.mark(a.Color, a.Number)
						require.True(t, ok, "%s", a)
					case a.Kind == qwixx.ActColour:
						if _, marked := g.Choices[seat].Marked(); !marked {
							want, pts = p.penalty()
						}
					}
					got := positionOf(h, seat)
					if h.Phase == qwixx.PhaseWhite && h.Turn == g.Turn {
						// Action 1 still open: only this seat's own lock shows.
						assert.Equal(t, want, got, "%s on %v", a, g.Dice)
					} else {
						// Action 1 closed or turn over: others' locks are in too.
						for c := range 4 {
							if got.Rows[c] != rowClosed {
								assert.Equal(t, want.Rows[c], got.Rows[c], "%s row %d", a, c)
							}
						}
						assert.Equal(t, want.Penalties, got.Penalties)
					}
					assert.Equal(t, float64(h.Sheets[seat].Score()-before), pts, "%s", a)
					checked++
				}
			}
			// Go on with a random decision for every seat.
			for _, seat := range seats {
				acts := g.LegalActions(seat)
				_, err := g.Apply(seat, acts[r.IntN(len(acts))])
				require.NoError(t, err)
				if g.Over() {
					break
				}
			}
		}
	}
	assert.Greater(t, checked, 2000)
}
