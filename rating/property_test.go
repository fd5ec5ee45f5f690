package rating

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomGame draws a game of 2..6 teams of 1..3 players with ratings around
// the prior, and ranks that may tie.
func randomGame(r *rand.Rand) ([][]Rating, []int) {
	k := 2 + r.IntN(5)
	teams := make([][]Rating, k)
	ranks := make([]int, k)
	for i := range teams {
		n := 1 + r.IntN(3)
		for range n {
			teams[i] = append(teams[i], Rating{Mu: 5 + 40*r.Float64(), Sigma: 0.5 + 9*r.Float64()})
		}
		ranks[i] = 1 + r.IntN(k)
	}
	return teams, ranks
}

func TestOrdinal(t *testing.T) {
	tests := []struct {
		r    Rating
		want float64
	}{
		{New(), 0},
		{Rating{30, 2}, 24},
		{Rating{10, 5}, -5},
	}
	for _, tt := range tests {
		assert.InDelta(t, tt.want, Ordinal(tt.r), 1e-12, "%+v", tt.r)
	}
}

// TestRateWinnerRisesLoserFalls: the team ranked alone first gains mu and the
// team ranked alone last loses mu, whatever the ratings.
func TestRateWinnerRisesLoserFalls(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		teams, _ := randomGame(r)
		got := Rate(teams, nil) // listed order, no ties
		last := len(teams) - 1
		for j := range teams[0] {
			assert.Greater(t, got[0][j].Mu, teams[0][j].Mu)
		}
		for j := range teams[last] {
			assert.Less(t, got[last][j].Mu, teams[last][j].Mu)
		}
	}
}

// TestRateSigmaNeverGrowsWithoutTau: without additive dynamics a game only
// brings information, so no Sigma grows; with tau and LimitSigma none ends
// above its value before the game either.
func TestRateSigmaNeverGrowsWithoutTau(t *testing.T) {
	noTau := Default
	noTau.Tau = 0
	limited := Default
	limited.LimitSigma = true
	r := rand.New(rand.NewPCG(3, 4))
	for _, m := range []Model{noTau, limited} {
		for range 2000 {
			teams, ranks := randomGame(r)
			got := m.Rate(teams, ranks)
			for i := range teams {
				for j := range teams[i] {
					assert.LessOrEqual(t, got[i][j].Sigma, teams[i][j].Sigma)
					assert.Greater(t, got[i][j].Sigma, 0.0)
				}
			}
		}
	}
}

// TestRateSymmetric: listing the teams in another order (with their ranks)
// lists the same results in that order, and two identical teams that tie get
// identical results.
func TestRateSymmetric(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		teams, ranks := randomGame(r)
		got := Rate(teams, ranks)
		perm := r.Perm(len(teams))
		pTeams := make([][]Rating, len(teams))
		pRanks := make([]int, len(teams))
		for i, p := range perm {
			pTeams[i], pRanks[i] = teams[p], ranks[p]
		}
		pGot := Rate(pTeams, pRanks)
		for i, p := range perm {
			for j := range pGot[i] {
				assert.InDelta(t, got[p][j].Mu, pGot[i][j].Mu, 1e-9)
				assert.InDelta(t, got[p][j].Sigma, pGot[i][j].Sigma, 1e-9)
			}
		}
	}
	// Two equal players, the mirror image of each other's result.
	a := Rate([][]Rating{{New()}, {New()}}, []int{1, 2})
	b := Rate([][]Rating{{New()}, {New()}}, []int{2, 1})
	assert.InDelta(t, a[0][0].Mu-DefaultMu, DefaultMu-a[1][0].Mu, 1e-9)
	assert.Equal(t, a[0][0], b[1][0])
	assert.Equal(t, a[1][0], b[0][0])
}

// TestRateTiesEqualUpdates: identical teams sharing a rank get identical
// updates, wherever they are listed and whatever else is in the game.
func TestRateTiesEqualUpdates(t *testing.T) {
	x := Rating{Mu: 27, Sigma: 6}
	tests := []struct {
		name  string
		teams [][]Rating
		ranks []int
		tied  []int
	}{
		{"two players tie first", [][]Rating{{x}, {New()}, {x}}, []int{1, 3, 1}, []int{0, 2}},
		{"three players tie last", [][]Rating{{x}, {New()}, {x}, {x}}, []int{4, 1, 4, 4}, []int{0, 2, 3}},
		{"all tie", [][]Rating{{x}, {x}, {x}, {x}, {x}}, []int{2, 2, 2, 2, 2}, []int{0, 1, 2, 3, 4}},
		{"teams tie", [][]Rating{{x, New()}, {Computer(Strong)}, {x, New()}}, []int{2, 1, 2}, []int{0, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Rate(tt.teams, tt.ranks)
			for _, i := range tt.tied[1:] {
				assert.Equal(t, got[tt.tied[0]], got[i])
			}
		})
	}
	// Equal players all tied: nobody's mu moves.
	got := Rate([][]Rating{{x}, {x}, {x}}, []int{1, 1, 1})
	for i := range got {
		assert.InDelta(t, x.Mu, got[i][0].Mu, 1e-9)
	}
}

