package dix

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
)

func cards(t *testing.T, s string) []dix.Card {
	t.Helper()
	c, err := dix.ParseCards(s)
	require.NoError(t, err)
	return c
}

// oddsGame is a 2-player game whose active player has drawn tableau and
// faces deck (top first).
func oddsGame(t *testing.T, tableau, deck string) *dix.Game {
	t.Helper()
	g, err := dix.NewWithDeck(dix.Options{Players: 2, FirstPlayer: 0}, cards(t, tableau+" "+deck))
	require.NoError(t, err)
	for range len(cards(t, tableau)) {
		_, err := g.Apply(dix.Action{Kind: dix.ActDraw})
		require.NoError(t, err)
	}
	return g
}

func TestDrawOddsByHand(t *testing.T) {
	tests := []struct {
		name                 string
		tableau, deck        string
		bustTotal, bustMoney float64
		number, currency     int
		wild                 float64
	}{
		// The rulebook's tableau 3, −4, +7, −2: total 4, money 6. A number
		// of 7 or more busts (2 of 10 cards here), a currency card of 5
		// (1 of 10).
		{"rulebook tableau", "g3 $4 b7 $2", "g7 b9 p1 p2 o3 o4 $5 $1 $2 g#", 0.2, 0.1, 7, 5, 0.1},
		// Total 8, money 0: a 3 or more busts (g3, p9: 2 of 6); a
		// currency card of 5 would make money 5, no bust.
		{"total 8", "g3 b5", "g1 g2 g3 p9 $5 **", 1.0 / 3, 0, 3, 0, 1.0 / 6},
		// Total −1, money 9: a currency card of 2 or more busts (2 of 4);
		// no number can bust.
		{"money 9", "b6 b2 $5 $4", "$1 $2 $3 g9", 0, 0.5, 0, 2, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := oddsGame(t, tc.tableau, tc.deck)
			require.Equal(t, dix.PhaseDraw, g.Phase)
			o := DrawOdds(g)
			assert.Equal(t, len(cards(t, tc.deck)), o.Left)
			assert.InDelta(t, tc.bustTotal, o.BustTotal, 1e-9)
			assert.InDelta(t, tc.bustMoney, o.BustMoney, 1e-9)
			assert.InDelta(t, tc.bustTotal+tc.bustMoney, o.Bust(), 1e-9)
			assert.InDelta(t, tc.wild, o.Wild, 1e-9)
			assert.Equal(t, tc.number, o.BustNumber)
			assert.Equal(t, tc.currency, o.BustCurrency)
		})
	}
}

func TestScoreAndSpendDeltas(t *testing.T) {
	coll := cards(t, "b1 b2 b4 b5 g7 g7")
	assert.Equal(t, 3, ScoreDelta(coll, cards(t, "b3")[0]), "b3 joins two runs: 2 becomes 5")
	assert.Equal(t, 0, ScoreDelta(coll, cards(t, "g9")[0]))
	assert.Equal(t, 3, ScoreDelta(coll, cards(t, "b#")[0]), "a colour wild fills the gap")
	run := cards(t, "b1 b2 b3 g7 g7")
	assert.Equal(t, 0, SpendDelta(run, cards(t, "g7")), "a duplicate costs nothing")
	assert.Equal(t, -1, SpendDelta(run, cards(t, "b3")), "the end of a run shortens it")
	assert.Equal(t, -2, SpendDelta(run, cards(t, "b2")), "its middle cuts it")
}

// randomPositions plays random games and calls f on the positions met.
func randomPositions(t *testing.T, games int, f func(g *dix.Game, seat int)) {
	t.Helper()
	for i := range games {
		players := 1 + i%5
		g, err := dix.New(dix.Options{Players: players, Difficulty: 4 + i%7, Seed: int64(i), FirstPlayer: -1, BustVariant: i%3 == 0})
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(uint64(i), 3))
		var c dix.Choices
		for g.Phase != dix.PhaseOver {
			seat := g.ToAct()
			f(g, seat)
			g.ChoicesInto(seat, &c)
			_, err := g.Apply(dix.RandomPolicy(g, seat, &c, r))
			require.NoError(t, err)
		}
	}
}

