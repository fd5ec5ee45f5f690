package qwixx

import (
	"hash/fnv"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/dixgame/dixbot/engine/qwixx"
)

// The strong level with others at the table plays its decisions out: the
// few best decisions by its points measure, and every decision that may
// end the game at once, are each played out many times (rollouts), to
// the end of the game or, where a model of the chance of winning is
// fitted, for searchHorizon rolls, after which the model reads the seat's
// chance from the sheets (winchance.go). A rollout plays every seat by a fast rule, the others by
// the normal level's (a reasonable player), the seat itself by its points
// table (TableFuture); its dice come from a source seeded by the position
// itself, never from the game's own rolls (Q11), so a decision stays a
// function of what the seat may see. A tie for the most points is a
// victory for each (Q10). Once the end is near (endNear) the seat plays
// for the win: it takes the decision that finished first most often (its
// chances summed, where rollouts stop short of the end).
// Before, it keeps the first unless another finished first clearly more
// often on the same dice (searchEarlyZ standard errors). The first is
// the best by points or, where a value network is shipped (three seats,
// valuenet.go), the decision the network rates highest; the network then
// also reads the rollouts where they stop. Early in a game the chances
// of winning differ little, and a few hundred rollouts would rank the
// decisions by chance where that first ranks them well. At four and five
// seats, where the rollouts are short and twice as many, any decision
// that finished first more often than the best by points on the same
// dice overrules it (searchEarlyZ 0).

// Parameters of the search; the package's notes (docs/computer-qwixx.md)
// say how they were chosen.
const (
	searchMinRollouts = 64  // rollouts before a candidate may be dropped
	searchBatch       = 32  // rollouts between two looks at the candidates
	searchZ           = 2.5 // standard errors by which a dropped candidate falls short
	searchActiveCost  = 3   // a roll's work beyond its seats': the active seat weighs its two sums together
	searchCandidates  = 3   // the best decisions by points looked at (plus those that may end the game)
	searchMargin      = 6.0 // points: a decision this far ahead of the next is taken without rollouts
	endLocks          = 1   // rows locked for everyone from which the end is near
	endPenalties      = 3   // penalties of one seat from which the end is near
	endLockReady      = 1   // rows that a seat may lock from which the end is near
	endReadyMarks     = 5   // marks in a row from which its seat may lock it
)

// Parameters of the search by seats; the package's notes say how they
// were chosen.
var (
	// searchRollouts is the rollouts at most per candidate decision.
	searchRollouts = [qwixx.MaxPlayers + 1]int{2: 600, 3: 600, 4: 1200, 5: 1200}
	// searchWork is the work of the rollouts of one decision at most (its
	// time bound): a roll played out is one unit a seat plus
	// searchActiveCost.
	searchWork = [qwixx.MaxPlayers + 1]int{2: 100000, 3: 100000, 4: 200000, 5: 200000}
	// searchEarlyZ is, before the end is near, the standard errors by
	// which a decision must beat the best by points on the same dice.
	searchEarlyZ = [qwixx.MaxPlayers + 1]float64{2: 2, 3: 2, 4: 0, 5: 0}
)

// EndNear reports whether the end of g is near enough for the strong
// level to play it for the win (endNear, on the sheets as every seat sees
// them).
func EndNear(g *qwixx.Game) bool {
	var buf [qwixx.MaxPlayers]qwixx.Sheet
	return endNear(g, publicSheets(g, buf[:]))
}

// AnyLeadOverrules reports whether, before the end is near, the strong
// level at a table of players takes any decision it played out that
// finished first more often on the same dice than the best by points
// (searchEarlyZ 0), rather than only one that did so clearly.
func AnyLeadOverrules(players int) bool {
	return players >= 2 && players < len(searchEarlyZ) && searchEarlyZ[players] == 0
}

