package dix

import (
	"fmt"
	"math/rand/v2"
)

// Automatic players, for simulations, benchmarks and fuzzing. They are pure
// like the rest of the engine: all randomness comes from the *rand.Rand given.

// Policy decides for seat, to whom c (the seat's current Choices, never
// empty) belongs. It must return a legal action.
type Policy func(g *Game, seat int, c *Choices, r *rand.Rand) Action

// RandomPolicy picks uniformly among the legal decisions: an action kind,
// then a bid amount or a market card; payments are the proposed ones.
func RandomPolicy(g *Game, seat int, c *Choices, r *rand.Rand) Action {
	a := Action{Kind: c.Actions[r.IntN(len(c.Actions))], Player: seat}
	switch a.Kind {
	case ActBid:
		a.Amount = c.MinBid + r.IntN(c.MaxBid-c.MinBid+1)
	case ActBuy:
		a.Card = c.Buyable[r.IntN(len(c.Buyable))]
		a.Payment, _ = g.proposePayment(seat, int(a.Card.Value), false, false)
	case ActPay:
		a.Payment, _ = g.proposePayment(seat, c.Owe, g.Solo(), false)
	}
	return a
}

// SimplePolicy plays sensibly without looking ahead: it draws while a bust is
// unlikely, takes the numbers when they are new to it, buys a card that
// extends a run when duplicates and tokens pay for it, and bids up to a
// modest amount for wilds.
func SimplePolicy(g *Game, seat int, c *Choices, r *rand.Rand) Action {
	a := Action{Player: seat}
	has := func(k ActionKind) bool {
		for _, x := range c.Actions {
			if x == k {
				return true
			}
		}
		return false
	}
	switch g.Phase {
	case PhaseDraw:
		total, money := g.tableauSums()
		if has(ActDraw) && (g.Drawn == 0 || (total <= 4 && money <= 6)) {
			a.Kind = ActDraw
		} else {
			a.Kind = ActStop
		}
	case PhaseChoose:
		total, money := g.tableauSums()
		held := numberCounts(g.Players[seat].Collection)
		newCards := 0
		for _, t := range g.Tableau {
			if t.Kind == KindNumber && held[numberIndex(t)] == 0 {
				newCards++
			}
		}
		a.Kind = ActTakeNumbers
		if newCards == 0 || (newCards == 1 && money >= 5 && total < 5) {
			a.Kind = ActTakeMoney
		}
	case PhaseBuy, PhaseFinalBuy:
		a.Kind = ActEndTurn
		if len(c.Buyable) == 0 {
			break
		}
		pl := &g.Players[seat]
		held := numberCounts(pl.Collection)
		dups := 0
		for _, k := range held {
			if k > 1 {
				dups += int(k) - 1
			}
		}
		budget := pl.Money + ConsolationValue*pl.Consolation + dups
		for _, card := range c.Buyable {
			if int(card.Value) > budget || !extendsRun(&held, card) {
				continue
			}
			if p, ok := g.proposePayment(seat, int(card.Value), false, false); ok && len(p.Cards) <= dups {
				a.Kind, a.Card, a.Payment = ActBuy, card, p
				break
			}
		}
	case PhaseBustChoice:
		a.Kind = ActConsolation
	case PhaseAuction:
		limit := 4
		if g.Solo() {
			limit = 7
		}
		if has(ActBid) && c.MinBid <= limit {
			a.Kind, a.Amount = ActBid, c.MinBid
		} else {
			a.Kind = ActPass
		}
	case PhaseAuctionPay:
		a.Kind = ActPay
		a.Payment, _ = g.proposePayment(seat, c.Owe, g.Solo(), false)
	default:
		return RandomPolicy(g, seat, c, r)
	}
	return a
}

// extendsRun reports whether card touches a number card of its colour
// already held (or the colour is still empty).
func extendsRun(held *[36]uint8, card Card) bool {
	base := int(card.Color-Blue) * 9
	v := int(card.Value) - 1
	if v > 0 && held[base+v-1] > 0 || v < 8 && held[base+v+1] > 0 {
		return true
	}
	for i := base; i < base+9; i++ {
		if held[i] > 0 {
			return false
		}
	}
	return true
}

// Play plays g to the end, asking policies[seat] for every decision (a
// policy per seat; ALIX plays by herself in solo). With check it runs Check
// after every action and returns the first violation, naming the action.
// It returns the number of actions applied. An illegal action from a policy
// is returned as an error.
func Play(g *Game, policies []Policy, r *rand.Rand, check bool) (int, error) {
	var c Choices
	var evs []Event
	n := 0
	for g.Phase != PhaseOver {
		seat := g.ToAct()
		if seat < 0 {
			return n, fmt.Errorf("%w: nobody to act during %s", ErrInvariant, g.Phase)
		}
		g.ChoicesInto(seat, &c)
		if len(c.Actions) == 0 {
			return n, fmt.Errorf("%w: seat %d has no choice during %s", ErrInvariant, seat, g.Phase)
		}
		a := policies[seat%len(policies)](g, seat, &c, r)
		var err error
		evs, err = g.ApplyInto(evs[:0], a)
		if err != nil {
			return n, fmt.Errorf("action %d (%s by seat %d): %w", n+1, a.Kind, seat, err)
		}
		n++
		if check {
			if err := g.Check(); err != nil {
				return n, fmt.Errorf("after action %d (%s by seat %d): %w", n, a.Kind, seat, err)
			}
		}
	}
	return n, nil
}
