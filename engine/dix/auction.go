package dix

// startAuction puts a freshly drawn wild up for auction (3.5): bidding in
// seat order from the active player's left, the active player last. In solo
// this is the order of §5 too (ALIX first on the human's turn, the human
// first on ALIX's).
func (g *Game) startAuction(evs []Event, wild Card) []Event {
	n := len(g.Players)
	// One allocation for the auction and its order.
	x := &struct {
		a     Auction
		order [5]int
	}{}
	x.a = Auction{Wild: wild, HighBidder: -1, Order: x.order[:0]}
	for i := 1; i <= n; i++ {
		x.a.Order = append(x.a.Order, (g.Active+i)%n)
	}
	g.Auction = &x.a
	g.Phase = PhaseAuction
	return append(evs, Event{Kind: EvAuctionStarted, Player: g.Active, Card: wild})
}

// minBid is the smallest legal bid now: higher than the high bid, and at
// least 1 (at least 5 in solo, §5).
func (g *Game) minBid() int {
	m := 1
	if g.Solo() {
		m = SoloMinBid
	}
	if g.Auction != nil {
		m = max(m, g.Auction.HighBid+1)
	}
	return m
}

func (g *Game) bid(evs []Event, player, amount int) []Event {
	g.Auction.HighBid = amount
	g.Auction.HighBidder = player
	evs = append(evs, Event{Kind: EvBid, Player: player, Amount: amount})
	return g.nextBidder(evs)
}

func (g *Game) pass(evs []Event, player int) []Event {
	evs = append(evs, Event{Kind: EvPassed, Player: player})
	return g.nextBidder(evs)
}

// nextBidder gives the next seat its one chance, or closes the auction.
func (g *Game) nextBidder(evs []Event) []Event {
	a := g.Auction
	a.Next++
	if a.Next < len(a.Order) {
		return evs
	}
	if a.HighBidder < 0 {
		g.Discard = append(g.Discard, a.Wild)
		evs = append(evs, Event{Kind: EvWildDiscarded, Player: g.Active, Card: a.Wild})
		g.Auction = nil
		g.Phase = PhaseDraw // the draw phase resumes
		return evs
	}
	g.Phase = PhaseAuctionPay
	return append(evs, Event{Kind: EvAuctionWon, Player: a.HighBidder, Card: a.Wild, Amount: a.HighBid})
}

// payAuction takes the winner's validated payment, gives them the wild and
// resumes the active player's draw phase.
func (g *Game) payAuction(evs []Event, player int, p Payment) []Event {
	evs = g.pay(evs, player, p)
	pl := &g.Players[player]
	pl.Collection = append(pl.Collection, g.Auction.Wild)
	g.Auction = nil
	g.Phase = PhaseDraw
	return evs
}
