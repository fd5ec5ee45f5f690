package dix_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/engine/dix/scenario"
)

// scenarioGame runs a scenario script and returns the game where it stops.
func scenarioGame(t *testing.T, script string) *dix.Game {
	t.Helper()
	res, err := scenario.Run(strings.NewReader(script))
	require.NoError(t, err)
	return res.Game
}

func mustMarshal(t *testing.T, g *dix.Game) []byte {
	t.Helper()
	b, err := g.MarshalBinary()
	require.NoError(t, err)
	return b
}

func TestNewOptions(t *testing.T) {
	tests := []struct {
		name string
		opts dix.Options
		ok   bool
	}{
		{"two players", dix.Options{Players: 2}, true},
		{"five players random first", dix.Options{Players: 5, FirstPlayer: -1}, true},
		{"solo", dix.Options{Players: 1, Difficulty: 4}, true},
		{"solo hardest", dix.Options{Players: 1, Difficulty: 10, FirstPlayer: -1}, true},
		{"no players", dix.Options{Players: 0}, false},
		{"six players", dix.Options{Players: 6}, false},
		{"solo too easy", dix.Options{Players: 1, Difficulty: 3}, false},
		{"solo too hard", dix.Options{Players: 1, Difficulty: 11}, false},
		{"solo ALIX first", dix.Options{Players: 1, Difficulty: 5, FirstPlayer: 1}, false},
		{"first player out of range", dix.Options{Players: 3, FirstPlayer: 3}, false},
		{"first player below -1", dix.Options{Players: 3, FirstPlayer: -2}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := dix.New(tc.opts)
			if !tc.ok {
				assert.ErrorIs(t, err, dix.ErrBadOptions)
				assert.Nil(t, g)
				return
			}
			require.NoError(t, err)
			require.NoError(t, g.Check())
			assert.Len(t, g.Players, max(tc.opts.Players, 2), "ALIX has a seat in solo")
			assert.Len(t, g.Deck, dix.DeckSize(tc.opts.Players))
			for _, p := range g.Players {
				assert.Equal(t, dix.StartMoney, p.Money)
				assert.Zero(t, p.Consolation)
			}
			assert.Equal(t, dix.PhaseDraw, g.Phase)
			if tc.opts.Players == 1 {
				assert.Equal(t, 0, g.Active, "the human starts a solo game")
				assert.Equal(t, 0, g.ToAct())
			}
		})
	}
}

func TestNewDeterministic(t *testing.T) {
	a, err := dix.New(dix.Options{Players: 4, Seed: 99, FirstPlayer: -1})
	require.NoError(t, err)
	b, err := dix.New(dix.Options{Players: 4, Seed: 99, FirstPlayer: -1})
	require.NoError(t, err)
	c, err := dix.New(dix.Options{Players: 4, Seed: 100, FirstPlayer: -1})
	require.NoError(t, err)
	assert.Equal(t, mustMarshal(t, a), mustMarshal(t, b))
	assert.NotEqual(t, dix.FormatCards(a.Deck), dix.FormatCards(c.Deck))

	// Random first players cover every seat.
	seen := map[int]bool{}
	for seed := range int64(100) {
		g, err := dix.New(dix.Options{Players: 5, Seed: seed, FirstPlayer: -1})
		require.NoError(t, err)
		seen[g.Active] = true
	}
	assert.Len(t, seen, 5)

	// Same seed, same actions: same bytes.
	play := func() []byte {
		g, err := dix.New(dix.Options{Players: 3, Seed: 5, FirstPlayer: -1})
		require.NoError(t, err)
		_, err = dix.Play(g, []dix.Policy{dix.RandomPolicy, dix.SimplePolicy}, rand.New(rand.NewPCG(3, 4)), true)
		require.NoError(t, err)
		return mustMarshal(t, g)
	}
	assert.Equal(t, play(), play())
}

func TestNewWithDeck(t *testing.T) {
	deck, _ := dix.ParseCards("g1 g2 $3")
	g, err := dix.NewWithDeck(dix.Options{Players: 2}, deck)
	require.NoError(t, err)
	deck[0] = dix.Card{Kind: dix.KindNumber, Color: dix.Pink, Value: 9}
	assert.Equal(t, "g1 g2 $3", dix.FormatCards(g.Deck), "the deck is copied")
	require.NoError(t, g.Check())

	_, err = dix.NewWithDeck(dix.Options{Players: 2}, nil)
	assert.ErrorIs(t, err, dix.ErrBadOptions)
	_, err = dix.NewWithDeck(dix.Options{Players: 2}, []dix.Card{{Kind: dix.KindNumber}})
	assert.ErrorIs(t, err, dix.ErrBadOptions)
	_, err = dix.NewWithDeck(dix.Options{Players: 7}, deck)
	assert.ErrorIs(t, err, dix.ErrBadOptions)
	many := make([]dix.Card, 256)
	for i := range many {
		many[i] = dix.Card{Kind: dix.KindCurrency, Value: 1}
	}
	_, err = dix.NewWithDeck(dix.Options{Players: 2}, many)
	assert.ErrorIs(t, err, dix.ErrBadOptions)
	_, err = dix.NewWithDeck(dix.Options{Players: 2}, make([]dix.Card, dix.MaxDeck+1))
	assert.ErrorIs(t, err, dix.ErrBadOptions)
	g, err = dix.NewWithDeck(dix.Options{Players: 3, FirstPlayer: -1, Seed: 1}, deck)
	require.NoError(t, err)
	assert.True(t, g.Active >= 0 && g.Active < 3)
}

