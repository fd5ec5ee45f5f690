package dix

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// This file checks random games against a second, independent statement of
// the rules: every action of a standard game is compared with what SPEC
// §3–§4 say it must do, computed from the state before it; in solo games
// every decision of ALIX is compared with §5. The scenarios pin the rulings
// down on chosen examples; this reaches the combinations nobody wrote.

// TestRulesHoldInRandomGames plays random games with every player count,
// with and without the bust variant, and checks each action.
func TestRulesHoldInRandomGames(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 10
	}
	for players := 1; players <= 5; players++ {
		for _, variant := range []bool{false, true} {
			for seed := range int64(games) {
				opts := Options{Players: players, Seed: seed, FirstPlayer: -1, BustVariant: variant}
				if players == 1 {
					opts.Difficulty = MinDifficulty + int(seed)%(MaxDifficulty-MinDifficulty+1)
				}
				g, err := New(opts)
				require.NoError(t, err)
				r := rand.New(rand.NewPCG(uint64(seed), 99))
				pol := []Policy{RandomPolicy, SimplePolicy}
				if seed%2 == 1 {
					pol = []Policy{SimplePolicy, RandomPolicy}
				}
				var c Choices
				for step := 0; g.Phase != PhaseOver; step++ {
					seat := g.ToAct()
					g.ChoicesInto(seat, &c)
					require.NotEmpty(t, c.Actions)
					if err := checkChoices(g, seat, &c); err != nil {
						t.Fatalf("players %d variant %v seed %d step %d: %v", players, variant, seed, step, err)
					}
					a := pol[seat%len(pol)](g, seat, &c, r)
					prev := g.Clone()
					evs, err := g.Apply(a)
					require.NoError(t, err)
					err = checkAction(prev, a, evs, g)
					if err != nil {
						t.Fatalf("players %d variant %v seed %d step %d, %s: %v", players, variant, seed, step, FormatAction(a), err)
					}
				}
				if err := checkResults(g); err != nil {
					t.Fatalf("players %d variant %v seed %d: %v", players, variant, seed, err)
				}
			}
		}
	}
}

// checkAction checks one accepted action: checkRules, and in solo
// checkAlixRules (checkRules too when ALIX did not act in the same Apply).
func checkAction(prev *Game, a Action, evs []Event, g *Game) error {
	if !prev.Solo() {
		return checkRules(prev, a, g)
	}
	if err := checkAlixRules(prev, evs, g); err != nil {
		return err
	}
	if alixActed(evs) {
		return nil
	}
	return checkRules(prev, a, g)
}

// alixActed reports whether ALIX did anything among evs but gain money
// from the human's numbers.
func alixActed(evs []Event) bool {
	for _, e := range evs {
		if e.Player == Alix && e.Kind != EvGained {
			return true
		}
	}
	return false
}

// refSums is the tableau's total and money (3.1).
func refSums(tableau []Card) (total, money int) {
	for _, c := range tableau {
		switch c.Kind {
		case KindNumber:
			total += int(c.Value)
		case KindCurrency:
			total -= int(c.Value)
			money += int(c.Value)
		}
	}
	return total, money
}

// refCapacity is the most a player may bid (3.5; §5 in solo).
func refCapacity(p Player, solo bool) int {
	c := p.Money + 3*p.Consolation
	seen := map[Card]int{}
	for _, x := range p.Collection {
		if x.Kind != KindNumber {
			continue
		}
		seen[x]++
		if !solo || seen[x] > 1 {
			c++
		}
	}
	return c
}

func refGain(money, amount int) int { return min(10, money+amount) }

func ofKind(cards []Card, k Kind) []Card {
	var out []Card
	for _, c := range cards {
		if c.Kind == k {
			out = append(out, c)
		}
	}
	return out
}

func plus(a []Card, b ...Card) []Card { return append(append([]Card(nil), a...), b...) }

