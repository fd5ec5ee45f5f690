package dix

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/dixgame/dixbot/engine/dix"
)

// Decide returns the decision of seat in g at level lvl: a legal action of
// dix.Game.Choices(seat), with its payment when it needs one. It returns
// an action of kind dix.ActInvalid when seat has nothing to decide. g is
// not changed; r gives the only randomness (the easy level's mistakes).
// Decide reads the deck only as a multiset, never its order.
func Decide(g *dix.Game, seat int, lvl Level, r *rand.Rand) dix.Action {
	a, _ := decide(g, seat, lvl, r)
	return a
}

// Policy returns lvl as an dix.Policy, for dix.Play and simulations.
func Policy(lvl Level) dix.Policy {
	return func(g *dix.Game, seat int, _ *dix.Choices, r *rand.Rand) dix.Action {
		return Decide(g, seat, lvl, r)
	}
}

// Timeout is the decision taken for a player who ran out of time (SPEC
// R18: one the player could have made): an auction is passed, a purchase or
// a final buy skipped, a payment made as proposed, and a turn played as
// the strong level would (draw or stop, and what to take).
func Timeout(g *dix.Game, seat int, r *rand.Rand) dix.Action {
	c := g.Choices(seat)
	has := func(k dix.ActionKind) bool { return slices.Contains(c.Actions, k) }
	switch {
	case len(c.Actions) == 0:
		return dix.Action{Player: seat}
	case has(dix.ActPass):
		return dix.Action{Kind: dix.ActPass, Player: seat}
	case g.Phase == dix.PhaseBuy || g.Phase == dix.PhaseFinalBuy:
		return dix.Action{Kind: dix.ActEndTurn, Player: seat}
	}
	return Decide(g, seat, Strong, r)
}

// decide is Decide with the reason for the advice.
func decide(g *dix.Game, seat int, lvl Level, r *rand.Rand) (dix.Action, Advice) {
	if lvl < Easy || lvl > Strong {
		lvl = Strong
	}
	return decideWith(g, seat, paramsFor(lvl, g), r)
}

// decideWith decides with the weights p.
func decideWith(g *dix.Game, seat int, p params, r *rand.Rand) (dix.Action, Advice) {
	c := g.Choices(seat)
	a := dix.Action{Player: seat}
	if len(c.Actions) == 0 {
		return a, Advice{}
	}
	has := func(k dix.ActionKind) bool { return slices.Contains(c.Actions, k) }
	if g.Solo() && len(g.Deck) <= p.endDeck && len(c.Actions) > 1 {
		if a, win, ok := solveEndgame(g, seat, p.endBudget); ok {
			return a, Advice{Action: a, Reason: ReasonEndgame, Points: win}
		}
	}
	e := newEvaluator(g, seat, p, r)
	adv := Advice{}
	switch g.Phase {
	case dix.PhaseDraw:
		if !has(dix.ActStop) {
			a.Kind = dix.ActDraw
			adv.Reason = ReasonMustDraw
			break
		}
		if !has(dix.ActDraw) {
			a.Kind = dix.ActStop
			adv.Reason = ReasonDeckEmpty
			break
		}
		d := e.drawing()
		stop := d.stopNow()
		draw := d.draw(e.p.depth) + e.noise()
		adv.Points = draw - stop
		if draw > stop {
			a.Kind, adv.Reason = dix.ActDraw, ReasonDraw
		} else {
			a.Kind, adv.Reason = dix.ActStop, ReasonStop
		}
	case dix.PhaseChoose:
		d := e.drawing()
		nums := d.numbers()
		money := e.moneyWorth(seat, d.money) + e.marketWorth(d.nums) + e.noise()
		adv.Points = nums - money
		if nums >= money {
			a.Kind, adv.Reason = dix.ActTakeNumbers, ReasonNumbers
		} else {
			a.Kind, adv.Reason = dix.ActTakeMoney, ReasonMoney
		}
	case dix.PhaseBuy, dix.PhaseFinalBuy:
		a.Kind, adv.Reason = dix.ActEndTurn, ReasonNothingWorthIt
		if card, pay, net, ok := e.bestBuy(c.Buyable, g.Phase == dix.PhaseFinalBuy || g.EndTriggered); ok && has(dix.ActBuy) {
			a.Kind, a.Card, a.Payment = dix.ActBuy, card, pay
			adv.Reason, adv.Points = ReasonBuy, net
		}
	case dix.PhaseBustChoice:
		a.Kind, adv.Reason = dix.ActConsolation, ReasonConsolation
		_, _, net, ok := e.bestBuy(buyableNow(g, seat), false)
		if ok && net > e.p.cons && has(dix.ActBustBuy) {
			a.Kind, adv.Reason, adv.Points = dix.ActBustBuy, ReasonBustBuy, net
		}
	case dix.PhaseAuction:
		bid, worth := e.bid(c)
		adv.Points = worth
		if bid > 0 && has(dix.ActBid) {
			a.Kind, a.Amount, adv.Reason = dix.ActBid, bid, ReasonBid
		} else {
			a.Kind, adv.Reason = dix.ActPass, ReasonPass
		}
	case dix.PhaseAuctionPay:
		a.Kind, adv.Reason = dix.ActPay, ReasonPay
		a.Payment, _ = g.ProposePayment(seat, c.Owe)
	}
	if !has(a.Kind) {
		// Never an illegal move: fall back on the first decision offered.
		a = dix.Action{Kind: c.Actions[0], Player: seat}
		if a.Kind == dix.ActPay {
			a.Payment, _ = g.ProposePayment(seat, c.Owe)
		}
	}
	adv.Action = a
	return a, adv
}

