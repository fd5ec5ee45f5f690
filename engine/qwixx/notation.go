package qwixx

import (
	"fmt"
	"strconv"
	"strings"
)

// The notation of §10 for tests, scenario files and tools: rows
// "r y g b", a mark "r7", a lock "rL", a roll "W3 W4 r5 y1 g6 b2" (a
// removed die absent), a pass "-", a penalty "P".

// String writes the sheet in §10 notation: every mark row by row,
// left to right, each lock after its row ("r2 r5 g12 g11 g10 g9 g8 g2 gL"),
// then one "P" per penalty; "-" for an empty sheet.
func (s Sheet) String() string {
	var f []string
	for _, c := range Colors {
		for _, n := range s.Rows[c].Numbers(c) {
			f = append(f, c.String()+strconv.Itoa(n))
		}
		if s.Rows[c].Locked() {
			f = append(f, c.String()+"L")
		}
	}
	for range s.Penalties {
		f = append(f, "P")
	}
	if len(f) == 0 {
		return "-"
	}
	return strings.Join(f, " ")
}

// ParseSheet reads Sheet.String's notation, the marks in any order ("-"
// alone: an empty sheet). A lock needs its row's last number; the sheet
// must keep the rules of §5 (five marks before the last number). It
// returns an error wrapping ErrBadMove.
func ParseSheet(s string) (Sheet, error) {
	var sh Sheet
	f := strings.Fields(s)
	if len(f) == 1 && f[0] == "-" {
		return sh, nil
	}
	locks := [4]bool{}
	for _, w := range f {
		if w == "P" {
			sh.Penalties++
			continue
		}
		if len(w) == 2 && w[1] == 'L' {
			c, ok := ParseColor(w[:1])
			if !ok {
				return Sheet{}, fmt.Errorf("%w: %q", ErrBadMove, w)
			}
			locks[c] = true
			continue
		}
		c, n, ok := ParseMark(w)
		if !ok {
			return Sheet{}, fmt.Errorf("%w: %q", ErrBadMove, w)
		}
		p := Pos(c, n)
		if sh.Rows[c].Has(p) {
			return Sheet{}, fmt.Errorf("%w: %q twice", ErrBadMove, w)
		}
		sh.Rows[c] |= 1 << p
	}
	for _, c := range Colors {
		r := sh.Rows[c]
		if locks[c] != r.Has(LastPos) {
			return Sheet{}, fmt.Errorf("%w: row %s: a lock goes with the last number", ErrBadMove, c)
		}
		if locks[c] {
			sh.Rows[c] |= 1 << LockPos
			if r.Count() < 6 {
				return Sheet{}, fmt.Errorf("%w: row %s locked with fewer than five marks", ErrBadMove, c)
			}
		}
	}
	if sh.Penalties > MaxPenalties {
		return Sheet{}, fmt.Errorf("%w: %d penalties", ErrBadMove, sh.Penalties)
	}
	return sh, nil
}

// ParseRoll reads a roll of §10 ("W3 W4 r5 y1 g6 b2"): the two white
// dice first, then the coloured dice in play in any order (a removed die
// absent). It returns an error wrapping ErrBadRoll.
func ParseRoll(s string) (Roll, error) {
	var r Roll
	f := strings.Fields(s)
	whites := 0
	for _, w := range f {
		if len(w) != 2 || w[1] < '1' || w[1] > '6' {
			return Roll{}, fmt.Errorf("%w: %q", ErrBadRoll, w)
		}
		v := w[1] - '0'
		if w[0] == 'W' {
			if whites == 2 {
				return Roll{}, fmt.Errorf("%w: three white dice", ErrBadRoll)
			}
			r[W1+Die(whites)] = v
			whites++
			continue
		}
		c, ok := ParseColor(w[:1])
		if !ok || r[DieOf(c)] != 0 {
			return Roll{}, fmt.Errorf("%w: %q", ErrBadRoll, w)
		}
		r[DieOf(c)] = v
	}
	if whites != 2 {
		return Roll{}, fmt.Errorf("%w: two white dice needed", ErrBadRoll)
	}
	return r, nil
}
