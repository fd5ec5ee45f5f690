package dix

import "fmt"

// Check verifies the invariants of SPEC §6 and the internal consistency of
// the state, and returns the first violation wrapped in ErrInvariant (nil
// when all hold): card conservation against the deck built at setup (the wild
// under auction counts), 0 ≤ money ≤ 10, consolation ≥ 0, the right kinds of
// card in each zone, and the phase agreeing with the auction, the final buy
// round, the deck and the tableau.
func (g *Game) Check() error {
	if err := g.check(); err != nil {
		return fmt.Errorf("%w: %s", ErrInvariant, err)
	}
	return nil
}

type checkError string

func (e checkError) Error() string { return string(e) }

func failf(format string, args ...any) error { return checkError(fmt.Sprintf(format, args...)) }

func (g *Game) check() error {
	if g.Opts.Players < 1 || g.Opts.Players > 5 {
		return failf("%d players", g.Opts.Players)
	}
	n := len(g.Players)
	if n != seatsFor(g.Opts.Players) {
		return failf("%d seats for %d players", n, g.Opts.Players)
	}
	if g.Solo() && (g.Opts.Difficulty < MinDifficulty || g.Opts.Difficulty > MaxDifficulty) {
		return failf("solo difficulty %d", g.Opts.Difficulty)
	}
	if g.Active < 0 || g.Active >= n {
		return failf("active seat %d", g.Active)
	}

	// Card conservation (§6).
	var count [numCardIndex]int
	// zone counts the cards of a zone; seat is the collection's seat (-1:
	// the zone is name), named only when a card is refused.
	zone := func(name string, seat int, cards []Card, ok func(Card) bool) error {
		for _, c := range cards {
			i := cardIndex(c)
			if i >= 0 && ok(c) {
				count[i]++
				continue
			}
			if seat >= 0 {
				name = fmt.Sprintf("collection %d", seat)
			}
			if i < 0 {
				return failf("invalid card %v in %s", c, name)
			}
			return failf("%s in %s", c, name)
		}
		return nil
	}
	anyCard := func(Card) bool { return true }
	notCurrency := func(c Card) bool { return c.Kind != KindCurrency }
	numbersOnly := func(c Card) bool { return c.Kind == KindNumber }
	tableauKinds := func(c Card) bool { return c.Kind == KindNumber || c.Kind == KindCurrency }
	if err := zone("deck", -1, g.Deck, anyCard); err != nil {
		return err
	}
	if err := zone("tableau", -1, g.Tableau, tableauKinds); err != nil {
		return err
	}
	if err := zone("market", -1, g.Market, numbersOnly); err != nil {
		return err
	}
	if err := zone("discard", -1, g.Discard, anyCard); err != nil {
		return err
	}
	for i, p := range g.Players {
		if err := zone("", i, p.Collection, notCurrency); err != nil {
			return err
		}
		if p.Money < 0 || p.Money > MoneyLimit {
			return failf("seat %d has %d money tokens", i, p.Money)
		}
		if p.Consolation < 0 {
			return failf("seat %d has %d consolation tokens", i, p.Consolation)
		}
	}
	if a := g.Auction; a != nil {
		if !a.Wild.IsWild() || !a.Wild.Valid() {
			return failf("%v under auction", a.Wild)
		}
		count[cardIndex(a.Wild)]++
	}
	for i := range count {
		if count[i] != int(g.setup[i]) {
			return failf("%d × %s in play, %d at setup", count[i], cardAt(i), g.setup[i])
		}
	}

	// The end of the game (4).
	if g.EndTriggered != (len(g.Deck) == 0) {
		return failf("end triggered %v with %d cards in the deck", g.EndTriggered, len(g.Deck))
	}
	if (g.Phase == PhaseFinalBuy || g.Phase == PhaseOver) && !g.EndTriggered {
		return failf("%s before the end", g.Phase)
	}

	// The auction.
	inAuction := g.Phase == PhaseAuction || g.Phase == PhaseAuctionPay
	if inAuction != (g.Auction != nil) {
		return failf("auction %v during %s", g.Auction != nil, g.Phase)
	}
	if a := g.Auction; a != nil {
		if err := checkOrder(a.Order, g.Active, n); err != nil {
			return failf("auction order: %v", err)
		}
		if (a.HighBidder < 0) != (a.HighBid == 0) || a.HighBidder >= n || a.HighBid < 0 {
			return failf("high bid %d by seat %d", a.HighBid, a.HighBidder)
		}
		if g.Phase == PhaseAuction && (a.Next < 0 || a.Next >= len(a.Order)) {
			return failf("auction turn %d of %d", a.Next, len(a.Order))
		}
		if g.Phase == PhaseAuctionPay && (a.Next != len(a.Order) || a.HighBidder < 0) {
			return failf("auction payment with turn %d and winner %d", a.Next, a.HighBidder)
		}
		if a.HighBidder >= 0 && a.HighBid > g.Capacity(a.HighBidder) {
			return failf("seat %d bid %d above capacity %d", a.HighBidder, a.HighBid, g.Capacity(a.HighBidder))
		}
	}

	// The final buy round.
	if g.Phase == PhaseFinalBuy || g.Phase == PhaseOver {
		if err := checkOrder(g.FinalOrder, g.Active, n); err != nil {
			return failf("final order: %v", err)
		}
		if g.Phase == PhaseFinalBuy && (g.FinalNext < 0 || g.FinalNext >= n) {
			return failf("final buyer %d of %d", g.FinalNext, n)
		}
		if g.Phase == PhaseOver && g.FinalNext != n {
			return failf("game over with final buyer %d of %d", g.FinalNext, n)
		}
	}

	// The tableau and the draw.
	total, money := g.tableauSums()
	switch g.Phase {
	case PhaseDraw, PhaseChoose, PhaseAuction, PhaseAuctionPay:
		if money >= BustLimit || (total >= BustLimit && !g.IsAlix(g.Active)) {
			return failf("bust tableau (total %d, money %d) during %s", total, money, g.Phase)
		}
		if g.Drawn < 1 && g.Phase != PhaseDraw {
			return failf("%s with no card drawn", g.Phase)
		}
		if len(g.Tableau) > g.Drawn {
			return failf("%d cards in the tableau, %d drawn", len(g.Tableau), g.Drawn)
		}
	case PhaseBuy, PhaseBustChoice, PhaseFinalBuy, PhaseOver:
		if len(g.Tableau) != 0 {
			return failf("%d cards in the tableau during %s", len(g.Tableau), g.Phase)
		}
	default:
		return failf("phase %d", g.Phase)
	}
	if g.Drawn < 0 {
		return failf("%d cards drawn", g.Drawn)
	}
	if g.Phase == PhaseDraw && g.Drawn == 0 && len(g.Tableau) != 0 {
		return failf("tableau before the first draw")
	}
	if g.Solo() && g.Phase != PhaseOver && g.ToAct() == Alix {
		return failf("ALIX left to decide during %s", g.Phase)
	}
	return nil
}

// checkOrder checks that order lists every seat once, from active's left,
// active last.
func checkOrder(order []int, active, n int) error {
	if len(order) != n {
		return failf("%d seats of %d", len(order), n)
	}
	for i, s := range order {
		if s != (active+1+i)%n {
			return failf("seat %d at %d", s, i)
		}
	}
	return nil
}
