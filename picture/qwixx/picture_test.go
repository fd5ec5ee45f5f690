package qwixx

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/picturetest"
)

var names5 = []string{"Alice", "Bob", "Chloé", "Dmitri", "Eleonora Verylongname"}

// playUntil plays a game of players from seed until stop says so or the
// game ends: each seat marks the number that skips the fewest cells when
// it skips at most two (the active seat in action 2, with no mark yet this
// turn, takes any mark rather than a penalty), and passes otherwise; one
// decision in six is random.
func playUntil(t testing.TB, players int, seed int64, stop func(g *rules.Game) bool) *rules.Game {
	t.Helper()
	g, err := rules.New(rules.Options{Players: players, Solitaire: players == 1, Seed: seed, First: 0})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(uint64(seed), 5))
	for !g.Over() && !stop(g) {
		seats := g.ToDecide()
		seat := seats[r.IntN(len(seats))]
		l := g.LegalActions(seat)
		a := l[len(l)-1] // the pass
		best := 99
		for _, x := range l[:len(l)-1] {
			row := g.Sheets[seat].Rows[x.Color]
			if skip := rules.Pos(x.Color, x.Number) - row.Right() - 1; skip < best {
				best, a = skip, x
			}
		}
		_, marked := g.Choices[seat].Marked()
		desperate := g.Phase == rules.PhaseColour && !marked
		if best > 2 && !desperate {
			a = l[len(l)-1]
		}
		if r.IntN(6) == 0 {
			a = l[r.IntN(len(l))]
		}
		_, err := g.Apply(seat, a)
		require.NoError(t, err)
	}
	return g
}

// lateWithALock stops in action 1 of a roll once a row is locked and a
// seat has decided, so the picture shows a removed die, a lock, a
// decision made and seats still deciding.
func lateWithALock(g *rules.Game) bool {
	decided := 0
	for _, c := range g.Choices {
		if c != rules.ChoiceNone {
			decided++
		}
	}
	return g.LockCount() == 1 && g.Phase == rules.PhaseWhite && decided == 1
}

func TestBoardGolden(t *testing.T) {
	cases := []struct {
		name    string
		players int
		seed    int64
		stop    func(g *rules.Game) bool
		marks   []picture.Mark
		labels  Labels
	}{
		{"board_2p.png", 2, 1, func(g *rules.Game) bool { return g.Turn == 12 && g.Phase == rules.PhaseColour }, nil, Labels{Score: "score"}},
		{"board_5p.png", 5, 1, lateWithALock, []picture.Mark{picture.MarkNone, picture.MarkComputer, picture.MarkNone, picture.MarkAway}, Labels{}},
		{"board_5p_over.png", 5, 4, func(*rules.Game) bool { return false }, nil, Labels{Score: "points"}},
		{"board_solitaire.png", 1, 4, func(g *rules.Game) bool { return g.Turn == 15 }, nil, Labels{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := playUntil(t, tc.players, tc.seed, tc.stop)
			require.Equal(t, tc.name == "board_5p_over.png", g.Over(), "the position drawn")
			got, err := RenderBoard(Board{View: g.View(-1), Names: names5[:tc.players], Marks: tc.marks, Labels: tc.labels})
			require.NoError(t, err)
			assert.LessOrEqual(t, len(got), 80<<10, "PNG size")
			t.Logf("%s: %d bytes", tc.name, len(got))
			picturetest.Golden(t, tc.name, got)
		})
	}
}

func TestBoardBadInput(t *testing.T) {
	g := playUntil(t, 3, 1, func(g *rules.Game) bool { return g.Turn == 5 })
	cases := []struct {
		name string
		edit func(v *rules.View)
	}{
		{"no sheets", func(v *rules.View) { v.Sheets = nil }},
		{"six sheets", func(v *rules.View) { v.Sheets = append(v.Sheets, v.Sheets...) }},
		{"a die showing 9", func(v *rules.View) { v.Dice[rules.W2] = 9 }},
		{"five penalties", func(v *rules.View) { v.Sheets[1].Penalties = 5 }},
		{"mark 13", func(v *rules.View) { v.Sheets[0].Rows[rules.Red].Marks = []int{13} }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := g.View(-1)
			tc.edit(&v)
			_, err := RenderBoard(Board{View: v})
			assert.ErrorIs(t, err, ErrBadInput)
		})
	}
}

// TestBoardDrawsEveryState checks that the picture changes with what it
// must show: a mark, a penalty, a removed die.
func TestBoardDrawsEveryState(t *testing.T) {
	g := playUntil(t, 2, 7, func(g *rules.Game) bool { return g.Turn == 3 })
	base := g.View(-1)
	render := func(v rules.View) []byte {
		b, err := RenderBoard(Board{View: v, Names: names5[:2]})
		require.NoError(t, err)
		return b
	}
	ref := render(base)
	edits := map[string]func(v *rules.View){
		"mark": func(v *rules.View) {
			v.Sheets[1].Rows[rules.Blue].Marks = append(v.Sheets[1].Rows[rules.Blue].Marks, 2)
		},
		"penalty":     func(v *rules.View) { v.Sheets[0].Penalties++ },
		"removed die": func(v *rules.View) { v.Removed[rules.Green] = true },
		"deciding":    func(v *rules.View) { v.Sheets[1].Deciding = !v.Sheets[1].Deciding },
	}
	for name, edit := range edits {
		v := g.View(-1)
		edit(&v)
		assert.NotEqual(t, ref, render(v), name)
	}
}

// TestNamesDrawable: every rune drawn has a glyph in the embedded fonts.
func TestNamesDrawable(t *testing.T) {
	g := playUntil(t, 3, 1, func(g *rules.Game) bool { return g.Turn == 2 })
	_, err := RenderBoard(Board{View: g.View(-1), Names: []string{"Zoë 🎲", "李", "Ørjan"}})
	require.NoError(t, err)
	for r := range picture.DrawnRunes() {
		assert.True(t, picture.HasGlyph(r), "rune %q drawn without a glyph", r)
	}
}

func TestScoreboardGolden(t *testing.T) {
	g := playUntil(t, 4, 4, func(*rules.Game) bool { return false })
	require.True(t, g.Over())
	got, err := RenderScoreboard(Scoreboard{View: g.View(-1), Names: names5[:4], Marks: []picture.Mark{picture.MarkComputer}, Labels: Labels{Score: "score"}})
	require.NoError(t, err)
	assert.LessOrEqual(t, len(got), 80<<10, "PNG size")
	picturetest.Golden(t, "scoreboard_4p.png", got)
}

func TestScoreboardNeedsResults(t *testing.T) {
	g := playUntil(t, 3, 1, func(g *rules.Game) bool { return g.Turn == 4 })
	_, err := RenderScoreboard(Scoreboard{View: g.View(-1)})
	assert.ErrorIs(t, err, ErrBadInput)
	g = playUntil(t, 3, 1, func(*rules.Game) bool { return false })
	v := g.View(-1)
	v.Results[0].Seat = 7
	_, err = RenderScoreboard(Scoreboard{View: v})
	assert.ErrorIs(t, err, ErrBadInput)
}