// endNear reports whether g is close enough to its end for the strong
// level to play it for the win: a row locked, a seat with endPenalties, or
// endLockReady rows that a seat could lock (five marks or more).
func endNear(g *qwixx.Game, pre []qwixx.Sheet) bool {
	if g.LockCount() >= endLocks {
		return true
	}
	ready := 0
	for s := range pre {
		if pre[s].Penalties >= endPenalties {
			return true
		}
		for c, r := range pre[s].Rows {
			if !g.Locked[c] && r.Count() >= endReadyMarks {
				ready++
			}
		}
	}
	return ready >= endLockReady
}

// publicSheets returns the sheets of g as every seat may see them: during
// action 1, the marks of seats that decided already are removed (the
// decisions are simultaneous: a seat learns them only once action 1 ends).
func publicSheets(g *qwixx.Game, buf []qwixx.Sheet) []qwixx.Sheet {
	pre := append(buf[:0], g.Sheets...)
	if g.Phase != qwixx.PhaseWhite {
		return pre
	}
	for s, ch := range g.Choices {
		c, ok := ch.Marked()
		if !ok {
			continue
		}
		r := pre[s].Rows[c]
		r &^= 1 << r.Right()
		r &^= 1 << qwixx.LockPos
		pre[s].Rows[c] = r
	}
	return pre
}

// simSeat is one seat of a rollout: its sheet as a Position (a row locked
// by anyone closed), its rows closed and its points so far.
type simSeat struct {
	p     Position
	lk    int
	score int
}

// simGame is a game being played out by a rollout.
type simGame struct {
	n, me, active int
	seats         [qwixx.MaxPlayers]simSeat
	locked        [4]bool
	dice          qwixx.Roll
	wpos          [4]int    // the white sum's position in each row
	cpos          [4][2]int // each colour sum's position in its row (white die 1, 2); outPos when the row's die is out
	markedWhite   bool      // action 2 at the root: the seat marked the white sum
	clock         int       // the most penalties of a seat other than me
	t             *simTables
}

// simTables are the measures of a rollout, row by row: both levels' are
// sums over the four rows of a value of the row's code.
type simTables struct {
	norm rowTable       // the normal level's (heuristicShare)
	self [4][2]rowTable // the seat's own: its table times its scale (TableFuture), by penalties and rows closed
	over rowTable       // a sheet whose game is over: worth nothing more
}

// rowTable is a measure of a sheet as the sum of a value of each row's
// code (v), with what marking each position of a row adds to the sheet's
// points and measure (d: the mark's points plus the change of the row's
// value; −Inf where the row does not take the mark, +Inf where the mark
// closes the row, which changes the measure of every row).
type rowTable struct {
	v [rowCodes]float64
	d [rowCodes][outPos + 1]float64
}

// outPos is the position of a colour sum whose die is out of the game
// (Q5): no row takes it.
const outPos = lastPos + 1

// newRowTable returns the rowTable of the row values v; closing marks
// the marks that close a row with +Inf (their worth depends on the sheet).
func newRowTable(v [rowCodes]float64, closing bool) rowTable {
	t := rowTable{v: v}
	for code := range rowCodes {
		t.d[code][outPos] = math.Inf(-1)
		for pos := range lastPos + 1 {
			m := markTab[code][pos]
			switch {
			case !m.ok:
				t.d[code][pos] = math.Inf(-1)
			case m.code == rowClosed && closing:
				t.d[code][pos] = math.Inf(1)
			default:
				t.d[code][pos] = float64(m.points) + v[m.code] - v[code]
			}
		}
	}
	return t
}

// sum returns t's measure of p.
func (t *rowTable) sum(p Position) float64 {
	return t.v[p.Rows[0]] + t.v[p.Rows[1]] + t.v[p.Rows[2]] + t.v[p.Rows[3]]
}

