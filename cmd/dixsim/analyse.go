package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/dixgame/dixbot/engine/dix"
)

// tally is what one seat did over the simulated games (`dixsim sim
// -analyse`): where its cards and money came from and went, to see how a
// policy wins and loses.
type tally struct {
	turns, drawn        int // own turns; cards drawn on them (wilds included)
	kept, keptTurns     int // number cards taken into the collection; turns that took some
	bustA, bustB        int
	moneyTurns, moneyIn int // "money" rewards; tokens they brought
	gained, lost        int // tokens gained (any way); tokens lost to the limit of 10
	bought, paidBuy     int // purchases during the game; value paid
	finalBought         int // purchases of the final buy round
	wilds, paidWild     int // wilds won at auction; value paid
	endMoney, endCons   int // tokens left at the end
	score               int
}

// analysis sums up -analyse runs: a tally per seat, the wilds nobody took,
// and each game's score margin of seat 0 over the best other seat.
type analysis struct {
	seats     []tally
	discarded int
	broke     int // wilds discarded when no seat could bid the lowest bid
	margins   []int
	// boosted[k]: games seat 0 would have won (alone or shared) with k
	// more points at the end, the rest of its standing unchanged
	boosted [4]int
	// auctions[a][w]: wilds drawn on seat a's turn won by seat w (the
	// last index: nobody); price[a][w] the value paid.
	auctions, price [][]int
	turn            int // the active seat of the auction under way
}

// observe counts the events of one action applied during phase.
func (an *analysis) observe(g *dix.Game, phase dix.Phase, evs []dix.Event) {
	if an.seats == nil {
		n := len(g.Players)
		an.seats = make([]tally, n)
		for range n {
			an.auctions = append(an.auctions, make([]int, n+1))
			an.price = append(an.price, make([]int, n+1))
		}
	}
	for _, ev := range evs {
		if ev.Player < 0 || ev.Player >= len(an.seats) {
			continue
		}
		t := &an.seats[ev.Player]
		switch ev.Kind {
		case dix.EvTurnStarted:
			t.turns++
		case dix.EvDrew:
			t.drawn++
		case dix.EvTookNumbers:
			t.kept += len(ev.Cards)
			if len(ev.Cards) > 0 {
				t.keptTurns++
			}
		case dix.EvBust:
			if ev.Bust == dix.BustTotal {
				t.bustA++
			} else {
				t.bustB++
			}
		case dix.EvTookMoney:
			t.moneyTurns++
			t.moneyIn += ev.Amount
		case dix.EvGained:
			t.gained += ev.Amount
			t.lost += ev.Lost
		case dix.EvBought:
			if phase == dix.PhaseFinalBuy {
				t.finalBought++
			} else {
				t.bought++
			}
		case dix.EvPaid:
			if slices.ContainsFunc(evs, func(e dix.Event) bool { return e.Kind == dix.EvBought && e.Player == ev.Player }) {
				t.paidBuy += ev.Amount
			} else {
				t.paidWild += ev.Amount
				t.wilds++
				an.auctions[an.turn][ev.Player]++
				an.price[an.turn][ev.Player] += ev.Amount
			}
		case dix.EvWildDiscarded:
			an.discarded++
			if nobodyCouldBid(g) {
				an.broke++
			}
			an.auctions[an.turn][len(an.seats)]++
		case dix.EvAuctionStarted:
			an.turn = ev.Player
		}
	}
}

// nobodyCouldBid reports whether no seat of g has the capacity for the
// lowest bid of an auction (3.5; 5 in solo, SPEC §5).
func nobodyCouldBid(g *dix.Game) bool {
	least := 1
	if g.Solo() {
		least = dix.SoloMinBid
	}
	for s := range g.Players {
		if g.Capacity(s) >= least {
			return false
		}
	}
	return true
}