// TestRejectedActionsChangeNothing applies bad actions in many states and
// checks the typed error and the unchanged bytes.
func TestRejectedActionsChangeNothing(t *testing.T) {
	draw := scenarioGame(t, "players 3\ndeck g1 g2 g3 g4\nrest none\n")
	drawn := scenarioGame(t, "players 3\ndeck g1 g2 g3 g4\nrest none\np0 draw\n")
	choose := scenarioGame(t, "players 3\ndeck g1 g2 g3 g4\nrest none\np0 draw\np0 stop\n")
	buy := scenarioGame(t, "players 3\nmarket b5 o2\ncollection p0 o2 o2\ndeck g1 g2 g3 g4\nrest none\np0 draw\np0 stop\np0 numbers\n")
	auction := scenarioGame(t, "players 3\ncollection p1 b1 b2\ndeck *3 g2 g3 g4\nrest none\np0 draw\n")
	auctionPay := scenarioGame(t, "players 3\ndeck *3 g2 g3 g4\nrest none\np0 draw\np1 bid 3\np2 pass\np0 pass\n")
	emptyDeck := scenarioGame(t, "players 2\ndeck g1\nrest none\np0 draw\n")
	bustChoice := scenarioGame(t, "players 2\nvariant bust\ndeck g9 g8 g1\nrest none\np0 draw\np0 draw\n")
	final := scenarioGame(t, "players 2\nmarket b3\ndeck g1\nrest none\np0 draw\np0 stop\np0 money\n")
	over := scenarioGame(t, "players 2\ndeck g1\nrest none\np0 draw\np0 stop\np0 money\np1 skip\np0 skip\n")
	solo := scenarioGame(t, "solo 5\ncollection p0 b1 b2\ndeck *3 g2 g3 g4\nrest none\np0 draw\n")
	soloPay := scenarioGame(t, "solo 5\ncollection p0 b1 b2 b2\nmoney alix 0\ndeck *3 g2 g3 g4\nrest none\np0 draw\np0 bid 5\n")
	g1 := dix.Card{Kind: dix.KindNumber, Color: dix.Green, Value: 1}
	b5 := dix.Card{Kind: dix.KindNumber, Color: dix.Blue, Value: 5}
	o2 := dix.Card{Kind: dix.KindNumber, Color: dix.Orange, Value: 2}
	b1 := dix.Card{Kind: dix.KindNumber, Color: dix.Blue, Value: 1}
	b2 := dix.Card{Kind: dix.KindNumber, Color: dix.Blue, Value: 2}

	tests := []struct {
		name string
		g    *dix.Game
		a    dix.Action
		want error
	}{
		{"unknown kind 0", draw, dix.Action{Kind: dix.ActInvalid}, dix.ErrUnknownAction},
		{"unknown kind 200", draw, dix.Action{Kind: 200}, dix.ErrUnknownAction},
		{"seat -1", draw, dix.Action{Kind: dix.ActDraw, Player: -1}, dix.ErrUnknownPlayer},
		{"seat 3 of 3", draw, dix.Action{Kind: dix.ActDraw, Player: 3}, dix.ErrUnknownPlayer},
		{"wrong player", draw, dix.Action{Kind: dix.ActDraw, Player: 1}, dix.ErrNotYourTurn},
		{"stop before draw", draw, dix.Action{Kind: dix.ActStop}, dix.ErrMustDraw},
		{"bid in draw", draw, dix.Action{Kind: dix.ActBid, Amount: 1}, dix.ErrWrongPhase},
		{"take numbers while drawing", drawn, dix.Action{Kind: dix.ActTakeNumbers}, dix.ErrWrongPhase},
		{"draw after stop", choose, dix.Action{Kind: dix.ActDraw}, dix.ErrWrongPhase},
		{"buy not in market", buy, dix.Action{Kind: dix.ActBuy, Card: g1, Payment: dix.Payment{Money: 1}}, dix.ErrNotInMarket},
		{"buy invalid card", buy, dix.Action{Kind: dix.ActBuy, Card: dix.Card{Kind: dix.KindCurrency, Value: 2}, Payment: dix.Payment{Money: 2}}, dix.ErrNotInMarket},
		{"buy identical", buy, dix.Action{Kind: dix.ActBuy, Card: o2, Payment: dix.Payment{Money: 2}}, dix.ErrIdenticalCard},
		{"buy short", buy, dix.Action{Kind: dix.ActBuy, Card: b5, Payment: dix.Payment{Money: 4}}, dix.ErrPaymentShort},
		{"buy with tokens not owned", buy, dix.Action{Kind: dix.ActBuy, Card: b5, Payment: dix.Payment{Money: 6}}, dix.ErrNotOwned},
		{"buy with negative money", buy, dix.Action{Kind: dix.ActBuy, Card: b5, Payment: dix.Payment{Money: -1, Consolation: 2}}, dix.ErrNotOwned},
		{"buy with negative consolation", buy, dix.Action{Kind: dix.ActBuy, Card: b5, Payment: dix.Payment{Money: 5, Consolation: -1}}, dix.ErrNotOwned},
		{"buy with a card not owned", buy, dix.Action{Kind: dix.ActBuy, Card: b5, Payment: dix.Payment{Money: 4, Cards: []dix.Card{b1}}}, dix.ErrNotOwned},
		{"buy with a wild", buy, dix.Action{Kind: dix.ActBuy, Card: b5, Payment: dix.Payment{Money: 4, Cards: []dix.Card{{Kind: dix.KindSuperWild}}}}, dix.ErrWildPayment},
		{"buy with an invalid card", buy, dix.Action{Kind: dix.ActBuy, Card: b5, Payment: dix.Payment{Money: 4, Cards: []dix.Card{{}}}}, dix.ErrNotOwned},
		{"bid out of turn", auction, dix.Action{Kind: dix.ActBid, Player: 2, Amount: 1}, dix.ErrNotYourTurn},
		{"bid zero", auction, dix.Action{Kind: dix.ActBid, Player: 1, Amount: 0}, dix.ErrBidTooLow},
		{"bid negative", auction, dix.Action{Kind: dix.ActBid, Player: 1, Amount: -4}, dix.ErrBidTooLow},
		{"bid above capacity", auction, dix.Action{Kind: dix.ActBid, Player: 1, Amount: 8}, dix.ErrBidTooHigh},
		{"pay during bidding", auction, dix.Action{Kind: dix.ActPay, Player: 1}, dix.ErrWrongPhase},
		{"pay short", auctionPay, dix.Action{Kind: dix.ActPay, Player: 1, Payment: dix.Payment{Money: 2}}, dix.ErrPaymentShort},
		{"pay by the loser", auctionPay, dix.Action{Kind: dix.ActPay, Player: 0, Payment: dix.Payment{Money: 3}}, dix.ErrNotYourTurn},
		{"draw from an empty deck", emptyDeck, dix.Action{Kind: dix.ActDraw}, dix.ErrDeckEmpty},
		{"end turn in bust choice", bustChoice, dix.Action{Kind: dix.ActEndTurn}, dix.ErrWrongPhase},
		{"consolation out of variant", choose, dix.Action{Kind: dix.ActConsolation}, dix.ErrWrongPhase},
		{"final buy out of order", final, dix.Action{Kind: dix.ActEndTurn, Player: 0}, dix.ErrNotYourTurn},
		{"draw in the final round", final, dix.Action{Kind: dix.ActDraw, Player: 1}, dix.ErrWrongPhase},
		{"anything after the end", over, dix.Action{Kind: dix.ActDraw}, dix.ErrGameOver},
		{"ALIX's seat", solo, dix.Action{Kind: dix.ActPass, Player: 1}, dix.ErrNotYourTurn},
		{"solo bid below 5", solo, dix.Action{Kind: dix.ActBid, Amount: 4}, dix.ErrBidTooLow},
		{"solo bid above duplicate capacity", solo, dix.Action{Kind: dix.ActBid, Amount: 7}, dix.ErrBidTooHigh},
		{"solo pay with a single", soloPay, dix.Action{Kind: dix.ActPay, Payment: dix.Payment{Money: 4, Cards: []dix.Card{b1}}}, dix.ErrSoloPayment},
		{"solo pay with both copies", soloPay, dix.Action{Kind: dix.ActPay, Payment: dix.Payment{Money: 3, Cards: []dix.Card{b2, b2}}}, dix.ErrSoloPayment},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.g.Clone()
			before := mustMarshal(t, g)
			seq := g.Seq
			evs, err := g.Apply(tc.a)
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.want)
			assert.Nil(t, evs)
			assert.Equal(t, before, mustMarshal(t, g), "state changed")
			assert.Equal(t, seq, g.Seq)
			assert.NoError(t, g.Check())
			// Every rejection wraps exactly one sentinel.
			n := 0
			for _, s := range dix.Rejections() {
				if errors.Is(err, s) {
					n++
				}
			}
			assert.Equal(t, 1, n, "%v", err)
		})
	}
}