// newSimTables returns the tables of a rollout at a table of players.
func newSimTables(players int) *simTables {
	t := new(simTables)
	share := normalShare[min(players, qwixx.MaxPlayers)]
	scale := strongScale[min(players, qwixx.MaxPlayers)]
	var norm [rowCodes]float64
	var self [4][2][rowCodes]float64
	for code := range rowCodes {
		var p Position
		p.Rows[0] = uint8(code)
		p.Rows[1], p.Rows[2], p.Rows[3] = rowClosed, rowClosed, rowClosed
		norm[code] = heuristicShare(p, share)
		for pen := range 4 {
			for lk := range 2 {
				self[pen][lk][code] = scale * float64(compactTable[pen][lk][code])
			}
		}
	}
	t.norm = newRowTable(norm, true)
	for pen := range 4 {
		for lk := range 2 {
			t.self[pen][lk] = newRowTable(self[pen][lk], true)
		}
	}
	t.over = newRowTable([rowCodes]float64{}, false)
	return t
}

// table returns seat s's measure of a sheet with pen penalties and lk
// rows closed; over once the game is over (§6). The seat itself reads the
// penalties of the most penalised other seat when they are more
// (TableFuture).
func (sg *simGame) table(s, pen, lk int) *rowTable {
	if pen >= qwixx.MaxPenalties || lk >= 2 {
		return &sg.t.over
	}
	if s != sg.me {
		return &sg.t.norm
	}
	return &sg.t.self[min(max(pen, sg.clock), qwixx.MaxPenalties-1)][lk]
}

// value returns seat s's measure of p (lk: its rows closed).
func (sg *simGame) value(s int, p Position, lk int) float64 {
	return sg.table(s, p.Penalties, lk).sum(p)
}

// gain returns the points of marking position pos of row c at q (lk rows
// closed, measured base by t) plus the measure of the sheet that follows;
// ok is false when the row does not take it.
func (sg *simGame) gain(s int, q Position, lk int, t *rowTable, base float64, c, pos int) (float64, bool) {
	d := t.d[q.Rows[c]][pos]
	if d < math.MaxFloat64 {
		return base + d, d > -math.MaxFloat64
	}
	next := q
	next.Rows[c] = rowClosed
	return float64(markTab[q.Rows[c]][pos].points) + sg.value(s, next, lk+1), true
}

// colour returns the best colour sum of the active seat s at q (lk rows
// closed) on the dice (marked: it marked the white sum), as followUp: its
// value, the row and position, c < 0 for the pass.
func (sg *simGame) colour(s int, q Position, lk int, marked bool) (float64, int, int) {
	if lk >= 2 {
		return 0, -1, 0
	}
	t := sg.table(s, q.Penalties, lk)
	base := t.sum(q)
	pass := base
	if !marked {
		pq, pts := q.penalty()
		pass = pts + sg.value(s, pq, lk)
	}
	best := math.Inf(-1)
	bc, bp := -1, 0
	for c := range 4 {
		for _, pos := range sg.cpos[c] {
			if v, ok := sg.gain(s, q, lk, t, base, c, pos); ok && v > best+1e-9 {
				best, bc, bp = v, c, pos
			}
		}
	}
	if pass > best+1e-9 { // the marks first, as followUp
		return pass, -1, 0
	}
	return best, bc, bp
}

// white returns seat s's white sum decision: the row (c < 0: none).
func (sg *simGame) white(s int) int {
	if s == sg.active {
		return sg.activeWhite(s)
	}
	p, lk := sg.seats[s].p, sg.seats[s].lk
	t := sg.table(s, p.Penalties, lk)
	base := t.sum(p)
	best, bc := math.Inf(-1), -1
	for c := range 4 {
		if v, ok := sg.gain(s, p, lk, t, base, c, sg.wpos[c]); ok && v > best+1e-9 {
			best, bc = v, c
		}
	}
	if base > best+1e-9 { // the marks first, as g.LegalActions
		return -1
	}
	return bc
}

