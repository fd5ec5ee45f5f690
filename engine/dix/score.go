package dix

import "math/bits"

// This file holds final scoring (4.1): the exact, optimal arrangement of a
// collection's number cards and wilds into one run per colour.
//
// The model. In each colour the best run is a window [lo,hi] of consecutive
// numbers; the numbers of the window the colour does not hold ("missing") are
// filled by wilds. A colour wild fills any missing number of its own colour,
// a black wild n fills n in any one colour, the super wild fills anything. So
// colour wilds and the super wild are interchangeable within their reach and
// only the black wilds are a structured shared resource: which colour gets
// which black wild is the whole problem.
//
// The algorithm is a dynamic programme over the four colours whose state is
// the black wilds still unplaced (a mixed-radix counter, one digit per black
// number, normally a bit mask) and the super wilds still unplaced:
//
//	V_k(state, s) = max over T ⊆ avail(state), s_k ≤ s of
//	                best_k(T, s_k) + V_{k+1}(state − T, s − s_k)
//
// where best_k(T, s_k) is the best run score of colour k given the black
// numbers T and s_k super wilds (its own colour wilds are always available to
// it), and V_4 = 0. best_k is a table over the subsets T of the black numbers,
// read from a precomputed table of the longest run with q wilds (runWith);
// V_3, V_2, V_1 are tables over every state; V_0 is the answer. With the real
// deck (at most one black wild per number and one super wild) that is at most
// 4·512·2 lookups and 2·3^9·3 transitions: a fixed, instance-independent bound
// well under a millisecond. The state leaves out what cannot compete: black
// wilds whose number every colour holds, black wilds n as many as the colours
// lacking n (they count as held), super wilds beyond the colours' total
// shortfall.
//
// The solver is exact for any input, including collections the deck cannot
// produce (several black wilds of one number, several super wilds); for
// those the tables grow with the product of the competing copies, so such
// inputs can cost up to seconds.

// Tie-breaking, so that the same multiset of cards always gives the same
// Score (only the order of Placements follows the collection):
//   - colours are decided in the order of Colors; each in turn gets the
//     highest score that still allows the optimal total, reached with the
//     fewest super wilds, then the fewest black wilds, then the lowest black
//     numbers (so shared wilds go to the first colour they can serve);
//   - within a colour, among the best runs it takes the one that needs the
//     fewest wilds, then the lowest Lo;
//   - the run's missing numbers are filled by the black wilds of those
//     numbers first (lowest numbers first, only as many as the colour wilds
//     cannot cover; a black wild that never competes, see above, always
//     fills its number), then by the colour wilds (lowest numbers first),
//     then by super wilds;
//   - identical wilds are interchangeable: the first ones in collection order
//     get the placements (ascending number for colour wilds, colour order for
//     black wilds).
//
// A wild that adds nothing gets Placement{Wild: w} (Used false, NoColor, 0).

// scoreWindow is one candidate run [lo,hi].
type scoreWindow struct {
	lo, hi uint8
	mask   uint16 // bit n-1 for each number n in [lo,hi]
	score  int8   // length, +1 for the full run 1–9
}

// scoreWindows lists the 45 non-empty windows by score, best first, then by lo.
var scoreWindows = func() []scoreWindow {
	var ws []scoreWindow
	for length := 9; length >= 1; length-- {
		for lo := 1; lo+length-1 <= 9; lo++ {
			hi := lo + length - 1
			w := scoreWindow{lo: uint8(lo), hi: uint8(hi), score: int8(length)}
			w.mask = uint16((1<<length - 1) << (lo - 1))
			if length == 9 {
				w.score++ // 4.1: a full run 1–9 scores 10, with or without wilds
			}
			ws = append(ws, w)
		}
	}
	return ws
}()

// runWith[held][q] is the best run score in one colour holding the numbers
// in held (bit n-1 for n) with q wilds able to stand for any of its numbers:
// the longest window with at most q numbers missing, 10 for a full run.
var runWith = func() (t [1 << 9][10]int8) {
	for held := range 1 << 9 {
		for q := range 10 {
			for _, w := range scoreWindows { // best first
				if bits.OnesCount16(w.mask&^uint16(held)) <= q {
					t[held][q] = w.score
					break
				}
			}
		}
	}
	return t
}()

