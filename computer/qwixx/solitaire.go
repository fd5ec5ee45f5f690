package qwixx

import (
	"math"
	"slices"
)

// Position is one sheet as its future play sees it: the code of each row (red,
// yellow, green, blue) and the penalties marked (0–3; the fourth ends the
// game, §6).
type Position struct {
	Rows      [4]uint8
	Penalties int
}

// closed returns how many rows of s are closed.
func (s Position) closed() int {
	n := 0
	for _, c := range s.Rows {
		if c == rowClosed {
			n++
		}
	}
	return n
}

// Future values a sheet: the points its player can still expect to score
// from it (0 once the game is over). The values below are expectations over
// the rolls to come, never over a known roll.
type Future func(Position) float64

// whitePairs lists the 21 rolls of the two white dice, smaller first, with
// their probability.
var whitePairs = func() (w [21]struct {
	a, b int
	p    float64
}) {
	i := 0
	for a := 1; a <= 6; a++ {
		for b := a; b <= 6; b++ {
			w[i].a, w[i].b, w[i].p = a, b, 2.0/36
			if a == b {
				w[i].p = 1.0 / 36
			}
			i++
		}
	}
	return w
}()

// turnValue returns the expected points, over the roll, of the active
// player of a solitaire game (one sheet, active every roll: §3 with one
// player) who chooses both actions to maximise the points they score this
// turn plus future's value of the sheet that follows. future is called only
// on sheets of a game still running.
func turnValue(s Position, future Future) float64 {
	penalty := -5.0 // §3: nothing marked in either action
	if s.Penalties+1 < 4 {
		penalty += future(Position{Rows: s.Rows, Penalties: s.Penalties + 1})
	}
	locks := s.closed()
	// single[c][p]: one mark, at position p of row c, in either action.
	var single [4][lastPos + 1]float64
	var ends [4][lastPos + 1]bool
	for c := range 4 {
		for p := range lastPos + 1 {
			single[c][p] = math.Inf(-1)
			m := markTab[s.Rows[c]][p]
			if !m.ok {
				continue
			}
			next := s
			next.Rows[c] = m.code
			single[c][p] = float64(m.points)
			if m.code == rowClosed && locks+1 >= 2 {
				ends[c][p] = true // §6: two rows locked
				continue
			}
			single[c][p] += future(next)
		}
	}
	total := 0.0
	var best2 [4][lastPos + 1]float64
	for sum := 2; sum <= 12; sum++ {
		// floor: the best without an action 2 mark (the penalty, or the
		// white sum alone); best2[c][p]: the best with the colour mark c@p
		// in action 2, after the best action 1 for it.
		floor := penalty
		best2 = single
		for x := range 4 {
			px := posOf(x, sum)
			if math.IsInf(single[x][px], -1) {
				continue
			}
			floor = max(floor, single[x][px])
			if ends[x][px] {
				continue // Q8: the game ends after action 1
			}
			m1 := markTab[s.Rows[x]][px]
			after1 := s
			after1.Rows[x] = m1.code
			locks1 := after1.closed()
			for c := range 4 {
				for p := range lastPos + 1 {
					m := markTab[after1.Rows[c]][p]
					if !m.ok {
						continue
					}
					next := after1
					next.Rows[c] = m.code
					v := float64(m1.points) + float64(m.points)
					if !(m.code == rowClosed && locks1+1 >= 2) {
						v += future(next)
					}
					best2[c][p] = max(best2[c][p], v)
				}
			}
		}
		for _, w := range whitePairs {
			if w.a+w.b != sum {
				continue
			}
			var vals [4][6]float64
			for c := range 4 {
				for d := 1; d <= 6; d++ {
					vals[c][d-1] = max(floor, best2[c][posOf(c, w.a+d)], best2[c][posOf(c, w.b+d)])
				}
			}
			total += w.p * expectMax(floor, &vals)
		}
	}
	return total
}

// whiteValue returns the expected points, over the roll, of a seat at s
// on another seat's roll, who marks the white sum where future says it is
// worth it, or nothing (§3: no penalty off one's own roll). future is
// called only on sheets of a game still running.
func whiteValue(s Position, future Future) float64 {
	locks := s.closed()
	stay := future(s)
	total := 0.0
	for _, w := range whitePairs {
		sum := w.a + w.b
		best := stay
		for c := range 4 {
			m := markTab[s.Rows[c]][posOf(c, sum)]
			if !m.ok {
				continue
			}
			next := s
			next.Rows[c] = m.code
			v := float64(m.points)
			if !(m.code == rowClosed && locks+1 >= 2) {
				v += future(next)
			}
			best = max(best, v)
		}
		total += w.p * best
	}
	return total
}

// expectMax returns the expectation of the largest of four independent
// values, each uniform over its six entries of vals, every entry at least
// floor.
func expectMax(floor float64, vals *[4][6]float64) float64 {
	type entry struct {
		v float64
		c int
	}
	var buf [24]entry
	list := buf[:0]
	cnt := [4]int{6, 6, 6, 6} // entries of each colour at or below the sweep
	for c := range 4 {
		for _, v := range vals[c] {
			if v > floor {
				list = append(list, entry{v, c})
				cnt[c]--
			}
		}
	}
	if len(list) == 0 {
		return floor
	}
	slices.SortFunc(list, func(a, b entry) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	prev := float64(cnt[0]*cnt[1]*cnt[2]*cnt[3]) / 1296
	e := floor * prev
	for i, en := range list {
		cnt[en.c]++
		if i+1 < len(list) && list[i+1].v == en.v {
			continue
		}
		p := float64(cnt[0]*cnt[1]*cnt[2]*cnt[3]) / 1296
		e += en.v * (p - prev)
		prev = p
	}
	return e
}