func TestSeqAndEvents(t *testing.T) {
	g := scenarioGame(t, "players 2\ndeck g1 $2 g3 g4\nrest none\n")
	evs, err := g.Apply(dix.Action{Kind: dix.ActDraw})
	require.NoError(t, err)
	assert.Equal(t, uint32(1), g.Seq)
	assert.Equal(t, []dix.Event{{Kind: dix.EvDrew, Card: dix.Card{Kind: dix.KindNumber, Color: dix.Green, Value: 1}}}, evs)
	_, err = g.Apply(dix.Action{Kind: dix.ActDraw})
	require.NoError(t, err)
	_, err = g.Apply(dix.Action{Kind: dix.ActStop})
	require.NoError(t, err)
	evs, err = g.Apply(dix.Action{Kind: dix.ActTakeNumbers})
	require.NoError(t, err)
	assert.Equal(t, uint32(4), g.Seq)
	kinds := make([]dix.EventKind, len(evs))
	for i, e := range evs {
		kinds[i] = e.Kind
	}
	assert.Equal(t, []dix.EventKind{dix.EvTookNumbers, dix.EvGained, dix.EvToDiscard}, kinds)
	assert.Equal(t, 2, evs[1].Amount)
	assert.Equal(t, 1, evs[1].Player)
	evs, err = g.Apply(dix.Action{Kind: dix.ActEndTurn})
	require.NoError(t, err)
	assert.Equal(t, []dix.Event{{Kind: dix.EvTurnEnded, Player: 0}, {Kind: dix.EvTurnStarted, Player: 1}}, evs)
	// Events do not alias the state.
	g2 := scenarioGame(t, "players 2\ndeck g1 g2 g3 g4\nrest none\np0 draw\np0 stop\n")
	evs, err = g2.Apply(dix.Action{Kind: dix.ActTakeNumbers})
	require.NoError(t, err)
	evs[0].Cards[0] = dix.Card{Kind: dix.KindNumber, Color: dix.Pink, Value: 9}
	assert.Equal(t, "g1", dix.FormatCards(g2.Players[0].Collection))
}

