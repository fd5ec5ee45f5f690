package qwixx

import "github.com/dixgame/dixbot/engine"

// Result is one seat's standing.
type Result struct {
	Seat  int `json:"seat"`
	Rank  int `json:"rank"`  // 1 for the winners; tied seats share a rank (Q10)
	Score int `json:"score"` // Sheet.Score
}

// Results returns the standings, best first: highest score (§7); tied
// seats share the rank, and the victory at rank 1 (Q10), listed in seat
// order. Final once the game is over; before that it ranks the sheets as
// they stand.
func (g *Game) Results() []Result {
	res := make([]Result, g.Players)
	for s := range res {
		res[s] = Result{Seat: s, Score: g.Sheets[s].Score()}
	}
	engine.Rank(res, func(a, b *Result) bool { return a.Score > b.Score }, func(r *Result) *int { return &r.Rank })
	return res
}

// Winners returns the seats ranked first (several when they share the
// victory, Q10).
func (g *Game) Winners() []int {
	var w []int
	for _, r := range g.Results() {
		if r.Rank == 1 {
			w = append(w, r.Seat)
		}
	}
	return w
}
