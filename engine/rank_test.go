package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dixgame/dixbot/engine"
)

func byScore(a, b *engine.Result) bool { return a.Score > b.Score }

func rankOf(r *engine.Result) *int { return &r.Rank }

// TestRank checks competition ranking: best first, tied entries in their
// order of entry sharing the place of the first of them, the next entry
// ranked by its place.
func TestRank(t *testing.T) {
	res := []engine.Result{{Seat: 0, Score: 5}, {Seat: 1, Score: 9}, {Seat: 2, Score: 5}, {Seat: 3, Score: 9}, {Seat: 4, Score: 1}}
	engine.Rank(res, byScore, rankOf)
	assert.Equal(t, []engine.Result{
		{Seat: 1, Rank: 1, Score: 9}, {Seat: 3, Rank: 1, Score: 9},
		{Seat: 0, Rank: 3, Score: 5}, {Seat: 2, Rank: 3, Score: 5},
		{Seat: 4, Rank: 5, Score: 1},
	}, res)

	none := []engine.Result{}
	engine.Rank(none, byScore, rankOf)
	assert.Empty(t, none)

	all := []engine.Result{{Seat: 0, Score: 2}, {Seat: 1, Score: 2}, {Seat: 2, Score: 2}}
	engine.Rank(all, byScore, rankOf)
	for i, r := range all {
		assert.Equal(t, engine.Result{Seat: i, Rank: 1, Score: 2}, r)
	}
}

// TestRankTieBreak checks a second key: entries equal on the first are
// ordered by the second, and share a rank only when equal on both.
func TestRankTieBreak(t *testing.T) {
	type entry struct{ seat, score, money, rank int }
	res := []entry{{0, 7, 1, 0}, {1, 7, 3, 0}, {2, 7, 1, 0}, {3, 8, 0, 0}}
	engine.Rank(res, func(a, b *entry) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return a.money > b.money
	}, func(e *entry) *int { return &e.rank })
	assert.Equal(t, []entry{{3, 8, 0, 1}, {1, 7, 3, 2}, {0, 7, 1, 3}, {2, 7, 1, 3}}, res)
}
