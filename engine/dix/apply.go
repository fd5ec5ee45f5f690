package dix

import "fmt"

// ToAct returns the seat whose decision it is, or -1 when the game is over.
// In solo it never returns ALIX's seat: her decisions are applied by the
// engine itself (SPEC §5).
func (g *Game) ToAct() int {
	if len(g.Players) == 0 {
		return -1 // not a game
	}
	switch g.Phase {
	case PhaseDraw, PhaseChoose, PhaseBuy, PhaseBustChoice:
		return g.Active
	case PhaseAuction:
		if a := g.Auction; a != nil && a.Next >= 0 && a.Next < len(a.Order) {
			return a.Order[a.Next]
		}
	case PhaseAuctionPay:
		if g.Auction != nil {
			return g.Auction.HighBidder
		}
	case PhaseFinalBuy:
		if g.FinalNext >= 0 && g.FinalNext < len(g.FinalOrder) {
			return g.FinalOrder[g.FinalNext]
		}
	}
	return -1
}

// Apply applies one action. On success it returns what happened; on failure
// it returns an error wrapping one sentinel of errors.go (ErrUnknownAction,
// ErrUnknownPlayer, ErrGameOver, ErrNotYourTurn, ErrWrongPhase, ErrDeckEmpty,
// ErrMustDraw, ErrNotInMarket, ErrIdenticalCard, ErrBidTooLow, ErrBidTooHigh,
// ErrNotOwned, ErrWildPayment, ErrSoloPayment, ErrPaymentShort,
// ErrSuperfluousPayment) and leaves g
// unchanged: the action is validated completely before anything changes.
// Seq grows by one with every successful Apply. In solo, ALIX's decisions
// that follow are applied too and appear in the events.
func (g *Game) Apply(a Action) ([]Event, error) { return g.ApplyInto(nil, a) }

// ApplyInto is Apply appending the events to evs, so that a caller applying
// many actions (a simulation) can reuse one buffer. On error evs is returned
// as given.
func (g *Game) ApplyInto(evs []Event, a Action) ([]Event, error) {
	if err := g.validate(a); err != nil {
		return evs, err
	}
	g.Seq++
	evs = g.do(evs, a)
	return g.advance(evs), nil
}

// phaseAllows says which action kinds each phase accepts.
var phaseAllows = [...][2]ActionKind{
	PhaseDraw:       {ActDraw, ActStop},
	PhaseChoose:     {ActTakeNumbers, ActTakeMoney},
	PhaseBuy:        {ActBuy, ActEndTurn},
	PhaseBustChoice: {ActConsolation, ActBustBuy},
	PhaseAuction:    {ActBid, ActPass},
	PhaseAuctionPay: {ActPay, ActPay},
	PhaseFinalBuy:   {ActBuy, ActEndTurn},
	PhaseOver:       {},
}

// validate checks a completely without changing anything.
func (g *Game) validate(a Action) error {
	if a.Kind <= ActInvalid || a.Kind > ActPay {
		return fmt.Errorf("%w: kind %d", ErrUnknownAction, a.Kind)
	}
	if a.Player < 0 || a.Player >= len(g.Players) {
		return fmt.Errorf("%w: seat %d", ErrUnknownPlayer, a.Player)
	}
	if g.Phase == PhaseOver {
		return ErrGameOver
	}
	if g.IsAlix(a.Player) {
		return fmt.Errorf("%w: ALIX plays by herself", ErrNotYourTurn)
	}
	if to := g.ToAct(); a.Player != to {
		return fmt.Errorf("%w: seat %d acted, seat %d decides", ErrNotYourTurn, a.Player, to)
	}
	if int(g.Phase) >= len(phaseAllows) {
		return fmt.Errorf("%w: phase %d", ErrWrongPhase, g.Phase)
	}
	if allow := phaseAllows[g.Phase]; a.Kind != allow[0] && a.Kind != allow[1] {
		return fmt.Errorf("%w: %s during %s", ErrWrongPhase, a.Kind, g.Phase)
	}
	switch a.Kind {
	case ActDraw:
		if len(g.Deck) == 0 {
			return ErrDeckEmpty // 4, R7: the last card was drawn
		}
	case ActStop:
		if g.Drawn == 0 {
			return ErrMustDraw // R2
		}
	case ActBuy:
		return g.checkBuy(a.Player, a.Card, a.Payment)
	case ActBid:
		if a.Amount < g.minBid() {
			return fmt.Errorf("%w: %d, at least %d", ErrBidTooLow, a.Amount, g.minBid())
		}
		if c := g.Capacity(a.Player); a.Amount > c {
			return fmt.Errorf("%w: %d, capacity %d", ErrBidTooHigh, a.Amount, c)
		}
	case ActPay:
		return g.checkPayment(a.Player, g.Auction.HighBid, a.Payment, g.Solo())
	}
	return nil
}

