package dix

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPlayManyGames(t *testing.T) {
	for players := 1; players <= 5; players++ {
		for seed := int64(0); seed < 200; seed++ {
			opts := Options{Players: players, Seed: seed, FirstPlayer: -1, BustVariant: seed%3 == 0}
			if players == 1 {
				opts.Difficulty = 4 + int(seed%7)
			}
			g, err := New(opts)
			require.NoError(t, err)
			require.NoError(t, g.Check())
			r := rand.New(rand.NewPCG(uint64(seed), 7))
			pol := []Policy{RandomPolicy, SimplePolicy}
			if seed%2 == 0 {
				pol = []Policy{SimplePolicy, RandomPolicy}
			}
			_, err = Play(g, pol, r, true)
			require.NoError(t, err, "players %d seed %d", players, seed)
			b, err := g.MarshalBinary()
			require.NoError(t, err)
			var g2 Game
			require.NoError(t, g2.UnmarshalBinary(b))
			b2, _ := g2.MarshalBinary()
			require.Equal(t, b, b2)
		}
	}
}