// activeWhite returns the active seat's white sum decision (the row, c < 0
// for none): each mark is valued with the best colour sum to follow
// (colour). A mark that closes no row leaves the value of every colour
// sum in another row as it was, so those are worked out once; a white
// or colour mark that closes a row is valued by colour itself.
func (sg *simGame) activeWhite(s int) int {
	p, lk := sg.seats[s].p, sg.seats[s].lk
	if lk >= 2 {
		return -1
	}
	t := sg.table(s, p.Penalties, lk)
	base := t.sum(p)
	// rowBest[c]: the most a colour sum in row c adds to base (−Inf: none);
	// closes[c]: one of them closes the row.
	var rowBest [4]float64
	var closes [4]bool
	anyCloses := false
	marks := math.Inf(-1)
	for c := range 4 {
		rowBest[c] = math.Inf(-1)
		for _, pos := range sg.cpos[c] {
			d := t.d[p.Rows[c]][pos]
			if d >= math.MaxFloat64 {
				closes[c], anyCloses = true, true
			} else {
				rowBest[c] = max(rowBest[c], d)
			}
		}
		marks = max(marks, rowBest[c])
	}
	// The pass: the best colour sum alone, or a penalty (as colour).
	var pass float64
	if anyCloses {
		pass, _, _ = sg.colour(s, p, lk, false)
	} else {
		pass = base + marks
		pq, pts := p.penalty()
		if v := pts + sg.value(s, pq, lk); v > pass+1e-9 {
			pass = v
		}
	}
	best, bc := math.Inf(-1), -1
	for c := range 4 {
		pos := sg.wpos[c]
		dw := t.d[p.Rows[c]][pos]
		if dw <= -math.MaxFloat64 {
			continue
		}
		var v float64
		fast := dw < math.MaxFloat64
		for o := range 4 {
			fast = fast && (o == c || !closes[o])
		}
		next := p
		m := markTab[p.Rows[c]][pos]
		next.Rows[c] = m.code
		if fast {
			// The colour sum after the white mark: a pass, or the best
			// of the other rows as before, or one in row c after it.
			after := 0.0
			for o := range 4 {
				if o != c {
					after = max(after, rowBest[o])
				}
			}
			for _, cp := range sg.cpos[c] {
				d := t.d[next.Rows[c]][cp]
				if d >= math.MaxFloat64 {
					fast = false
				} else {
					after = max(after, d)
				}
			}
			v = base + dw + after
		}
		if !fast {
			nlk := lk
			if m.code == rowClosed {
				nlk++
			}
			f, _, _ := sg.colour(s, next, nlk, true)
			v = float64(m.points) + f
		}
		if v > best+1e-9 {
			best, bc = v, c
		}
	}
	if pass > best+1e-9 { // the marks first, as g.LegalActions
		return -1
	}
	return bc
}

// mark marks position pos of row c on seat s's sheet; it reports whether
// the mark locks the row.
func (sg *simGame) mark(s, c, pos int) bool {
	m := markTab[sg.seats[s].p.Rows[c]][pos]
	sg.seats[s].p.Rows[c] = m.code
	sg.seats[s].score += int(m.points)
	if m.code == rowClosed {
		sg.seats[s].lk++
		return true
	}
	return false
}

// lock locks row c for everyone.
func (sg *simGame) lock(c int) {
	sg.locked[c] = true
	for s := range sg.n {
		if sg.seats[s].p.Rows[c] != rowClosed {
			sg.seats[s].p.Rows[c] = rowClosed
			sg.seats[s].lk++
		}
	}
}

// lockCount returns the rows locked for everyone.
func (sg *simGame) lockCount() int {
	n := 0
	for _, l := range sg.locked {
		if l {
			n++
		}
	}
	return n
}

// roll rolls the dice still in play.
func (sg *simGame) roll(r *rand.Rand) {
	// Six dice from one draw: each die is the top of x × 6, the rest of
	// the product the draw left for the next (one bit of 64 spent a die).
	x := r.Uint64()
	for i := range sg.dice {
		hi, lo := bits.Mul64(x, 6)
		sg.dice[i] = uint8(hi + 1)
		x = lo
	}
	for c, l := range sg.locked {
		if l {
			sg.dice[qwixx.DieOf(qwixx.Color(c))] = 0
		}
	}
	sg.positions()
}

