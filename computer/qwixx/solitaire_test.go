package qwixx

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bruteTurn is turnValue written the long way: every one of the 6^6 rolls,
// every action 1 then every action 2, with nothing factored.
func bruteTurn(s Position, future Future) float64 {
	fut := func(p Position) float64 {
		if p.over() {
			return 0
		}
		return future(p)
	}
	total := 0.0
	var d [6]int
	for i := range 46656 {
		x := i
		for k := range d {
			d[k] = x%6 + 1
			x /= 6
		}
		pen, penPts := s.penalty()
		best := penPts
		if pen.Penalties < 4 {
			best += fut(pen)
		}
		try := func(after1 Position, pts1 float64, marked bool) {
			if marked {
				best = max(best, pts1+fut(after1))
				if after1.over() {
					return // Q8
				}
			}
			for c := range 4 {
				for _, w := range d[:2] {
					p := posOf(c, w+d[2+c])
					m := markTab[after1.Rows[c]][p]
					if !m.ok {
						continue
					}
					next := after1
					next.Rows[c] = m.code
					best = max(best, pts1+float64(m.points)+fut(next))
				}
			}
		}
		try(s, 0, false)
		for x := range 4 {
			m := markTab[s.Rows[x]][posOf(x, d[0]+d[1])]
			if m.ok {
				after := s
				after.Rows[x] = m.code
				try(after, float64(m.points), true)
			}
		}
		total += best
	}
	return total / 46656
}

// TestTurnValueMatchesEveryRoll checks the factored expectation of a turn
// (white pairs, then the four colour dice independent) against all 46,656
// rolls, with a future that is no sum over rows.
func TestTurnValueMatchesEveryRoll(t *testing.T) {
	future := func(p Position) float64 {
		v := heuristic(p) - 3*float64(p.Penalties)
		if p.Rows[0] > 20 && p.Rows[2] > 20 {
			v += 4 // couples two rows
		}
		return v
	}
	r := rand.New(rand.NewPCG(3, 4))
	positions := []Position{
		{},
		{Rows: [4]uint8{rowCode[9][6], rowCode[8][5], rowClosed, rowCode[2][1]}, Penalties: 3}, // a lock ends the game
		{Rows: [4]uint8{rowCode[4][5], rowCode[9][5], rowCode[6][4], rowCode[8][7]}, Penalties: 1},
	}
	for range 3 {
		var p Position
		for c := range 4 {
			p.Rows[c] = uint8(r.IntN(rowClosed))
		}
		p.Penalties = r.IntN(4)
		positions = append(positions, p)
	}
	for _, p := range positions {
		assert.InDelta(t, bruteTurn(p, future), turnValue(p, future), 1e-9, "%+v", p)
	}
}

func TestKeySymmetries(t *testing.T) {
	p := Position{Rows: [4]uint8{3, 40, 17, rowClosed}, Penalties: 2}
	for _, q := range []Position{
		{Rows: [4]uint8{40, 3, 17, rowClosed}, Penalties: 2},
		{Rows: [4]uint8{3, 40, rowClosed, 17}, Penalties: 2},
		{Rows: [4]uint8{17, rowClosed, 40, 3}, Penalties: 2},
	} {
		assert.Equal(t, key(p), key(q))
	}
	assert.NotEqual(t, key(p), key(Position{Rows: [4]uint8{3, 17, 40, rowClosed}, Penalties: 2}))
	assert.Less(t, key(Position{Rows: [4]uint8{rowClosed, rowClosed, rowClosed, rowClosed}, Penalties: 3}), 4*quadKeys)
}

func TestRowCodes(t *testing.T) {
	m := markTab[rowEmpty][0]
	require.True(t, m.ok)
	assert.Equal(t, int8(1), m.points)
	assert.False(t, markTab[rowEmpty][lastPos].ok, "§5: the last number needs five marks")
	four := rowCode[6][4]
	assert.False(t, markTab[four][lastPos].ok)
	five := rowCode[6][5]
	lock := markTab[five][lastPos]
	require.True(t, lock.ok)
	assert.Equal(t, uint8(rowClosed), lock.code)
	assert.Equal(t, int8(6+7), lock.points, "Q3: the lock is one more mark: 15 → 28 points")
	assert.False(t, markTab[five][6].ok, "§4: left to right")
	assert.Equal(t, rowCode[7][6], markTab[five][7].code)
}

// TestCompactTableNearOptimum checks the strong level's table against the
// exact solitaire optimum from an empty sheet (115.48, `dixsim optimum`).
func TestCompactTableNearOptimum(t *testing.T) {
	v := compactTable.Value(Position{})
	assert.InDelta(t, 115.48, v, 5)
	assert.Zero(t, compactTable.Value(Position{Rows: [4]uint8{rowClosed, rowClosed, 3, 4}}))
	assert.False(t, math.IsNaN(v))
}

// TestExactIsTheOptimum checks the shipped solitaire values (optimum.bin)
// against the dynamic programme without solving it again: from an empty
// sheet they expect 115.48 points (`dixsim optimum`), and on sheets drawn
// at random each value is the expectation, over the roll, of the best
// turn valued with the table itself (turnValue), to the table's rounding
// (1/32 point: each value within 1/64). Values that satisfy that equation
// on every sheet are the optimum: it has one solution, sheets only moving
// on to later sheets.
func TestExactIsTheOptimum(t *testing.T) {
	o := Exact()
	assert.InDelta(t, 115.48, o.Value(Position{}), 1.0/64)
	assert.Zero(t, o.Value(Position{Rows: [4]uint8{rowClosed, rowClosed, 3, 4}}))
	assert.Zero(t, o.Value(Position{Penalties: 4}))
	r := rand.New(rand.NewPCG(41, 1))
	for range 300 {
		var p Position
		for c := range 4 {
			p.Rows[c] = uint8(r.IntN(rowCodes))
		}
		if p.over() {
			continue
		}
		p.Penalties = r.IntN(4)
		assert.InDelta(t, o.Value(p), turnValue(p, o.Value), 2.0/64, "%+v", p)
	}
}

// TestOptimumEncodingRoundTrips encodes the shipped values and decodes
// them again, and refuses what is not an encoded Optimum.
func TestOptimumEncodingRoundTrips(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Exact().Encode(&b))
	assert.Equal(t, optimumData, b.Bytes(), "the encoding is deterministic")
	o, err := DecodeOptimum(bytes.NewReader(b.Bytes()))
	require.NoError(t, err)
	assert.Equal(t, Exact().v, o.v)
	for _, bad := range [][]byte{nil, []byte("QXO2"), b.Bytes()[:len(b.Bytes())/2]} {
		_, err := DecodeOptimum(bytes.NewReader(bad))
		assert.ErrorIs(t, err, ErrOptimumData)
	}
}