// checkBuy validates buying card with p (3.4).
func (g *Game) checkBuy(player int, card Card, p Payment) error {
	if card.Kind != KindNumber || !card.Valid() || !containsCard(g.Market, card) {
		return fmt.Errorf("%w: %s", ErrNotInMarket, card)
	}
	// R5: checked against the collection before payment.
	if containsCard(g.Players[player].Collection, card) {
		return fmt.Errorf("%w: %s", ErrIdenticalCard, card)
	}
	// §5: the duplicate-only rule is for auctions; the market works as usual.
	return g.checkPayment(player, int(card.Value), p, false)
}

// do performs a validated action.
func (g *Game) do(evs []Event, a Action) []Event {
	switch a.Kind {
	case ActDraw:
		return g.draw(evs)
	case ActStop:
		return g.stop(evs)
	case ActTakeNumbers:
		return g.takeNumbers(evs)
	case ActTakeMoney:
		return g.takeMoney(evs)
	case ActBuy:
		return g.buy(evs, a.Player, a.Card, a.Payment)
	case ActEndTurn:
		if g.Phase == PhaseFinalBuy {
			evs = append(evs, Event{Kind: EvFinalBuySkipped, Player: a.Player})
			return g.nextFinalBuyer(evs)
		}
		return g.endTurn(evs)
	case ActConsolation:
		g.Players[a.Player].Consolation++
		evs = append(evs, Event{Kind: EvConsolation, Player: a.Player})
		return g.endTurn(evs)
	case ActBustBuy:
		g.Phase = PhaseBuy
		return append(evs, Event{Kind: EvBustBuy, Player: a.Player})
	case ActBid:
		return g.bid(evs, a.Player, a.Amount)
	case ActPass:
		return g.pass(evs, a.Player)
	case ActPay:
		return g.payAuction(evs, a.Player, a.Payment)
	}
	return evs
}

// tableauSums returns the tableau's total (numbers minus currency) and money
// (currency) (3.1).
func (g *Game) tableauSums() (total, money int) {
	for _, c := range g.Tableau {
		if c.Kind == KindCurrency {
			money += int(c.Value)
		} else {
			total += int(c.Value)
		}
	}
	return total - money, money
}

// draw draws the top card (3.1).
func (g *Game) draw(evs []Event) []Event {
	c := g.Deck[0]
	g.Deck = g.Deck[1:]
	g.Drawn++
	p := g.Active
	evs = append(evs, Event{Kind: EvDrew, Player: p, Card: c})
	if len(g.Deck) == 0 {
		g.EndTriggered = true
		evs = append(evs, Event{Kind: EvEndTriggered, Player: p})
	}
	if c.IsWild() {
		return g.startAuction(evs, c)
	}
	g.Tableau = append(g.Tableau, c)
	total, money := g.tableauSums()
	switch {
	case c.Kind == KindNumber && total >= BustLimit && !g.IsAlix(p):
		// §5: ALIX never busts by total.
		return g.bust(evs, BustTotal, total, money)
	case c.Kind == KindCurrency && money >= BustLimit:
		return g.bust(evs, BustMoney, total, money)
	}
	return evs
}

// bust resolves a bust (3.3). In the bust variant the buy-or-token choice is
// left for last: the other steps do not touch the active player's holdings,
// so the outcome is the rulebook's and the tableau is clear when the player
// decides.
func (g *Game) bust(evs []Event, kind BustKind, total, money int) []Event {
	p := g.Active
	amount := total
	if kind == BustMoney {
		amount = money
	}
	evs = append(evs, Event{Kind: EvBust, Player: p, Bust: kind, Amount: amount, Cards: g.keep(g.Tableau)})
	if g.IsAlix(p) {
		// §5: ALIX busts only by money; she keeps the numbers, gains a
		// consolation token, and the human gains nothing.
		evs = g.numbersToCollection(evs, p)
		g.Players[p].Consolation++
		evs = append(evs, Event{Kind: EvConsolation, Player: p})
		evs = g.currencyToDiscard(evs)
		return g.endTurn(evs)
	}
	evs = g.numbersToMarket(evs)
	if !g.Opts.BustVariant {
		g.Players[p].Consolation++ // even at 10 money
		evs = append(evs, Event{Kind: EvConsolation, Player: p})
	}
	if kind == BustTotal {
		evs = g.othersGain(evs, money)
	}
	evs = g.currencyToDiscard(evs)
	if g.Opts.BustVariant {
		g.Phase = PhaseBustChoice
		return evs
	}
	return g.endTurn(evs)
}

