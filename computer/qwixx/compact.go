package qwixx

import (
	"math"
	"slices"

	"github.com/dixgame/dixbot/engine/qwixx"
)

// Compact is a small approximation of Optimum, the strong level's measure
// of a sheet: the points still to come are the sum, over the four rows, of
// a value that depends on the row's code, on the penalties marked (0–3)
// and on whether a row is closed already (0 or 1: the second lock ends the
// game). Its 456 numbers are fitted to the exact values by least squares
// (FitCompact; `dixsim optimum` writes them to compact_table.go).
type Compact [4][2][rowCodes]float32

// Value returns the points c expects from p: 0 once the game is over.
func (c *Compact) Value(p Position) float64 {
	if p.over() || p.Penalties >= qwixx.MaxPenalties {
		return 0
	}
	lk := p.closed()
	v := 0.0
	for _, r := range p.Rows {
		v += float64(c[p.Penalties][lk][r])
	}
	return v
}

// FitCompact fits a Compact to o on the sheets that decisions compare:
// every sheet valued while playing games solitaire games (seeds seed,
// seed+1, …) with o's own decisions. It returns the fit and the root mean
// square error of the fit on those sheets, in points.
func FitCompact(o *Optimum, games int, seed int64) (*Compact, float64) {
	const n = 4 * 2 * rowCodes
	idx := func(pen, lk int, code uint8) int { return (pen*2+lk)*rowCodes + int(code) }
	ata := make([]float64, n*n)
	atb := make([]float64, n)
	var samples, yy float64
	record := func(p Position) float64 {
		y := o.Value(p)
		lk := p.closed()
		for _, a := range p.Rows {
			i := idx(p.Penalties, lk, a)
			atb[i] += y
			for _, b := range p.Rows {
				ata[i*n+idx(p.Penalties, lk, b)]++
			}
		}
		samples++
		yy += y * y
		return y
	}
	for i := range games {
		g, err := qwixx.New(qwixx.Options{Players: 1, Solitaire: true, Seed: seed + int64(i), First: 0})
		if err != nil {
			panic(err) // the options above are always valid
		}
		for !g.Over() {
			a, _ := bestOption(g, 0, record)
			if _, err := g.Apply(0, a); err != nil {
				panic(err) // bestOption returns a legal action
			}
		}
	}
	// Ridge: a feature never seen keeps a value near 0 instead of an
	// arbitrary one.
	for i := range n {
		ata[i*n+i] += 1e-3
	}
	x := solve(slices.Clone(ata), slices.Clone(atb), n)
	var c Compact
	for pen := range 4 {
		for lk := range 2 {
			for code := range rowCodes {
				c[pen][lk][code] = float32(x[idx(pen, lk, uint8(code))])
			}
		}
	}
	// Residual: Σ(y − Ax)² = yy − 2x·Aᵀy + x·AᵀA·x.
	res := yy
	for i := range n {
		res -= 2 * x[i] * atb[i]
		for j := range n {
			res += x[i] * ata[i*n+j] * x[j]
		}
	}
	return &c, math.Sqrt(max(res, 0) / max(samples, 1))
}

// solve returns x with A·x = b for the symmetric positive definite n×n
// matrix a (Gaussian elimination with partial pivoting; a and b are
// overwritten).
func solve(a, b []float64, n int) []float64 {
	for k := range n {
		p := k
		for i := k + 1; i < n; i++ {
			if math.Abs(a[i*n+k]) > math.Abs(a[p*n+k]) {
				p = i
			}
		}
		if p != k {
			for j := range n {
				a[k*n+j], a[p*n+j] = a[p*n+j], a[k*n+j]
			}
			b[k], b[p] = b[p], b[k]
		}
		for i := k + 1; i < n; i++ {
			f := a[i*n+k] / a[k*n+k]
			if f == 0 {
				continue
			}
			for j := k; j < n; j++ {
				a[i*n+j] -= f * a[k*n+j]
			}
			b[i] -= f * b[k]
		}
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for j := i + 1; j < n; j++ {
			s -= a[i*n+j] * x[j]
		}
		x[i] = s / a[i*n+i]
	}
	return x
}

// PlaySolitaire plays one solitaire game with seed, every decision the
// best under future, and returns its score.
func PlaySolitaire(seed int64, future Future) int {
	g, err := qwixx.New(qwixx.Options{Players: 1, Solitaire: true, Seed: seed, First: 0})
	if err != nil {
		panic(err)
	}
	for !g.Over() {
		a, _ := bestOption(g, 0, future)
		if _, err := g.Apply(0, a); err != nil {
			panic(err)
		}
	}
	return g.Sheets[0].Score()
}

// SolitaireTable returns a copy of the table fitted to Optimum.
func SolitaireTable() *Compact {
	c := compactTable
	return &c
}
