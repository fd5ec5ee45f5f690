package dixxit

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/picture"
)

// finished plays a game of players to its end: every clue "x", every
// guesser on the lowest free square, seat 1 out of time on even turns.
func finished(t *testing.T, players int, seed int64) *dixxit.Game {
	t.Helper()
	s, err := dixxit.Rules{}.New(engine.Setup{Players: players, Seed: seed, First: 0})
	require.NoError(t, err)
	g := s.(*dixxit.Game)
	for n := 0; !g.Over(); n++ {
		require.Less(t, n, 10000)
		seats := g.ToDecide()
		v := g.ViewOf(engine.Public)
		if v.Phase == "clue" {
			_, err := g.Apply(seats[0], "clue x")
			require.NoError(t, err)
			continue
		}
		if seats[0] == 1 && v.Turn%2 == 0 {
			_, err := g.Apply(1, "out")
			require.NoError(t, err)
			continue
		}
		for sq := 1; sq <= 9; sq++ {
			if _, err := g.Apply(seats[0], engine.Move(fmt.Sprintf("f %d", sq))); err == nil {
				break
			}
		}
	}
	return g
}

func TestScoreboardGolden(t *testing.T) {
	r := testRenderer
	g := finished(t, 5, 2)
	// Seat 3 is the computer's, seat 4 an absent player's: a robot and a
	// moon before their names, as every game's pictures draw them.
	marks := []picture.Mark{picture.MarkNone, picture.MarkNone, picture.MarkNone, picture.MarkComputer, picture.MarkAway}
	rows := HoldingsOf(g.ViewOf(engine.Public), names, marks)
	require.Len(t, rows, 5)
	b, err := r.Scoreboard(rows)
	require.NoError(t, err)
	checkGolden(t, "scoreboard_5p.png", b)
	assert.LessOrEqual(t, len(b), 200<<10)
}

func TestHoldingsOf(t *testing.T) {
	g := finished(t, 3, 1)
	v := g.ViewOf(engine.Public)
	marks := []picture.Mark{picture.MarkNone, picture.MarkComputer, picture.MarkAway}
	rows := HoldingsOf(v, []string{"Ann", "Bob"}, marks)
	require.Len(t, rows, 3)
	for i, res := range v.Results {
		assert.Equal(t, res.Score, len(rows[i].Cards), "row %d", i)
		assert.Equal(t, res.Rank, rows[i].Rank, "row %d", i)
		assert.Equal(t, res.Rank == 1, rows[i].Winner, "row %d", i)
		assert.Equal(t, marks[res.Seat], rows[i].Mark, "row %d: seat %d's mark", i, res.Seat)
	}
	assert.True(t, rows[0].Winner)
	// A game still going: seat order, no winner.
	s, err := dixxit.Rules{}.New(engine.Setup{Players: 4, Seed: 1, First: 0})
	require.NoError(t, err)
	rows = HoldingsOf(s.View(engine.Public).(dixxit.View), []string{"Ann", "Bob"}, nil)
	require.Len(t, rows, 4)
	assert.Equal(t, []string{"Ann", "Bob", "?", "?"}, []string{rows[0].Name, rows[1].Name, rows[2].Name, rows[3].Name})
	assert.False(t, rows[0].Winner)
	assert.Zero(t, rows[0].Rank, "no rank before the end")
	assert.Equal(t, picture.MarkNone, rows[3].Mark, "no mark given")
	b, err := testRenderer.Scoreboard(rows)
	require.NoError(t, err)
	assert.NotEmpty(t, b)
}