// stop ends the drawing (3.2).
func (g *Game) stop(evs []Event) []Event {
	g.Phase = PhaseChoose
	return append(evs, Event{Kind: EvStopped, Player: g.Active})
}

// takeNumbers is the "numbers" reward (3.2).
func (g *Game) takeNumbers(evs []Event) []Event {
	p := g.Active
	_, money := g.tableauSums()
	evs = g.numbersToCollection(evs, p)
	evs = g.othersGain(evs, money)
	evs = g.currencyToDiscard(evs)
	if g.IsAlix(p) {
		return g.endTurn(evs) // §5: ALIX never buys
	}
	g.Phase = PhaseBuy
	return evs
}

// takeMoney is the "money" reward (3.2).
func (g *Game) takeMoney(evs []Event) []Event {
	p := g.Active
	_, money := g.tableauSums()
	evs = append(evs, Event{Kind: EvTookMoney, Player: p, Amount: money})
	evs = g.gain(evs, p, money)
	evs = g.currencyToDiscard(evs)
	evs = g.numbersToMarket(evs)
	return g.endTurn(evs)
}

// gain gives seat amount money tokens, losing what goes beyond the limit.
func (g *Game) gain(evs []Event, seat, amount int) []Event {
	if amount <= 0 {
		return evs
	}
	got := min(amount, max(MoneyLimit-g.Players[seat].Money, 0))
	g.Players[seat].Money += got
	return append(evs, Event{Kind: EvGained, Player: seat, Amount: got, Lost: amount - got})
}

// othersGain gives every player but the active one amount tokens, in seat
// order from the active player's left.
func (g *Game) othersGain(evs []Event, amount int) []Event {
	n := len(g.Players)
	for i := 1; i < n; i++ {
		evs = g.gain(evs, (g.Active+i)%n, amount)
	}
	return evs
}

// numbersToCollection moves the tableau's number cards into seat's collection.
func (g *Game) numbersToCollection(evs []Event, seat int) []Event {
	pl := &g.Players[seat]
	start := len(pl.Collection)
	g.Tableau = moveNumbers(g.Tableau, &pl.Collection)
	return append(evs, Event{Kind: EvTookNumbers, Player: seat, Cards: g.keep(pl.Collection[start:])})
}

// numbersToMarket moves the tableau's number cards to the market.
func (g *Game) numbersToMarket(evs []Event) []Event {
	start := len(g.Market)
	g.Tableau = moveNumbers(g.Tableau, &g.Market)
	if len(g.Market) == start {
		return evs
	}
	return append(evs, Event{Kind: EvToMarket, Player: g.Active, Cards: g.keep(g.Market[start:])})
}

// currencyToDiscard moves the tableau's currency cards to the discard,
// leaving its number cards.
func (g *Game) currencyToDiscard(evs []Event) []Event {
	start := len(g.Discard)
	rest := g.Tableau[:0]
	for _, c := range g.Tableau {
		if c.Kind == KindCurrency {
			g.Discard = append(g.Discard, c)
		} else {
			rest = append(rest, c)
		}
	}
	g.Tableau = rest
	if len(g.Discard) == start {
		return evs
	}
	return append(evs, Event{Kind: EvToDiscard, Player: g.Active, Cards: g.keep(g.Discard[start:])})
}

// moveNumbers appends the number cards of from to *to and returns what
// remains of from (the currency cards, in order).
func moveNumbers(from []Card, to *[]Card) []Card {
	rest := from[:0]
	for _, c := range from {
		if c.Kind == KindNumber {
			*to = append(*to, c)
		} else {
			rest = append(rest, c)
		}
	}
	return rest
}

// buy buys card paying p (3.4, 4).
func (g *Game) buy(evs []Event, player int, card Card, p Payment) []Event {
	evs = g.pay(evs, player, p)
	g.Market = removeCard(g.Market, card)
	pl := &g.Players[player]
	pl.Collection = append(pl.Collection, card)
	evs = append(evs, Event{Kind: EvBought, Player: player, Card: card})
	if g.Phase == PhaseFinalBuy {
		return g.nextFinalBuyer(evs)
	}
	g.Bought = true
	return g.endTurn(evs) // one purchase per buy phase
}