func TestChoices(t *testing.T) {
	g := scenarioGame(t, "players 3\ncollection p1 b1 b1\nmarket o1 o1 g4 p9\ndeck *3 g2 g3 g4\nrest none\n")
	assert.Equal(t, dix.Choices{Actions: []dix.ActionKind{dix.ActDraw}}, g.Choices(0))
	assert.Equal(t, dix.Choices{}, g.Choices(1))
	assert.Equal(t, dix.Choices{}, g.Choices(-1))
	assert.Equal(t, dix.Choices{}, g.Choices(9))
	_, err := g.Apply(dix.Action{Kind: dix.ActDraw})
	require.NoError(t, err)
	assert.Equal(t, dix.Choices{Actions: []dix.ActionKind{dix.ActBid, dix.ActPass}, MinBid: 1, MaxBid: 7}, g.Choices(1))
	_, err = g.Apply(dix.Action{Kind: dix.ActBid, Player: 1, Amount: 7})
	require.NoError(t, err)
	assert.Equal(t, dix.Choices{Actions: []dix.ActionKind{dix.ActPass}, MinBid: 8, MaxBid: 5}, g.Choices(2))
	_, err = g.Apply(dix.Action{Kind: dix.ActPass, Player: 2})
	require.NoError(t, err)
	_, err = g.Apply(dix.Action{Kind: dix.ActPass, Player: 0})
	require.NoError(t, err)
	assert.Equal(t, dix.Choices{Actions: []dix.ActionKind{dix.ActPay}, Owe: 7}, g.Choices(1))
	var c dix.Choices
	g.ChoicesInto(1, &c)
	assert.Equal(t, 7, c.Owe)
	g.ChoicesInto(0, &c)
	assert.Empty(t, c.Actions)
	assert.Zero(t, c.Owe)

	p, ok := g.ProposePayment(1, 7)
	require.True(t, ok)
	assert.Equal(t, dix.Payment{Money: 5, Cards: []dix.Card{{Kind: dix.KindNumber, Color: dix.Blue, Value: 1}, {Kind: dix.KindNumber, Color: dix.Blue, Value: 1}}}, p)
	_, err = g.Apply(dix.Action{Kind: dix.ActPay, Player: 1, Payment: p})
	require.NoError(t, err)
	_, err = g.Apply(dix.Action{Kind: dix.ActDraw})
	require.NoError(t, err)
	_, err = g.Apply(dix.Action{Kind: dix.ActStop})
	require.NoError(t, err)
	assert.Equal(t, dix.Choices{Actions: []dix.ActionKind{dix.ActTakeNumbers, dix.ActTakeMoney}}, g.Choices(0))
	_, err = g.Apply(dix.Action{Kind: dix.ActTakeNumbers})
	require.NoError(t, err)
	// p9 is beyond p0's capacity (5 money + g2); o1 appears once.
	o1 := dix.Card{Kind: dix.KindNumber, Color: dix.Orange, Value: 1}
	g4 := dix.Card{Kind: dix.KindNumber, Color: dix.Green, Value: 4}
	assert.Equal(t, dix.Choices{Actions: []dix.ActionKind{dix.ActBuy, dix.ActEndTurn}, Buyable: []dix.Card{g4, o1}}, g.Choices(0))
}

