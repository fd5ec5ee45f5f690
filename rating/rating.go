package rating

import (
	"errors"
	"math"
)

// Defaults of the model; see the package documentation for their sources.
const (
	DefaultMu    = 25.0
	DefaultSigma = DefaultMu / 3
	DefaultBeta  = DefaultSigma / 2
	DefaultKappa = 0.0001
	DefaultTau   = DefaultMu / 300
	// Z is the number of standard deviations Ordinal subtracts from Mu.
	Z = 3.0
	// MaxAbs bounds the absolute value of every Mu and Sigma Rate accepts, so
	// that sums and squares stay finite.
	MaxAbs = 1e9
)

// Rating is a player's skill belief: a normal distribution of mean Mu and
// standard deviation Sigma.
type Rating struct {
	Mu    float64
	Sigma float64
}

// New is the rating of a player who has not played yet.
func New() Rating { return Rating{Mu: DefaultMu, Sigma: DefaultSigma} }

// Ordinal is the conservative value shown for r: Mu − 3·Sigma.
func Ordinal(r Rating) float64 { return r.Mu - Z*r.Sigma }

// Model holds the parameters of the Weng–Lin Plackett–Luce update.
type Model struct {
	// Beta is the standard deviation of one game's performance.
	Beta float64
	// Kappa is the floor of the factor applied to Sigma² in one update.
	Kappa float64
	// Tau is the additive dynamics: each Sigma becomes sqrt(Sigma²+Tau²)
	// before the update. 0 turns it off.
	Tau float64
	// LimitSigma keeps every Sigma from ending above its value before the
	// game (it can only rise through Tau).
	LimitSigma bool
}

// Default is the model with the references' defaults.
var Default = Model{Beta: DefaultBeta, Kappa: DefaultKappa, Tau: DefaultTau}

// Errors reported by Check.
var (
	ErrTeams = errors.New("rating: a game needs at least two teams, none empty")
	ErrRanks = errors.New("rating: ranks must give one rank per team")
	ErrValue = errors.New("rating: mu and sigma must be finite, sigma not negative, both within MaxAbs")
	ErrFixed = errors.New("rating: fixed must have the shape of teams")
)

// Check reports whether teams and ranks are a game Rate can update: at least
// two teams, none empty, finite ratings with 0 ≤ Sigma and |Mu|, Sigma ≤
// MaxAbs, and either no ranks or one per team.
func Check(teams [][]Rating, ranks []int) error {
	if len(teams) < 2 {
		return ErrTeams
	}
	if ranks != nil && len(ranks) != len(teams) {
		return ErrRanks
	}
	for _, t := range teams {
		if len(t) == 0 {
			return ErrTeams
		}
		for _, p := range t {
			if math.IsNaN(p.Mu) || math.IsNaN(p.Sigma) || math.Abs(p.Mu) > MaxAbs || p.Sigma < 0 || p.Sigma > MaxAbs {
				return ErrValue
			}
		}
	}
	return nil
}

// Rate updates teams with the default model; see Model.Rate.
func Rate(teams [][]Rating, ranks []int) [][]Rating { return Default.Rate(teams, ranks) }

// RateFixed updates teams with the default model; see Model.RateFixed.
func RateFixed(teams [][]Rating, ranks []int, fixed [][]bool) [][]Rating {
	return Default.RateFixed(teams, ranks, fixed)
}

// Rate returns the ratings of teams after a game in which team i placed
// ranks[i] (lower is better; equal ranks tie). A nil ranks means the teams are
// listed in finishing order, without ties. Teams of one player make a
// free-for-all. The input is not modified. When Check rejects the input, Rate
// returns a copy of teams unchanged.
func (m Model) Rate(teams [][]Rating, ranks []int) [][]Rating {
	return m.RateFixed(teams, ranks, nil)
}

// RateFixed is Rate where the players with fixed[i][j] set are fixed-strength
// players (computer seats): they take part in everyone else's update and come
// back unchanged. A nil fixed fixes nobody; otherwise it must have the shape of
// teams, or the teams come back unchanged.
func (m Model) RateFixed(teams [][]Rating, ranks []int, fixed [][]bool) [][]Rating {
	out := make([][]Rating, len(teams))
	for i, t := range teams {
		out[i] = append([]Rating(nil), t...)
	}
	if Check(teams, ranks) != nil || checkFixed(teams, fixed) != nil {
		return out
	}
	if ranks == nil {
		ranks = make([]int, len(teams))
		for i := range ranks {
			ranks[i] = i
		}
	}
	tau2 := m.Tau * m.Tau
	for _, t := range out {
		for j := range t {
			t[j].Sigma = math.Sqrt(t[j].Sigma*t[j].Sigma + tau2)
		}
	}
	m.update(out, ranks)
	for i, t := range out {
		for j := range t {
			if fixed != nil && fixed[i][j] {
				t[j] = teams[i][j]
				continue
			}
			if m.LimitSigma && t[j].Sigma > teams[i][j].Sigma {
				t[j].Sigma = teams[i][j].Sigma
			}
		}
	}
	return out
}

func checkFixed(teams [][]Rating, fixed [][]bool) error {
	if fixed == nil {
		return nil
	}
	if len(fixed) != len(teams) {
		return ErrFixed
	}
	for i := range teams {
		if len(fixed[i]) != len(teams[i]) {
			return ErrFixed
		}
	}
	return nil
}

// update applies Algorithm 4 of Weng & Lin (Plackett–Luce) in place. Only the
// order of ranks matters.
func (m Model) update(teams [][]Rating, ranks []int) {
	k := len(teams)
	mu := make([]float64, k)  // team mean: sum of the players' Mu
	s2 := make([]float64, k)  // team variance: sum of the players' Sigma²
	a := make([]float64, k)   // A_q: number of teams sharing q's rank
	top := make([]float64, k) // max of mu/c over C_q = {s: rank_s ≥ rank_q}
	sum := make([]float64, k) // Σ_{s∈C_q} exp(mu_s/c − top_q)
	c2 := 0.0
	for i, t := range teams {
		for _, p := range t {
			mu[i] += p.Mu
			s2[i] += p.Sigma * p.Sigma
		}
		c2 += s2[i] + m.Beta*m.Beta
	}
	c := math.Sqrt(c2)
	for q := range k {
		top[q] = math.Inf(-1)
		for s := range k {
			if ranks[s] == ranks[q] {
				a[q]++
			}
			if ranks[s] >= ranks[q] {
				top[q] = math.Max(top[q], mu[s]/c)
			}
		}
		for s := range k {
			if ranks[s] >= ranks[q] {
				sum[q] += math.Exp(mu[s]/c - top[q])
			}
		}
	}
	for i, t := range teams {
		var omega, delta float64
		for q := range k {
			if ranks[q] > ranks[i] {
				continue
			}
			// exp(mu_i/c) / Σ_{s∈C_q} exp(mu_s/c), with i ∈ C_q.
			p := math.Exp(mu[i]/c-top[q]) / sum[q]
			if q == i {
				omega += (1 - p) / a[q]
			} else {
				omega -= p / a[q]
			}
			delta += p * (1 - p) / a[q]
		}
		if s2[i] == 0 {
			continue // every player of the team is certain: nothing to move
		}
		gamma := math.Sqrt(s2[i]) / c
		omega *= s2[i] / c
		delta *= s2[i] / c2 * gamma
		for j := range t {
			share := t[j].Sigma * t[j].Sigma / s2[i]
			t[j].Mu += share * omega
			t[j].Sigma *= math.Sqrt(math.Max(1-share*delta, m.Kappa))
		}
	}
}
