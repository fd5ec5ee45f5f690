package dix

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/dixgame/dixbot/computer"
	"github.com/dixgame/dixbot/engine/dix"
)

// Level is how well the computer plays: the levels of package computer.
type Level = computer.Level

const (
	Easy   = computer.Easy
	Normal = computer.Normal
	Strong = computer.Strong
)

// Levels lists the levels, weakest first.
var Levels = computer.Levels

// ErrLevel is returned by ParseLevel for an unknown name.
var ErrLevel = computer.ErrLevel

// ParseLevel reads a level name (any case). It returns ErrLevel otherwise.
func ParseLevel(s string) (Level, error) { return computer.ParseLevel(s) }

// params are the weights one level plays with, in points of final score.
type params struct {
	money  float64 // one money token
	cons   float64 // one consolation token (worth 3 in payment, but indivisible)
	rival  float64 // what the average rival gains counts this much against the player
	pot    float64 // a card one gap away from lengthening a run
	deny   float64 // share of a wild's value to the best rival that is worth paying to deny it
	market float64 // share of a card's net worth kept when it goes to the market (solo: ALIX never buys)
	depth  int     // draws looked ahead
	noise  float64 // random error added to each option's value (the easy level)
	fut    float64 // weight of a collection's expected growth (instead of pot)
	acq    float64 // chance of getting each unseen copy of a number card, for fut
	deal   float64 // solo: each card drawn, for being one ALIX will not draw
	dup    float64 // each duplicate card held, for what it pays
	// solo auctions (soloBid, when alixCap > 0): what each unit of
	// capacity ALIX spends is worth to the player, and a premium on what a
	// wild adds to the player's collection (the scorer sees only what it
	// adds now; a wild fills whatever gap is left at the end)
	alixCap, wildBonus float64
	scoreW             float64 // weight of a collection's best score (1 unless tuned)
	cardW              float64 // each number card held, whatever it adds now
	// solo: each money token ALIX gains, for the wilds she takes or makes
	// dear with it (0: counted as a rival's like in other games)
	alixMoney float64
	// solo: with at most endDeck cards left, the end of the game is
	// searched exactly, up to endBudget positions
	endDeck, endBudget int
}

func paramsFor(l Level, g *dix.Game) params {
	var p params
	switch l {
	case Easy:
		p = params{money: 0.3, cons: 0.6, rival: 0.2, pot: 0.1, deny: 0, depth: 1, noise: 0.8}
	case Normal:
		p = params{money: 0.3, cons: 0.7, rival: 0.6, pot: 0.25, deny: 0.3, depth: 1}
	default:
		p = params{money: 0.3, cons: 0.75, rival: 1, pot: 0.3, deny: 0.6, depth: 2}
	}
	p.scoreW = 1
	if g.Solo() && l > Easy {
		p = soloTuned(p)
		if l == Strong {
			// The expected growth of the runs values cards better than the
			// one-gap potential (measured against ALIX).
			p.pot, p.fut, p.acq = 0, 0.6, 0.3
			// Every card the player draws, kept or busted into the market
			// (where ALIX never buys), is one fewer for her: the game ends
			// sooner and her collection grows less. The more she draws a
			// turn (the higher the difficulty), the more that is worth.
			p.deal = 0.2 * float64(g.Opts.Difficulty-1) / 9
			// Against her, each number card kept is worth something beyond
			// what it adds now (a duplicate bids in her auctions, §5; a
			// lone card may join a run later), and each token she gains
			// costs the player: she spends it all on the wilds the player
			// wants. The two pull the same decision (taking numbers gives
			// her the tableau's money, 3.2) opposite ways and only pay
			// together (docs/computer-dix-tuning.md).
			p.cardW, p.alixMoney = 0.3, 0.3
			p.money, p.cons = 0.33, 0.9
			// The end of the game is searched exactly (endgame.go) as far
			// as the time allows.
			p.endDeck, p.endBudget = 5, 700
			// Auctions by their known outcomes (soloBid): a unit of
			// capacity she spends is one she cannot outbid the player
			// with later.
			p.alixCap, p.wildBonus = 0.3, 0.8
			p = applyTune(p)
		}
	}
	return p
}