// BestScore is the optimal score of a collection (4.1): the sum over the four
// colours of the longest run, a full run 1–9 scoring 10, each wild standing
// for at most one number (R14: a run may be wilds only). It returns the
// optimal total, the best run of each colour and the placement of every wild
// in collection order (see the tie-breaking rules above; an unused wild has
// Used false and zero Color and Value).
//
// Cards that are neither number cards nor wilds (currency), and invalid cards,
// are ignored; an invalid wild still gets an unused placement. BestScore never
// panics and is safe for concurrent use.
func BestScore(collection []Card) Score {
	var sv scoreSolver
	sv.load(collection)
	sv.solve()
	return sv.result(collection)
}

// scoreSolver holds one BestScore computation.
type scoreSolver struct {
	num   [4]uint16 // numbers held, per colour index (Color − Blue)
	free  uint16    // numbers with a black wild for every colour lacking them
	held  [4]uint16 // num | free: what the tables treat as held
	cw    [4]int    // colour wilds per colour index
	black [9]int    // black wilds per number − 1
	super int       // super wilds

	// The black-wild universe: the numbers worth a black wild.
	uNum []uint8  // universe element i is the black wild of number uNum[i]+1
	uCnt []int    // copies of it that can matter (≤ 4)
	rad  []int    // mixed radix of element i in a state index
	exp  []uint16 // exp[T] is the number mask of universe subset T
	off  []int    // off[T] is the state index of T (one copy of each)
	av   []uint16 // av[state] is the universe subset with a copy left
	nT   int      // 1 << len(uNum)
	nSt  int      // number of states
	sMax int      // useful super wilds
	sw   int      // sMax + 1, the stride of the s dimension

	best [4][]int8 // best[k][T*sw+s]
	val  [4][]int8 // val[k][state*sw+s] for k = 1, 2, 3

	// The chosen arrangement.
	runs     [4]scoreWindow
	cwVals   [4][]uint8  // per colour index, the numbers its colour wilds stand for
	blackCol [9][]Color  // per number − 1, the colours its black wilds go to
	superAt  []Placement // where the super wilds go
}

func (sv *scoreSolver) load(collection []Card) {
	for _, c := range collection {
		if !c.Valid() {
			continue
		}
		switch c.Kind {
		case KindNumber:
			sv.num[c.Color-Blue] |= 1 << (c.Value - 1)
		case KindColorWild:
			sv.cw[c.Color-Blue]++
		case KindBlackWild:
			sv.black[c.Value-1]++
		case KindSuperWild:
			sv.super++
		}
	}
	// A black wild n helps only colours lacking n. When there are as many
	// black wilds n as colours lacking n, they never compete: n counts as
	// held in every colour and leaves the state (place reports them).
	// Otherwise the copies that can matter join the state.
	type blackNum struct{ n, cnt int }
	var shared []blackNum
	for n := range 9 {
		lacking := 0
		for k := range 4 {
			if sv.num[k]&(1<<n) == 0 {
				lacking++
			}
		}
		switch {
		case sv.black[n] == 0 || lacking == 0:
		case sv.black[n] >= lacking:
			sv.free |= 1 << n
		default:
			shared = append(shared, blackNum{n, sv.black[n]})
		}
	}
	// The most wilds of any kind a colour can take is what it is missing;
	// the shared wilds (black, super) can cover at most the total shortfall
	// left after the colour wilds.
	shortfall := 0
	for k := range 4 {
		sv.held[k] = sv.num[k] | sv.free
		missing := 9 - bits.OnesCount16(sv.held[k])
		sv.cw[k] = min(sv.cw[k], missing)
		shortfall += missing - sv.cw[k]
	}
	sv.sMax = min(sv.super, shortfall)
	sv.sw = sv.sMax + 1

	sv.nSt = 1
	for _, b := range shared {
		sv.uNum = append(sv.uNum, uint8(b.n))
		sv.uCnt = append(sv.uCnt, b.cnt)
		sv.rad = append(sv.rad, sv.nSt)
		sv.nSt *= b.cnt + 1
	}
	sv.nT = 1 << len(sv.uNum)
	sv.exp = make([]uint16, sv.nT)
	sv.off = make([]int, sv.nT)
	for t := 1; t < sv.nT; t++ {
		i := bits.TrailingZeros(uint(t))
		prev := t &^ (1 << i)
		sv.exp[t] = sv.exp[prev] | 1<<sv.uNum[i]
		sv.off[t] = sv.off[prev] + sv.rad[i]
	}
	sv.av = make([]uint16, sv.nSt)
	for st := range sv.nSt {
		var a uint16
		for i := range sv.uNum {
			if (st/sv.rad[i])%(sv.uCnt[i]+1) > 0 {
				a |= 1 << i
			}
		}
		sv.av[st] = a
	}
}