// Every level's decision is legal, in every kind of position (random games
// of 1–5 players, with and without the bust variant), and so is Timeout's.
func TestDecisionsAreLegal(t *testing.T) {
	n := 0
	randomPositions(t, 15, func(g *dix.Game, seat int) {
		for _, lvl := range Levels {
			a := Decide(g, seat, lvl, rand.New(rand.NewPCG(1, 2)))
			_, err := g.Clone().Apply(a)
			require.NoError(t, err, "%s at seq %d: %s", lvl, g.Seq, dix.FormatAction(a))
			n++
		}
		a := Timeout(g, seat, rand.New(rand.NewPCG(1, 2)))
		_, err := g.Clone().Apply(a)
		require.NoError(t, err, "timeout at seq %d: %s", g.Seq, dix.FormatAction(a))
	})
	assert.Greater(t, n, 2000)
}

// A decision never depends on the order of the cards face down: with the
// deck shuffled differently, the same seed gives the same decision.
func TestDecisionsIgnoreTheDeckOrder(t *testing.T) {
	checked := 0
	randomPositions(t, 8, func(g *dix.Game, seat int) {
		if len(g.Deck) < 2 {
			return
		}
		other := g.Clone()
		rand.New(rand.NewPCG(uint64(g.Seq), 77)).Shuffle(len(other.Deck), func(i, j int) {
			other.Deck[i], other.Deck[j] = other.Deck[j], other.Deck[i]
		})
		if slices.Equal(other.Deck, g.Deck) {
			return
		}
		for _, lvl := range Levels {
			a := Decide(g, seat, lvl, rand.New(rand.NewPCG(5, 6)))
			b := Decide(other, seat, lvl, rand.New(rand.NewPCG(5, 6)))
			require.Equal(t, dix.FormatAction(a), dix.FormatAction(b), "%s at seq %d", lvl, g.Seq)
			checked++
		}
		if g.Phase == dix.PhaseDraw {
			assert.Equal(t, DrawOdds(g), DrawOdds(other))
		}
	})
	assert.Greater(t, checked, 400)
}

// Advise explains the strong level's own decision.
func TestAdviceIsTheStrongDecision(t *testing.T) {
	randomPositions(t, 10, func(g *dix.Game, seat int) {
		adv := Advise(g, seat, rand.New(rand.NewPCG(9, 9)))
		a := Decide(g, seat, Strong, rand.New(rand.NewPCG(9, 9)))
		require.Equal(t, dix.FormatAction(a), dix.FormatAction(adv.Action))
		require.NotEqual(t, ReasonNone, adv.Reason)
	})
}

// The strong level stops on a tableau that a draw would likely bust, and
// draws on one no card can bust.
func TestStrongDrawsAndStopsSensibly(t *testing.T) {
	risky := oddsGame(t, "g5 b4", "g9 g8 p7 p9 b6 o8 g2")
	assert.Equal(t, dix.ActStop, Decide(risky, 0, Strong, rand.New(rand.NewPCG(1, 1))).Kind)
	safe := oddsGame(t, "g1", "g2 b3 o2 p1 $1 $2")
	assert.Equal(t, dix.ActDraw, Decide(safe, 0, Strong, rand.New(rand.NewPCG(1, 1))).Kind)
}