// soloTuned adapts the weights to ALIX (SPEC §5): she never buys, so the
// money she gains serves her only in auctions.
func soloTuned(p params) params {
	p.rival *= 0.3
	p.market = 0.5
	return p
}

// ScoreDelta is how the best score of collection changes when card is
// added (a number card or a wild): +2 when it joins two runs into one.
func ScoreDelta(collection []dix.Card, card dix.Card) int {
	with := append(slices.Clip(collection), card)
	return dix.BestScore(with).Total - dix.BestScore(collection).Total
}

// SpendDelta is how the best score of collection changes when the number
// cards spent leave it (zero or negative): spending a duplicate costs
// nothing, spending a card of a run shortens it.
func SpendDelta(collection, spent []dix.Card) int {
	return dix.BestScore(without(collection, spent)).Total - dix.BestScore(collection).Total
}

// without returns coll less one copy of each card of cards.
func without(coll, cards []dix.Card) []dix.Card {
	out := slices.Clone(coll)
	for _, c := range cards {
		if i := slices.Index(out, c); i >= 0 {
			out = slices.Delete(out, i, i+1)
		}
	}
	return out
}

// potential counts, over the colours, the number cards held one gap away
// from the longest run: the cards a single lucky card would add to it.
func potential(coll []dix.Card) int {
	var have [4][11]bool
	for _, c := range coll {
		if c.Kind == dix.KindNumber {
			have[c.Color-dix.Blue][c.Value] = true
		}
	}
	total := 0
	for col := range have {
		h := &have[col]
		run, best := 0, 0
		for v := 1; v <= 9; v++ {
			if h[v] {
				run++
				best = max(best, run)
			} else {
				run = 0
			}
		}
		// The most cards held in a window with one gap.
		gap := 0
		for v := 1; v <= 9; v++ {
			if h[v] {
				continue
			}
			n := 0
			for l := v - 1; l >= 1 && h[l]; l-- {
				n++
			}
			for r := v + 1; r <= 9 && h[r]; r++ {
				n++
			}
			gap = max(gap, n)
		}
		total += max(0, gap-best)
	}
	return total
}

// evaluator values collections for one decision of one seat, caching what
// it computes (a decision asks for the same collections many times).
type evaluator struct {
	g     *dix.Game
	seat  int
	p     params
	r     *rand.Rand
	coll  []dix.Card         // the seat's collection
	base  float64            // value of coll
	late  float64            // 0 at the start of the game, 1 when the deck is empty
	memo  map[string]float64 // value by collection
	gains map[string]float64 // gain by the cards added
	buf   []dix.Card
	// For p.fut: the chance of getting each colour+number not held, and
	// the expected growth of a colour by the numbers held (a bit mask).
	getP   [4][10]float64
	growth [4]map[uint16]float64
}

func newEvaluator(g *dix.Game, seat int, p params, r *rand.Rand) *evaluator {
	e := &evaluator{g: g, seat: seat, p: p, r: r, coll: g.Players[seat].Collection, memo: map[string]float64{}, gains: map[string]float64{}}
	full := 91.0
	switch {
	case len(g.Players) >= 4:
		full = 129
	case len(g.Players) == 3:
		full = 108
	}
	e.late = min(1, max(0, 1-float64(len(g.Deck))/full))
	if p.fut > 0 {
		var k [4][10]int
		for _, c := range g.Deck {
			if c.Kind == dix.KindNumber {
				k[c.Color-dix.Blue][c.Value]++
			}
		}
		for _, c := range g.Market {
			if c.Kind == dix.KindNumber {
				k[c.Color-dix.Blue][c.Value]++
			}
		}
		for col := range k {
			for v := 1; v <= 9; v++ {
				e.getP[col][v] = 1 - math.Pow(1-p.acq, float64(k[col][v]))
			}
			e.growth[col] = map[uint16]float64{}
		}
	}
	e.base = e.value(e.coll)
	return e
}

