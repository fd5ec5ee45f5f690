package qwixx

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/qwixx"
)

// rowOf returns a row of colour c with the given numbers marked.
func rowOf(c qwixx.Color, numbers ...int) qwixx.Row {
	var r qwixx.Row
	for _, n := range numbers {
		r = r.Mark(qwixx.Pos(c, n))
	}
	return r
}

// colourPhase returns a game of three seats where seat 0, active, passed
// on the white sum of dice (every other seat passed too) and decides its
// colour sum, with the sheets given.
func colourPhase(t *testing.T, dice qwixx.Roll, sheets ...qwixx.Sheet) *qwixx.Game {
	t.Helper()
	g, err := qwixx.New(qwixx.Options{Players: len(sheets), Seed: 1, First: 0})
	require.NoError(t, err)
	copy(g.Sheets, sheets)
	for c := range g.Locked {
		g.Locked[c] = dice[qwixx.DieOf(qwixx.Color(c))] == 0
	}
	g.Dice = dice
	g.Phase = qwixx.PhaseColour
	for s := range g.Choices {
		g.Choices[s] = qwixx.ChoicePass
	}
	return g
}

// TestStrongTakesTheFourthPenaltyThatWins: ahead, with three penalties,
// the strong level passes on purpose (§6: its fourth penalty ends the game
// with it first); behind, it marks and plays on. Points alone would mark.
func TestStrongTakesTheFourthPenaltyThatWins(t *testing.T) {
	dice := qwixx.Roll{1, 2, 3, 4, 5, 6}                                                    // yellow 5 = W1 + y4, among others
	me := qwixx.Sheet{Rows: [4]qwixx.Row{rowOf(qwixx.Red, 2, 3, 4, 5, 6, 7)}, Penalties: 3} // 21 − 15 = 6 points
	g := colourPhase(t, dice, me, qwixx.Sheet{}, qwixx.Sheet{})
	pass := qwixx.Action{Kind: qwixx.ActColour, Pass: true}
	byPoints, ok := bestOption(g, 0, strongFuture(g, 0))
	require.True(t, ok)
	require.NotEqual(t, pass, byPoints, "by points, a mark")
	a, err := Decide(g, 0, Strong, nil)
	require.NoError(t, err)
	assert.Equal(t, pass, a, "1 point against 0 and 0: the game ends won")

	behind := qwixx.Sheet{Rows: [4]qwixx.Row{rowOf(qwixx.Blue, 12, 11, 10, 9, 8)}} // 15 points
	g = colourPhase(t, dice, me, behind, qwixx.Sheet{})
	a, err = Decide(g, 0, Strong, nil)
	require.NoError(t, err)
	assert.False(t, a.Pass, "a fourth penalty would end the game lost: %s", a)
}

// TestStrongLocksTheSecondRowOnlyToWin: with a row locked already, a lock
// ends the game (§6); the strong level takes it when it leaves it first
// and leaves it when it leaves it behind.
func TestStrongLocksTheSecondRowOnlyToWin(t *testing.T) {
	dice := qwixx.Roll{6, 1, 1, 6, 0, 3} // green locked; yellow 12 = W1 + y6
	lock := qwixx.Action{Kind: qwixx.ActColour, Color: qwixx.Yellow, Number: 12}
	me := qwixx.Sheet{Rows: [4]qwixx.Row{qwixx.Red: rowOf(qwixx.Red, 2), qwixx.Yellow: rowOf(qwixx.Yellow, 2, 3, 4, 5, 6)}} // 1 + 15, the lock +13
	winning := colourPhase(t, dice, me, qwixx.Sheet{Rows: [4]qwixx.Row{rowOf(qwixx.Red, 2, 3, 4, 5, 6, 7)}}, qwixx.Sheet{}) // 21
	a, err := Decide(winning, 0, Strong, nil)
	require.NoError(t, err)
	assert.Equal(t, lock, a, "29 points against 21: the lock ends the game won")

	losing := colourPhase(t, dice, me, qwixx.Sheet{Rows: [4]qwixx.Row{rowOf(qwixx.Red, 2, 3, 4, 5, 6, 7, 8, 9)}}, qwixx.Sheet{}) // 36
	a, err = Decide(losing, 0, Strong, nil)
	require.NoError(t, err)
	assert.NotEqual(t, lock, a, "29 points against 36: the lock would end the game lost")
}

// TestPublicSheetsHideTheWhiteSumUnderWay: during action 1 the marks of
// the seats that decided are not seen (decisions are simultaneous); they
// are once action 1 is over.
func TestPublicSheetsHideTheWhiteSumUnderWay(t *testing.T) {
	g, err := qwixx.New(qwixx.Options{Players: 3, Seed: 4, First: 0})
	require.NoError(t, err)
	before := append([]qwixx.Sheet(nil), g.Sheets...)
	legal := g.LegalActions(1)
	require.Greater(t, len(legal), 1)
	_, err = g.Apply(1, legal[0])
	require.NoError(t, err)
	require.NotEqual(t, before, g.Sheets)
	assert.Equal(t, before, publicSheets(g, nil))
	for _, s := range g.ToDecide() {
		_, err = g.Apply(s, qwixx.Action{Kind: qwixx.ActWhite, Pass: true})
		require.NoError(t, err)
	}
	assert.Equal(t, g.Sheets, publicSheets(g, nil))
}