// need is how many shared wilds (black or super) colour k needs for window w
// once the black numbers in tn and its own colour wilds are placed.
func (sv *scoreSolver) need(k int, w scoreWindow, tn uint16) int {
	return max(0, bits.OnesCount16(w.mask&^sv.held[k]&^tn)-sv.cw[k])
}

func (sv *scoreSolver) solve() {
	tables := make([]int8, 4*sv.nT*sv.sw+3*sv.nSt*sv.sw)
	for k := range 4 {
		sv.best[k], tables = tables[:sv.nT*sv.sw], tables[sv.nT*sv.sw:]
		sv.fillBest(k)
	}
	sv.val[3] = tables[:sv.nSt*sv.sw]
	tables = tables[sv.nSt*sv.sw:]
	for st := range sv.nSt {
		copy(sv.val[3][st*sv.sw:(st+1)*sv.sw], sv.best[3][int(sv.av[st])*sv.sw:])
	}
	for k := 2; k >= 1; k-- {
		sv.val[k], tables = tables[:sv.nSt*sv.sw], tables[sv.nSt*sv.sw:]
		for st := range sv.nSt {
			sv.step(k, st, sv.val[k][st*sv.sw:(st+1)*sv.sw])
		}
	}
	sv.arrange()
}

// fillBest fills best[k]: for every subset T of black numbers and every count
// of super wilds, the best run score colour k can reach alone.
func (sv *scoreSolver) fillBest(k int) {
	b := sv.best[k]
	for t := range sv.nT {
		held := sv.held[k] | sv.exp[t]
		for s := range sv.sw {
			b[t*sv.sw+s] = runWith[held][min(9, sv.cw[k]+s)]
		}
	}
}

// value is V_k(st, s).
func (sv *scoreSolver) value(k, st, s int) int8 {
	switch k {
	case 4:
		return 0
	case 0:
		var row [37]int8
		sv.step(0, st, row[:sv.sw])
		return row[s]
	}
	return sv.val[k][st*sv.sw+s]
}

// step computes V_k(st, s) for every s into out (len sw), k < 3, from best[k]
// and V_{k+1}. One submask walk serves every super wild count.
func (sv *scoreSolver) step(k, st int, out []int8) {
	clear(out)
	best, next, sw := sv.best[k], sv.val[k+1], sv.sw
	avail := int(sv.av[st])
	for t := avail; ; t = (t - 1) & avail {
		row, nrow := best[t*sw:t*sw+sw], next[(st-sv.off[t])*sw:][:sw]
		if sw == 1 {
			out[0] = max(out[0], row[0]+nrow[0])
		} else {
			for s := range out {
				v := out[s]
				for sk := 0; sk <= s; sk++ {
					v = max(v, row[sk]+nrow[s-sk])
				}
				out[s] = v
			}
		}
		if t == 0 {
			return
		}
	}
}

