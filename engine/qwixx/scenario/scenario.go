package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/engine/scenariofile"
)

// Error is a failed scenario line (see scenariofile.Error).
type Error = scenariofile.Error

// Result is the outcome of a scenario.
type Result struct {
	Game      *qwixx.Game
	Decisions int // decisions applied
	Expects   int // expectations checked (expected errors included)
}

type scenario struct {
	opts   qwixx.Options
	sheets map[int]qwixx.Sheet
	g      *qwixx.Game
	last   []qwixx.Event // events of the last line that applied decisions
	res    Result
}

// Run runs the scenario read from r and returns the final game, or an
// *Error naming the first line that failed (with the game as it stood in
// the result).
func Run(r io.Reader) (*Result, error) {
	s := &scenario{opts: qwixx.Options{Players: 2}, sheets: map[int]qwixx.Sheet{}}
	err := scenariofile.Read(r, func(text string) string {
		if i := strings.IndexByte(text, '#'); i >= 0 {
			return text[:i]
		}
		return text
	}, s.line, s.start)
	s.res.Game = s.g
	return &s.res, err
}

func (s *scenario) line(f []string) error {
	if s.g == nil {
		done, err := s.header(f)
		if done || err != nil {
			return err
		}
		if err := s.start(); err != nil {
			return err
		}
	}
	switch f[0] {
	case "roll":
		return s.roll(f[1:])
	case "white":
		return s.white(f[1:])
	case "colour", "color":
		return s.colour(f[1:])
	case "expect":
		s.res.Expects++
		return s.expect(f[1:])
	}
	return fmt.Errorf("unknown line %q", f[0])
}

func (s *scenario) header(f []string) (bool, error) {
	var err error
	switch f[0] {
	case "players":
		if len(f) != 2 {
			return true, errors.New("players N")
		}
		s.opts.Players, err = strconv.Atoi(f[1])
	case "solitaire":
		s.opts.Players, s.opts.Solitaire = 1, true
	case "first":
		s.opts.First, err = seatOf(f, 1)
	case "random-first":
		s.opts.First = -1
	case "seed":
		if len(f) != 2 {
			return true, errors.New("seed N")
		}
		s.opts.Seed, err = strconv.ParseInt(f[1], 10, 64)
	case "sheet":
		var seat int
		if seat, err = seatOf(f, 1); err != nil {
			return true, err
		}
		var sh qwixx.Sheet
		sh, err = qwixx.ParseSheet(strings.Join(f[2:], " "))
		s.sheets[seat] = sh
	default:
		return false, nil
	}
	return true, err
}

// start creates the game, with the sheets given: a row locked on a sheet
// is locked for everyone and its die out of play.
func (s *scenario) start() error {
	if s.g != nil {
		return nil
	}
	g, err := qwixx.New(s.opts)
	if err != nil {
		return err
	}
	pens := 0
	for seat, sh := range s.sheets {
		if seat >= g.Players {
			return fmt.Errorf("no seat p%d", seat)
		}
		pens = max(pens, sh.Penalties)
		g.Sheets[seat] = sh
		for _, c := range qwixx.Colors {
			if sh.Rows[c].Locked() {
				g.Locked[c] = true
				g.Dice[qwixx.DieOf(c)] = 0
			}
		}
	}
	// Penalties on a sheet given stand for that many turns already played
	// (one penalty a turn at most): whole rounds, so the active seat stays.
	g.Turn += pens * g.Players
	if err := g.Check(); err != nil {
		return err
	}
	s.g = g
	return nil
}

func seatOf(f []string, i int) (int, error) {
	if len(f) <= i {
		return 0, errors.New("missing seat")
	}
	t := f[i]
	if len(t) >= 2 && t[0] == 'p' {
		if n, err := strconv.Atoi(t[1:]); err == nil && n >= 0 && n < qwixx.MaxPlayers {
			return n, nil
		}
	}
	return 0, fmt.Errorf("bad seat %q (p0 … p4)", t)
}

// roll: "roll pN W3 W4 r5 y1 g6 b2" sets the roll of the active seat pN.
func (s *scenario) roll(f []string) error {
	seat, err := seatOf(f, 0)
	if err != nil {
		return err
	}
	if s.g.Active != seat || s.g.Over() {
		return fmt.Errorf("%w: p%d is active (over %v), not p%d", errExpect, s.g.Active, s.g.Over(), seat)
	}
	r, err := qwixx.ParseRoll(strings.Join(f[1:], " "))
	if err != nil {
		return err
	}
	return s.g.SetRoll(r)
}

