package rating

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tolerance is the absolute difference allowed from a reference value. The
// references print full double precision; openskill.py's own test compares
// with a relative tolerance of 1e-4 and openskill.js's with exact equality.
const tolerance = 1e-6

// team repeats r n times: in the reference tests every player of a game starts
// from the same rating.
func team(r Rating, n int) []Rating {
	t := make([]Rating, n)
	for i := range t {
		t[i] = r
	}
	return t
}

func assertRatings(t *testing.T, want, got [][]Rating) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		require.Len(t, got[i], len(want[i]), "team %d", i)
		for j := range want[i] {
			assert.InDelta(t, want[i][j].Mu, got[i][j].Mu, tolerance, "team %d player %d mu", i, j)
			assert.InDelta(t, want[i][j].Sigma, got[i][j].Sigma, tolerance, "team %d player %d sigma", i, j)
		}
	}
}

// TestRateOpenSkillJSModel reproduces openskill.js's Plackett–Luce model test,
// which calls the model itself (no tau) on default ratings:
// github.com/philihp/openskill.js, src/models/__tests__/plackett-luce.test.ts,
// commit 0bf4361f809555caec924e97f9c596eef579e6f8.
func TestRateOpenSkillJSModel(t *testing.T) {
	m := Model{Beta: DefaultBeta, Kappa: DefaultKappa}
	r := New()
	r1, r2, r3 := team(r, 1), team(r, 2), team(r, 3)
	tests := []struct {
		name  string
		teams [][]Rating
		ranks []int
		want  [][]Rating
	}{
		{"2p FFA", [][]Rating{r1, r1}, nil, [][]Rating{
			{{27.63523138347365, 8.065506316323548}},
			{{22.36476861652635, 8.065506316323548}},
		}},
		{"3p FFA", [][]Rating{r1, r1, r1}, nil, [][]Rating{
			{{27.868876552746237, 8.204837030780652}},
			{{25.717219138186557, 8.057829747583874}},
			{{21.413904309067206, 8.057829747583874}},
		}},
		{"4p FFA", [][]Rating{r1, r1, r1, r1}, nil, [][]Rating{
			{{27.795084971874736, 8.263160757613477}},
			{{26.552824984374855, 8.179213704945203}},
			{{24.68943500312503, 8.083731307186588}},
			{{20.96265504062538, 8.083731307186588}},
		}},
		{"5p FFA", [][]Rating{r1, r1, r1, r1, r1}, nil, [][]Rating{
			{{27.666666666666668, 8.290556877154474}},
			{{26.833333333333332, 8.240145629781066}},
			{{25.72222222222222, 8.179996679645559}},
			{{24.055555555555557, 8.111796013701358}},
			{{20.72222222222222, 8.111796013701358}},
		}},
		{"3 teams different sized players", [][]Rating{r3, r1, r2}, nil, [][]Rating{
			team(Rating{25.939870821784513, 8.247641552260456}, 3),
			{{27.21366020491262, 8.274321317985242}},
			team(Rating{21.84646897330287, 8.213058173195341}, 2),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertRatings(t, tt.want, m.Rate(tt.teams, tt.ranks))
		})
	}
	// "2-player tie with equal ratings does not change mu" (toBeCloseTo 25).
	t.Run("2-player tie", func(t *testing.T) {
		got := m.Rate([][]Rating{r1, r1}, []int{1, 1})
		assert.InDelta(t, 25, got[0][0].Mu, tolerance)
		assert.InDelta(t, 25, got[1][0].Mu, tolerance)
	})
	// "2-player tie with unequal ratings: stronger loses mu, weaker gains mu".
	t.Run("2-player tie unequal", func(t *testing.T) {
		got := m.Rate([][]Rating{{{35, 8}}, {{15, 8}}}, []int{1, 1})
		assert.Less(t, got[0][0].Mu, 35.0)
		assert.Greater(t, got[1][0].Mu, 15.0)
	})
}

// TestRateOpenSkillParity reproduces openskill.js's parity test with
// openskill.py 6.2.0 (rate() with the default tau = 25/300), whose constants
// come from openskill.py's fixture tests/models/data/plackettluce.json:
// github.com/philihp/openskill.js, src/__tests__/parity-plackett-luce.test.ts,
// commit 0bf4361f809555caec924e97f9c596eef579e6f8. Scores s are passed as
// ranks −s, as both references do.
func TestRateOpenSkillParity(t *testing.T) {
	r := Rating{Mu: 20.35125162611535, Sigma: 8.33148112355601}
	tests := []struct {
		name  string
		model Model
		teams [][]Rating
		ranks []int
		want  [][]Rating
	}{
		{"normal", Default, [][]Rating{team(r, 1), team(r, 2)}, nil, [][]Rating{
			{{23.855123082692877, 8.22447878583752}},
			team(Rating{16.84738016953782, 8.179571171464575}, 2),
		}},
		{"ranks", Default, [][]Rating{team(r, 1), team(r, 2), team(r, 1), team(r, 2)}, []int{2, 1, 4, 3}, [][]Rating{
			{{22.35555943890167, 8.265434830225024}},
			team(Rating{22.373451456616035, 8.258479912445537}, 2),
			{{18.311159777900297, 8.219170401234347}},
			team(Rating{18.364835831043397, 8.112716571808326}, 2),
		}},
		{"scores", Default, [][]Rating{team(r, 1), team(r, 2)}, []int{-1, -2}, [][]Rating{
			{{19.4016459546452, 8.22447878583752}},
			team(Rating{21.300857297585495, 8.179571171464575}, 2),
		}},
		{"limit_sigma", Model{Beta: DefaultBeta, Kappa: DefaultKappa, Tau: DefaultTau, LimitSigma: true},
			[][]Rating{team(r, 1), team(r, 2), team(r, 3)}, []int{2, 1, 3}, [][]Rating{
				{{22.81664991565251, 8.28331609373364}},
				team(Rating{22.74645120129216, 8.268148437657915}, 2),
				team(Rating{15.49065376140138, 8.18959307104567}, 3),
			}},
		{"ties", Default, [][]Rating{team(r, 1), team(r, 2), team(r, 3)}, []int{1, 2, 1}, [][]Rating{
			{{21.63766806988004, 8.310709773172306}},
			team(Rating{19.53956360838512, 8.268148437657915}, 2),
			team(Rating{19.87652320008089, 8.237522411103104}, 3),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertRatings(t, tt.want, tt.model.Rate(tt.teams, tt.ranks))
		})
	}
}