// positions works out the positions of the sums of the dice on the
// table in each row (wpos, cpos).
func (sg *simGame) positions() {
	sum := sg.dice.WhiteSum()
	w1, w2 := int(sg.dice[qwixx.W1]), int(sg.dice[qwixx.W2])
	for c := range 4 {
		sg.wpos[c] = posOf(c, sum)
		d := int(sg.dice[qwixx.DieOf(qwixx.Color(c))])
		if d == 0 {
			sg.cpos[c] = [2]int{outPos, outPos}
			continue
		}
		sg.cpos[c] = [2]int{posOf(c, w1+d), posOf(c, w2+d)}
	}
}

// whiteAction plays action 1 with the given choices (row by seat, < 0 for
// none; decided on the sheets before it, Q4), locks the rows locked in it
// (Q5) and reports whether the game ends there (Q8).
func (sg *simGame) whiteAction(choice *[qwixx.MaxPlayers]int) bool {
	sum := sg.dice.WhiteSum()
	var locks [4]bool
	for s := range sg.n {
		if c := choice[s]; c >= 0 && sg.mark(s, c, posOf(c, sum)) {
			locks[c] = true
		}
	}
	for c, l := range locks {
		if l {
			sg.lock(c)
		}
	}
	return sg.lockCount() >= 2
}

// colourAction plays the active seat's action 2 (c < 0: none, a penalty
// when it marked nothing in action 1) and reports whether the game ends.
func (sg *simGame) colourAction(c, pos int, markedWhite bool) bool {
	a := sg.active
	if c < 0 {
		if !markedWhite {
			sg.seats[a].p.Penalties++
			sg.seats[a].score -= qwixx.PenaltyPoints
			if a != sg.me {
				sg.clock = max(sg.clock, sg.seats[a].p.Penalties)
			}
		}
	} else if sg.mark(a, c, pos) {
		sg.lock(c)
	}
	return sg.lockCount() >= 2 || sg.seats[a].p.Penalties >= qwixx.MaxPenalties
}

// turn plays the rest of the current roll from action 1 for every seat
// and reports whether the game ends in it.
func (sg *simGame) turn() bool {
	var choice [qwixx.MaxPlayers]int
	for s := range sg.n {
		choice[s] = sg.white(s)
	}
	return sg.afterWhite(&choice)
}

// afterWhite plays action 1 with the given choices then the active seat's
// action 2, and reports whether the game ends.
func (sg *simGame) afterWhite(choice *[qwixx.MaxPlayers]int) bool {
	if sg.whiteAction(choice) {
		return true
	}
	a := sg.active
	_, c, pos := sg.colour(a, sg.seats[a].p, sg.seats[a].lk, choice[a] >= 0)
	return sg.colourAction(c, pos, choice[a] >= 0)
}

// next passes the dice to the next seat and rolls.
func (sg *simGame) next(r *rand.Rand) {
	sg.active = (sg.active + 1) % sg.n
	sg.roll(r)
}

// won returns 1 when the seat has the most points (alone or tied, Q10),
// else 0.
func (sg *simGame) won() float64 {
	for s := range sg.n {
		if s != sg.me && sg.seats[s].score > sg.seats[sg.me].score {
			return 0
		}
	}
	return 1
}

// maxRolls bounds a rollout: every roll marks a number or a penalty for
// the active seat, so a game cannot last longer than this.
const maxRolls = 4*qwixx.MaxPlayers*(qwixx.RowCells+qwixx.MaxPenalties) + 8

// playOut plays sg to its end, from the next roll, and returns 1 when the
// seat wins it, and the rolls played.
func (sg *simGame) playOut(r *rand.Rand) (float64, int) {
	for n := range maxRolls {
		sg.next(r)
		if sg.turn() {
			return sg.won(), n + 1
		}
	}
	return sg.won(), maxRolls
}