// apply sends move m for seat through the contract and checks the step.
func (s *scenario) apply(seat int, m engine.Move) error {
	a, err := qwixx.ParseMove(m)
	if err != nil {
		return err
	}
	prev := s.g.Clone()
	evs, err := qwixx.StateOf(s.g).Apply(seat, m)
	if err != nil {
		return fmt.Errorf("p%d %q: %w", seat, m, err)
	}
	s.res.Decisions++
	for _, e := range evs {
		s.last = append(s.last, e.(qwixx.Event))
	}
	return qwixx.CheckStep(prev, s.g, seat, a)
}

// white: "white p0 r7 p1 - p2 y12", action 1 decisions in the order
// written; "p0 r7>b10" (or "->b10", "r7>-") is the active seat's action 1
// decision with its action 2 decision planned (move "w r7 c b10").
func (s *scenario) white(f []string) error {
	if len(f) == 0 || len(f)%2 != 0 {
		return errors.New("white pN MARK|- …")
	}
	s.last = nil
	for i := 0; i < len(f); i += 2 {
		seat, err := seatOf(f, i)
		if err != nil {
			return err
		}
		m := "w " + f[i+1]
		if w, p, ok := strings.Cut(f[i+1], ">"); ok {
			m = "w " + w + " c " + p
		}
		if err := s.apply(seat, engine.Move(m)); err != nil {
			return err
		}
	}
	return nil
}

// colour: "colour r7=W3+r4", "colour r7" or "colour -", the active seat's
// action 2. With "=Wa+cb", the roll must hold a white a and a coloured b of
// the mark's colour that make the number.
func (s *scenario) colour(f []string) error {
	if len(f) != 1 {
		return errors.New("colour MARK[=Wa+cb]|-")
	}
	s.last = nil
	mark, sum, found := strings.Cut(f[0], "=")
	if found {
		c, n, ok := qwixx.ParseMark(mark)
		w, cd, ok2 := strings.Cut(sum, "+")
		if !ok || !ok2 || len(w) != 2 || w[0] != 'W' || len(cd) != 2 || cd[:1] != c.String() {
			return fmt.Errorf("bad colour sum %q", f[0])
		}
		wv, cv := int(w[1]-'0'), int(cd[1]-'0')
		d := s.g.Dice
		if wv+cv != n || (int(d[qwixx.W1]) != wv && int(d[qwixx.W2]) != wv) || int(d[qwixx.DieOf(c)]) != cv {
			return fmt.Errorf("%w: %s does not match the roll %s", errExpect, f[0], d)
		}
	}
	return s.apply(s.g.Active, engine.Move("c "+mark))
}

var errExpect = errors.New("expectation not met")

