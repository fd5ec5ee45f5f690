package dix

import "github.com/dixgame/dixbot/engine"

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
	engine.Rank(res, (*Result).Before, func(r *Result) *int { return &r.Rank })
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

// Before reports whether r ranks ahead of o (4.2): a higher score, then more
// money, then fewer cards. Players neither of whom is before the other share
// a rank.
func (r *Result) Before(o *Result) bool {
	if r.Score.Total != o.Score.Total {
		return r.Score.Total > o.Score.Total
	}
	if r.Money != o.Money {
		return r.Money > o.Money
	}
	return r.Cards < o.Cards
}