func TestPaymentHelpers(t *testing.T) {
	g := scenarioGame(t, "players 2\ncollection p0 b1 b1 b1 g2 *4\nmoney p0 2\nconsolation p0 2\ndeck g1\nrest none\n")
	assert.Equal(t, 2+6+4, g.Capacity(0))
	assert.Equal(t, 12, g.BuyCapacity(0))
	assert.Zero(t, g.Capacity(5))
	assert.Zero(t, g.BuyCapacity(-1))
	assert.ErrorIs(t, g.CheckPayment(7, 1, dix.Payment{}), dix.ErrUnknownPlayer)
	assert.NoError(t, g.CheckPayment(0, 0, dix.Payment{}))
	assert.NoError(t, g.CheckPayment(0, 3, dix.Payment{Consolation: 1}))
	assert.ErrorIs(t, g.CheckPayment(0, 4, dix.Payment{Consolation: 1}), dix.ErrPaymentShort)
	_, ok := g.ProposePayment(-1, 3)
	assert.False(t, ok)
	p, ok := g.ProposePayment(0, 0)
	assert.True(t, ok)
	assert.Equal(t, dix.Payment{}, p)
	p, ok = g.ProposePayment(0, 12)
	assert.True(t, ok)
	assert.Equal(t, 12, p.Value())
	require.NoError(t, g.CheckPayment(0, 12, p))
	_, ok = g.ProposePayment(0, 13)
	assert.False(t, ok)
	// 3 after the two duplicates: one consolation token beats 2 money + 1 more.
	p, ok = g.ProposePayment(0, 5)
	assert.True(t, ok)
	assert.Equal(t, 2, len(p.Cards))
	assert.Equal(t, dix.Payment{Consolation: 1, Cards: p.Cards}, p)

	solo := scenarioGame(t, "solo 5\ncollection p0 b1 b1 b1 g2\nmoney p0 2\ndeck *3 g1\nrest none\n")
	assert.Equal(t, 4, solo.Capacity(0), "solo: 2 money + 2 duplicates")
	assert.Equal(t, 6, solo.BuyCapacity(0))
	_, err := solo.Apply(dix.Action{Kind: dix.ActDraw})
	require.NoError(t, err)
	// ALIX bid 5 (her capacity), more than the human can: ProposePayment in
	// an auction uses duplicates only.
	_, ok = solo.ProposePayment(0, 5)
	assert.False(t, ok)
	p, ok = solo.ProposePayment(0, 4)
	assert.True(t, ok)
	assert.Equal(t, 2, p.Money)
	assert.ErrorIs(t, solo.CheckPayment(0, 3, dix.Payment{Cards: []dix.Card{{Kind: dix.KindNumber, Color: dix.Green, Value: 2}}}), dix.ErrSoloPayment)
}

func TestResults(t *testing.T) {
	g := scenarioGame(t, "players 4\ncollection p0 b1 b2 b3\ncollection p1 g1 g2 g3\ncollection p2 o1\ncollection p3 p1 p2 p3 p3\nmoney p1 6\ndeck g9\nrest none\n")
	res := g.Results()
	require.Len(t, res, 4)
	assert.Equal(t, []int{1, 0, 3, 2}, []int{res[0].Player, res[1].Player, res[2].Player, res[3].Player})
	assert.Equal(t, []int{1, 2, 3, 4}, []int{res[0].Rank, res[1].Rank, res[2].Rank, res[3].Rank})
	assert.Equal(t, 6, res[0].Money)
	assert.Equal(t, 4, res[2].Cards)
	assert.Equal(t, []int{1}, g.Winners())
}

func TestClone(t *testing.T) {
	g := scenarioGame(t, "players 3\ncollection p1 b1\ndeck *3 g2 g3 g4\nrest none\np0 draw\n")
	c := g.Clone()
	assert.Equal(t, mustMarshal(t, g), mustMarshal(t, c))
	_, err := c.Apply(dix.Action{Kind: dix.ActBid, Player: 1, Amount: 2})
	require.NoError(t, err)
	c.Players[1].Collection[0] = dix.Card{Kind: dix.KindNumber, Color: dix.Pink, Value: 9}
	c.Deck[0] = dix.Card{Kind: dix.KindNumber, Color: dix.Pink, Value: 9}
	assert.Equal(t, 0, g.Auction.HighBid)
	assert.Equal(t, "b1", dix.FormatCards(g.Players[1].Collection))
	assert.Equal(t, "g2 g3 g4", dix.FormatCards(g.Deck))
	assert.NoError(t, g.Check())
}

