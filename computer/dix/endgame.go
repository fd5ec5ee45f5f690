package dix

import (
	"errors"
	"fmt"
	"slices"

	"github.com/dixgame/dixbot/engine/dix"
)

// The end of a solo game is searched exactly: with few cards left, every
// draw is a chance event over the cards not seen yet (their counts, never
// their order), ALIX's play is the engine's own (SPEC §5), and every
// decision of the player is tried. The leaves are final results, so the
// search plays for the win itself: the tie-breaks (4.2, R13) and the risk
// worth taking when behind included.

// errBudget stops a search that grows beyond its budget of positions.
var errBudget = errors.New("computer: endgame search over budget")

// endgame searches the end of one solo game for the human seat.
type endgame struct {
	seat          int
	nodes, budget int
	scores        map[string]int // best scores by collection
	pays          map[string]payment
	seen          map[string]float64 // values of the positions searched
	key           []byte
}

func newEndgame(seat, budget int) *endgame {
	return &endgame{seat: seat, budget: budget, scores: map[string]int{}, pays: map[string]payment{}, seen: map[string]float64{}}
}

// positionKey is what the rest of the game depends on in g: the order of
// the cards within a zone aside (a collection, the market and the tableau
// count as sets, the deck as counts) and the discard left out.
func (s *endgame) positionKey(g *dix.Game) string {
	b := s.key[:0]
	flags := byte(0)
	if g.EndTriggered {
		flags |= 1
	}
	if g.Bought {
		flags |= 2
	}
	b = append(b, byte(g.Phase), byte(g.Active), byte(min(g.Drawn, 1)), flags, byte(g.FinalNext))
	if au := g.Auction; au != nil {
		b = append(b, byte(au.Wild.Kind), byte(au.Wild.Color), au.Wild.Value, byte(au.HighBid), byte(au.HighBidder+1), byte(au.Next))
	}
	for i := range g.Players {
		pl := &g.Players[i]
		b = append(b, 0xff, byte(pl.Money), byte(pl.Consolation))
		b = append(b, collKey(pl.Collection)...)
	}
	for _, zone := range [][]dix.Card{g.Tableau, g.Market, g.Deck} {
		b = append(b, 0xff)
		b = append(b, collKey(zone)...)
	}
	s.key = b
	return string(b)
}

// payment is a payment proposed, remembered.
type payment struct {
	p  dix.Payment
	ok bool
}

// propose is g.ProposePayment for the seat, remembered by what the seat
// holds (the same holdings meet the same prices in many branches). When
// the tokens and duplicates fall short, the other cards given up are
// chosen with the remembered scores, the engine's way (R6: those whose
// loss lowers the score least), which is much cheaper in a search.
func (s *endgame) propose(g *dix.Game, price int) (dix.Payment, bool) {
	pl := &g.Players[s.seat]
	k := fmt.Sprintf("%s|%d|%d|%d|%t", collKey(pl.Collection), pl.Money, pl.Consolation, price, g.Phase == dix.PhaseAuctionPay)
	v, ok := s.pays[k]
	if ok {
		return v.p, v.ok
	}
	counts := map[dix.Card]int{}
	dups := 0
	for _, c := range pl.Collection {
		if c.Kind == dix.KindNumber {
			counts[c]++
			if counts[c] > 1 {
				dups++
			}
		}
	}
	solo := g.Solo() && (g.Phase == dix.PhaseAuction || g.Phase == dix.PhaseAuctionPay)
	if solo || price <= dups+pl.Money+dix.ConsolationValue*pl.Consolation {
		v.p, v.ok = g.ProposePayment(s.seat, price)
		s.pays[k] = v
		return v.p, v.ok
	}
	p := dix.Payment{Money: pl.Money, Consolation: pl.Consolation}
	rest := slices.Clone(pl.Collection)
	for _, c := range pl.Collection {
		if counts[c] > 1 {
			counts[c]--
			p.Cards = append(p.Cards, c)
			rest = without(rest, []dix.Card{c})
		}
	}
	// The cards whose loss shortens their colour's plain run least (wilds
	// aside): a cheap stand-in for the scorer inside the search; the
	// payment of the action finally chosen is the engine's own.
	for r := price - p.Value(); r > 0; r-- {
		best, bestLoss := -1, 0
		for i, c := range rest {
			if c.Kind != dix.KindNumber || slices.Index(rest, c) != i {
				continue
			}
			if loss := dix.PlainRunLoss(rest, c); best < 0 || loss < bestLoss {
				best, bestLoss = i, loss
			}
		}
		if best < 0 {
			s.pays[k] = payment{}
			return dix.Payment{}, false
		}
		p.Cards = append(p.Cards, rest[best])
		rest = slices.Delete(rest, best, best+1)
	}
	if g.CheckPayment(s.seat, price, p) != nil {
		p, ok = g.ProposePayment(s.seat, price)
		v.ok = ok
	} else {
		v.ok = true
	}
	v.p = p
	s.pays[k] = v
	return v.p, v.ok
}