// pay takes a validated payment from player: tokens to the reserve, cards to
// the discard.
func (g *Game) pay(evs []Event, player int, p Payment) []Event {
	pl := &g.Players[player]
	pl.Money -= p.Money
	pl.Consolation -= p.Consolation
	// Copy the cards first: the caller's slice may share memory with the
	// collection they come from, which removeCard shifts (R6: exactly the
	// cards validated are paid).
	p.Cards = g.keep(p.Cards)
	for _, c := range p.Cards {
		pl.Collection = removeCard(pl.Collection, c)
		g.Discard = append(g.Discard, c)
	}
	return append(evs, Event{Kind: EvPaid, Player: player, Payment: p, Amount: p.Value()})
}

// endTurn ends the active player's turn: the next player's turn starts, or
// the final buy round when the end was triggered (4).
func (g *Game) endTurn(evs []Event) []Event {
	evs = append(evs, Event{Kind: EvTurnEnded, Player: g.Active})
	g.Tableau = g.Tableau[:0]
	g.Drawn = 0
	g.Bought = false
	if g.EndTriggered {
		return g.startFinalBuy(evs)
	}
	g.Active = (g.Active + 1) % len(g.Players)
	g.Phase = PhaseDraw
	return append(evs, Event{Kind: EvTurnStarted, Player: g.Active})
}

// startFinalBuy starts the final buy round: seat order from the active
// player's left, the active player last (4, R8).
func (g *Game) startFinalBuy(evs []Event) []Event {
	n := len(g.Players)
	g.FinalOrder = g.FinalOrder[:0]
	for i := 1; i <= n; i++ {
		g.FinalOrder = append(g.FinalOrder, (g.Active+i)%n)
	}
	g.FinalNext = 0
	g.Phase = PhaseFinalBuy
	return append(evs, Event{Kind: EvFinalBuyStarted, Player: g.Active})
}

// nextFinalBuyer moves to the next final buyer, or ends the game.
func (g *Game) nextFinalBuyer(evs []Event) []Event {
	g.FinalNext++
	if g.FinalNext < len(g.FinalOrder) {
		return evs
	}
	g.Phase = PhaseOver
	return append(evs, Event{Kind: EvGameOver, Player: -1})
}

// Value is what a payment is worth: 1 per money token and per card, 3 per
// consolation token (3.4).
func (p Payment) Value() int { return p.Money + ConsolationValue*p.Consolation + len(p.Cards) }

func containsCard(cards []Card, c Card) bool {
	for _, x := range cards {
		if x == c {
			return true
		}
	}
	return false
}

// removeCard removes the first copy of c from cards, keeping the order.
func removeCard(cards []Card, c Card) []Card {
	for i, x := range cards {
		if x == c {
			copy(cards[i:], cards[i+1:])
			return cards[:len(cards)-1]
		}
	}
	return cards
}

// keep copies cards for an event and returns the copy (nil for none). The
// copies are carved from a block shared by the events of successive Apply
// calls: each copy is capped, and a block is only ever appended to, so
// events never alias each other or the state (Clone gives the copy a block
// of its own).
func (g *Game) keep(cards []Card) []Card {
	if len(cards) == 0 {
		return nil
	}
	if cap(g.arena)-len(g.arena) < len(cards) {
		g.arena = make([]Card, 0, max(256, len(cards)))
	}
	start := len(g.arena)
	g.arena = append(g.arena, cards...)
	return g.arena[start:len(g.arena):len(g.arena)]
}

func cloneCards(cards []Card) []Card {
	if len(cards) == 0 {
		return nil
	}
	return append([]Card(nil), cards...)
}

// TableauSums returns the tableau's total (numbers minus currency) and money
// (currency), as the bust check of 3.1 computes them.
func (g *Game) TableauSums() (total, money int) { return g.tableauSums() }

// BustAt says what the next card would have to be to bust the active player
// (3.1): a number card of at least number (0 when none can: above 9, or
// ALIX, who never busts by total), or a currency card of at least currency
// (0 when none can: above 5).
func (g *Game) BustAt() (number, currency int) {
	total, money := g.tableauSums()
	number = max(BustLimit-total, 1)
	if number > 9 || g.IsAlix(g.Active) {
		number = 0
	}
	currency = max(BustLimit-money, 1)
	if currency > 5 {
		currency = 0
	}
	return number, currency
}
