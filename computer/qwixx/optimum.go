package qwixx

// Optimum holds the exact value of every solitaire sheet (one sheet whose
// player is active every roll, the game ending on the fourth penalty or the
// second lock: §6): the points still to be scored from it under perfect
// play, computed by dynamic programming over every sheet. Red and yellow
// play alike, so do green and blue, and the two pairs mirror each other
// (every die d read as 7−d turns a red sum n into 14−n, the same position
// of a green row), so a sheet is stored once for its 8 symmetric forms:
// 4 × 1,367,031 values.
//
// An Optimum is read-only once built and safe for concurrent use.
type Optimum struct {
	v []float32
}

const (
	pairKeys = rowCodes * (rowCodes + 1) / 2 // 1,653 unordered pairs of rows
	quadKeys = pairKeys * (pairKeys + 1) / 2 // 1,367,031 unordered pairs of pairs
)

func tri(a, b int) int {
	if a > b {
		a, b = b, a
	}
	return b*(b+1)/2 + a
}

// key returns the index of s (Penalties 0–3) under its symmetries.
func key(s Position) int {
	return s.Penalties*quadKeys + tri(tri(int(s.Rows[0]), int(s.Rows[1])), tri(int(s.Rows[2]), int(s.Rows[3])))
}

// SolveOptimum computes the exact solitaire values. It takes about a
// minute of one core and 22 MB.
func SolveOptimum() *Optimum {
	o := &Optimum{v: make([]float32, 4*quadKeys)}
	// Every mark raises the code of its row, so a sheet's successors have
	// a larger sum of row codes or more penalties: solve sheets by
	// penalties, then code sum, from the top down.
	type quad struct{ rows [4]uint8 }
	var pairs [][2]uint8
	for b := range rowCodes {
		for a := 0; a <= b; a++ {
			pairs = append(pairs, [2]uint8{uint8(a), uint8(b)})
		}
	}
	bySum := make([][][4]uint8, 4*rowCodes)
	for q := range pairKeys {
		for p := 0; p <= q; p++ {
			r := [4]uint8{pairs[p][0], pairs[p][1], pairs[q][0], pairs[q][1]}
			sum := int(r[0]) + int(r[1]) + int(r[2]) + int(r[3])
			bySum[sum] = append(bySum[sum], r)
		}
	}
	future := func(s Position) float64 {
		if s.closed() >= 2 {
			return 0
		}
		return float64(o.v[key(s)])
	}
	for pen := 3; pen >= 0; pen-- {
		for sum := len(bySum) - 1; sum >= 0; sum-- {
			for _, r := range bySum[sum] {
				s := Position{Rows: r, Penalties: pen}
				if s.closed() >= 2 {
					continue
				}
				o.v[key(s)] = float32(turnValue(s, future))
			}
		}
	}
	return o
}

// Value returns the points still to be scored from s under perfect
// solitaire play: 0 once the game is over.
func (o *Optimum) Value(s Position) float64 {
	if s.Penalties >= 4 || s.closed() >= 2 {
		return 0
	}
	return float64(o.v[key(s)])
}