// value is what a collection of the seat is worth: its best score and,
// while cards are still to come, some of its potential.
func (e *evaluator) value(coll []dix.Card) float64 {
	key := collKey(coll)
	if v, ok := e.memo[key]; ok {
		return v
	}
	v := e.compute(coll)
	e.memo[key] = v
	return v
}

// compute is value without the memo.
func (e *evaluator) compute(coll []dix.Card) float64 {
	v := e.p.scoreW*float64(dix.BestScore(coll).Total) + e.p.pot*(1-e.late)*float64(potential(coll))
	if e.p.cardW > 0 {
		v += e.p.cardW * float64(dix.CountNumbers(coll))
	}
	if e.p.fut > 0 {
		v += e.p.fut * e.future(coll)
	}
	if e.p.dup > 0 {
		v += e.p.dup * float64(dups(coll))
	}
	return v
}

// dups counts the extra copies of number cards in coll: in solo they bid
// in auctions (SPEC §5), and anywhere they pay for purchases.
func dups(coll []dix.Card) int {
	var n [numCards]uint8
	d := 0
	for _, c := range coll {
		if c.Kind == dix.KindNumber {
			i := cardSlot(c)
			if n[i] > 0 {
				d++
			}
			n[i]++
		}
	}
	return d
}

// future is the expected growth of the longest run of each colour of coll
// (wilds aside) if each number not held comes with its chance getP.
func (e *evaluator) future(coll []dix.Card) float64 {
	var held [4]uint16
	for _, c := range coll {
		if c.Kind == dix.KindNumber {
			held[c.Color-dix.Blue] |= 1 << c.Value
		}
	}
	sum := 0.0
	for col, m := range held {
		g, ok := e.growth[col][m]
		if !ok {
			g = e.colGrowth(col, m)
			e.growth[col][m] = g
		}
		sum += g
	}
	return sum
}

// colGrowth is the expected score of colour col's longest run, numbers held
// by mask m and the others got with their chance, less its score now.
func (e *evaluator) colGrowth(col int, m uint16) float64 {
	// dist[cur][best]: the chance of a current run cur and a longest best.
	var dist, next [10][10]float64
	dist[0][0] = 1
	now, run := 0, 0
	for v := 1; v <= 9; v++ {
		q := e.getP[col][v]
		if m&(1<<v) != 0 {
			q = 1
			run++
			now = max(now, run)
		} else {
			run = 0
		}
		next = [10][10]float64{}
		for cur := 0; cur < v; cur++ {
			for best := cur; best < v; best++ {
				p := dist[cur][best]
				if p == 0 {
					continue
				}
				next[cur+1][max(best, cur+1)] += p * q
				next[0][best] += p * (1 - q)
			}
		}
		dist = next
	}
	score := func(b int) float64 {
		if b == 9 {
			return 10
		}
		return float64(b)
	}
	ev := 0.0
	for cur := range dist {
		for best := range dist[cur] {
			ev += dist[cur][best] * score(best)
		}
	}
	return ev - score(now)
}

// gain is what adding cards to the seat's collection is worth.
func (e *evaluator) gain(cards ...dix.Card) float64 {
	key := collKey(cards)
	if v, ok := e.gains[key]; ok {
		return v
	}
	e.buf = append(append(e.buf[:0], e.coll...), cards...)
	v := e.compute(e.buf) - e.base
	e.gains[key] = v
	return v
}

// collKey is an order-free key of a collection: how many of each card
// it holds.
func collKey(coll []dix.Card) string {
	var n [numCards]byte
	for _, c := range coll {
		n[cardSlot(c)]++
	}
	return string(n[:])
}

// numCards is the number of distinct cards (see cardSlot).
const numCards = 36 + 4 + 9 + 1 + 5

