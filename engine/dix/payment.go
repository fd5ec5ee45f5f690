package dix

import "fmt"

// Capacity is the most player could bid now (3.5): money tokens + 3 ×
// consolation tokens + number cards in the collection. In solo only
// duplicate cards count, one per extra copy (§5). It is 0 for an unknown
// seat.
func (g *Game) Capacity(player int) int {
	if player < 0 || player >= len(g.Players) {
		return 0
	}
	return g.capacity(player, g.Solo())
}

// BuyCapacity is the most player could pay for a market card (3.4): money
// tokens + 3 × consolation tokens + number cards, in solo too. It is 0 for an
// unknown seat.
func (g *Game) BuyCapacity(player int) int {
	if player < 0 || player >= len(g.Players) {
		return 0
	}
	return g.capacity(player, false)
}

func (g *Game) capacity(player int, dupOnly bool) int {
	pl := &g.Players[player]
	c := pl.Money + ConsolationValue*pl.Consolation
	if dupOnly {
		return c + duplicates(pl.Collection)
	}
	return c + CountNumbers(pl.Collection)
}

// CountNumbers counts the number cards among cards (wilds and currency
// aside).
func CountNumbers(cards []Card) int {
	n := 0
	for _, c := range cards {
		if c.Kind == KindNumber {
			n++
		}
	}
	return n
}

// numberCounts counts the number cards of cards by cardIndex (0–35).
func numberCounts(cards []Card) (n [36]uint8) {
	for _, c := range cards {
		if c.Kind == KindNumber {
			if i := numberIndex(c); uint(i) < 36 {
				n[i]++
			}
		}
	}
	return n
}

// duplicates is the number of extra copies of number cards: the cards that
// could go without losing any colour+number (R6, §5).
func duplicates(cards []Card) int {
	n := numberCounts(cards)
	d := 0
	for _, k := range n {
		if k > 1 {
			d += int(k) - 1
		}
	}
	return d
}

// auctionContext reports whether a payment now is an auction payment in a
// solo game, where only duplicates may pay (§5).
func (g *Game) soloAuction() bool {
	return g.Solo() && (g.Phase == PhaseAuction || g.Phase == PhaseAuctionPay)
}

// CheckPayment reports whether p is a valid payment of price by player now:
// every token and card is the player's own, no wild is in it (R4), it covers
// the price (R6) and holds no superfluous unit (R3: no money token, card or
// consolation token could be left out with the rest still covering it, so
// only an indivisible consolation token's excess is lost). While an auction
// runs in a solo game only duplicate cards may pay (§5). Returns nil or an
// error wrapping ErrUnknownPlayer, ErrNotOwned, ErrWildPayment,
// ErrSoloPayment, ErrPaymentShort or ErrSuperfluousPayment.
func (g *Game) CheckPayment(player, price int, p Payment) error {
	if player < 0 || player >= len(g.Players) {
		return fmt.Errorf("%w: seat %d", ErrUnknownPlayer, player)
	}
	return g.checkPayment(player, price, p, g.soloAuction())
}

func (g *Game) checkPayment(player, price int, p Payment, dupOnly bool) error {
	pl := &g.Players[player]
	if p.Money < 0 || p.Consolation < 0 {
		return fmt.Errorf("%w: negative tokens", ErrNotOwned)
	}
	if p.Money > pl.Money {
		return fmt.Errorf("%w: %d money tokens, has %d", ErrNotOwned, p.Money, pl.Money)
	}
	if p.Consolation > pl.Consolation {
		return fmt.Errorf("%w: %d consolation tokens, has %d", ErrNotOwned, p.Consolation, pl.Consolation)
	}
	held := numberCounts(pl.Collection)
	var paid [36]int
	for _, c := range p.Cards {
		if c.IsWild() {
			return fmt.Errorf("%w: %s", ErrWildPayment, c) // R4
		}
		if c.Kind != KindNumber || !c.Valid() {
			return fmt.Errorf("%w: %s", ErrNotOwned, c)
		}
		i := cardIndex(c)
		paid[i]++
		if paid[i] > int(held[i]) {
			return fmt.Errorf("%w: %s", ErrNotOwned, c)
		}
		if dupOnly && paid[i] > int(held[i])-1 {
			return fmt.Errorf("%w: %s is not a duplicate", ErrSoloPayment, c)
		}
	}
	v := p.Value()
	if v < price {
		return fmt.Errorf("%w: %d for %d", ErrPaymentShort, v, price)
	}
	if u := p.smallestUnit(); u > 0 && v-u >= price {
		return fmt.Errorf("%w: %d for %d", ErrSuperfluousPayment, v, price) // R3
	}
	return nil
}