// score is the best score of coll, remembered.
func (s *endgame) score(coll []dix.Card) int {
	k := collKey(coll)
	v, ok := s.scores[k]
	if !ok {
		v = dix.BestScore(coll).Total
		s.scores[k] = v
		s.nodes++ // as costly as a position, roughly
	}
	return v
}

// solveEndgame returns the action of seat maximising its chance of
// winning, and that chance; ok is false when the search would take more
// than budget positions.
func solveEndgame(g *dix.Game, seat, budget int) (a dix.Action, win float64, ok bool) {
	s := newEndgame(seat, budget)
	best, bestV := dix.Action{}, -1.0
	for _, c := range s.candidates(g) {
		v, err := s.chance(g, c, nil)
		if err != nil {
			return dix.Action{}, 0, false
		}
		if v > bestV {
			best, bestV = c, v
		}
	}
	if best.Kind == dix.ActBuy || best.Kind == dix.ActPay {
		price := int(best.Card.Value)
		if best.Kind == dix.ActPay {
			price = g.Auction.HighBid
		}
		best.Payment, _ = g.ProposePayment(seat, price)
	}
	return best, bestV, bestV >= 0
}

// outcome values a finished game for the seat: 1 for a win (alone or
// shared), and a little for each point of margin, so that a lost game is
// lost by as little as possible. Its ranking is dix.Game.Results' (4.2,
// R9, R13), with the scores remembered.
func (s *endgame) outcome(g *dix.Game) float64 {
	me := &g.Players[s.seat]
	mine := s.score(me.Collection)
	win, best := true, -1
	for i := range g.Players {
		if i == s.seat {
			continue
		}
		o := &g.Players[i]
		sc := s.score(o.Collection)
		best = max(best, sc)
		if cmpResult(mine, me, sc, o) < 0 {
			win = false
		}
	}
	v := 0.0
	if win {
		v = 1
	}
	return v + 1e-3*float64(mine-best)
}

// cmpResult compares two final standings (4.2): score, then money (R9),
// then fewer cards; > 0 when the first is ahead, 0 when they share.
func cmpResult(sa int, a *dix.Player, sb int, b *dix.Player) int {
	if sa != sb {
		return sa - sb
	}
	ma, mb := a.Money+dix.ConsolationValue*a.Consolation, b.Money+dix.ConsolationValue*b.Consolation
	if ma != mb {
		return ma - mb
	}
	return len(b.Collection) - len(a.Collection)
}

// value is the seat's best expected outcome from g.
func (s *endgame) value(g *dix.Game) (float64, error) {
	if g.Phase == dix.PhaseOver {
		return s.outcome(g), nil
	}
	key := s.positionKey(g)
	if v, ok := s.seen[key]; ok {
		return v, nil
	}
	s.nodes++
	if s.nodes > s.budget {
		return 0, errBudget
	}
	best := -1.0
	for _, a := range s.candidates(g) {
		v, err := s.chance(g, a, nil)
		if err != nil {
			return 0, err
		}
		best = max(best, v)
	}
	s.seen[key] = best
	return best, nil
}

