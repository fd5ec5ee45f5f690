package qwixx

// Color is a row of the sheet and the die of that colour. The zero value
// is Red.
type Color uint8

const (
	Red Color = iota
	Yellow
	Green
	Blue
)

// Colors lists the four rows in sheet order.
var Colors = [4]Color{Red, Yellow, Green, Blue}

// String returns the colour's letter of §10: "r", "y", "g", "b".
func (c Color) String() string {
	if c > Blue {
		return "?"
	}
	return "rygb"[c : c+1]
}

// ParseColor reads a colour letter ("r", "y", "g", "b").
func ParseColor(s string) (Color, bool) {
	switch s {
	case "r":
		return Red, true
	case "y":
		return Yellow, true
	case "g":
		return Green, true
	case "b":
		return Blue, true
	}
	return 0, false
}

// Ascending reports whether the row runs 2 → 12 (red, yellow) rather than
// 12 → 2 (green, blue) (§1).
func (c Color) Ascending() bool { return c < Green }

// Positions in a row: 0 is the leftmost number, LastPos the last number
// (12 for red and yellow, 2 for green and blue), LockPos the lock.
const (
	LastPos  = 10
	LockPos  = 11
	RowCells = 11 // numbers per row
)

// Number returns the number printed at position pos (0–10) of row c.
func Number(c Color, pos int) int {
	if c.Ascending() {
		return pos + 2
	}
	return 12 - pos
}

// Pos returns the position of number n (2–12) in row c, or -1.
func Pos(c Color, n int) int {
	if n < 2 || n > 12 {
		return -1
	}
	if c.Ascending() {
		return n - 2
	}
	return 12 - n
}

// Row is one row of a sheet: bit p (0–10) is set when the number at
// position p is marked, bit LockPos when the lock is. The zero value is an
// empty row.
type Row uint16

// rowMask holds every valid bit of a Row.
const rowMask Row = 1<<(LockPos+1) - 1

// Has reports whether position pos is marked.
func (r Row) Has(pos int) bool { return pos >= 0 && pos <= LockPos && r&(1<<pos) != 0 }

// Locked reports whether the lock is marked.
func (r Row) Locked() bool { return r&(1<<LockPos) != 0 }

// Count returns the marks of the row, the lock included (Q3).
func (r Row) Count() int {
	n := 0
	for x := r & rowMask; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// Right returns the position of the rightmost marked number, -1 for none.
func (r Row) Right() int {
	for p := LastPos; p >= 0; p-- {
		if r.Has(p) {
			return p
		}
	}
	return -1
}

// Check returns why position pos may not be marked in r by its owner, nil
// when it may (§4, §5): it must lie right of every mark, and the last number
// needs five marks before it. It does not know whether the row is locked
// for everyone.
func (r Row) Check(pos int) error {
	if pos < 0 || pos > LastPos || pos <= r.Right() {
		return ErrNotRightOf
	}
	if pos == LastPos && r.Count() < 5 {
		return ErrLockNeedsFive
	}
	return nil
}

// CanMark reports whether position pos may be marked in r (Check is nil).
func (r Row) CanMark(pos int) bool { return r.Check(pos) == nil }

// Mark returns r with position pos marked, and the lock with the last
// number (§5). It does not check that the mark is allowed.
func (r Row) Mark(pos int) Row {
	r |= 1 << pos
	if pos == LastPos {
		r |= 1 << LockPos
	}
	return r
}

// Numbers returns the marked numbers of row c, left to right (the lock
// not included).
func (r Row) Numbers(c Color) []int {
	var out []int
	for p := 0; p <= LastPos; p++ {
		if r.Has(p) {
			out = append(out, Number(c, p))
		}
	}
	return out
}

// MaxPenalties is the penalty box count; the fourth ends the game (§6).
const MaxPenalties = 4

// PenaltyPoints is what one penalty costs (§7).
const PenaltyPoints = 5

// Sheet is one player's score sheet: four rows and the penalties.
type Sheet struct {
	Rows      [4]Row
	Penalties int // 0–4
}

// RowPoints returns what n marks in a row score: n·(n+1)/2 (§7).
func RowPoints(n int) int { return n * (n + 1) / 2 }

// Score returns the sheet's points: every row's RowPoints (locks counting
// as marks, Q3; a row locked by others keeps its marks, Q7) minus
// PenaltyPoints per penalty (§7).
func (s *Sheet) Score() int {
	t := -PenaltyPoints * s.Penalties
	for _, r := range s.Rows {
		t += RowPoints(r.Count())
	}
	return t
}

// Check returns why the sheet's owner may not mark number n in row c, nil
// when they may, as far as the sheet alone tells (not whether the row is
// locked for everyone).
func (s *Sheet) Check(c Color, n int) error {
	if c > Blue {
		return ErrBadMove
	}
	p := Pos(c, n)
	if p < 0 {
		return ErrWrongSum
	}
	return s.Rows[c].Check(p)
}

// CanMark reports whether Check(c, n) is nil.
func (s *Sheet) CanMark(c Color, n int) bool { return s.Check(c, n) == nil }

// Mark marks number n in row c (and the lock with the last number),
// without checking that it is allowed; it reports whether the row's lock
// was marked.
func (s *Sheet) Mark(c Color, n int) (locked bool) {
	p := Pos(c, n)
	s.Rows[c] = s.Rows[c].Mark(p)
	return p == LastPos
}

// MarshalText writes the colour's letter, so views and events read "r".
func (c Color) MarshalText() ([]byte, error) { return []byte(c.String()), nil }