func TestCheckFindsViolations(t *testing.T) {
	base := scenarioGame(t, "players 3\ncollection p1 b1\nmarket o4\ndeck *3 g2 g3 g4\nrest none\np0 draw\n")
	require.NoError(t, base.Check())
	tests := []struct {
		name   string
		break_ func(g *dix.Game)
	}{
		{"card lost", func(g *dix.Game) { g.Deck = g.Deck[1:] }},
		{"card duplicated", func(g *dix.Game) { g.Market = append(g.Market, g.Market[0]) }},
		{"card swapped", func(g *dix.Game) { g.Deck[0] = dix.Card{Kind: dix.KindNumber, Color: dix.Pink, Value: 9} }},
		{"invalid card", func(g *dix.Game) { g.Deck[0] = dix.Card{} }},
		{"wild in market", func(g *dix.Game) { g.Market[0], g.Auction.Wild = g.Auction.Wild, g.Market[0] }},
		{"money above 10", func(g *dix.Game) { g.Players[0].Money = 11 }},
		{"negative money", func(g *dix.Game) { g.Players[2].Money = -1 }},
		{"negative consolation", func(g *dix.Game) { g.Players[2].Consolation = -1 }},
		{"no auction in auction phase", func(g *dix.Game) { g.Discard = append(g.Discard, g.Auction.Wild); g.Auction = nil }},
		{"auction in draw phase", func(g *dix.Game) { g.Phase = dix.PhaseDraw }},
		{"bad auction order", func(g *dix.Game) { g.Auction.Order[0], g.Auction.Order[1] = g.Auction.Order[1], g.Auction.Order[0] }},
		{"auction turn out of range", func(g *dix.Game) { g.Auction.Next = 3 }},
		{"bid without bidder", func(g *dix.Game) { g.Auction.HighBid = 2 }},
		{"bid above capacity", func(g *dix.Game) { g.Auction.HighBid, g.Auction.HighBidder = 9, 1 }},
		{"active out of range", func(g *dix.Game) { g.Active = 3 }},
		{"seat count", func(g *dix.Game) { g.Players = g.Players[:2] }},
		{"players option", func(g *dix.Game) { g.Opts.Players = 0 }},
		{"end not triggered on empty deck", func(g *dix.Game) { g.Discard = append(g.Discard, g.Deck...); g.Deck = nil }},
		{"end triggered early", func(g *dix.Game) { g.EndTriggered = true }},
		{"final round early", func(g *dix.Game) {
			g.Phase = dix.PhaseFinalBuy
			g.Discard = append(g.Discard, g.Auction.Wild)
			g.Auction = nil
		}},
		{"bust tableau", func(g *dix.Game) { g.Tableau = append(g.Tableau, g.Deck[:3]...); g.Deck = g.Deck[3:]; g.Drawn = 4 }},
		{"currency in collection", func(g *dix.Game) {
			g.Players[0].Collection = []dix.Card{{Kind: dix.KindCurrency, Value: 1}}
			dix.AddToSetup(g, dix.Card{Kind: dix.KindCurrency, Value: 1})
		}},
		{"unknown phase", func(g *dix.Game) { g.Phase = 42 }},
		{"negative drawn", func(g *dix.Game) {
			g.Phase = dix.PhaseBuy
			g.Drawn = -1
			g.Discard = append(g.Discard, g.Auction.Wild)
			g.Auction = nil
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := base.Clone()
			tc.break_(g)
			assert.ErrorIs(t, g.Check(), dix.ErrInvariant)
		})
	}
	// The violation names its zone, a collection by its seat.
	g := base.Clone()
	g.Players[1].Collection = append(g.Players[1].Collection, dix.Card{Kind: dix.KindCurrency, Value: 1})
	dix.AddToSetup(g, dix.Card{Kind: dix.KindCurrency, Value: 1})
	if err := g.Check(); assert.ErrorIs(t, err, dix.ErrInvariant) {
		assert.Contains(t, err.Error(), "in collection 1")
	}
	g = base.Clone()
	g.Market = append(g.Market, dix.Card{Kind: dix.KindCurrency, Value: 1})
	dix.AddToSetup(g, dix.Card{Kind: dix.KindCurrency, Value: 1})
	if err := g.Check(); assert.ErrorIs(t, err, dix.ErrInvariant) {
		assert.Contains(t, err.Error(), "in market")
	}
	solo := scenarioGame(t, "solo 5\ndeck g1 g2\nrest none\n")
	solo.Active = dix.Alix
	assert.ErrorIs(t, solo.Check(), dix.ErrInvariant, "ALIX left to decide")
	solo.Active = 0
	solo.Opts.Difficulty = 2
	assert.ErrorIs(t, solo.Check(), dix.ErrInvariant)
}

func TestMarshalRoundTrip(t *testing.T) {
	for players := 1; players <= 5; players++ {
		g, err := dix.New(dix.Options{Players: players, Difficulty: 6, Seed: int64(players), FirstPlayer: -1, BustVariant: players%2 == 0})
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(uint64(players), 1))
		var c dix.Choices
		for step := 0; g.Phase != dix.PhaseOver; step++ {
			b := mustMarshal(t, g)
			require.Equal(t, dix.SchemaVersion, int(b[0]))
			var back dix.Game
			require.NoError(t, back.UnmarshalBinary(b), "step %d", step)
			require.Equal(t, b, mustMarshal(t, &back))
			require.Equal(t, g.Choices(g.ToAct()), back.Choices(back.ToAct()))
			seat := g.ToAct()
			g.ChoicesInto(seat, &c)
			_, err := g.Apply(dix.RandomPolicy(g, seat, &c, r))
			require.NoError(t, err)
		}
		b := mustMarshal(t, g)
		var back dix.Game
		require.NoError(t, back.UnmarshalBinary(b))
		assert.Equal(t, g.Results(), back.Results())
	}
	// A custom deck keeps its own conservation check.
	g := scenarioGame(t, "players 2\ncollection p0 b# b# b#\ndeck ** **\nrest none\n")
	var back dix.Game
	require.NoError(t, back.UnmarshalBinary(mustMarshal(t, g)))
	assert.NoError(t, back.Check())
	assert.Equal(t, dix.SetupOf(g), dix.SetupOf(&back))
}