// chance is the expected value of applying a in g when the cards drawn
// meanwhile (by the seat or by ALIX, who plays at once) begin with prefix:
// the branches are the possible next cards, weighted by their counts.
func (s *endgame) chance(g *dix.Game, a dix.Action, prefix []dix.Card) (float64, error) {
	h := g.Clone()
	for i, c := range prefix {
		j := i + slices.Index(h.Deck[i:], c)
		h.Deck[i], h.Deck[j] = h.Deck[j], h.Deck[i]
	}
	if _, err := h.Apply(a); err != nil {
		return 0, err
	}
	if len(g.Deck)-len(h.Deck) <= len(prefix) {
		// The cards drawn are all known: the outcome is this one.
		return s.value(h)
	}
	kinds, counts := deckCounts(g.Deck, prefix)
	n := float64(len(g.Deck) - len(prefix))
	ev := 0.0
	for i, c := range kinds {
		v, err := s.chance(g, a, append(slices.Clip(prefix), c))
		if err != nil {
			return 0, err
		}
		ev += float64(counts[i]) / n * v
	}
	return ev, nil
}

// deckCounts counts the distinct cards of deck less those of drawn, in
// card order (never the deck's).
func deckCounts(deck, drawn []dix.Card) ([]dix.Card, []int) {
	var kinds []dix.Card
	var counts []int
	for _, c := range deck {
		i := slices.Index(kinds, c)
		if i < 0 {
			kinds = append(kinds, c)
			counts = append(counts, 0)
			i = len(kinds) - 1
		}
		counts[i]++
	}
	for _, c := range drawn {
		counts[slices.Index(kinds, c)]--
	}
	order := make([]int, len(kinds))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cardCmp(kinds[a], kinds[b]) })
	k2, c2 := make([]dix.Card, 0, len(kinds)), make([]int, 0, len(kinds))
	for _, i := range order {
		if counts[i] > 0 {
			k2, c2 = append(k2, kinds[i]), append(c2, counts[i])
		}
	}
	return k2, c2
}

// candidates are the seat's decisions worth trying in g: every kind of
// action, every card it can buy (with the payment proposed), and the bids
// that change the outcome of a solo auction (SPEC §5: ALIX's answer is
// known, so only passing, the lowest bid, the bid she outbids at her
// highest, and the lowest bid she cannot outbid differ).
func (s *endgame) candidates(g *dix.Game) []dix.Action {
	seat := s.seat
	c := g.Choices(seat)
	var out []dix.Action
	for _, k := range c.Actions {
		a := dix.Action{Kind: k, Player: seat}
		switch k {
		case dix.ActBuy:
			// A card that adds nothing to the score only loses the
			// tie-breaks (4.2): the seat pays for it and holds more cards.
			coll := g.Players[seat].Collection
			now := s.score(coll)
			for _, card := range c.Buyable {
				if s.score(append(slices.Clip(coll), card)) <= now {
					continue
				}
				if pay, ok := s.propose(g, int(card.Value)); ok {
					out = append(out, dix.Action{Kind: k, Player: seat, Card: card, Payment: pay})
				}
			}
			continue
		case dix.ActBid:
			capA := g.Capacity(dix.Alix)
			bids := []int{c.MinBid}
			if g.Active == dix.Alix {
				bids = append(bids, capA-1, max(c.MinBid, capA))
			}
			seen := []int{}
			for _, b := range bids {
				if b >= c.MinBid && b <= c.MaxBid && !slices.Contains(seen, b) {
					seen = append(seen, b)
					out = append(out, dix.Action{Kind: k, Player: seat, Amount: b})
				}
			}
			continue
		case dix.ActPay:
			a.Payment, _ = s.propose(g, c.Owe)
		}
		out = append(out, a)
	}
	return out
}