// searched is what search found: the decisions it weighed (the best by
// points first), the share of rollouts each won (each rollout counted
// by its chance when it stops short of the end), and the one taken.
type searched struct {
	cands  []qwixx.Action
	wins   []float64
	chosen int
}

// mostWon is the index of the candidate that won the largest share, the
// first of them on a tie.
func mostWon(wins []float64) int {
	best := 0
	for k := range wins {
		if wins[k] > wins[best] {
			best = k
		}
	}
	return best
}

// search plays out the decisions of opts worth weighing (candidateList)
// up to searchRollouts times each, on the same dice for each, and returns
// them with the share of those games the seat won and the one it takes:
// the one that won most when the end is near, else the first (the best
// by points, or the value network's where one is shipped) unless another
// beat it beyond doubt (clearlyBetter). ok is false in
// solitaire or when there is one decision to weigh.
func search(g *qwixx.Game, seat int, opts []Option) (searched, bool) {
	if net := valueNetOf(g.Players); net != nil {
		return searchTo(g, seat, opts, net)
	}
	if m := winModelOf(g.Players); m != nil {
		return searchTo(g, seat, opts, m)
	}
	return searchTo(g, seat, opts, nil)
}

// chanceModel reads a seat's chance of finishing first from the sheets
// (a value network, or the logistic model where none is shipped).
type chanceModel interface {
	chance(sg *simGame) float64
}

// searchTo is search with its rollouts read by m after searchHorizon
// rolls (playOutTo; nil: played to the end of the game). Where m is a
// value network, the decision it rates highest comes first, in place of
// the best by points.
func searchTo(g *qwixx.Game, seat int, opts []Option, m chanceModel) (searched, bool) {
	horizon := 0
	if m != nil {
		horizon = searchHorizon[g.Players]
	}
	var buf [qwixx.MaxPlayers]qwixx.Sheet
	pre := publicSheets(g, buf[:])
	if g.Solitaire || len(opts) < 2 {
		return searched{}, false
	}
	cands := candidateList(g, seat, opts)
	if net, ok := m.(*ValueNet); ok {
		cands = net.firstOf(g, seat, pre, opts, cands)
	}
	rollouts, bound := searchRollouts[g.Players], searchWork[g.Players]
	if len(cands) < 2 || rollouts <= 0 {
		return searched{}, false
	}
	root := newSimGame(g, seat, pre)
	seed := positionSeed(g, seat, pre)
	wins := make([]float64, len(cands))
	won := make([][]float32, len(cands)) // by candidate, by rollout: its chance of winning (1 or 0 when played to the end)
	alive := make([]bool, len(cands))
	played := make([]int, len(cands))
	for k := range cands {
		won[k] = make([]float32, rollouts)
		alive[k] = true
	}
	src := rand.NewPCG(0, 0)
	r := rand.New(src)
	left, work := len(cands), 0
	for i := 0; i < rollouts && left > 1 && work < bound; i++ {
		for k, a := range cands {
			if !alive[k] {
				continue
			}
			sg := root
			src.Seed(seed, uint64(i)) // the same dice for every decision
			w, rolls := 0.0, 1
			if sg.first(a) {
				w = sg.won()
			} else {
				w, rolls = sg.playOutTo(r, horizon, m)
				rolls++
			}
			work += rolls * (g.Players + searchActiveCost)
			won[k][i] = float32(w)
			wins[k] += w
			played[k]++
		}
		if n := i + 1; n >= searchMinRollouts && n%searchBatch == 0 {
			left = prune(won, alive, n)
		}
	}
	for k := range wins {
		wins[k] /= float64(max(played[k], 1))
	}
	res := searched{cands: cands, wins: wins}
	if endNear(g, pre) {
		res.chosen = mostWon(wins)
	} else {
		res.chosen = clearlyBetter(won, played, searchEarlyZ[g.Players])
	}
	return res, true
}

