package engine

import "sort"

// Results returns the final standings, best first (4.2): highest score, then
// most money (money tokens + 3 × consolation tokens, R9), then fewest cards in
// the collection; players equal on all three share the rank (and the victory
// when it is rank 1). In solo the same order decides between the human and
// ALIX (R13). Meaningful in PhaseOver; before that it ranks the current
// collections.
func (g *Game) Results() []Result {
	res := make([]Result, len(g.Players))
	for i, pl := range g.Players {
		res[i] = Result{
			Player: i,
			Score:  BestScore(pl.Collection),
			Money:  pl.Money + ConsolationValue*pl.Consolation,
			Cards:  len(pl.Collection),
		}
	}
	sort.SliceStable(res, func(a, b int) bool { return resultBefore(&res[a], &res[b]) })
	for i := range res {
		if i > 0 && !resultBefore(&res[i-1], &res[i]) {
			res[i].Rank = res[i-1].Rank
		} else {
			res[i].Rank = i + 1
		}
	}
	return res
}

// Winners returns the seats ranked first (several when they share the
// victory).
func (g *Game) Winners() []int {
	var w []int
	for _, r := range g.Results() {
		if r.Rank == 1 {
			w = append(w, r.Player)
		}
	}
	return w
}

func resultBefore(a, b *Result) bool {
	if a.Score.Total != b.Score.Total {
		return a.Score.Total > b.Score.Total
	}
	if a.Money != b.Money {
		return a.Money > b.Money
	}
	return a.Cards < b.Cards
}
