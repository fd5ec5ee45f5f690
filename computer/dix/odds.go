package dix

import (
	"math/rand/v2"

	"github.com/dixgame/dixbot/engine/dix"
)

// Odds are the exact chances of the next draw for the active player, from
// the cards not seen yet (the deck as a multiset).
type Odds struct {
	Left int // cards left in the deck
	// BustTotal and BustMoney are the chances that the next card busts by
	// total (a number of at least BustNumber) or by money (a currency card
	// of at least BustCurrency); BustNumber or BustCurrency is 0 when no
	// card can.
	BustTotal, BustMoney     float64
	BustNumber, BustCurrency int
	Wild                     float64 // chance of a wild (an auction)
	// Gain is the expected change, in points of final score, of drawing
	// once more and then stopping at best, against stopping now (as the
	// strong level values things).
	Gain float64
}

// Bust is the chance that the next draw busts, either way.
func (o Odds) Bust() float64 { return o.BustTotal + o.BustMoney }

// DrawOdds returns the odds of the active player's next draw in g. They are
// zero when the deck is empty.
func DrawOdds(g *dix.Game) Odds {
	o := Odds{Left: len(g.Deck)}
	if o.Left == 0 {
		return o
	}
	o.BustNumber, o.BustCurrency = g.BustAt()
	n := float64(o.Left)
	for _, c := range g.Deck {
		switch {
		case c.IsWild():
			o.Wild += 1 / n
		case c.Kind == dix.KindNumber && o.BustNumber > 0 && int(c.Value) >= o.BustNumber:
			o.BustTotal += 1 / n
		case c.Kind == dix.KindCurrency && o.BustCurrency > 0 && int(c.Value) >= o.BustCurrency:
			o.BustMoney += 1 / n
		}
	}
	if g.Phase == dix.PhaseDraw {
		e := newEvaluator(g, g.Active, paramsFor(Strong, g), rand.New(rand.NewPCG(0, 0)))
		d := e.drawing()
		o.Gain = d.draw(1) - d.stopNow()
	}
	return o
}

// Reason says why the advice is what it is, for a one-line explanation.
type Reason uint8

const (
	ReasonNone           Reason = iota
	ReasonMustDraw              // a turn starts with a draw (R2)
	ReasonDeckEmpty             // no card left: stop
	ReasonDraw                  // drawing again is worth more than stopping (Points: by how much)
	ReasonStop                  // stopping is worth more than the risk (Points: drawing's loss, ≤ 0)
	ReasonNumbers               // the numbers are worth more than the money (Points: by how much)
	ReasonMoney                 // the money is worth more than the numbers (Points: numbers minus money, < 0)
	ReasonBuy                   // this purchase is worth its price (Points: net gain)
	ReasonNothingWorthIt        // no purchase is worth its price
	ReasonConsolation           // the token is worth more than any purchase
	ReasonBustBuy               // a purchase is worth more than the token (Points: its net gain)
	ReasonBid                   // the wild is worth this bid (Points: what it is worth)
	ReasonPass                  // the wild is not worth the lowest bid (Points: what it is worth)
	ReasonPay                   // the proposed payment loses the least
	ReasonEndgame               // the end of the game, searched exactly, is best won this way (Points: the chance to win, 0–1)
)

// Advice is what the strong level would do now, and why.
type Advice struct {
	Action dix.Action
	Reason Reason
	Points float64 // see the Reason
}

// Advise returns the strong level's decision for seat in g with its reason.
// Its Action is of kind dix.ActInvalid when seat has nothing to decide.
func Advise(g *dix.Game, seat int, r *rand.Rand) Advice {
	_, adv := decide(g, seat, Strong, r)
	return adv
}