// arrange walks the optimum colour by colour, applying the tie-breaking rules,
// and records the runs and where every wild goes.
func (sv *scoreSolver) arrange() {
	st, s := sv.nSt-1, sv.sMax // every black wild and super wild unplaced
	for k := range 4 {
		target := sv.value(k, st, s)
		// The highest score for colour k, then the fewest supers, the fewest
		// blacks and the smallest mask.
		bt, bs := -1, 0
		better := func(t, sk int) bool {
			if bt < 0 {
				return true
			}
			if a, b := sv.best[k][t*sv.sw+sk], sv.best[k][bt*sv.sw+bs]; a != b {
				return a > b
			}
			if sk != bs {
				return sk < bs
			}
			if a, b := bits.OnesCount(uint(t)), bits.OnesCount(uint(bt)); a != b {
				return a < b
			}
			return t < bt
		}
		avail := int(sv.av[st])
		for t := avail; ; t = (t - 1) & avail {
			for sk := 0; sk <= s; sk++ {
				if sv.best[k][t*sv.sw+sk]+sv.value(k+1, st-sv.off[t], s-sk) == target && better(t, sk) {
					bt, bs = t, sk
				}
			}
			if t == 0 {
				break
			}
		}
		usedT, usedS := sv.place(k, bt, bs)
		st -= sv.off[usedT]
		s -= usedS
	}
}

// place picks colour k's run given the black subset t and sk super wilds and
// fills its missing numbers. It returns the black subset and the number of
// super wilds actually used.
func (sv *scoreSolver) place(k, t, sk int) (usedT, usedS int) {
	score := sv.best[k][t*sv.sw+sk]
	if score == 0 {
		return 0, 0
	}
	tn := sv.exp[t]
	var run scoreWindow
	fewest := 10
	for _, w := range scoreWindows {
		if w.score != score || sv.need(k, w, tn) > sk {
			continue
		}
		if m := bits.OnesCount16(w.mask &^ sv.num[k]); m < fewest {
			run, fewest = w, m
		}
	}
	sv.runs[k] = run
	col := Blue + Color(k)
	// Black wilds that never compete stand wherever the run lacks them.
	for n := range 9 {
		if run.mask&sv.free&^sv.num[k]&(1<<n) != 0 {
			sv.blackCol[n] = append(sv.blackCol[n], col)
		}
	}
	missing := run.mask &^ sv.held[k]
	shared := max(0, bits.OnesCount16(missing)-sv.cw[k])
	// Black wilds first, lowest numbers first, only what colour wilds cannot cover.
	for i, n := range sv.uNum {
		if shared == 0 {
			break
		}
		if t&(1<<i) != 0 && missing&(1<<n) != 0 {
			missing &^= 1 << n
			shared--
			usedT |= 1 << i
			sv.blackCol[n] = append(sv.blackCol[n], col)
		}
	}
	// Then the colour wilds from the lowest number, the super wilds on the rest.
	for n := uint8(0); n < 9; n++ {
		if missing&(1<<n) == 0 {
			continue
		}
		if bits.OnesCount16(missing) > shared {
			sv.cwVals[k] = append(sv.cwVals[k], n+1)
		} else {
			sv.superAt = append(sv.superAt, Placement{Color: col, Value: n + 1, Used: true})
			usedS++
		}
		missing &^= 1 << n
	}
	return usedT, usedS
}

func (sv *scoreSolver) result(collection []Card) Score {
	var sc Score
	for k, col := range Colors {
		r := sv.runs[k]
		cs := ColorScore{Color: col}
		if r.score > 0 {
			cs.Lo, cs.Hi = r.lo, r.hi
			cs.Length = int(r.hi-r.lo) + 1
			cs.Bonus = int(r.score) - cs.Length
			cs.Score = int(r.score)
		}
		sc.Colors[k] = cs
		sc.Total += cs.Score
	}
	for _, c := range collection {
		if !c.IsWild() {
			continue
		}
		p := Placement{Wild: c}
		if c.Valid() {
			switch c.Kind {
			case KindColorWild:
				if vals := sv.cwVals[c.Color-Blue]; len(vals) > 0 {
					p.Color, p.Value, p.Used = c.Color, vals[0], true
					sv.cwVals[c.Color-Blue] = vals[1:]
				}
			case KindBlackWild:
				if cols := sv.blackCol[c.Value-1]; len(cols) > 0 {
					p.Color, p.Value, p.Used = cols[0], c.Value, true
					sv.blackCol[c.Value-1] = cols[1:]
				}
			case KindSuperWild:
				if len(sv.superAt) > 0 {
					p.Color, p.Value, p.Used = sv.superAt[0].Color, sv.superAt[0].Value, true
					sv.superAt = sv.superAt[1:]
				}
			}
		}
		sc.Placements = append(sc.Placements, p)
	}
	return sc
}