func BenchmarkDecide(b *testing.B) {
	// Positions of real games: a late 4-player draw decision is the
	// costliest (two draws looked ahead over a varied deck).
	var positions []*dix.Game
	for seed := int64(1); len(positions) < 200; seed++ {
		g, _ := dix.New(dix.Options{Players: 4, Seed: seed, FirstPlayer: -1})
		r := rand.New(rand.NewPCG(uint64(seed), 1))
		var c dix.Choices
		for g.Phase != dix.PhaseOver {
			seat := g.ToAct()
			if g.Phase == dix.PhaseDraw && g.Drawn > 0 {
				positions = append(positions, g.Clone())
			}
			g.ChoicesInto(seat, &c)
			_, _ = g.Apply(dix.SimplePolicy(g, seat, &c, r))
		}
	}
	for _, lvl := range Levels {
		b.Run(lvl.String(), func(b *testing.B) {
			timeDecisions(b, positions, lvl)
		})
	}
}

// BenchmarkDecideSolo times the strong level's draw decisions in solo games
// against ALIX (the expected growth of the runs is valued there).
func BenchmarkDecideSolo(b *testing.B) {
	positions := soloPositions(7, func(g *dix.Game, _ *dix.Choices) bool {
		return g.Phase == dix.PhaseDraw && g.Drawn > 0
	}, func(g *dix.Game, seat int, c *dix.Choices, r *rand.Rand) dix.Action {
		return dix.SimplePolicy(g, seat, c, r)
	})
	timeDecisions(b, positions, Strong)
}

// On ALIX's turn the human bids first and she outbids by one whenever she
// can (SPEC §5): not able to outbid her, the strong level bids just below
// her capacity, so that she pays all she can for the wild.
func TestStrongMakesAlixPayForHerWild(t *testing.T) {
	g, err := dix.NewWithDeck(dix.Options{Players: 1, Difficulty: 4}, cards(t, "g1 $3 b# o5 p5 g9 b9 o2 p3 g4"))
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(1, 1))
	for _, k := range []dix.ActionKind{dix.ActDraw, dix.ActDraw, dix.ActStop, dix.ActTakeNumbers, dix.ActEndTurn} {
		_, err := g.Apply(dix.Action{Kind: k})
		require.NoError(t, err)
	}
	require.Equal(t, dix.PhaseAuction, g.Phase, "ALIX drew the wild")
	g.Players[0].Money, g.Players[dix.Alix].Money = 10, 10 // more than the wild is worth to the human
	a := Decide(g, 0, Strong, r)
	assert.Equal(t, dix.ActBid, a.Kind)
	assert.Equal(t, 9, a.Amount, "one below her 10")
	_, err = g.Apply(a)
	require.NoError(t, err)
	assert.Equal(t, 0, g.Players[dix.Alix].Money, "she paid 10")
	assert.Equal(t, 10, g.Players[0].Money)
}

// At the end of a solo game the strong level plays for the win, tie-breaks
// included (4.2, R13): taking a number that ties the scores would give ALIX
// the money that wins her the tie, while taking the money and buying the
// number back in the final buy round wins it.
func TestStrongEndgameWinsTheTieBreak(t *testing.T) {
	g, err := dix.NewWithDeck(dix.Options{Players: 1, Difficulty: 4}, cards(t, "p3 $3"))
	require.NoError(t, err)
	g.Players[0].Collection = cards(t, "b1 b2 b3")
	g.Players[0].Money = 6
	g.Players[dix.Alix].Collection = cards(t, "g1 g2 g3 o1")
	for _, k := range []dix.ActionKind{dix.ActDraw, dix.ActDraw, dix.ActStop} {
		_, err := g.Apply(dix.Action{Kind: k})
		require.NoError(t, err)
	}
	require.Equal(t, dix.PhaseChoose, g.Phase)
	adv := Advise(g, 0, rand.New(rand.NewPCG(1, 1)))
	assert.Equal(t, dix.ActTakeMoney, adv.Action.Kind)
	assert.Equal(t, ReasonEndgame, adv.Reason)
	assert.InDelta(t, 1, adv.Points, 0.01, "a certain win")
	_, err = g.Apply(adv.Action)
	require.NoError(t, err)
	a := Decide(g, 0, Strong, rand.New(rand.NewPCG(1, 1)))
	assert.Equal(t, dix.ActBuy, a.Kind)
	_, err = g.Apply(a)
	require.NoError(t, err)
	assert.Equal(t, []int{0}, g.Winners())
}

