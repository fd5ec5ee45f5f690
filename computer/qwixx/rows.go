package qwixx

// A row of one sheet, as far as its future matters, is one of 57 codes:
// empty, or the position of its last mark (0–9 from the left: the numbers
// before the last one) with the number of marks (1 to position+1), or
// closed (locked by anyone: nothing more can be marked in it, and the marks
// it holds are points already scored). A position counts from the left of
// the row: red and yellow 2→12, green and blue 12→2, so that position 10 is
// always the last number (Q3: marking it also marks the lock).
const (
	rowEmpty  = 0
	rowClosed = 56
	rowCodes  = 57
	lastPos   = 10 // the last number of a row: 12 (red, yellow) or 2 (green, blue)
	noMark    = -1
)

var (
	rowLast  [rowCodes]int8              // position of the last mark; noMark when empty, lastPos when closed
	rowCount [rowCodes]int8              // marks in the row (0 when closed: they no longer matter)
	rowCode  [lastPos][lastPos + 1]uint8 // [position][marks] of an open row with marks
	markTab  [rowCodes][lastPos + 1]markResult
)

// markResult is what marking a position in a row gives: the row's new code
// and the points the mark adds (a mark adds as many points as the row then
// counts marks, §7; the lock is one more mark, Q3).
type markResult struct {
	code   uint8
	points int8
	ok     bool
}

func init() {
	rowLast[rowEmpty] = noMark
	code := 1
	for p := range lastPos {
		for c := 1; c <= p+1; c++ {
			rowLast[code], rowCount[code] = int8(p), int8(c)
			rowCode[p][c] = uint8(code)
			code++
		}
	}
	rowLast[rowClosed] = lastPos
	for c := range rowCodes {
		for p := range lastPos + 1 {
			markTab[c][p] = markOf(uint8(c), p)
		}
	}
}

func markOf(code uint8, p int) markResult {
	if code == rowClosed || p <= int(rowLast[code]) {
		return markResult{}
	}
	n := int(rowCount[code])
	if p == lastPos {
		if n < 5 { // §5: the last number needs five marks before it
			return markResult{}
		}
		return markResult{code: rowClosed, points: int8(2*n + 3), ok: true} // n+1, then the lock n+2 (Q3)
	}
	return markResult{code: rowCode[p][n+1], points: int8(n + 1), ok: true}
}

// posOf returns the position of sum in a row of colour c (0 red, 1 yellow,
// 2 green, 3 blue).
func posOf(c, sum int) int {
	if c < 2 {
		return sum - 2
	}
	return 12 - sum
}