// TestMarshalSize checks the size of a 5-player state in the middle of a
// game against the bound of 2048 bytes.
func TestMarshalSize(t *testing.T) {
	g, err := dix.New(dix.Options{Players: 5, Seed: 11, FirstPlayer: -1})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(11, 11))
	var c dix.Choices
	largest := 0
	for step := 0; g.Phase != dix.PhaseOver; step++ {
		seat := g.ToAct()
		g.ChoicesInto(seat, &c)
		_, err := g.Apply(dix.SimplePolicy(g, seat, &c, r))
		require.NoError(t, err)
		b := mustMarshal(t, g)
		if len(g.Deck) == dix.DeckSize(5)/2 {
			t.Logf("5-player state with %d cards left in the deck: %d bytes", len(g.Deck), len(b))
		}
		largest = max(largest, len(b))
	}
	t.Logf("largest 5-player state of the game: %d bytes", largest)
	assert.LessOrEqual(t, largest, 2048)
}

func TestUnmarshalErrors(t *testing.T) {
	g := scenarioGame(t, "players 3\ncollection p1 b1\nmarket o4\ndeck *3 g2 g3 g4\nrest none\np0 draw\np1 bid 1\n")
	good := mustMarshal(t, g)
	var target dix.Game
	require.NoError(t, target.UnmarshalBinary(good))
	keep := mustMarshal(t, &target)

	newer := bytes.Clone(good)
	newer[0] = dix.SchemaVersion + 1
	assert.ErrorIs(t, target.UnmarshalBinary(newer), dix.ErrSchemaTooNew)
	assert.ErrorIs(t, target.UnmarshalBinary(nil), dix.ErrCorrupt)
	zero := bytes.Clone(good)
	zero[0] = 0
	assert.ErrorIs(t, target.UnmarshalBinary(zero), dix.ErrCorrupt)
	for n := 1; n < len(good); n++ {
		assert.ErrorIs(t, target.UnmarshalBinary(good[:n]), dix.ErrCorrupt, "truncated to %d", n)
	}
	assert.ErrorIs(t, target.UnmarshalBinary(append(bytes.Clone(good), 0)), dix.ErrCorrupt)
	for i := 1; i < len(good); i++ {
		bad := bytes.Clone(good)
		bad[i] ^= 0x5a
		err := target.UnmarshalBinary(bad)
		if err != nil {
			assert.ErrorIs(t, err, dix.ErrCorrupt, "byte %d", i)
		}
	}
	// Failed reads left the target as it was.
	require.NoError(t, target.UnmarshalBinary(good))
	assert.Equal(t, keep, mustMarshal(t, &target))
	var fresh dix.Game
	assert.ErrorIs(t, fresh.UnmarshalBinary([]byte{1, 2, 0, 0, 0, 1, 0, 0, 0, 0}), dix.ErrCorrupt)
	assert.Nil(t, fresh.Players)
}

func TestStrings(t *testing.T) {
	assert.Equal(t, "auction-pay", dix.PhaseAuctionPay.String())
	assert.Equal(t, "phase(99)", dix.Phase(99).String())
	assert.Equal(t, "numbers", dix.ActTakeNumbers.String())
	assert.Equal(t, "action(99)", dix.ActionKind(99).String())
	assert.Equal(t, "auction-won", dix.EvAuctionWon.String())
	assert.Equal(t, "event(99)", dix.EventKind(99).String())
	assert.Equal(t, "A", dix.BustTotal.String())
	assert.Equal(t, "B", dix.BustMoney.String())
	assert.Equal(t, "", dix.NoBust.String())
	assert.Equal(t, "g", dix.Green.String())
	assert.Equal(t, "?", dix.NoColor.String())
	c, err := dix.ParseColor("P")
	require.NoError(t, err)
	assert.Equal(t, dix.Pink, c)
	_, err = dix.ParseColor("x")
	assert.ErrorIs(t, err, dix.ErrBadCard)
	for k := dix.EvTurnStarted; k <= dix.EvBustBuy; k++ {
		assert.NotContains(t, k.String(), "event(", "kind %d has no name", k)
	}
}

func TestView(t *testing.T) {
	g := scenarioGame(t, "players 2\ncollection p1 b1 b2\ndeck g1 $2 *4 g3\nrest none\np0 draw\np0 draw\np0 draw\np1 bid 2\n")
	v := g.View()
	assert.Equal(t, "auction", v.Phase)
	assert.Equal(t, []string{"g1", "$2"}, v.Tableau)
	assert.Equal(t, -1, v.TableauTotal)
	assert.Equal(t, 2, v.TableauMoney)
	assert.Equal(t, &dix.AuctionView{Wild: "*4", HighBid: 2, HighBidder: 1, Order: []int{1, 0}, Next: 1}, v.Auction)
	assert.Equal(t, []string{"b1", "b2"}, v.Seats[1].Collection)
	assert.Equal(t, 7, v.Seats[1].Capacity)
	assert.Equal(t, 1, v.DeckCount)
	assert.Nil(t, v.Results)
	v.Auction.Order[0] = 7
	assert.Equal(t, []int{1, 0}, g.Auction.Order, "the view does not share the state's slices")
	over := scenarioGame(t, "players 2\ncollection p1 b1 b#\ndeck g1\nrest none\np0 draw\np0 stop\np0 numbers\np0 end\np1 skip\np0 skip\n")
	v = over.View()
	require.Len(t, v.Results, 2)
	v.FinalOrder[0] = 7
	assert.NoError(t, over.Check(), "the view does not share the state's slices")
	assert.Equal(t, 1, v.Results[0].Seat)
	require.Len(t, v.Results[0].Placements, 1)
	assert.Equal(t, "b#", v.Results[0].Placements[0].Card)
}