// clearlyBetter returns the candidate that beat the first (the best by
// points) by the most standard errors on the rollouts both played, when
// it beat it by more than z standard errors; else the first.
func clearlyBetter(won [][]float32, played []int, z float64) int {
	best, bz := 0, z
	for k := 1; k < len(won); k++ {
		n := min(played[k], played[0])
		if n == 0 {
			continue
		}
		var sum, sq float64
		for i := range n {
			d := float64(won[k][i]) - float64(won[0][i])
			sum += d
			sq += d * d
		}
		mean := sum / float64(n)
		se := math.Sqrt(max(sq/float64(n)-mean*mean, 0) / float64(n))
		if mean > 0 && mean > bz*se {
			best, bz = k, mean/max(se, 1e-12)
		}
	}
	return best
}

// prune drops the candidates that the first n rollouts show worse than
// the leader (the one alive that won most) beyond doubt: their wins on the
// same dice fall short of the leader's by more than searchZ standard errors.
// It returns how many remain.
func prune(won [][]float32, alive []bool, n int) int {
	lead, most := -1, -1.0
	for k := range won {
		if !alive[k] {
			continue
		}
		sum := 0.0
		for _, w := range won[k][:n] {
			sum += float64(w)
		}
		if sum > most {
			lead, most = k, sum
		}
	}
	left := 0
	for k := range won {
		if !alive[k] {
			continue
		}
		if k == lead {
			left++
			continue
		}
		var sum, sq float64
		for i := range n {
			d := float64(won[lead][i]) - float64(won[k][i])
			sum += d
			sq += d * d
		}
		mean := sum / float64(n)
		se := math.Sqrt(max(sq/float64(n)-mean*mean, 0) / float64(n))
		if mean > searchZ*se && mean > 0 {
			alive[k] = false
			continue
		}
		left++
	}
	return left
}

// first plays the seat's decision a on the current roll and the rest of
// the roll, and reports whether the game ends in it.
func (sg *simGame) first(a qwixx.Action) bool {
	me := sg.me
	if a.Kind == qwixx.ActColour {
		c, pos := -1, 0
		if !a.Pass {
			c, pos = int(a.Color), qwixx.Pos(a.Color, a.Number)
		}
		// During action 2 the seat's action 1 is on its sheet already:
		// markedWhite only matters for the pass.
		return sg.colourAction(c, pos, !a.Pass || sg.markedWhite)
	}
	choice := sg.whitesWith(me, a)
	return sg.afterWhite(&choice)
}

// whitesWith returns every seat's white sum decision at sg (the row, < 0
// for none): the others' by their rule, seat's that of a.
func (sg *simGame) whitesWith(seat int, a qwixx.Action) [qwixx.MaxPlayers]int {
	var choice [qwixx.MaxPlayers]int
	for s := range sg.n {
		if s != seat {
			choice[s] = sg.white(s)
		}
	}
	choice[seat] = -1
	if !a.Pass {
		choice[seat] = int(a.Color)
	}
	return choice
}

// colours calls f with sg after each colour sum open to the active seat,
// sg being after action 1 (marked: it marked the white sum there): the
// pass (a penalty when it marked nothing), then each mark its rows take,
// row by row; ended says whether the game ends there.
func (sg *simGame) colours(marked bool, f func(next *simGame, ended bool)) {
	a := sg.active
	next := *sg
	f(&next, next.colourAction(-1, 0, marked))
	if sg.seats[a].lk >= 2 {
		return
	}
	q := sg.seats[a].p
	for c := range 4 {
		for _, pos := range sg.cpos[c] {
			if pos > lastPos || !markTab[q.Rows[c]][pos].ok {
				continue
			}
			next := *sg
			f(&next, next.colourAction(c, pos, marked))
		}
	}
}