// finish counts the end of one game.
func (an *analysis) finish(g *dix.Game) {
	results := g.Results()
	var own dix.Result
	best := -1
	for _, res := range results {
		t := &an.seats[res.Player]
		t.score += res.Score.Total
		pl := g.Players[res.Player]
		t.endMoney += pl.Money
		t.endCons += pl.Consolation
		if res.Player == 0 {
			own = res
		} else {
			best = max(best, res.Score.Total)
		}
	}
	an.margins = append(an.margins, own.Score.Total-best)
	for k := range an.boosted {
		r := own
		r.Score.Total += k
		if !slices.ContainsFunc(results, func(o dix.Result) bool { return o.Player != 0 && o.Before(&r) }) {
			an.boosted[k]++
		}
	}
}

// print writes the per-game averages of every seat and the distribution of
// seat 0's margin.
func (an *analysis) print(out io.Writer, games int, names []string, solo bool) error {
	var sb strings.Builder
	g := float64(games)
	label := func(s int) string {
		if solo {
			return []string{"human", "alix"}[s]
		}
		return fmt.Sprintf("p%d %s", s, names[min(s, len(names)-1)])
	}
	sb.WriteString("per game:       turns drawn kept(turns) bustA bustB money(tokens) gained lost bought(paid) final wilds(paid) end(money+cons) score\n")
	for s, t := range an.seats {
		fmt.Fprintf(&sb, "  %-12s  %5.1f %5.1f %4.1f(%4.1f) %5.2f %5.2f %5.2f(%5.1f) %6.1f %4.1f %6.2f(%4.1f) %5.2f %5.2f(%4.1f) %5.1f+%3.1f %5.2f\n",
			label(s), float64(t.turns)/g, float64(t.drawn)/g, float64(t.kept)/g, float64(t.keptTurns)/g,
			float64(t.bustA)/g, float64(t.bustB)/g, float64(t.moneyTurns)/g, float64(t.moneyIn)/g,
			float64(t.gained)/g, float64(t.lost)/g, float64(t.bought)/g, float64(t.paidBuy)/g,
			float64(t.finalBought)/g, float64(t.wilds)/g, float64(t.paidWild)/g,
			float64(t.endMoney)/g, float64(t.endCons)/g, float64(t.score)/g)
	}
	fmt.Fprintf(&sb, "wilds discarded: %.2f per game, %.2f of them when nobody could bid the lowest bid\n", float64(an.discarded)/g, float64(an.broke)/g)
	for a, row := range an.auctions {
		fmt.Fprintf(&sb, "wilds drawn on %s's turns, per game:", label(a))
		for w, n := range row {
			if w == len(an.seats) {
				fmt.Fprintf(&sb, "  discarded %.2f", float64(n)/g)
				continue
			}
			fmt.Fprintf(&sb, "  won by %s %.2f (at %.1f)", label(w), float64(n)/g, float64(an.price[a][w])/max(float64(n), 1))
		}
		sb.WriteString("\n")
	}
	// Seat 0's margin over the best other seat, bucketed.
	buckets := []struct {
		name   string
		lo, hi int
	}{{"≤ -8", -99, -8}, {"-7…-5", -7, -5}, {"-4…-3", -4, -3}, {"-2…-1", -2, -1}, {"0", 0, 0}, {"1…2", 1, 2}, {"3…4", 3, 4}, {"5…7", 5, 7}, {"≥ 8", 8, 99}}
	sb.WriteString("margin of seat 0 over the best other (score):")
	for _, b := range buckets {
		n := 0
		for _, m := range an.margins {
			if m >= b.lo && m <= b.hi {
				n++
			}
		}
		fmt.Fprintf(&sb, "  %s %.1f%%", b.name, 100*float64(n)/g)
	}
	sb.WriteString("\nseat 0's win rate with k more points at the end of the same games:")
	for k, n := range an.boosted {
		fmt.Fprintf(&sb, "  +%d %.1f%%", k, 100*float64(n)/g)
	}
	sb.WriteString("\n")
	_, err := io.WriteString(out, sb.String())
	return err
}
