package dixxit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dixxit"
)

// scoredBy applies moves to g and returns the public view before the last
// one and the last one's events.
func scoredBy(t *testing.T, g *dixxit.Game, moves ...struct {
	seat int
	m    engine.Move
}) (dixxit.View, []dixxit.Event) {
	t.Helper()
	var prev dixxit.View
	var evs []engine.Event
	for _, m := range moves {
		prev = g.ViewOf(engine.Public)
		var err error
		evs, err = g.Apply(m.seat, m.m)
		require.NoError(t, err)
	}
	out := make([]dixxit.Event, len(evs))
	for i, e := range evs {
		out[i] = e.(dixxit.Event)
	}
	return prev, out
}

type mv = struct {
	seat int
	m    engine.Move
}

func TestScoredGrid(t *testing.T) {
	// game(t, 5): clue given, Dmitri on 2 (time 200), Bob on 7 (time 100);
	// the target is square 5.
	g := game(t, 5)
	card5 := g.ViewOf(engine.Public).Grid[4]
	prev, evs := scoredBy(t, g, mv{2, "f 5 150"})
	sg := ScoredGrid(prev, evs, names)
	assert.Equal(t, Square{Card: card5, Name: "Chloé", Found: true}, sg.Squares[4])
	assert.Equal(t, "Bob", sg.Squares[6].Name, "before the find: taken by the active player")
	assert.Empty(t, sg.Squares[1].Name, "after the find: never counts")
	assert.Zero(t, sg.Target)
	b, err := testRenderer.Render(sg)
	require.NoError(t, err)
	checkGolden(t, "grid_scored_found.png", b)

	// Not found: the last finger shows and the target is framed.
	g = game(t, 5)
	prev, evs = scoredBy(t, g, mv{2, "f 3"}, mv{4, "f 9"})
	sg = ScoredGrid(prev, evs, names)
	assert.Equal(t, 5, sg.Target)
	assert.Equal(t, "Eve", sg.Squares[8].Name)
	assert.Equal(t, "Chloé", sg.Squares[2].Name)
	assert.False(t, sg.Squares[8].Found)
}

// The grid of the turn scored the engine keeps (View.Last) is the grid
// drawn from the move that scored it, found or not.
func TestLastGridIsTheScoredGrid(t *testing.T) {
	for _, moves := range [][]mv{{{2, "f 5 150"}}, {{2, "f 3"}, {4, "f 9"}}} {
		g := game(t, 5)
		prev, evs := scoredBy(t, g, moves...)
		last := g.ViewOf(engine.Public).Last
		require.NotNil(t, last)
		assert.Equal(t, ScoredGrid(prev, evs, names), LastGrid(*last, names))
	}
}