// TestRateOpenSkillPy reproduces openskill.py's test_rate for Plackett–Luce,
// a model of mu = 22.350299400541857 and sigma = 4.177118726502424 with the
// default beta, kappa and tau: github.com/OpenDebates/openskill.py,
// tests/models/weng_lin/test_plackett_luce.py (test_rate) and
// tests/models/data/plackettluce.json, commit
// cc684f1e06231d75a24f0183cf0bcb21e44cae89.
func TestRateOpenSkillPy(t *testing.T) {
	r := Rating{Mu: 22.350299400541857, Sigma: 4.177118726502424}
	limit := Default
	limit.LimitSigma = true
	tests := []struct {
		name  string
		model Model
		teams [][]Rating
		ranks []int
		want  [][]Rating
	}{
		{"normal", Default, [][]Rating{team(r, 1), team(r, 2)}, nil, [][]Rating{
			{{24.064467826765515, 4.163571386191661}},
			team(Rating{20.6361309743182, 4.15760104967308}, 2),
		}},
		{"ranks", Default, [][]Rating{team(r, 1), team(r, 2)}, []int{2, 1}, [][]Rating{
			{{22.19401288690994, 4.163571386191661}},
			team(Rating{22.506585914173776, 4.15760104967308}, 2),
		}},
		{"scores", Default, [][]Rating{team(r, 1), team(r, 2)}, []int{-1, -2}, [][]Rating{
			{{22.19401288690994, 4.163571386191661}},
			team(Rating{22.506585914173776, 4.15760104967308}, 2),
		}},
		{"limit_sigma", limit, [][]Rating{team(r, 1), team(r, 2), team(r, 3)}, []int{2, 1, 3}, [][]Rating{
			{{23.673188433055675, 4.174097005234212}},
			team(Rating{23.54860097168954, 4.164693649388653}, 2),
			team(Rating{19.829108796880355, 4.155899775058227}, 3),
		}},
		{"ties", Default, [][]Rating{team(r, 1), team(r, 2), team(r, 3)}, []int{1, 2, 1}, [][]Rating{
			{{23.01442322005181, 4.176165477042022}},
			team(Rating{22.154697318038096, 4.164693649388653}, 2),
			team(Rating{21.88177766353566, 4.159497495039252}, 3),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertRatings(t, tt.want, tt.model.Rate(tt.teams, tt.ranks))
		})
	}
}

// TestRateOpenSkillJSSeries reproduces openskill.js's three-game series, whose
// figures come from the R package rank-1.02 (free-for-all by score):
// github.com/philihp/openskill.js,
// src/models/__tests__/plackett-luce-series.test.ts, commit
// 0bf4361f809555caec924e97f9c596eef579e6f8. rank-1.02 has no additive
// dynamics: without tau the figures agree to 1e-6; with the default tau
// (what openskill.js's rate() applies) they agree within the reference test's
// own toBeCloseTo, 0.005.
func TestRateOpenSkillJSSeries(t *testing.T) {
	noTau := Default
	noTau.Tau = 0
	want := []Rating{
		{26.353761103, 8.11102706},
		{24.618479789, 7.90533551},
		{23.065819512, 7.822005595},
		{24.476332403, 8.106111471},
		{26.385499685, 8.054090809},
	}
	games := []struct {
		players []int
		scores  []int
	}{
		{[]int{0, 1, 2, 3, 4}, []int{9, 7, 7, 5, 5}},
		{[]int{4, 2, 1}, []int{9, 5, 5}},
		{[]int{3, 1, 2, 0}, []int{9, 9, 7, 7}},
	}
	tests := []struct {
		name  string
		model Model
		tol   float64
	}{
		{"without tau", noTau, tolerance},
		{"default tau", Default, 0.005},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := []Rating{New(), New(), New(), New(), New()}
			for _, g := range games {
				teams := make([][]Rating, len(g.players))
				ranks := make([]int, len(g.players))
				for i, x := range g.players {
					teams[i] = []Rating{p[x]}
					ranks[i] = -g.scores[i]
				}
				got := tt.model.Rate(teams, ranks)
				for i, x := range g.players {
					p[x] = got[i][0]
				}
			}
			for i := range want {
				assert.InDelta(t, want[i].Mu, p[i].Mu, tt.tol, "player %d mu", i)
				assert.InDelta(t, want[i].Sigma, p[i].Sigma, tt.tol, "player %d sigma", i)
			}
		})
	}
}
