//go:build tune

package dix

import (
	"os"
	"strconv"
	"strings"

	"github.com/dixgame/dixbot/engine/dix"
)

// Tuning runs (go build -tags tune): DIX_TUNE="money=0.25,deal=0.1" changes
// the strong level's weights against ALIX (paramsFor) for simulations with
// cmd/dixsim, so that candidates are measured on the same seeds without
// editing the code. A build without the tag has no such door.
var tune = func() map[string]float64 {
	m := map[string]float64{}
	for _, kv := range strings.Split(os.Getenv("DIX_TUNE"), ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			panic(kv)
		}
		m[k] = f
	}
	return m
}()

// tuned is the value DIX_TUNE gives name, or def.
func tuned(name string, def float64) float64 {
	if v, ok := tune[name]; ok {
		return v
	}
	return def
}

// applyTune changes p as DIX_TUNE says.
func applyTune(p params) params {
	p.money = tuned("money", p.money)
	p.cons = tuned("cons", p.cons)
	p.rival = tuned("rival", p.rival)
	p.pot = tuned("pot", p.pot)
	p.deny = tuned("deny", p.deny)
	p.market = tuned("market", p.market)
	p.depth = int(tuned("depth", float64(p.depth)))
	p.fut = tuned("fut", p.fut)
	p.acq = tuned("acq", p.acq)
	p.deal = tuned("deal", p.deal)
	p.alixMoney = tuned("alixmoney", p.alixMoney)
	p.dup = tuned("dup", p.dup)
	p.alixCap = tuned("alixcap", p.alixCap)
	p.wildBonus = tuned("wildbonus", p.wildBonus)
	p.scoreW = tuned("scorew", p.scoreW)
	p.cardW = tuned("cardw", p.cardW)
	p.endDeck = int(tuned("enddeck", float64(p.endDeck)))
	p.endBudget = int(tuned("endbudget", float64(p.endBudget)))
	return p
}

// FutureDelta is, for tuning runs, what card adds to the expected growth
// term of seat's collection (weighted as the strong level weighs it).
func FutureDelta(g *dix.Game, seat int, card dix.Card) float64 {
	e := newEvaluator(g, seat, paramsFor(Strong, g), nil)
	return e.gain(card) - float64(ScoreDelta(e.coll, card))
}