// TestRateDoesNotModifyInput: Rate works on a copy.
func TestRateDoesNotModifyInput(t *testing.T) {
	teams := [][]Rating{{New(), {20, 3}}, {{30, 4}}}
	ranks := []int{2, 1}
	Rate(teams, ranks)
	assert.Equal(t, [][]Rating{{New(), {20, 3}}, {{30, 4}}}, teams)
	assert.Equal(t, []int{2, 1}, ranks)
}

// TestRateBadInput: a game Check rejects comes back unchanged, as a copy.
func TestRateBadInput(t *testing.T) {
	n := New()
	tests := []struct {
		name  string
		teams [][]Rating
		ranks []int
		fixed [][]bool
		want  error
	}{
		{"no teams", nil, nil, nil, ErrTeams},
		{"one team", [][]Rating{{n, n}}, nil, nil, ErrTeams},
		{"empty team", [][]Rating{{n}, {}}, nil, nil, ErrTeams},
		{"ranks too short", [][]Rating{{n}, {n}}, []int{1}, nil, ErrRanks},
		{"ranks empty", [][]Rating{{n}, {n}}, []int{}, nil, ErrRanks},
		{"NaN mu", [][]Rating{{n}, {{math.NaN(), 1}}}, nil, nil, ErrValue},
		{"infinite mu", [][]Rating{{n}, {{math.Inf(1), 1}}}, nil, nil, ErrValue},
		{"infinite sigma", [][]Rating{{n}, {{1, math.Inf(1)}}}, nil, nil, ErrValue},
		{"negative sigma", [][]Rating{{n}, {{1, -1}}}, nil, nil, ErrValue},
		{"mu beyond MaxAbs", [][]Rating{{n}, {{-2 * MaxAbs, 1}}}, nil, nil, ErrValue},
		{"fixed wrong shape", [][]Rating{{n}, {n}}, nil, [][]bool{{true}}, ErrFixed},
		{"fixed team wrong size", [][]Rating{{n}, {n}}, nil, [][]bool{{true}, {}}, ErrFixed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.teams, tt.ranks)
			if err == nil {
				err = checkFixed(tt.teams, tt.fixed)
			}
			assert.ErrorIs(t, err, tt.want)
			got := RateFixed(tt.teams, tt.ranks, tt.fixed)
			require.Len(t, got, len(tt.teams))
			for i := range got {
				// Compared element by element: NaN is not equal to itself.
				require.Len(t, got[i], len(tt.teams[i]))
				for j := range got[i] {
					assert.Equal(t, math.Float64bits(tt.teams[i][j].Mu), math.Float64bits(got[i][j].Mu))
					assert.Equal(t, math.Float64bits(tt.teams[i][j].Sigma), math.Float64bits(got[i][j].Sigma))
				}
			}
		})
	}
}

// TestRateFixedComputer: a computer seat's rating never changes, a person
// gains more for beating a stronger level and loses more to a weaker one.
func TestRateFixedComputer(t *testing.T) {
	for _, lvl := range []int{Easy, Normal, Strong} {
		c := Computer(lvl)
		for _, ranks := range [][]int{{1, 2}, {2, 1}, {1, 1}} {
			got := RateFixed([][]Rating{{New()}, {c}}, ranks, [][]bool{{false}, {true}})
			assert.Equal(t, c, got[1][0], "level %d ranks %v", lvl, ranks)
			assert.NotEqual(t, New(), got[0][0])
		}
	}
	assert.Less(t, Computer(Easy).Mu, Computer(Normal).Mu)
	assert.Less(t, Computer(Normal).Mu, Computer(Strong).Mu)
	assert.Equal(t, Computer(Normal), Computer(99), "an unknown level is rated as normal")

	win := func(lvl int) float64 {
		got := RateFixed([][]Rating{{New()}, {Computer(lvl)}}, []int{1, 2}, [][]bool{{false}, {true}})
		return got[0][0].Mu - DefaultMu
	}
	lose := func(lvl int) float64 {
		got := RateFixed([][]Rating{{New()}, {Computer(lvl)}}, []int{2, 1}, [][]bool{{false}, {true}})
		return DefaultMu - got[0][0].Mu
	}
	assert.Greater(t, win(Strong), win(Normal))
	assert.Greater(t, win(Normal), win(Easy))
	assert.Greater(t, lose(Easy), lose(Normal))
	assert.Greater(t, lose(Normal), lose(Strong))

	// A person's update in a game with a computer seat is the same whether or
	// not that seat is fixed: fixing only keeps the computer's own rating.
	teams := [][]Rating{{New()}, {Computer(Strong)}, {{28, 5}}}
	free := Rate(teams, []int{2, 1, 3})
	fixed := RateFixed(teams, []int{2, 1, 3}, [][]bool{{false}, {true}, {false}})
	assert.Equal(t, free[0], fixed[0])
	assert.Equal(t, free[2], fixed[2])
	assert.NotEqual(t, free[1], fixed[1])
}