// buyableNow is what seat could buy from the market (R5), for the bust
// variant's choice made before the buy phase opens.
func buyableNow(g *dix.Game, seat int) []dix.Card {
	var out []dix.Card
	for _, c := range g.Market {
		if c.Kind == dix.KindNumber && !slices.Contains(g.Players[seat].Collection, c) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// drawing values the active seat's options during its draw phase from the
// cards left in the deck, counted (never in their order).
type drawing struct {
	e       *evaluator
	total   int
	money   int
	nums    []dix.Card // number cards of the tableau
	kinds   []dix.Card // distinct cards left, wilds as one entry
	counts  []int
	left    int
	buyOpt  float64 // the best purchase now, if the player takes the numbers
	deny    float64 // what one card drawn is worth for being denied to ALIX
	variant bool
}

// wildEntry stands for every wild in the counts.
var wildEntry = dix.Card{Kind: dix.KindSuperWild}

func (e *evaluator) drawing() *drawing {
	g := e.g
	d := &drawing{e: e, variant: g.Opts.BustVariant}
	d.total, d.money = g.TableauSums()
	for _, c := range g.Tableau {
		if c.Kind == dix.KindNumber {
			d.nums = append(d.nums, c)
		}
	}
	idx := map[dix.Card]int{}
	for _, c := range g.Deck {
		if c.IsWild() {
			c = wildEntry
		}
		i, ok := idx[c]
		if !ok {
			i = len(d.kinds)
			idx[c] = i
			d.kinds = append(d.kinds, c)
			d.counts = append(d.counts, 0)
		}
		d.counts[i]++
	}
	// The same order whatever the deck's: sort the kinds.
	order := make([]int, len(d.kinds))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cardCmp(d.kinds[a], d.kinds[b]) })
	kinds, counts := make([]dix.Card, len(order)), make([]int, len(order))
	for j, i := range order {
		kinds[j], counts[j] = d.kinds[i], d.counts[i]
	}
	d.kinds, d.counts, d.left = kinds, counts, len(g.Deck)
	if g.Solo() {
		d.deny = e.p.deal
	}
	if _, _, net, ok := e.bestBuy(buyableNow(g, e.seat), g.EndTriggered); ok {
		d.buyOpt = net
	}
	return d
}