func (s *scenario) expect(f []string) error {
	if len(f) == 0 {
		return errors.New("expect what")
	}
	g := s.g
	for _, w := range f[1:] {
		if seat, err := seatOf([]string{w}, 0); err == nil && seat >= g.Players {
			return fmt.Errorf("no seat p%d in a game of %d", seat, g.Players)
		}
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{errExpect}, args...)...)
	}
	switch f[0] {
	case "error":
		// expect error ErrX pN w r7
		if len(f) < 4 {
			return errors.New("expect error ErrX pN MOVE")
		}
		want, ok := qwixx.Rejections()[f[1]]
		if !ok {
			return fmt.Errorf("unknown error %q", f[1])
		}
		seat, err := seatOf(f, 2)
		if err != nil {
			return err
		}
		before := g.AppendBinary(nil)
		_, err = qwixx.StateOf(g).Apply(seat, engine.Move(strings.Join(f[3:], " ")))
		if !errors.Is(err, want) {
			return fail("got %v, want %s", err, f[1])
		}
		if !bytes.Equal(before, g.AppendBinary(nil)) {
			return fail("the refused decision changed the state")
		}
	case "sheet", "public-sheet":
		// public-sheet: the sheet as the public view shows it (Q11)
		seat, err := seatOf(f, 1)
		if err != nil {
			return err
		}
		want, err := qwixx.ParseSheet(strings.Join(f[2:], " "))
		if err != nil {
			return err
		}
		got := g.Sheets[seat]
		if f[0] == "public-sheet" {
			got = sheetOfView(qwixx.StateOf(g).View(engine.Public).(qwixx.View), seat)
		}
		if got != want {
			return fail("p%d sheet %q, want %q", seat, got, want)
		}
	case "score", "penalties", "rank", "count":
		// expect score pN N; expect count pN ROW N
		seat, err := seatOf(f, 1)
		if err != nil {
			return err
		}
		if len(f) < 3 {
			return errors.New("missing number")
		}
		var got int
		arg := f[len(f)-1]
		switch f[0] {
		case "score":
			got = g.Sheets[seat].Score()
		case "penalties":
			got = g.Sheets[seat].Penalties
		case "rank":
			for _, r := range g.Results() {
				if r.Seat == seat {
					got = r.Rank
				}
			}
		case "count":
			c, ok := qwixx.ParseColor(f[2])
			if !ok || len(f) != 4 {
				return errors.New("expect count pN ROW N")
			}
			got = g.Sheets[seat].Rows[c].Count()
		}
		want, err := strconv.Atoi(arg)
		if err != nil {
			return err
		}
		if got != want {
			return fail("%s of p%d is %d, want %d", f[0], seat, got, want)
		}
	case "winners", "deciding", "forced":
		var want []int
		for i := 1; i < len(f); i++ {
			seat, err := seatOf(f, i)
			if err != nil {
				return err
			}
			want = append(want, seat)
		}
		var got []int
		switch f[0] {
		case "winners":
			got = g.Winners()
		case "deciding":
			got = g.ToDecide()
		case "forced":
			for _, seat := range g.ToDecide() {
				if _, ok := qwixx.StateOf(g).Forced(seat); ok {
					got = append(got, seat)
				}
			}
		}
		if !slices.Equal(got, want) {
			return fail("%s %v, want %v", f[0], got, want)
		}
	case "locked":
		// expect locked g r (in any order), or "-" for none
		var want, got []string
		for _, w := range f[1:] {
			if w != "-" {
				want = append(want, w)
			}
		}
		for _, c := range qwixx.Colors {
			if g.Locked[c] {
				got = append(got, c.String())
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			return fail("locked %v, want %v", got, want)
		}
	case "dice":
		want, err := qwixx.ParseRoll(strings.Join(f[1:], " "))
		if err != nil {
			return err
		}
		if g.Dice != want {
			return fail("dice %s, want %s", g.Dice, want)
		}
	case "plan":
		// expect plan c b10 | expect plan none: the active seat's planned
		// action 2, as its own view shows it (and no other view)
		want := strings.Join(f[1:], " ")
		if want == "none" {
			want = ""
		}
		for seat := -1; seat < g.Players; seat++ {
			v := qwixx.StateOf(g).View(seat).(qwixx.View)
			for _, sv := range v.Sheets {
				w := ""
				if sv.Seat == g.Active && seat == g.Active {
					w = want
				}
				if sv.Plan != w {
					return fail("view of p%d shows plan %q of p%d, want %q", seat, sv.Plan, sv.Seat, w)
				}
			}
		}
	case "phase":
		if len(f) != 2 || g.Phase.String() != f[1] {
			return fail("phase %s, want %v", g.Phase, f[1:])
		}
	case "over":
		// expect over locks|penalties
		if !g.Over() || len(f) != 2 || g.Ended.String() != f[1] {
			return fail("over %v (%s), want %v", g.Over(), g.Ended, f[1:])
		}
	case "active":
		seat, err := seatOf(f, 1)
		if err != nil {
			return err
		}
		if g.Active != seat {
			return fail("p%d active, want p%d", g.Active, seat)
		}
	case "options":
		// expect options pN r7 y7 - (the marks of LegalActions, pass last)
		seat, err := seatOf(f, 1)
		if err != nil {
			return err
		}
		var got []string
		for _, a := range g.LegalActions(seat) {
			got = append(got, strings.Fields(a.String())[1])
		}
		if !slices.Equal(got, f[2:]) {
			return fail("options of p%d %v, want %v", seat, got, f[2:])
		}
	case "event", "no-event":
		// expect event KIND [pN] [ROW]: the last decision line produced it
		if len(f) < 2 {
			return errors.New("expect event KIND [pN] [ROW]")
		}
		found := false
		for _, e := range s.last {
			found = found || eventMatches(e, f[1:])
		}
		if found != (f[0] == "event") {
			return fail("%s %v among %v", f[0], f[1:], s.last)
		}
	default:
		return fmt.Errorf("unknown expectation %q", f[0])
	}
	return nil
}

func eventMatches(e qwixx.Event, f []string) bool {
	if e.Kind.String() != f[0] {
		return false
	}
	for _, w := range f[1:] {
		if seat, err := seatOf([]string{w}, 0); err == nil {
			if e.Seat != seat && !slices.Contains(e.Seats, seat) {
				return false
			}
			continue
		}
		if c, ok := qwixx.ParseColor(w); ok {
			if e.Color != c {
				return false
			}
			continue
		}
		if n, err := strconv.Atoi(w); err == nil {
			if e.Number != n && e.Count != n {
				return false
			}
			continue
		}
		return false
	}
	return true
}

// sheetOfView rebuilds seat's sheet from what a view shows of it.
func sheetOfView(v qwixx.View, seat int) qwixx.Sheet {
	var sh qwixx.Sheet
	if seat >= len(v.Sheets) {
		return sh
	}
	sv := v.Sheets[seat]
	for _, c := range qwixx.Colors {
		for _, n := range sv.Rows[c].Marks {
			sh.Mark(c, n)
		}
		if !sv.Rows[c].Lock {
			sh.Rows[c] &^= 1 << qwixx.LockPos
		}
	}
	sh.Penalties = sv.Penalties
	return sh
}