// BenchmarkDecideSoloEnd times the strong level's decisions of the last
// five cards of solo games at difficulty 10, where the end of the game is
// searched exactly (endgame.go): the costliest decisions of a solo game.
func BenchmarkDecideSoloEnd(b *testing.B) {
	positions := soloPositions(10, func(g *dix.Game, c *dix.Choices) bool {
		return len(g.Deck) <= 5 && len(c.Actions) > 1
	}, func(g *dix.Game, seat int, _ *dix.Choices, r *rand.Rand) dix.Action {
		return Decide(g, seat, Strong, r)
	})
	timeDecisions(b, positions, Strong)
}

// On ALIX's turn a bid she cannot top wins the wild at its price: with
// her capacity below the solo minimum of 5 (SPEC §5), the strong level bids
// exactly 5, however much it holds.
func TestStrongBidsTheLowestBidALIXCannotTop(t *testing.T) {
	g, err := dix.NewWithDeck(dix.Options{Players: 1, Difficulty: 4}, cards(t, "g1 $3 b# o5 p5 g9 b9 o2 p3 g4"))
	require.NoError(t, err)
	for _, k := range []dix.ActionKind{dix.ActDraw, dix.ActDraw, dix.ActStop, dix.ActTakeNumbers, dix.ActEndTurn} {
		_, err := g.Apply(dix.Action{Kind: k})
		require.NoError(t, err)
	}
	require.Equal(t, dix.PhaseAuction, g.Phase, "ALIX drew the wild")
	g.Players[0].Money, g.Players[dix.Alix].Money = 10, 3
	a := Decide(g, 0, Strong, rand.New(rand.NewPCG(1, 1)))
	assert.Equal(t, dix.ActBid, a.Kind)
	assert.Equal(t, 5, a.Amount)
	_, err = g.Apply(a)
	require.NoError(t, err)
	require.Equal(t, dix.PhaseAuctionPay, g.Phase, "she could not top it")
	_, err = g.Apply(Decide(g, 0, Strong, rand.New(rand.NewPCG(1, 1))))
	require.NoError(t, err)
	assert.Equal(t, 5, g.Players[0].Money)
	assert.Contains(t, g.Players[0].Collection, cards(t, "b#")[0], "the player took the wild")
}

// timeDecisions times lvl's decisions in positions, in turn, and reports
// the slowest one as max-ms beside the mean.
func timeDecisions(b *testing.B, positions []*dix.Game, lvl Level) {
	r := rand.New(rand.NewPCG(1, 1))
	var slowest time.Duration
	for i := 0; b.Loop(); i++ {
		g := positions[i%len(positions)]
		start := time.Now()
		Decide(g, g.ToAct(), lvl, r)
		slowest = max(slowest, time.Since(start))
	}
	b.ReportMetric(float64(slowest.Microseconds())/1000, "max-ms")
}

// soloPositions plays solo games at difficulty, each seat choosing with
// play, and keeps 200 positions where keep holds.
func soloPositions(difficulty int, keep func(*dix.Game, *dix.Choices) bool, play func(*dix.Game, int, *dix.Choices, *rand.Rand) dix.Action) []*dix.Game {
	var positions []*dix.Game
	for seed := int64(1); len(positions) < 200; seed++ {
		g, _ := dix.New(dix.Options{Players: 1, Difficulty: difficulty, Seed: seed, FirstPlayer: -1})
		r := rand.New(rand.NewPCG(uint64(seed), 1))
		var c dix.Choices
		for g.Phase != dix.PhaseOver {
			seat := g.ToAct()
			g.ChoicesInto(seat, &c)
			if keep(g, &c) {
				positions = append(positions, g.Clone())
			}
			_, _ = g.Apply(play(g, seat, &c, r))
		}
	}
	return positions
}
