package dix

// ALIX, the solo opponent (SPEC §5). Her decisions are applied by advance
// right after the human's action that leads to them, so that ToAct never
// returns her seat.

// advance applies ALIX's decisions for as long as she is the one to decide.
func (g *Game) advance(evs []Event) []Event {
	for g.Solo() && g.Phase != PhaseOver && g.ToAct() == Alix {
		evs = g.alixStep(evs)
	}
	return evs
}

// alixStep applies one decision of ALIX.
func (g *Game) alixStep(evs []Event) []Event {
	switch g.Phase {
	case PhaseDraw:
		total, _ := g.tableauSums()
		// She draws until her total reaches the difficulty (or she busts by
		// money, which ends the turn in draw). R10: an empty deck stops her.
		if g.Drawn > 0 && (total >= g.Opts.Difficulty || len(g.Deck) == 0) {
			return g.stop(evs)
		}
		return g.draw(evs)
	case PhaseChoose:
		return g.takeNumbers(evs) // always the numbers, never the money
	case PhaseAuction:
		return g.alixBid(evs)
	case PhaseAuctionPay:
		p := g.alixPayment(g.Auction.HighBid)
		return g.payAuction(evs, Alix, p)
	case PhaseFinalBuy:
		// ALIX never buys, not even in the final round.
		evs = append(evs, Event{Kind: EvFinalBuySkipped, Player: Alix})
		return g.nextFinalBuyer(evs)
	default:
		// PhaseBuy and PhaseBustChoice never come to ALIX (she never buys and
		// has her own bust rule); end her turn should it happen.
		return g.endTurn(evs)
	}
}

// alixBid is ALIX's bid or pass (§5, R11).
func (g *Game) alixBid(evs []Event) []Event {
	a := g.Auction
	capacity := g.Capacity(Alix)
	var want int
	switch {
	case g.Active != Alix:
		// The human's turn, ALIX bids first: as close to the human's
		// capacity as she can afford, at least 5.
		want = min(capacity, max(SoloMinBid, g.Capacity(0)))
	case a.HighBidder >= 0:
		want = a.HighBid + 1 // just enough to win
	default:
		want = SoloMinBid // R11: the human passed
	}
	if want >= g.minBid() && want <= capacity {
		return g.bid(evs, Alix, want)
	}
	return g.pass(evs, Alix)
}