func TestBustAt(t *testing.T) {
	// The rulebook's tableau 3, −4, +7, −2: a 7 or more, or a 5, busts.
	g := scenarioGame(t, "players 2\ndeck b3 $4 g7 $2 g1\nrest none\np0 draw\np0 draw\np0 draw\np0 draw\n")
	total, money := g.TableauSums()
	assert.Equal(t, []int{4, 6}, []int{total, money})
	n, c := g.BustAt()
	assert.Equal(t, []int{7, 5}, []int{n, c})
	fresh := scenarioGame(t, "players 2\ndeck b3 g1\nrest none\n")
	n, c = fresh.BustAt()
	assert.Equal(t, []int{0, 0}, []int{n, c}, "nothing busts an empty tableau")
}

// TestZeroGame: a zero Game is not a game, but nothing panics on it.
func TestZeroGame(t *testing.T) {
	var g dix.Game
	assert.Equal(t, -1, g.ToAct())
	_, err := g.Apply(dix.Action{Kind: dix.ActDraw})
	assert.ErrorIs(t, err, dix.ErrUnknownPlayer)
	assert.Equal(t, dix.Choices{}, g.Choices(0))
	assert.ErrorIs(t, g.Check(), dix.ErrInvariant)
	assert.Empty(t, g.Results())
	assert.Zero(t, g.Capacity(0))
	_, ok := g.ProposePayment(0, 1)
	assert.False(t, ok)
	b, err := g.MarshalBinary()
	require.NoError(t, err)
	var back dix.Game
	assert.ErrorIs(t, back.UnmarshalBinary(b), dix.ErrCorrupt)
	_ = g.View()
	_ = g.Clone()
}

// TestPaymentSharingTheCollection: a payment whose cards are a slice of the
// payer's own collection (as a caller picking cards from it may build it)
// pays exactly those cards (R6), in the market and in an auction.
func TestPaymentSharingTheCollection(t *testing.T) {
	p2 := dix.Card{Kind: dix.KindNumber, Color: dix.Pink, Value: 2}
	tests := []struct {
		name   string
		script string
		action func(g *dix.Game) dix.Action
	}{
		{"buy", "players 2\ncollection p0 b1 g2 o3\nmoney p0 0\nmarket p2\ndeck o5 o6\nrest none\np0 draw\np0 stop\np0 numbers\n",
			func(g *dix.Game) dix.Action {
				return dix.Action{Kind: dix.ActBuy, Card: p2, Payment: dix.Payment{Cards: g.Players[0].Collection[0:2]}}
			}},
		{"auction", "players 2\ncollection p1 b1 g2 o3\nmoney p1 0\ndeck *4 o6\nrest none\np0 draw\np1 bid 2\np0 pass\n",
			func(g *dix.Game) dix.Action {
				return dix.Action{Kind: dix.ActPay, Player: 1, Payment: dix.Payment{Cards: g.Players[1].Collection[0:2]}}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := scenarioGame(t, tc.script)
			a := tc.action(g)
			evs, err := g.Apply(a)
			require.NoError(t, err)
			require.NoError(t, g.Check())
			assert.Equal(t, "b1 g2", dix.FormatCards(g.Discard[len(g.Discard)-2:]), "the cards named are discarded")
			assert.Contains(t, dix.FormatCards(g.Players[a.Player].Collection), "o3")
			assert.NotContains(t, dix.FormatCards(g.Players[a.Player].Collection), "g2")
			var paid []dix.Card
			for _, e := range evs {
				if e.Kind == dix.EvPaid {
					paid = e.Payment.Cards
				}
			}
			assert.Equal(t, "b1 g2", dix.FormatCards(paid))
		})
	}
}

// TestProposalsAreValidPayments checks, across the positions of random games
// in every player count, that every payment ProposePayment offers passes
// CheckPayment: it covers the price and holds no superfluous unit (R3, R6).
func TestProposalsAreValidPayments(t *testing.T) {
	checked := 0
	for players := 1; players <= 5; players++ {
		for seed := int64(1); seed <= 10; seed++ {
			g, err := dix.New(dix.Options{Players: players, Difficulty: 7, Seed: seed, FirstPlayer: -1})
			require.NoError(t, err)
			r := rand.New(rand.NewPCG(uint64(seed), 7))
			var c dix.Choices
			for g.Phase != dix.PhaseOver {
				for seat := range g.Players {
					for price := 1; price <= 12; price++ {
						if p, ok := g.ProposePayment(seat, price); ok {
							require.NoError(t, g.CheckPayment(seat, price, p), "players %d seed %d seat %d price %d: %+v", players, seed, seat, price, p)
							checked++
						}
					}
				}
				seat := g.ToAct()
				g.ChoicesInto(seat, &c)
				_, err := g.Apply(dix.RandomPolicy(g, seat, &c, r))
				require.NoError(t, err)
			}
		}
	}
	t.Logf("%d payments checked", checked)
	assert.Greater(t, checked, 10000)
}