// cardSlot numbers the distinct cards densely: numbers 0–35 (colour by
// colour), colour wilds 36–39, black wilds 40–48, the super wild 49,
// currency 50–54.
func cardSlot(c dix.Card) int {
	switch c.Kind {
	case dix.KindNumber:
		return int(c.Color-dix.Blue)*9 + int(c.Value) - 1
	case dix.KindColorWild:
		return 36 + int(c.Color-dix.Blue)
	case dix.KindBlackWild:
		return 40 + int(c.Value) - 1
	case dix.KindSuperWild:
		return 49
	}
	return 50 + int(c.Value) - 1
}

// moneyWorth is what gaining n money tokens is worth to seat (the limit of
// 10 caps it).
func (e *evaluator) moneyWorth(seat, n int) float64 {
	got := min(n, dix.MoneyLimit-e.g.Players[seat].Money)
	return e.p.money * float64(max(got, 0))
}

// rivalsGain is what the others gaining n money tokens each costs the seat:
// the average rival's gain, weighted.
func (e *evaluator) rivalsGain(n int) float64 {
	if n <= 0 {
		return 0
	}
	if e.g.Solo() && e.p.alixMoney > 0 {
		return e.p.alixMoney * float64(max(0, min(n, dix.MoneyLimit-e.g.Players[dix.Alix].Money)))
	}
	sum, k := 0.0, 0
	for s := range e.g.Players {
		if s == e.seat {
			continue
		}
		sum += e.moneyWorth(s, n)
		k++
	}
	if k == 0 {
		return 0
	}
	return e.p.rival * sum / float64(k)
}

// marketWorth is what number cards going to the market are worth to the
// seat: in solo only the human buys there (ALIX never does), so a card
// the human wants is a purchase put aside; in a game with rivals it is
// worth nothing (they may buy it too).
func (e *evaluator) marketWorth(cards []dix.Card) float64 {
	if e.p.market == 0 {
		return 0
	}
	v := 0.0
	for _, c := range cards {
		if slices.Contains(e.coll, c) {
			continue
		}
		if net := e.gain(c) - e.p.money*float64(c.Value); net > 0 {
			v += net
		}
	}
	return e.p.market * v
}

// payCost is what paying p costs the seat: its tokens and the score the
// cards spent take away.
func (e *evaluator) payCost(p dix.Payment, moneyValue float64) float64 {
	c := moneyValue*float64(p.Money) + e.p.cons*float64(p.Consolation)
	if len(p.Cards) > 0 {
		c += e.base - e.value(without(e.coll, p.Cards))
	}
	return c
}

// bestBuy is the most valuable purchase of the seat among cards, and its
// net worth (0 and false when none is worth its price).
func (e *evaluator) bestBuy(cards []dix.Card, final bool) (dix.Card, dix.Payment, float64, bool) {
	moneyValue := e.p.money
	if final {
		moneyValue = 0.05 // only the tie-break is left to it
	}
	var best dix.Card
	var bestPay dix.Payment
	bestNet, found := 0.0, false
	for _, c := range cards {
		pay, ok := e.g.ProposePayment(e.seat, int(c.Value))
		if !ok {
			continue
		}
		after := append(without(e.coll, pay.Cards), c)
		net := e.value(after) - e.base - moneyValue*float64(pay.Money) - e.p.cons*float64(pay.Consolation)
		if final {
			net = float64(dix.BestScore(after).Total-dix.BestScore(e.coll).Total) - moneyValue*float64(pay.Money) - 0.15*float64(pay.Consolation)
		}
		net += e.noise()
		if net > 0.01 && (!found || net > bestNet) {
			best, bestPay, bestNet, found = c, pay, net, true
		}
	}
	return best, bestPay, bestNet, found
}

func (e *evaluator) noise() float64 {
	if e.p.noise == 0 {
		return 0
	}
	return (e.r.Float64()*2 - 1) * e.p.noise
}