// TestRateExtremeValues: far-apart and degenerate ratings give finite
// results (exp(mu/c) would overflow without the shift by the maximum).
func TestRateExtremeValues(t *testing.T) {
	tests := []struct {
		name  string
		teams [][]Rating
	}{
		{"huge mu gap", [][]Rating{{{MaxAbs, 0.1}}, {{-MaxAbs, 0.1}}, {{0, 0.1}}}},
		{"upset of a huge gap", [][]Rating{{{-MaxAbs, 1}}, {{MaxAbs, 1}}}},
		{"zero sigma", [][]Rating{{{25, 0}}, {{25, 0}}}},
		{"huge sigma", [][]Rating{{{25, MaxAbs}}, {{25, 0}}}},
		{"tiny sigma", [][]Rating{{{25, 1e-300}}, {{25, 1e-300}}}},
	}
	noTau := Default
	noTau.Tau = 0
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, m := range []Model{Default, noTau} {
				for _, got := range [][][]Rating{m.Rate(tt.teams, nil), m.Rate(tt.teams, make([]int, len(tt.teams)))} {
					for i := range got {
						for _, p := range got[i] {
							assert.False(t, math.IsNaN(p.Mu) || math.IsInf(p.Mu, 0), "mu %v", p.Mu)
							assert.False(t, math.IsNaN(p.Sigma) || math.IsInf(p.Sigma, 0), "sigma %v", p.Sigma)
							assert.GreaterOrEqual(t, p.Sigma, 0.0)
						}
					}
				}
			}
		})
	}
}

// FuzzRate: whatever the ratings and ranks, Rate never panics and returns
// finite ratings of the input's shape with non-negative sigma.
func FuzzRate(f *testing.F) {
	f.Add(25.0, 25.0/3, 25.0, 25.0/3, 20.0, 1.0, 1, 2, 3, uint8(3))
	f.Add(1e9, 0.0, -1e9, 1e9, 0.0, 1e-300, 1, 1, 1, uint8(1))
	f.Add(math.NaN(), math.Inf(1), 0.0, -1.0, 5.0, 5.0, -7, 0, 7, uint8(2))
	f.Fuzz(func(t *testing.T, mu0, s0, mu1, s1, mu2, s2 float64, r0, r1, r2 int, shape uint8) {
		players := []Rating{{mu0, s0}, {mu1, s1}, {mu2, s2}}
		var teams [][]Rating
		switch shape % 4 {
		case 0: // free-for-all of three
			teams = [][]Rating{{players[0]}, {players[1]}, {players[2]}}
		case 1: // two against one
			teams = [][]Rating{{players[0], players[1]}, {players[2]}}
		case 2: // three teams, the first of two
			teams = [][]Rating{{players[0], players[2]}, {players[1]}, {players[2]}}
		default: // one team: rejected
			teams = [][]Rating{players}
		}
		ranks := []int{r0, r1, r2}[:len(teams)]
		for _, m := range []Model{Default, {Beta: DefaultBeta, Kappa: DefaultKappa}} {
			got := m.Rate(teams, ranks)
			require.Len(t, got, len(teams))
			if Check(teams, ranks) != nil {
				continue
			}
			for i := range got {
				require.Len(t, got[i], len(teams[i]))
				for _, p := range got[i] {
					if math.IsNaN(p.Mu) || math.IsInf(p.Mu, 0) || math.IsNaN(p.Sigma) || math.IsInf(p.Sigma, 0) || p.Sigma < 0 {
						t.Fatalf("Rate(%v, %v) = %v", teams, ranks, got)
					}
				}
			}
		}
	})
}

// BenchmarkRate5FFA: one five-player free-for-all.
func BenchmarkRate5FFA(b *testing.B) {
	teams := [][]Rating{{New()}, {{28, 6}}, {{22, 7}}, {Computer(Strong)}, {{31, 3}}}
	ranks := []int{3, 1, 2, 5, 3}
	b.ReportAllocs()
	for b.Loop() {
		Rate(teams, ranks)
	}
}