// minus removes one copy of each card of b from a, or fails.
func minus(a, b []Card) ([]Card, error) {
	out := append([]Card(nil), a...)
	for _, c := range b {
		i := -1
		for j, x := range out {
			if x == c {
				i = j
				break
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("%s not held", c)
		}
		out = append(out[:i], out[i+1:]...)
	}
	return out, nil
}

// checkRules compares one action with the rules, from the state before it:
// any action of a standard game, and in solo the human's actions that ALIX
// does not answer within the same Apply (see alixActed).
func checkRules(prev *Game, a Action, g *Game) error {
	n := len(prev.Players)
	solo := prev.Solo()
	p := a.Player
	act := prev.Active
	same := func(what string, got, want []Card) error {
		if !sameCards(got, want) {
			return fmt.Errorf("%s: %s, want %s", what, FormatCards(got), FormatCards(want))
		}
		return nil
	}
	tokens := func(seat, money, cons int) error {
		if got := g.Players[seat]; got.Money != money || got.Consolation != cons {
			return fmt.Errorf("seat %d has %d money %d consolation, want %d and %d", seat, got.Money, got.Consolation, money, cons)
		}
		return nil
	}
	// turnEnded: the next seat draws, or the final buy round starts from the
	// active player's left, the active player last (4, R8).
	turnEnded := func() error {
		if len(g.Tableau) != 0 || g.Drawn != 0 {
			return fmt.Errorf("turn ended with a tableau of %d, %d drawn", len(g.Tableau), g.Drawn)
		}
		if len(prev.Deck) > 0 && len(g.Deck) > 0 {
			if g.Phase != PhaseDraw || g.Active != (act+1)%n {
				return fmt.Errorf("after the turn of %d: %s, active %d", act, g.Phase, g.Active)
			}
			return nil
		}
		if g.Phase != PhaseFinalBuy || g.ToAct() != (act+1)%n || len(g.FinalOrder) != n || g.FinalOrder[n-1] != act {
			return fmt.Errorf("final round: %s, %d to act, order %v", g.Phase, g.ToAct(), g.FinalOrder)
		}
		return nil
	}
	unchangedTokens := func(except ...int) error {
		for s := range n {
			skip := false
			for _, e := range except {
				skip = skip || e == s
			}
			if !skip {
				if err := tokens(s, prev.Players[s].Money, prev.Players[s].Consolation); err != nil {
					return err
				}
			}
		}
		return nil
	}

	switch a.Kind {
	case ActDraw:
		if prev.Phase != PhaseDraw || len(prev.Deck) == 0 {
			return fmt.Errorf("drew during %s with %d cards", prev.Phase, len(prev.Deck))
		}
		c := prev.Deck[0]
		if g.EndTriggered != (len(prev.Deck) == 1) {
			return fmt.Errorf("end triggered %v with %d cards before the draw", g.EndTriggered, len(prev.Deck))
		}
		if c.IsWild() {
			// 3.5: an auction from the active player's left, the active player last.
			if g.Phase != PhaseAuction || g.Auction == nil || g.Auction.Wild != c || g.ToAct() != (act+1)%n {
				return fmt.Errorf("wild %s: %s, %d to act", c, g.Phase, g.ToAct())
			}
			return unchangedTokens()
		}
		tab := plus(prev.Tableau, c)
		total, money := refSums(tab)
		bustA := c.Kind == KindNumber && total >= 11
		bustB := c.Kind == KindCurrency && money >= 11
		if !bustA && !bustB {
			if g.Phase != PhaseDraw || FormatCards(g.Tableau) != FormatCards(tab) {
				return fmt.Errorf("no bust (total %d, money %d): %s, tableau %s", total, money, g.Phase, FormatCards(g.Tableau))
			}
			return unchangedTokens()
		}
		// 3.3: numbers to the market, currency to the discard, a token
		// (or the variant's choice), the others gain the money on A only.
		if err := same("market after a bust", g.Market, plus(prev.Market, ofKind(tab, KindNumber)...)); err != nil {
			return err
		}
		if err := same("discard after a bust", g.Discard, plus(prev.Discard, ofKind(tab, KindCurrency)...)); err != nil {
			return err
		}
		for s := range n {
			pl := prev.Players[s]
			switch {
			case s != act && bustA:
				if err := tokens(s, refGain(pl.Money, money), pl.Consolation); err != nil {
					return fmt.Errorf("bust A: %w", err)
				}
			case s != act:
				if err := tokens(s, pl.Money, pl.Consolation); err != nil {
					return fmt.Errorf("bust B: %w", err)
				}
			case prev.Opts.BustVariant:
				if err := tokens(s, pl.Money, pl.Consolation); err != nil {
					return err
				}
				if g.Phase != PhaseBustChoice {
					return fmt.Errorf("variant bust: %s", g.Phase)
				}
			default:
				if err := tokens(s, pl.Money, pl.Consolation+1); err != nil {
					return fmt.Errorf("bust: %w", err)
				}
			}
		}
		if prev.Opts.BustVariant {
			return nil
		}
		return turnEnded()

	case ActStop:
		if prev.Drawn == 0 || g.Phase != PhaseChoose {
			return fmt.Errorf("stop after %d draws: %s", prev.Drawn, g.Phase) // R2
		}

	case ActTakeNumbers:
		_, money := refSums(prev.Tableau)
		if err := same("collection", g.Players[act].Collection, plus(prev.Players[act].Collection, ofKind(prev.Tableau, KindNumber)...)); err != nil {
			return err
		}
		for s := range n {
			pl := prev.Players[s]
			gain := refGain(pl.Money, money)
			if s == act {
				gain = pl.Money
			}
			if err := tokens(s, gain, pl.Consolation); err != nil {
				return fmt.Errorf("numbers: %w", err)
			}
		}
		if g.Phase != PhaseBuy || g.Active != act {
			return fmt.Errorf("numbers: %s, active %d; want one buy phase", g.Phase, g.Active)
		}
		return same("market", g.Market, prev.Market)

	case ActTakeMoney:
		_, money := refSums(prev.Tableau)
		pl := prev.Players[act]
		if err := tokens(act, refGain(pl.Money, money), pl.Consolation); err != nil {
			return fmt.Errorf("money: %w", err)
		}
		if err := unchangedTokens(act); err != nil {
			return err
		}
		if err := same("collection", g.Players[act].Collection, pl.Collection); err != nil {
			return err
		}
		if err := same("market", g.Market, plus(prev.Market, ofKind(prev.Tableau, KindNumber)...)); err != nil {
			return err
		}
		return turnEnded() // no buy phase

	case ActBuy:
		pl := prev.Players[p]
		if containsCard(pl.Collection, a.Card) || !containsCard(prev.Market, a.Card) {
			return fmt.Errorf("bought %s: owned or not in the market", a.Card) // R5
		}
		pay := a.Payment
		for _, c := range pay.Cards {
			if c.Kind != KindNumber {
				return fmt.Errorf("paid with %s", c) // R4
			}
		}
		if pay.Money+3*pay.Consolation+len(pay.Cards) < int(a.Card.Value) {
			return fmt.Errorf("paid %+v for %s", pay, a.Card) // R6
		}
		if err := noSuperfluousUnit(pay, int(a.Card.Value)); err != nil {
			return err
		}
		rest, err := minus(pl.Collection, pay.Cards)
		if err != nil {
			return err
		}
		if err := same("collection", g.Players[p].Collection, plus(rest, a.Card)); err != nil {
			return err
		}
		if err := tokens(p, pl.Money-pay.Money, pl.Consolation-pay.Consolation); err != nil {
			return err
		}
		if err := same("discard", g.Discard, plus(prev.Discard, pay.Cards...)); err != nil {
			return err
		}
		if prev.Phase == PhaseBuy {
			return turnEnded() // one purchase per buy phase
		}
		return checkFinalNext(prev, g)

	case ActEndTurn:
		if prev.Phase == PhaseBuy {
			return turnEnded()
		}
		return checkFinalNext(prev, g)

	case ActConsolation:
		pl := prev.Players[act]
		if err := tokens(act, pl.Money, pl.Consolation+1); err != nil {
			return err
		}
		return turnEnded()

	case ActBustBuy:
		if g.Phase != PhaseBuy || g.Players[act].Consolation != prev.Players[act].Consolation {
			return fmt.Errorf("bust buy: %s", g.Phase)
		}

	case ActBid, ActPass:
		au := prev.Auction
		if want := (act + 1 + au.Next) % n; p != want {
			return fmt.Errorf("seat %d decided, seat %d's chance", p, want) // 3.5 order
		}
		high, bidder := au.HighBid, au.HighBidder
		if a.Kind == ActBid {
			least, most := 1, refCapacity(prev.Players[p], solo)
			if solo {
				least = 5 // §5
			}
			if a.Amount <= au.HighBid || a.Amount < least || a.Amount > most {
				return fmt.Errorf("bid %d over %d with capacity %d", a.Amount, au.HighBid, most)
			}
			high, bidder = a.Amount, p
		}
		if p != act {
			if g.Phase != PhaseAuction || g.Auction.HighBid != high || g.ToAct() != (p+1)%n {
				return fmt.Errorf("auction goes on: %s, %d to act", g.Phase, g.ToAct())
			}
			return nil
		}
		// The active player was last: the auction closes.
		if bidder < 0 {
			if g.Phase != PhaseDraw || g.Auction != nil {
				return fmt.Errorf("nobody bid: %s", g.Phase)
			}
			return same("discard", g.Discard, plus(prev.Discard, au.Wild))
		}
		if g.Phase != PhaseAuctionPay || g.ToAct() != bidder || g.Auction.HighBid != high {
			return fmt.Errorf("auction won by %d for %d: %s, %d to pay", bidder, high, g.Phase, g.ToAct())
		}

	case ActPay:
		au := prev.Auction
		pl := prev.Players[p]
		pay := a.Payment
		for _, c := range pay.Cards {
			if c.Kind != KindNumber {
				return fmt.Errorf("paid with %s", c) // R4
			}
		}
		if pay.Money+3*pay.Consolation+len(pay.Cards) < au.HighBid {
			return fmt.Errorf("paid %+v for a bid of %d", pay, au.HighBid)
		}
		if err := noSuperfluousUnit(pay, au.HighBid); err != nil {
			return err
		}
		rest, err := minus(pl.Collection, pay.Cards)
		if err != nil {
			return err
		}
		if solo && refCapacity(Player{Collection: rest}, true) != refCapacity(Player{Collection: pl.Collection}, true)-len(pay.Cards) {
			return fmt.Errorf("paid a single card in a solo auction: %s", FormatCards(pay.Cards)) // §5
		}
		if err := same("collection", g.Players[p].Collection, plus(rest, au.Wild)); err != nil {
			return err
		}
		if err := tokens(p, pl.Money-pay.Money, pl.Consolation-pay.Consolation); err != nil {
			return err
		}
		if g.Phase != PhaseDraw || g.Active != act || g.Drawn != prev.Drawn {
			return fmt.Errorf("after the auction: %s, active %d", g.Phase, g.Active)
		}
	}
	return nil
}

// checkFinalNext: the next seat of the final round, or the end (4).
func checkFinalNext(prev, g *Game) error {
	n := len(prev.Players)
	if prev.FinalNext == n-1 {
		if g.Phase != PhaseOver {
			return fmt.Errorf("last final buy: %s", g.Phase)
		}
		return nil
	}
	if want := (prev.Active + 2 + prev.FinalNext) % n; g.Phase != PhaseFinalBuy || g.ToAct() != want {
		return fmt.Errorf("final round: %s, %d to act, want %d", g.Phase, g.ToAct(), want)
	}
	return nil
}

// checkAlixRules compares ALIX's decisions among evs with §5, R10–R12: her
// bids, her draws and stops, her busts, her payments, and that she never
// buys. prev is the state before the human's action that led to them.
func checkAlixRules(prev *Game, evs []Event, g *Game) error {
	d := prev.Opts.Difficulty
	var tab []Card
	if prev.Active == Alix {
		tab = plus(prev.Tableau)
	}
	active := prev.Active
	deck := len(prev.Deck)
	bids := 0
	var human Event // the human's last bid or pass in this action
	owed := 0       // the winning bid of the last auction won
	if prev.Auction != nil {
		owed = prev.Auction.HighBid
	}
	for i, e := range evs {
		switch e.Kind {
		case EvTurnStarted:
			active, tab = e.Player, nil
		case EvDrew:
			deck--
			if e.Player == Alix {
				if total, _ := refSums(tab); len(tab) > 0 && total >= d {
					return fmt.Errorf("ALIX drew with a total of %d, difficulty %d", total, d)
				}
			}
			if !e.Card.IsWild() {
				tab = append(tab, e.Card)
			}
		case EvStopped:
			if e.Player == Alix {
				if total, _ := refSums(tab); total < d && deck > 0 {
					return fmt.Errorf("ALIX stopped at %d, difficulty %d, %d cards left", total, d, deck) // R10
				}
			}
		case EvBust:
			if e.Player == Alix {
				if e.Bust != BustMoney {
					return fmt.Errorf("ALIX busted by total")
				}
				// She keeps the numbers, gains a token, the human gains nothing.
				var kinds []EventKind
				for _, f := range evs[i+1:] {
					if f.Kind == EvTurnEnded {
						break
					}
					kinds = append(kinds, f.Kind)
					if f.Kind == EvGained || f.Kind == EvToMarket {
						return fmt.Errorf("ALIX's bust B: %s", f.Kind)
					}
				}
				if len(kinds) < 2 || kinds[0] != EvTookNumbers || kinds[1] != EvConsolation {
					return fmt.Errorf("ALIX's bust B: %v", kinds)
				}
			}
		case EvTookMoney, EvBought, EvBustBuy:
			if e.Player == Alix {
				return fmt.Errorf("ALIX: %s", e.Kind)
			}
		case EvBid, EvPassed:
			if e.Player != Alix {
				human = e
				continue
			}
			// One ALIX bid per action, from the capacities before it.
			bids++
			if bids > 1 {
				return fmt.Errorf("ALIX bid twice")
			}
			capA := refCapacity(prev.Players[Alix], true)
			want := 0
			switch {
			case active == 0:
				want = min(capA, max(5, refCapacity(prev.Players[0], true)))
			case human.Kind == EvBid:
				want = human.Amount + 1
			case human.Kind == EvPassed:
				want = 5 // R11
			default:
				return fmt.Errorf("ALIX bid before the human on her turn")
			}
			if want < 5 || want > capA {
				want = 0
			}
			got := 0
			if e.Kind == EvBid {
				got = e.Amount
			}
			if got != want {
				return fmt.Errorf("ALIX bid %d, want %d (her capacity %d)", got, want, capA)
			}
		case EvAuctionWon:
			owed = e.Amount
		case EvPaid:
			if e.Player != Alix {
				continue
			}
			// R12: duplicates first, then money, then consolation until
			// covered; then money tokens, then duplicates, given back while
			// the rest covers the price (R3: nothing superfluous).
			pl := prev.Players[Alix]
			dups := refCapacity(Player{Collection: pl.Collection}, true)
			pay := e.Payment
			if _, err := minus(pl.Collection, pay.Cards); err != nil {
				return err
			}
			if refCapacity(Player{Collection: mustMinus(pl.Collection, pay.Cards)}, true) != dups-len(pay.Cards) {
				return fmt.Errorf("ALIX paid with a single card: %s", FormatCards(pay.Cards))
			}
			d := min(dups, owed)
			m := min(owed-d, pl.Money)
			c := (owed - d - m + 2) / 3
			for d+m+3*c-1 >= owed && m > 0 {
				m--
			}
			for d+m+3*c-1 >= owed && d > 0 {
				d--
			}
			if len(pay.Cards) != d || pay.Money != m || pay.Consolation != c {
				return fmt.Errorf("ALIX paid %d cards, %d money, %d consolation for %d; R12 says %d, %d, %d",
					len(pay.Cards), pay.Money, pay.Consolation, owed, d, m, c)
			}
			if pay.Value() < owed || pay.Value() > owed+2 {
				return fmt.Errorf("ALIX paid %d for %d", pay.Value(), owed)
			}
		case EvFinalBuyStarted:
			// The final round runs from the active player's left, so ALIX
			// skips first when the human was active, last otherwise.
		}
	}
	// ALIX's holdings change only as these events say: no purchase, no
	// money reward.
	pl := prev.Players[Alix]
	money, cons, coll := pl.Money, pl.Consolation, plus(pl.Collection)
	var wild Card
	if prev.Auction != nil {
		wild = prev.Auction.Wild
	}
	for _, e := range evs {
		switch {
		case e.Kind == EvAuctionStarted:
			wild = e.Card
		case e.Player != Alix:
		case e.Kind == EvGained:
			money += e.Amount
		case e.Kind == EvConsolation:
			cons++
		case e.Kind == EvTookNumbers:
			coll = plus(coll, e.Cards...)
		case e.Kind == EvPaid:
			money -= e.Payment.Money
			cons -= e.Payment.Consolation
			coll = plus(mustMinus(coll, e.Payment.Cards), wild)
		}
	}
	got := g.Players[Alix]
	if got.Money != money || got.Consolation != cons || !sameCards(got.Collection, coll) {
		return fmt.Errorf("ALIX holds %d, %d, %s; want %d, %d, %s", got.Money, got.Consolation,
			FormatCards(got.Collection), money, cons, FormatCards(coll))
	}
	return nil
}

func mustMinus(a, b []Card) []Card {
	out, err := minus(a, b)
	if err != nil {
		panic(err)
	}
	return out
}

// checkChoices compares what seat is offered with the rules: R2 (no stop
// before the first draw), 3.2, 3.3 variant, the bid range of 3.5 and §5, the
// market cards of 3.4 and R5 the seat may buy and afford.
func checkChoices(g *Game, seat int, c *Choices) error {
	solo := g.Opts.Players == 1
	var want []ActionKind
	minBid, maxBid, owe := 0, 0, 0
	var buyable []Card
	switch g.Phase {
	case PhaseDraw:
		if len(g.Deck) > 0 {
			want = append(want, ActDraw)
		}
		if g.Drawn > 0 {
			want = append(want, ActStop)
		}
	case PhaseChoose:
		want = []ActionKind{ActTakeNumbers, ActTakeMoney}
	case PhaseBustChoice:
		want = []ActionKind{ActConsolation, ActBustBuy}
	case PhaseBuy, PhaseFinalBuy:
		pl := g.Players[seat]
		budget := pl.Money + 3*pl.Consolation + len(ofKind(pl.Collection, KindNumber))
		seen := map[Card]bool{}
		for _, m := range g.Market {
			if !seen[m] && !containsCard(pl.Collection, m) && int(m.Value) <= budget {
				buyable = append(buyable, m)
			}
			seen[m] = true
		}
		if len(buyable) > 0 {
			want = append(want, ActBuy)
		}
		want = append(want, ActEndTurn)
	case PhaseAuction:
		minBid = max(1, g.Auction.HighBid+1)
		if solo {
			minBid = max(5, minBid)
		}
		maxBid = refCapacity(g.Players[seat], solo)
		if minBid <= maxBid {
			want = append(want, ActBid)
		}
		want = append(want, ActPass)
	case PhaseAuctionPay:
		owe = g.Auction.HighBid
		want = []ActionKind{ActPay}
	}
	if fmt.Sprint(c.Actions) != fmt.Sprint(want) || c.MinBid != minBid || c.MaxBid != maxBid || c.Owe != owe ||
		!sameCards(c.Buyable, buyable) {
		return fmt.Errorf("seat %d during %s offered %v bid %d–%d owe %d buy %s; want %v bid %d–%d owe %d buy %s",
			seat, g.Phase, c.Actions, c.MinBid, c.MaxBid, c.Owe, FormatCards(c.Buyable), want, minBid, maxBid, owe, FormatCards(buyable))
	}
	return nil
}

// checkResults compares the final standings with 4.2 and R9: by score,
// then money + 3 × consolation, then fewest cards; equal on all three
// share a rank.
func checkResults(g *Game) error {
	res := g.Results()
	key := func(s int) [3]int {
		pl := g.Players[s]
		return [3]int{-BestScore(pl.Collection).Total, -(pl.Money + 3*pl.Consolation), len(pl.Collection)}
	}
	less := func(a, b [3]int) bool {
		for i := range a {
			if a[i] != b[i] {
				return a[i] < b[i]
			}
		}
		return false
	}
	for _, r := range res {
		rank := 1
		for s := range g.Players {
			if less(key(s), key(r.Player)) {
				rank++
			}
		}
		if r.Rank != rank {
			return fmt.Errorf("seat %d ranked %d, want %d", r.Player, r.Rank, rank)
		}
	}
	return nil
}

// noSuperfluousUnit restates R3: leaving out any one unit of the payment (a
// money token, a consolation token or a card) must make it fall short.
func noSuperfluousUnit(pay Payment, price int) error {
	total := pay.Money + 3*pay.Consolation + len(pay.Cards)
	units := map[string]int{}
	if pay.Money > 0 {
		units["a money token"] = 1
	}
	if len(pay.Cards) > 0 {
		units["a card"] = 1
	}
	if pay.Consolation > 0 {
		units["a consolation token"] = 3
	}
	for name, v := range units {
		if total-v >= price {
			return fmt.Errorf("paid %+v for %d: %s is superfluous (R3)", pay, price, name)
		}
	}
	return nil
}

// sameCards compares two card lists as multisets.
func sameCards(a, b []Card) bool {
	if len(a) != len(b) {
		return false
	}
	var n [numCardIndex]int
	for _, c := range a {
		if i := cardIndex(c); i >= 0 {
			n[i]++
		}
	}
	for _, c := range b {
		i := cardIndex(c)
		if i < 0 || n[i] == 0 {
			return false
		}
		n[i]--
	}
	return true
}
