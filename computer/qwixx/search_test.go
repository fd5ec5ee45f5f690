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

// TestSearchOnWholeGames plays games of three and four seats and checks
// the search at every decision once the end is near, and at one decision
// in searchEvery before: it weighs several decisions, all legal, the
// points' best first (the network's, where one is shipped), with chances of winning between 0 and 1, that
// Options carries them and marks the one Decide takes, that near the end
// it takes the one that won most and before it the first unless
// another won more, and that a seat's decision on the white sum does not
// change once others made theirs (decisions are simultaneous, and not
// seen before action 1 ends). The seats play by the normal level between
// the decisions checked, which keeps the test short.
func TestSearchOnWholeGames(t *testing.T) {
	const searchEvery = 8
	searched, early, afterOthers, decisions := 0, 0, 0, 0
	for seed := int64(1); seed <= 3; seed++ {
		g, err := qwixx.New(qwixx.Options{Players: 3 + int(seed%2), Seed: seed, First: -1})
		require.NoError(t, err)
		for !g.Over() {
			near := EndNear(g)
			decisions++
			check := near || decisions%searchEvery == 0
			// Every seat's decision on the white sum before any is made:
			// the others' decisions under way must not change it.
			first := map[int]qwixx.Action{}
			if g.Phase == qwixx.PhaseWhite && check {
				for _, seat := range g.ToDecide() {
					a, err := Decide(g, seat, Strong, nil)
					require.NoError(t, err)
					first[seat] = a
				}
			}
			for _, seat := range g.ToDecide() {
				if !check {
					a, err := Decide(g, seat, Normal, nil)
					require.NoError(t, err)
					_, err = g.Apply(seat, a)
					require.NoError(t, err)
					continue
				}
				opts := appendOptions(nil, g, seat, strongFuture(g, seat))
				res, ok := search(g, seat, opts)
				a, err := Decide(g, seat, Strong, nil)
				require.NoError(t, err)
				if ok {
					searched++
					if !near {
						early++
					}
					require.Len(t, res.wins, len(res.cands))
					assert.Greater(t, len(res.cands), 1)
					first := bestOf(opts)
					if net := valueNetOf(g.Players); net != nil {
						var buf [qwixx.MaxPlayers]qwixx.Sheet
						first = net.firstOf(g, seat, publicSheets(g, buf[:]), opts, nil)[0]
					}
					assert.Equal(t, first, res.cands[0], "the best by points (by the network where one is shipped) comes first")
					for k, c := range res.cands {
						assert.NoError(t, g.Legal(seat, c))
						assert.GreaterOrEqual(t, res.wins[k], 0.0)
						assert.LessOrEqual(t, res.wins[k], 1.0)
					}
					if near {
						assert.Equal(t, mostWon(res.wins), res.chosen, "near the end, the one that won most")
					} else if res.chosen != 0 {
						assert.Greater(t, res.wins[res.chosen], res.wins[0], "before, another than the points' best only when it won more")
					}
					assert.Equal(t, res.cands[res.chosen], a)
					weighed, chosen := 0, 0
					for _, o := range Options(g, seat) {
						if o.Win >= 0 {
							weighed++
						}
						if o.Chosen {
							chosen++
							assert.Equal(t, a, o.Action, "Options marks the decision taken")
						}
					}
					assert.Equal(t, len(res.cands), weighed)
					assert.Equal(t, 1, chosen)
				}
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
	assert.Greater(t, early, 3)
	assert.Greater(t, afterOthers, 10)
}

// TestClearlyBetterNeedsAClearLead: before the end is near, another
// decision than the points' best is taken only when it won more often on
// the same dice by more than searchEarlyZ standard errors; at a bar of 0,
// whenever it won more often.
func TestClearlyBetterNeedsAClearLead(t *testing.T) {
	rollouts := func(wins ...int) []float32 { // 1 for each won rollout of 200, the first ones
		out := make([]float32, 200)
		for i := range wins[0] {
			out[i] = 1
		}
		return out
	}
	played := []int{200, 200, 200}
	even := [][]float32{rollouts(100), rollouts(100), rollouts(100)}
	assert.Equal(t, 0, clearlyBetter(even, played, 2), "no lead: the points' best")
	slight := [][]float32{rollouts(100), rollouts(103), rollouts(99)}
	assert.Equal(t, 0, clearlyBetter(slight, played, 2), "3 rollouts more in 200: within the noise")
	clear := [][]float32{rollouts(100), rollouts(104), rollouts(130)}
	assert.Equal(t, 2, clearlyBetter(clear, played, 2), "30 rollouts more on the same dice: clear")
	unplayed := [][]float32{rollouts(100), rollouts(100), rollouts(130)}
	assert.Equal(t, 0, clearlyBetter(unplayed, []int{200, 200, 0}, 2), "a candidate not played is not taken")
	assert.Equal(t, 0, clearlyBetter(even, played, 0), "no lead at a bar of 0: the points' best")
	assert.Equal(t, 1, clearlyBetter(slight, played, 0), "at a bar of 0, any lead on the same dice")
	assert.Equal(t, 2, clearlyBetter(clear, played, 0), "at a bar of 0, the lead by the most standard errors")
	assert.Equal(t, 0, clearlyBetter(unplayed, []int{200, 200, 0}, 0), "at a bar of 0, a candidate not played is not taken")
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
	r1, ok := search(g, 0, opts)
	require.True(t, ok)
	r2, _ := search(h, 0, opts)
	assert.Equal(t, r1, r2)
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
					if _, c, pos := sg.colour(seat, sg.seats[seat].p, sg.seats[seat].lk, marked); c >= 0 {
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

// TestRolloutDiceAreFair: the six dice a rollout draws from one number
// are each fair and independent of one another. Over 360,000 rolls, each
// die's faces and each pair of dice's 36 pairs of faces pass a chi-square
// test at the 0.1% level (20.5 for 5 degrees of freedom, 66.6 for 35),
// and a die out of the game (a locked row's) is never rolled.
func TestRolloutDiceAreFair(t *testing.T) {
	const rolls = 360000
	r := rand.New(rand.NewPCG(41, 42))
	sg := simGame{t: simTablesOf(3)}
	sg.locked[qwixx.Green] = true
	var faces [6][7]int
	var pairs [6][6][7][7]int
	for range rolls {
		sg.roll(r)
		require.Zero(t, sg.dice[qwixx.DieOf(qwixx.Green)], "a locked row's die")
		require.Equal(t, [2]int{outPos, outPos}, sg.cpos[qwixx.Green])
		for i := range sg.dice {
			faces[i][sg.dice[i]]++
			for j := i + 1; j < len(sg.dice); j++ {
				pairs[i][j][sg.dice[i]][sg.dice[j]]++
			}
		}
	}
	for i := range sg.dice {
		if i == int(qwixx.DieOf(qwixx.Green)) {
			continue
		}
		chi := 0.0
		for f := 1; f <= 6; f++ {
			d := float64(faces[i][f]) - rolls/6.0
			chi += d * d / (rolls / 6.0)
		}
		assert.Less(t, chi, 20.5, "die %d: %v", i, faces[i][1:])
		for j := i + 1; j < len(sg.dice); j++ {
			if j == int(qwixx.DieOf(qwixx.Green)) {
				continue
			}
			chi := 0.0
			for f := 1; f <= 6; f++ {
				for h := 1; h <= 6; h++ {
					d := float64(pairs[i][j][f][h]) - rolls/36.0
					chi += d * d / (rolls / 36.0)
				}
			}
			assert.Less(t, chi, 66.6, "dice %d and %d", i, j)
		}
	}
}
