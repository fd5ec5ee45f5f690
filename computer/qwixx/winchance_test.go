package qwixx

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/qwixx"
)

// TestWinModelsMatchTheHorizons: a table size whose rollouts stop short
// of the end has a model to read them, and one without a model plays its
// rollouts to the end.
func TestWinModelsMatchTheHorizons(t *testing.T) {
	for n := range qwixx.MaxPlayers + 1 {
		if searchHorizon[n] > 0 {
			require.NotNil(t, winModels[n], "%d seats: rollouts of %d rolls need a model", n, searchHorizon[n])
			require.NotNil(t, winModelOf(n))
		} else {
			assert.Nil(t, winModelOf(n), "%d seats: rollouts to the end", n)
		}
	}
}

// midGame returns a game of players played by the normal level for rolls
// rolls, from seed.
func midGame(t testing.TB, players int, seed int64, rolls int) *qwixx.Game {
	t.Helper()
	g, err := qwixx.New(qwixx.Options{Players: players, Seed: seed, First: 0})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(uint64(seed), 1))
	for !g.Over() && g.Turn <= rolls {
		for _, seat := range g.ToDecide() {
			a, err := Decide(g, seat, Normal, r)
			require.NoError(t, err)
			_, err = g.Apply(seat, a)
			require.NoError(t, err)
		}
	}
	require.False(t, g.Over())
	return g
}

// TestWinChanceReadsTheSheets: the models' chance (the logistic models'
// and the value networks') lies strictly between 0 and 1, and grows with
// the seat's points, all else equal, and falls as those of the best placed
// other seat grow.
func TestWinChanceReadsTheSheets(t *testing.T) {
	for n := range qwixx.MaxPlayers + 1 {
		var models []chanceModel
		if m := winModelOf(n); m != nil {
			models = append(models, m)
		}
		if net := valueNetOf(n); net != nil {
			models = append(models, net)
		}
		for _, m := range models {
			chanceReadsTheSheets(t, n, m)
		}
	}
}

// chanceReadsTheSheets checks TestWinChanceReadsTheSheets of m at n seats.
func chanceReadsTheSheets(t *testing.T, n int, m chanceModel) {
	for _, rolls := range []int{2, 10, 18} {
		g := midGame(t, n, int64(100*n+rolls), rolls)
		sg := newSimGame(g, 0, g.Sheets)
		p := m.chance(&sg)
		assert.Greater(t, p, 0.0)
		assert.Less(t, p, 1.0)
		ahead := sg
		ahead.seats[0].score += 10
		assert.Greater(t, m.chance(&ahead), p, "%d seats, roll %d: ten points more, a better chance", n, rolls)
		lead := 1 // the other seat with the most points
		for s := 2; s < n; s++ {
			if sg.seats[s].score > sg.seats[lead].score {
				lead = s
			}
		}
		behind := sg
		behind.seats[lead].score += 20
		assert.Less(t, m.chance(&behind), p, "%d seats, roll %d: the leader of the others twenty points further ahead, a worse chance", n, rolls)
	}
}

// TestRolloutsStopAtTheHorizon: a rollout with a horizon plays that many
// rolls at most and, when the game goes on, returns the model's chance
// of the sheets where it stopped; without one it plays to the end and
// returns 1 or 0.
func TestRolloutsStopAtTheHorizon(t *testing.T) {
	g := midGame(t, 3, 7, 4)
	m := &winModel{0.5, 1} // any weights: the rollout returns what they read
	read, ended := 0, 0
	for seed := range uint64(50) {
		sg := newSimGame(g, 0, g.Sheets)
		w, rolls := sg.playOutTo(rand.New(rand.NewPCG(seed, 0)), 3, m)
		require.LessOrEqual(t, rolls, 3)
		if w != 0 && w != 1 {
			read++
			assert.Equal(t, 3, rolls, "a rollout read by the model went to its horizon")
			assert.InDelta(t, m.chance(&sg), w, 1e-12, "the chance of the sheets after three rolls")
		}

		end := newSimGame(g, 0, g.Sheets)
		w, rolls = end.playOutTo(rand.New(rand.NewPCG(seed, 0)), 0, m)
		assert.Contains(t, []float64{0, 1}, w, "to the end of the game: won or not")
		if rolls > 3 {
			ended++
		}
	}
	assert.Greater(t, read, 40, "most rollouts of three rolls from roll 4 are read by the model")
	assert.Greater(t, ended, 40, "most rollouts to the end go past three rolls")
}

// TestFitWinModelFitsItsGames: the fit of a few games gives finite
// weights that read those positions better than a coin, and bad
// arguments are refused.
func TestFitWinModelFitsItsGames(t *testing.T) {
	w, ll, positions, err := FitWinModel(3, 6, 500)
	require.NoError(t, err)
	assert.Greater(t, positions, 6*10, "a position at every roll")
	assert.Less(t, ll, math.Ln2, "better than a coin on its own positions")
	for _, v := range w {
		assert.False(t, math.IsNaN(v) || math.IsInf(v, 0))
	}
	for _, bad := range [][2]int{{1, 5}, {6, 5}, {3, 0}} {
		_, _, _, err := FitWinModel(bad[0], bad[1], 1)
		assert.Error(t, err, "players %d, games %d", bad[0], bad[1])
	}
}