func cardCmp(a, b dix.Card) int {
	switch {
	case a.Kind != b.Kind:
		return int(a.Kind) - int(b.Kind)
	case a.Color != b.Color:
		return int(a.Color) - int(b.Color)
	}
	return int(a.Value) - int(b.Value)
}

// numbers is what taking the numbers is worth now.
func (d *drawing) numbers() float64 {
	return d.numbersWith(d.nums, d.money) + d.buyOpt
}

func (d *drawing) numbersWith(nums []dix.Card, money int) float64 {
	return d.e.gain(nums...) - d.e.rivalsGain(money)
}

// stopNow is the value of stopping with the tableau as it is.
func (d *drawing) stopNow() float64 { return d.stop(d.nums, d.money) }

func (d *drawing) stop(nums []dix.Card, money int) float64 {
	take := d.numbersWith(nums, money) + d.buyOpt
	return math.Max(take, d.e.moneyWorth(d.e.seat, money)+d.e.marketWorth(nums))
}

// bust is the value of busting (3.3): a consolation token (or, in the
// variant, a purchase), and the others' gain of a bust by total.
func (d *drawing) bust(byTotal bool, money int, nums []dix.Card) float64 {
	v := d.e.p.cons + d.e.marketWorth(nums)
	if d.variant && !d.e.g.Solo() || d.variant && d.e.seat == 0 {
		v = math.Max(v, d.buyOpt) // R15: the variant is the human's only
	}
	if byTotal {
		v -= d.e.rivalsGain(money)
	}
	return v
}

// draw is the expected value of drawing one card and then acting best,
// looking depth draws ahead.
func (d *drawing) draw(depth int) float64 {
	return d.drawFrom(d.total, d.money, d.nums, depth)
}

func (d *drawing) drawFrom(total, money int, nums []dix.Card, depth int) float64 {
	if d.left == 0 {
		return math.Inf(-1)
	}
	ev := 0.0
	n := float64(d.left)
	for i, c := range d.kinds {
		k := d.counts[i]
		if k == 0 {
			continue
		}
		p := float64(k) / n
		var v float64
		d.counts[i]--
		d.left--
		switch c.Kind {
		case dix.KindNumber:
			t := total + int(c.Value)
			more := append(slices.Clip(nums), c)
			if t >= dix.BustLimit {
				v = d.bust(true, money, more)
			} else {
				v = d.after(t, money, more, depth)
			}
		case dix.KindCurrency:
			m := money + int(c.Value)
			if m >= dix.BustLimit {
				v = d.bust(false, m, nums)
			} else {
				v = d.after(total-int(c.Value), m, nums, depth)
			}
		default: // a wild: an auction, then the turn goes on as it was
			v = d.after(total, money, nums, depth)
		}
		d.counts[i]++
		d.left++
		ev += p * (v + d.deny)
	}
	return ev
}

// after is the value of the best choice once a card was drawn safely.
func (d *drawing) after(total, money int, nums []dix.Card, depth int) float64 {
	v := d.stop(nums, money)
	if depth > 1 && d.left > 0 {
		v = math.Max(v, d.drawFrom(total, money, nums, depth-1))
	}
	return v
}

