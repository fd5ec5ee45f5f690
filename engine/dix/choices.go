package dix

import "math/bits"

// Choices returns the decisions open to player now: the action kinds, and
// for them the bid range, the market cards the player may buy (R5, and that
// they can afford) and the amount owed after winning an auction. A player
// with nothing to decide, ALIX, or an unknown seat gets a zero Choices.
func (g *Game) Choices(player int) Choices {
	var c Choices
	g.ChoicesInto(player, &c)
	return c
}

// ChoicesInto is Choices writing into c and reusing its slices, so that a
// caller asking often (a simulation) does not allocate.
func (g *Game) ChoicesInto(player int, c *Choices) {
	c.Actions = c.Actions[:0]
	c.Buyable = c.Buyable[:0]
	c.MinBid, c.MaxBid, c.Owe = 0, 0, 0
	if player < 0 || player >= len(g.Players) || g.IsAlix(player) || player != g.ToAct() {
		return
	}
	switch g.Phase {
	case PhaseDraw:
		if len(g.Deck) > 0 {
			c.Actions = append(c.Actions, ActDraw)
		}
		if g.Drawn > 0 {
			c.Actions = append(c.Actions, ActStop) // R2
		}
	case PhaseChoose:
		c.Actions = append(c.Actions, ActTakeNumbers, ActTakeMoney)
	case PhaseBuy, PhaseFinalBuy:
		c.Buyable = g.appendBuyable(c.Buyable, player)
		if len(c.Buyable) > 0 {
			c.Actions = append(c.Actions, ActBuy)
		}
		c.Actions = append(c.Actions, ActEndTurn)
	case PhaseBustChoice:
		c.Actions = append(c.Actions, ActConsolation, ActBustBuy)
	case PhaseAuction:
		c.MinBid, c.MaxBid = g.minBid(), g.Capacity(player)
		if c.MinBid <= c.MaxBid {
			c.Actions = append(c.Actions, ActBid)
		}
		c.Actions = append(c.Actions, ActPass)
	case PhaseAuctionPay:
		c.Owe = g.Auction.HighBid
		c.Actions = append(c.Actions, ActPay)
	}
}

// appendBuyable appends the distinct market cards player may buy and afford,
// in card order (numbers by colour, then value).
func (g *Game) appendBuyable(dst []Card, player int) []Card {
	if len(g.Market) == 0 {
		return dst
	}
	var inMarket, owned uint64 // bit numberIndex
	for _, c := range g.Market {
		inMarket |= 1 << uint(numberIndex(c)&63)
	}
	for _, c := range g.Players[player].Collection {
		if c.Kind == KindNumber {
			owned |= 1 << uint(numberIndex(c)&63)
		}
	}
	capacity := g.capacity(player, false)
	for m := inMarket &^ owned; m != 0; m &= m - 1 { // R5
		i := bits.TrailingZeros64(m)
		if i < 36 && i%9+1 <= capacity {
			dst = append(dst, cardAt(i))
		}
	}
	return dst
}
