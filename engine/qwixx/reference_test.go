package qwixx_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/qwixx"
)

// This file is a second, naive statement of the rules (docs/QWIXX-RULES.md §3–§7),
// written from the spec without the engine's bit rows or code, and a test
// that plays random games on both and compares them at every step: the
// decisions open to every seat, who decides, penalties, locks, the end and
// the scores. Only the dice are read from the engine (rolling is not a
// rule).

// refRow is a row's numbers, left to right (§1).
func refRow(c int) []int {
	if c < 2 { // red, yellow
		return []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	}
	return []int{12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2}
}

type refGame struct {
	players, active int
	white           bool // action 1 under way
	over            bool
	marks           [][4][]int // by seat and row, in the order marked
	lockMark        [][4]bool  // the seat marked the row's lock
	locked          [4]bool    // locked for everyone
	pen             []int
	decided         []bool
	marked1         []bool // marked in action 1 this roll
	plan            *qwixx.Action
	dice            qwixx.Roll
}

func newRef(players, first int) *refGame {
	return &refGame{players: players, active: first, white: true,
		marks: make([][4][]int, players), lockMark: make([][4]bool, players),
		pen: make([]int, players), decided: make([]bool, players), marked1: make([]bool, players)}
}

// canMark says whether seat may mark n in row c, against locks (§4, §5).
func (r *refGame) canMark(seat, c, n int, locks [4]bool) bool {
	if locks[c] {
		return false
	}
	row := refRow(c)
	at := slices.Index(row, n)
	if at < 0 {
		return false
	}
	if m := r.marks[seat][c]; len(m) > 0 && at <= slices.Index(row, m[len(m)-1]) {
		return false
	}
	return at < 10 || len(r.marks[seat][c]) >= 5
}

// options lists seat's open decisions as move strings, sorted.
func (r *refGame) options(seat int) []string {
	var out []string
	if r.over {
		return nil
	}
	if r.white {
		if r.decided[seat] {
			return nil
		}
		s := int(r.dice[0]) + int(r.dice[1])
		for c := range 4 {
			if r.canMark(seat, c, s, r.locked) {
				out = append(out, fmt.Sprintf("w %s%d", qwixx.Color(c), s))
			}
		}
		out = append(out, "w -")
	} else {
		if seat != r.active {
			return nil
		}
		for c := range 4 {
			if r.locked[c] {
				continue
			}
			for _, w := range r.dice[:2] {
				n := int(w) + int(r.dice[2+c])
				if r.canMark(seat, c, n, r.locked) {
					out = append(out, fmt.Sprintf("c %s%d", qwixx.Color(c), n))
				}
			}
		}
		out = append(out, "c -")
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (r *refGame) mark(seat, c, n int) {
	r.marks[seat][c] = append(r.marks[seat][c], n)
	if slices.Index(refRow(c), n) == 10 {
		r.lockMark[seat][c] = true
	}
}

func (r *refGame) locks() int {
	n := 0
	for _, l := range r.locked {
		if l {
			n++
		}
	}
	return n
}

// apply plays seat's decision a; the engine game g gives the next roll.
func (r *refGame) apply(seat int, a qwixx.Action, g *qwixx.Game) {
	if r.white {
		r.decided[seat] = true
		if !a.Pass {
			r.mark(seat, int(a.Color), a.Number)
			r.marked1[seat] = true
		}
		if a.Plan.Set && seat == r.active {
			p := a.Plan.Action()
			r.plan = &p
		}
		if slices.Contains(r.decided, false) {
			return
		}
		// Action 1 is over: its locks take effect (Q4, Q5).
		for s := range r.players {
			for c := range 4 {
				if r.lockMark[s][c] {
					r.locked[c] = true
				}
			}
		}
		r.white = false
		plan := r.plan
		r.plan = nil
		if r.locks() >= 2 {
			r.over = true // Q8
			return
		}
		if plan != nil && slices.Contains(r.options(r.active), plan.String()) {
			r.colour(*plan, g)
		}
		return
	}
	r.colour(a, g)
}

func (r *refGame) colour(a qwixx.Action, g *qwixx.Game) {
	if a.Pass {
		if !r.marked1[r.active] {
			r.pen[r.active]++
		}
	} else {
		r.mark(r.active, int(a.Color), a.Number)
		if r.lockMark[r.active][a.Color] {
			r.locked[a.Color] = true
		}
	}
	if r.locks() >= 2 || r.pen[r.active] == 4 {
		r.over = true
		return
	}
	r.active = (r.active + 1) % r.players
	r.white = true
	for s := range r.players {
		r.decided[s], r.marked1[s] = false, false
	}
	r.dice = g.Dice
}

func (r *refGame) score(seat int) int {
	t := -5 * r.pen[seat]
	for c := range 4 {
		n := len(r.marks[seat][c])
		if r.lockMark[seat][c] {
			n++
		}
		t += n * (n + 1) / 2
	}
	return t
}

// compare returns the first difference between the reference and g.
func (r *refGame) compare(g *qwixx.Game) error {
	if r.over != g.Over() {
		return fmt.Errorf("over: reference %v, engine %v", r.over, g.Over())
	}
	if r.locked != g.Locked {
		return fmt.Errorf("locked: reference %v, engine %v", r.locked, g.Locked)
	}
	for s := range r.players {
		var got []string
		for _, a := range g.LegalActions(s) {
			got = append(got, a.String())
		}
		slices.Sort(got)
		if want := r.options(s); !slices.Equal(got, want) {
			return fmt.Errorf("seat %d options: reference %v, engine %v", s, want, got)
		}
		if r.pen[s] != g.Sheets[s].Penalties || r.score(s) != g.Sheets[s].Score() {
			return fmt.Errorf("seat %d: reference %d penalties %d points, engine %d, %d", s, r.pen[s], r.score(s), g.Sheets[s].Penalties, g.Sheets[s].Score())
		}
	}
	var want []int
	for s := range r.players {
		if len(r.options(s)) > 0 {
			want = append(want, s)
		}
	}
	if !slices.Equal(want, g.ToDecide()) {
		return fmt.Errorf("to decide: reference %v, engine %v", want, g.ToDecide())
	}
	return nil
}

func TestEngineAgreesWithANaiveReference(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 27))
	for game := range 150 {
		players := 1 + game%5
		g, err := qwixx.New(qwixx.Options{Players: players, Solitaire: players == 1, Seed: int64(game), First: -1})
		require.NoError(t, err)
		ref := newRef(players, g.Active)
		ref.dice = g.Dice
		for step := 0; !g.Over(); step++ {
			require.NoError(t, ref.compare(g), "game %d step %d", game, step)
			seats := g.ToDecide()
			seat := seats[r.IntN(len(seats))]
			l := g.LegalActions(seat)
			// Mark more often than pass, so that games reach locks.
			a := l[r.IntN(len(l))]
			if len(l) > 1 && r.IntN(4) > 0 {
				a = l[r.IntN(len(l)-1)]
			}
			if seat == g.Active && a.Kind == qwixx.ActWhite && r.IntN(3) == 0 {
				p := g.LegalPlans(a)
				// Any plan the colour dice make, allowed or not later (Q5).
				a.Plan = p[r.IntN(len(p))].AsPlan()
			}
			_, err := g.Apply(seat, a)
			require.NoError(t, err)
			ref.apply(seat, a, g)
		}
		require.NoError(t, ref.compare(g), "game %d at the end", game)
	}
}