// bid is the seat's bid in the auction now (0: pass) and what the wild is
// worth to it, counting what denying it to the best rival is worth.
func (e *evaluator) bid(c dix.Choices) (int, float64) {
	g := e.g
	au := g.Auction
	if au == nil {
		return 0, 0
	}
	if g.Solo() && e.p.alixCap > 0 {
		return e.soloBid(c)
	}
	wild := au.Wild
	worth := e.gain(wild)
	rivalBest, denial := 0.0, 0.0
	for s := range g.Players {
		if s == e.seat {
			continue
		}
		rv := newEvaluator(g, s, e.p, e.r)
		rivalBest = math.Max(rivalBest, rv.gain(wild))
	}
	denial = e.p.deny * rivalBest
	if len(g.Players) == 2 {
		denial = rivalBest // what one rival gains the other loses
	}
	worth += denial + e.noise()
	// The largest affordable bid whose payment costs less than the worth.
	maxBid := 0
	for b := c.MinBid; b <= c.MaxBid; b++ {
		pay, ok := g.ProposePayment(e.seat, b)
		if !ok || e.payCost(pay, e.p.money) > worth {
			break
		}
		maxBid = b
	}
	if drain := e.drainBid(c); drain > 0 && (maxBid < c.MinBid || maxBid <= g.Capacity(dix.Alix)) {
		return drain, worth
	}
	if maxBid < c.MinBid {
		return 0, worth
	}
	// Bid enough to keep the later bidders out, when that is affordable.
	later := 0
	pos := slices.Index(au.Order, e.seat)
	for _, s := range au.Order[pos+1:] {
		if g.IsAlix(s) {
			later = max(later, g.Capacity(s)) // she outbids by one what she can afford
			continue
		}
		rv := newEvaluator(g, s, e.p, e.r)
		est := int(rv.gain(wild) / e.p.money)
		later = max(later, min(est, g.Capacity(s)))
	}
	bid := max(c.MinBid, min(maxBid, later+1))
	if g.Solo() && pos < len(au.Order)-1 && g.IsAlix(au.Order[len(au.Order)-1]) && bid <= g.Capacity(dix.Alix) {
		// ALIX bids one more whenever she can: bidding below her capacity
		// only makes her pay, which is worth it when she cannot use it.
		if bid < g.Capacity(dix.Alix) {
			bid = min(maxBid, g.Capacity(dix.Alix))
		}
	}
	return bid, worth
}

// drainBid is, on ALIX's turn in solo, the bid that makes her pay all she
// can for the wild when the seat does not outbid her: she bids exactly one
// more whenever she can afford it (SPEC §5), so the bid costs the seat
// nothing and leaves her less to contest the next wilds with. It is 0 when
// there is no such bid.
func (e *evaluator) drainBid(c dix.Choices) int {
	g := e.g
	au := g.Auction
	if !g.Solo() || e.seat != 0 || g.Active != dix.Alix || au.HighBidder >= 0 {
		return 0
	}
	b := min(c.MaxBid, g.Capacity(dix.Alix)-1)
	if b < c.MinBid {
		return 0
	}
	return b
}

// soloBid is the human's bid in a solo auction, and what the wild is worth
// to the player, ALIX's gain counted. ALIX's answer is known (SPEC §5,
// R11), so each bid leads to one outcome: who takes the wild and at what
// price. A wild she takes counts against the player; every unit of
// capacity she spends on it counts for the player: she cannot outbid the
// player with it later (measured: letting her empty her capacity on one
// wild often wins the next ones at 5).
func (e *evaluator) soloBid(c dix.Choices) (int, float64) {
	g := e.g
	au := g.Auction
	capA := g.Capacity(dix.Alix)
	mine := e.gain(au.Wild) + e.p.wildBonus
	hers := newEvaluator(g, dix.Alix, e.p, e.r).gain(au.Wild)
	alixWins := func(price int) float64 { return -hers + e.p.alixCap*float64(price) }
	iWin := func(price int) (float64, bool) {
		pay, ok := g.ProposePayment(e.seat, price)
		if !ok {
			return 0, false
		}
		return mine - e.payCost(pay, e.p.money), true
	}
	bid, best := 0, 0.0 // passing
	if g.Active == dix.Alix {
		// The player bids first; she then bids one more if she can, or 5
		// if the player passed (R11).
		if capA >= dix.SoloMinBid {
			best = alixWins(dix.SoloMinBid)
		}
		for b := c.MinBid; b <= c.MaxBid; b++ {
			v, ok := 0.0, true
			if b+1 <= capA {
				v = alixWins(b + 1)
			} else if v, ok = iWin(b); !ok {
				break
			}
			if v > best {
				bid, best = b, v
			}
		}
		return bid, mine + hers
	}
	// The player's turn: ALIX has bid or passed, the player is last.
	if au.HighBidder == dix.Alix {
		best = alixWins(au.HighBid)
	}
	if v, ok := iWin(c.MinBid); ok && v > best {
		bid = c.MinBid
	}
	return bid, mine + hers
}