// smallestUnit is the value of the least valuable unit in p: 1 for a money
// token or a card, ConsolationValue for a consolation token, 0 for an empty
// payment. Removing it is the smallest way to pay less (R3).
func (p Payment) smallestUnit() int {
	switch {
	case p.Money > 0 || len(p.Cards) > 0:
		return 1
	case p.Consolation > 0:
		return ConsolationValue
	}
	return 0
}

// trimExcess gives back what a consolation token made superfluous (R3, R12):
// money tokens first, then the cards paid last (duplicates, which were taken
// first), as long as the rest still covers price.
func (p *Payment) trimExcess(price int) {
	for p.Value()-1 >= price && p.Money > 0 {
		p.Money--
	}
	for p.Value()-1 >= price && len(p.Cards) > 0 {
		p.Cards = p.Cards[:len(p.Cards)-1]
	}
}

// ProposePayment returns the payment of price that loses player the least
// (R6): duplicate cards first (extra copies of a colour+number), then money
// tokens, then consolation tokens, other number cards only if nothing else
// covers it. Among token mixes it picks the one worth least (a consolation
// token overpays, R3), then the one with fewer consolation tokens. Cards to
// give up are those whose loss lowers the player's best score least. While
// an auction runs in a solo game only duplicates may pay (§5). It returns
// false when player cannot pay price (or is not a seat). A price ≤ 0 is paid
// with nothing.
func (g *Game) ProposePayment(player, price int) (Payment, bool) {
	if player < 0 || player >= len(g.Players) {
		return Payment{}, false
	}
	return g.proposePayment(player, price, g.soloAuction(), true)
}

// ProposePaymentWith is ProposePayment with the solo auction's restriction
// (only duplicates pay, §5) given by dupOnly instead of read from the phase,
// for the scenario notation's "auto" payments. The caller checks that player
// is a seat.
func (g *Game) ProposePaymentWith(player, price int, dupOnly bool) (Payment, bool) {
	return g.proposePayment(player, price, dupOnly, true)
}

// proposePayment is ProposePayment; exact chooses the cards to give up with
// the scorer, otherwise with the plain run length only (cheaper, for the
// automatic players).
func (g *Game) proposePayment(player, price int, dupOnly, exact bool) (Payment, bool) {
	var p Payment
	if price <= 0 {
		return p, true
	}
	pl := &g.Players[player]
	r := price
	// Duplicates first, lowest card first.
	counts := numberCounts(pl.Collection)
	for i := 0; i < 36 && r > 0; i++ {
		for k := counts[i]; k > 1 && r > 0; k-- {
			p.Cards = append(p.Cards, cardAt(i))
			counts[i]--
			r--
		}
	}
	if r == 0 {
		return p, true
	}
	if tokens := pl.Money + ConsolationValue*pl.Consolation; r <= tokens {
		best := -1
		for c := 0; c <= pl.Consolation; c++ {
			m := max(r-ConsolationValue*c, 0)
			if m > pl.Money {
				continue
			}
			if v := m + ConsolationValue*c; best < 0 || v < best {
				best, p.Money, p.Consolation = v, m, c
			}
			if m == 0 {
				break // more consolation tokens only lose more
			}
		}
		p.trimExcess(price) // R3: a consolation token may make duplicates superfluous
		return p, true
	}
	if dupOnly {
		return Payment{}, false
	}
	p.Money, p.Consolation = pl.Money, pl.Consolation
	r -= pl.Money + ConsolationValue*pl.Consolation
	// What is left: one copy of each colour+number held.
	singles := 0
	for i := range 36 {
		if counts[i] > 0 {
			singles++
		}
	}
	if r > singles {
		return Payment{}, false
	}
	if !exact {
		for ; r > 0; r-- {
			i := cheapestCount(&counts)
			counts[i] = 0
			p.Cards = append(p.Cards, cardAt(i))
		}
		return p, true
	}
	rest := make([]Card, 0, len(pl.Collection))
	for i := range 36 {
		if counts[i] > 0 {
			rest = append(rest, cardAt(i))
		}
	}
	for _, c := range pl.Collection {
		if c.IsWild() {
			rest = append(rest, c)
		}
	}
	for ; r > 0; r-- {
		i := cheapestCard(rest)
		p.Cards = append(p.Cards, rest[i])
		rest = append(rest[:i], rest[i+1:]...)
	}
	return p, true
}