// newSimGame returns g, with the sheets pre, as a rollout of seat sees it.
func newSimGame(g *qwixx.Game, seat int, pre []qwixx.Sheet) simGame {
	sg := simGame{n: g.Players, me: seat, active: g.Active, dice: g.Dice, locked: g.Locked, t: simTablesOf(g.Players)}
	_, sg.markedWhite = g.Choices[seat].Marked()
	sg.positions()
	for s := range g.Players {
		p := sheetPosition(g, &pre[s])
		sg.seats[s] = simSeat{p: p, lk: p.closed(), score: pre[s].Score()}
		if s != seat {
			sg.clock = max(sg.clock, p.Penalties)
		}
	}
	return sg
}

// candidateList returns the decisions the search weighs: the
// searchCandidates best of opts by points, none more than searchMargin behind
// the best, and every decision that may end the game at once (a second
// lock, Q8; the active seat's fourth penalty, Q9), best first.
func candidateList(g *qwixx.Game, seat int, opts []Option) []qwixx.Action {
	sorted := slices.Clone(opts)
	slices.SortStableFunc(sorted, func(a, b Option) int {
		switch {
		case a.Points > b.Points+1e-9:
			return -1
		case b.Points > a.Points+1e-9:
			return 1
		}
		return 0
	})
	var out []qwixx.Action
	for k, o := range sorted {
		if (k < searchCandidates && o.Points >= sorted[0].Points-searchMargin) || mayEnd(g, seat, o.Action) {
			out = append(out, o.Action)
		}
	}
	return out
}

// mayEnd reports whether a may end the game at once: a mark that locks a
// second row, or a pass of the active seat that may be its fourth
// penalty.
func mayEnd(g *qwixx.Game, seat int, a qwixx.Action) bool {
	if a.Pass {
		_, marked := g.Choices[seat].Marked()
		return seat == g.Active && g.Sheets[seat].Penalties == qwixx.MaxPenalties-1 && (a.Kind == qwixx.ActWhite || !marked)
	}
	return qwixx.Pos(a.Color, a.Number) == qwixx.LastPos && g.LockCount() >= 1
}

// sheetPosition returns sh, a sheet of g, as a Position: a row locked by
// anyone is closed (as positionOf).
func sheetPosition(g *qwixx.Game, sh *qwixx.Sheet) Position {
	p := Position{Penalties: sh.Penalties}
	for _, c := range qwixx.Colors {
		r := sh.Rows[c]
		switch right := r.Right(); {
		case g.Locked[c] || r.Locked():
			p.Rows[c] = rowClosed
		case right < 0:
			p.Rows[c] = rowEmpty
		default:
			p.Rows[c] = rowCode[right][r.Count()]
		}
	}
	return p
}

// positionSeed returns the seed of the rollouts' dice for seat at g: a
// hash of what the seat sees (the sheets as public, the dice, whose roll,
// the phase and its own action 1), never of the game's own source.
func positionSeed(g *qwixx.Game, seat int, pre []qwixx.Sheet) uint64 {
	h := fnv.New64a()
	b := []byte{byte(seat), byte(g.Active), byte(g.Phase), byte(g.Choices[seat])}
	b = append(b, g.Dice[:]...)
	for _, sh := range pre {
		for _, r := range sh.Rows {
			b = append(b, byte(r), byte(r>>8))
		}
		b = append(b, byte(sh.Penalties))
	}
	h.Write(b)
	return h.Sum64()
}

// simTablesByPlayers holds newSimTables for each table size, made at the
// first search (after the package's row tables).
var simTablesByPlayers = sync.OnceValue(func() (t [qwixx.MaxPlayers + 1]*simTables) {
	for n := qwixx.MinPlayers; n <= qwixx.MaxPlayers; n++ {
		t[n] = newSimTables(n)
	}
	return t
})

// simTablesOf returns the rollouts' tables at a table of players.
func simTablesOf(players int) *simTables {
	return simTablesByPlayers()[min(max(players, qwixx.MinPlayers), qwixx.MaxPlayers)]
}