// TestEndSearchOnLateGames plays games of three and four strong seats and
// checks, at every decision once the end is near, that the search weighs
// several decisions, all legal, the points' best among them, with
// chances of winning between 0 and 1, that Options carries them, and that
// a seat's decision on the white sum does not change once others made
// theirs (decisions are simultaneous, and not seen before action 1 ends).
func TestEndSearchOnLateGames(t *testing.T) {
	searched, afterOthers := 0, 0
	for seed := int64(1); seed <= 3; seed++ {
		g, err := qwixx.New(qwixx.Options{Players: 3 + int(seed%2), Seed: seed, First: -1})
		require.NoError(t, err)
		for !g.Over() {
			// Every seat's decision on the white sum before any is made:
			// the others' decisions under way must not change it.
			first := map[int]qwixx.Action{}
			if g.Phase == qwixx.PhaseWhite && EndNear(g) {
				for _, seat := range g.ToDecide() {
					a, err := Decide(g, seat, Strong, nil)
					require.NoError(t, err)
					first[seat] = a
				}
			}
			for _, seat := range g.ToDecide() {
				opts := appendOptions(nil, g, seat, strongFuture(g, seat))
				cands, wins, ok := endSearch(g, seat, opts)
				if ok {
					searched++
					require.Len(t, wins, len(cands))
					assert.Greater(t, len(cands), 1)
					assert.Equal(t, bestOf(opts), cands[0], "the best by points comes first")
					for k, a := range cands {
						assert.NoError(t, g.Legal(seat, a))
						assert.GreaterOrEqual(t, wins[k], 0.0)
						assert.LessOrEqual(t, wins[k], 1.0)
					}
					weighed := 0
					for _, o := range Options(g, seat) {
						if o.Win >= 0 {
							weighed++
						}
					}
					assert.Equal(t, len(cands), weighed)
				}
				a, err := Decide(g, seat, Strong, nil)
				require.NoError(t, err)
				if before, ok := first[seat]; ok {
					assert.Equal(t, before, a, "seat %d decides as before the others did (simultaneous, §3)", seat)
					if len(g.ToDecide()) < g.Players {
						afterOthers++
					}
				}
				_, err = g.Apply(seat, a)
				require.NoError(t, err)
			}
		}
	}
	assert.Greater(t, searched, 10)
	assert.Greater(t, afterOthers, 10)
}

// TestEndSearchIsDeterministic: the same position gives the same chances,
// whatever source the caller passes and whatever the game's future rolls.
func TestEndSearchIsDeterministic(t *testing.T) {
	dice := qwixx.Roll{1, 2, 3, 4, 5, 6}
	me := qwixx.Sheet{Rows: [4]qwixx.Row{rowOf(qwixx.Red, 2, 3, 4, 5, 6, 7)}, Penalties: 3}
	g := colourPhase(t, dice, me, qwixx.Sheet{Rows: [4]qwixx.Row{rowOf(qwixx.Green, 12, 11, 10, 9)}}, qwixx.Sheet{})
	h := g.Clone()
	h.Reseed(777)
	opts := appendOptions(nil, g, 0, strongFuture(g, 0))
	c1, w1, ok := endSearch(g, 0, opts)
	require.True(t, ok)
	c2, w2, _ := endSearch(h, 0, opts)
	assert.Equal(t, c1, c2)
	assert.Equal(t, w1, w2)
	a, err := Decide(g, 0, Strong, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	b, err := Decide(h, 0, Strong, rand.New(rand.NewPCG(3, 4)))
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

// TestRolloutsPlayAsTheLevels checks the rollouts' model of the seats on
// whole games of 2–5 seats: at every decision, the rollout's choice for a
// seat other than the one searching is the normal level's, and for the
// seat itself the choice of its table (TableFuture at strongScale).
func TestRolloutsPlayAsTheLevels(t *testing.T) {
	checked := 0
	for seed := int64(1); seed <= 40; seed++ {
		players := 2 + int(seed%4)
		g, err := qwixx.New(qwixx.Options{Players: players, Seed: seed, First: -1})
		require.NoError(t, err)
		me := int(seed) % players
		for !g.Over() {
			seats := g.ToDecide()
			for _, seat := range seats {
				var buf [qwixx.MaxPlayers]qwixx.Sheet
				sg := newSimGame(g, me, publicSheets(g, buf[:]))
				var want qwixx.Action
				if seat == me {
					want, err = DecideUnder(g, seat, TableFuture(g, seat, strongScale[players]))
				} else {
					want, err = Decide(g, seat, Normal, nil)
				}
				require.NoError(t, err)
				got := qwixx.Action{Kind: qwixx.ActWhite, Pass: true}
				if g.Phase == qwixx.PhaseWhite {
					if c := sg.white(seat); c >= 0 {
						got = qwixx.Action{Kind: qwixx.ActWhite, Color: qwixx.Color(c), Number: g.Dice.WhiteSum()}
					}
				} else {
					got.Kind = qwixx.ActColour
					_, marked := g.Choices[seat].Marked()
					if _, c, pos := sg.colour(seat, sg.seats[seat].p, marked); c >= 0 {
						got = qwixx.Action{Kind: qwixx.ActColour, Color: qwixx.Color(c), Number: qwixx.Number(qwixx.Color(c), pos)}
					}
				}
				assert.Equal(t, want, got, "seed %d, roll %d, seat %d", seed, g.Turn, seat)
				checked++
				_, err = g.Apply(seat, want)
				require.NoError(t, err)
			}
		}
	}
	assert.Greater(t, checked, 1000)
}