// cheapestCount returns the index of the number card held (counts[i] > 0)
// whose loss shortens the plain longest run of its colour least, the lowest
// such card on ties.
func cheapestCount(counts *[36]uint8) int {
	best, bestLoss := -1, 0
	for i := range 36 {
		if counts[i] == 0 {
			continue
		}
		var have [10]bool
		col := i / 9 * 9
		for v := range 9 {
			have[v+1] = counts[col+v] > 0
		}
		before := longestRun(have)
		have[i%9+1] = false
		if loss := before - longestRun(have); best < 0 || loss < bestLoss {
			best, bestLoss = i, loss
		}
	}
	return best
}

// cheapestCard returns the index in coll (number cards in card order, then
// wilds) of the number card whose loss costs the least: the best score drops
// least, then the plain longest run of its colour (wilds aside) drops least,
// then the lowest card.
func cheapestCard(coll []Card) int {
	base := BestScore(coll).Total
	best, bestLoss, bestRun := -1, 0, 0
	tmp := make([]Card, 0, len(coll))
	for i, c := range coll {
		if c.Kind != KindNumber {
			continue
		}
		tmp = append(tmp[:0], coll[:i]...)
		tmp = append(tmp, coll[i+1:]...)
		loss := base - BestScore(tmp).Total
		run := PlainRunLoss(coll, c)
		if best < 0 || loss < bestLoss || (loss == bestLoss && run < bestRun) {
			best, bestLoss, bestRun = i, loss, run
		}
	}
	return best
}

// PlainRunLoss is how much the longest run of c's colour, counting number
// cards only, shrinks without c: the tie-break between payments that cost
// the same score (R6).
func PlainRunLoss(coll []Card, c Card) int {
	var have [10]bool
	for _, x := range coll {
		if x.Kind == KindNumber && x.Color == c.Color {
			have[x.Value] = true
		}
	}
	before := longestRun(have)
	have[c.Value] = false
	return before - longestRun(have)
}

func longestRun(have [10]bool) int {
	best, run := 0, 0
	for v := 1; v <= 9; v++ {
		if have[v] {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// alixPayment is how ALIX pays price (R12): duplicate cards first, then money
// tokens, then consolation tokens until the price is covered; if a
// consolation token leaves an excess she takes back money tokens, then
// duplicate cards, while the rest covers the price, so she pays no
// superfluous unit (R3). Her bids never exceed her capacity, so it always
// covers the price.
func (g *Game) alixPayment(price int) Payment {
	var p Payment
	pl := &g.Players[Alix]
	r := price
	counts := numberCounts(pl.Collection)
	for i := 0; i < 36 && r > 0; i++ {
		for k := counts[i]; k > 1 && r > 0; k-- {
			p.Cards = append(p.Cards, cardAt(i))
			r--
		}
	}
	p.Money = min(r, pl.Money)
	r -= p.Money
	p.Consolation = (r + ConsolationValue - 1) / ConsolationValue
	p.trimExcess(price)
	return p
}
