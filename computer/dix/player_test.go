package dix_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	computer "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/engine/enginetest"
)

// TestPlayerConformance plays solo and 2–5 player games through the engine
// contract alone with the computer player deciding every seat.
func TestPlayerConformance(t *testing.T) {
	setups := []engine.Setup{{Players: 1, Seed: 7, First: -1, Options: map[string]string{dix.OptDifficulty: "6"}}}
	for players := 2; players <= 5; players++ {
		setups = append(setups, engine.Setup{Players: players, Seed: 7, First: -1, Options: map[string]string{dix.OptBust: "on"}})
	}
	t.Run("easy", func(t *testing.T) { // solo, 3 and 5 players
		easy := []engine.Setup{setups[0], setups[2], setups[4]}
		enginetest.Run(t, enginetest.Config{Game: dix.Rules{}, Setups: easy, Seeds: 1, Player: computer.Player{Level: computer.Easy}})
	})
	t.Run("strong", func(t *testing.T) { // solo and 2 players
		enginetest.Run(t, enginetest.Config{Game: dix.Rules{}, Setups: setups[:2], Seeds: 1, Player: computer.Player{Level: computer.Strong}})
	})
}

func TestPlayerMatchesDecide(t *testing.T) {
	st, err := dix.Rules{}.New(engine.Setup{Players: 3, Seed: 11, First: 0})
	require.NoError(t, err)
	g := st.(dix.State).Game()
	m, err := computer.Player{Level: computer.Normal}.Decide(st, 0, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	assert.Equal(t, dix.FormatMove(computer.Decide(g, 0, computer.Normal, rand.New(rand.NewPCG(1, 1)))), m)

	_, err = computer.Player{Level: computer.Normal}.Decide(st, 1, rand.New(rand.NewPCG(1, 1)))
	assert.ErrorIs(t, err, engine.ErrNotYourTurn)
	_, err = computer.Player{}.Timeout(notDix{st}, 0, rand.New(rand.NewPCG(1, 1)))
	assert.ErrorIs(t, err, engine.ErrWrongGame)
}

// notDix is a state of some other game.
type notDix struct{ engine.State }
