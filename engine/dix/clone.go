package dix

// Clone returns a deep copy of g: changing one never changes the other.
func (g *Game) Clone() *Game {
	c := *g
	c.arena = nil // the copy's events get their own block
	c.Players = make([]Player, len(g.Players))
	for i, p := range g.Players {
		p.Collection = cloneCards(p.Collection)
		c.Players[i] = p
	}
	c.Deck = cloneCards(g.Deck)
	c.Tableau = cloneCards(g.Tableau)
	c.Market = cloneCards(g.Market)
	c.Discard = cloneCards(g.Discard)
	if g.Auction != nil {
		a := *g.Auction
		a.Order = append([]int(nil), g.Auction.Order...)
		c.Auction = &a
	}
	if g.FinalOrder != nil {
		c.FinalOrder = append([]int(nil), g.FinalOrder...)
	}
	return &c
}
