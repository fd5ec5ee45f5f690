package dixxit

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dixgame/dixbot/engine"
)

// MoveKind is the kind of a move (see the package documentation).
type MoveKind uint8

// The move kinds. The zero value is no move.
const (
	MoveNone   MoveKind = iota
	MoveClue            // clue TEXT (X4)
	MoveAloud           // aloud (X4)
	MoveSkip            // skip (X9)
	MoveFinger          // f N [T] (§3.3, X7)
	MoveOut             // out (X9)
)

// Parsed is a move read by ParseMove.
type Parsed struct {
	Kind   MoveKind
	Clue   string // MoveClue: the text, trimmed
	Square int    // MoveFinger: 1–9
	At     uint64 // MoveFinger: the time of the finger, when Timed
	Timed  bool   // MoveFinger: the move carries a time
	Turn   uint64 // MoveFinger: the turn (View.Turn) of the board clicked, when OnTurn
	OnTurn bool   // MoveFinger: the move names its turn
}

// maxMoveBytes bounds what ParseMove reads: a clue of 100 characters of
// four bytes each, its verb and spaces.
const maxMoveBytes = 4*MaxClue + 64

// ClueMove returns the move giving text as the clue. ParseMove refuses it
// unless text is 1–100 characters once trimmed, without control
// characters.
func ClueMove(text string) engine.Move { return engine.Move("clue " + text) }

// FingerMove returns the move of a finger on square (1–9) at time at.
func FingerMove(square int, at uint64) engine.Move {
	return engine.Move(fmt.Sprintf("f %d %d", square, at))
}

// FingerMoveOn returns the move of a finger on square (1–9) at time at,
// clicked on the board of turn (View.Turn): Apply refuses it once that
// turn is over.
func FingerMoveOn(square int, at, turn uint64) engine.Move {
	return engine.Move(fmt.Sprintf("f %d %d %d", square, at, turn))
}

// ParseMove reads a move. It returns an error wrapping engine.ErrBadMove
// and ErrBadMove, ErrBadClue or ErrBadSquare.
func ParseMove(m engine.Move) (Parsed, error) {
	bad := func(why error, detail string) (Parsed, error) {
		return Parsed{}, fmt.Errorf("%w: %w: %s", engine.ErrBadMove, why, detail)
	}
	s := string(m)
	if len(s) > maxMoveBytes {
		return bad(ErrBadMove, "too long")
	}
	if !utf8.ValidString(s) {
		return bad(ErrBadMove, "not UTF-8")
	}
	verb, rest, _ := strings.Cut(s, " ")
	switch verb {
	case "clue":
		text := strings.TrimSpace(rest)
		n := utf8.RuneCountInString(text)
		if n < 1 || n > MaxClue {
			return bad(ErrBadClue, fmt.Sprintf("%d characters", n))
		}
		for _, r := range text {
			if unicode.IsControl(r) {
				return bad(ErrBadClue, "control character")
			}
		}
		return Parsed{Kind: MoveClue, Clue: text}, nil
	case "aloud", "skip", "out":
		if rest != "" || strings.Contains(s, " ") {
			return bad(ErrBadMove, verb+" takes nothing")
		}
		return Parsed{Kind: map[string]MoveKind{"aloud": MoveAloud, "skip": MoveSkip, "out": MoveOut}[verb]}, nil
	case "f":
		f := strings.Split(rest, " ")
		if len(f) < 1 || len(f) > 3 {
			return bad(ErrBadMove, "f SQUARE [TIME [TURN]]")
		}
		sq, err := strconv.Atoi(f[0])
		if err != nil || len(f[0]) > 1 {
			return bad(ErrBadSquare, strconv.Quote(f[0]))
		}
		if sq < 1 || sq > Squares {
			return bad(ErrBadSquare, f[0])
		}
		p := Parsed{Kind: MoveFinger, Square: sq}
		if len(f) >= 2 {
			at, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				return bad(ErrBadMove, "time "+strconv.Quote(f[1]))
			}
			p.At, p.Timed = at, true
		}
		if len(f) == 3 {
			turn, err := strconv.ParseUint(f[2], 10, 64)
			if err != nil {
				return bad(ErrBadMove, "turn "+strconv.Quote(f[2]))
			}
			p.Turn, p.OnTurn = turn, true
		}
		return p, nil
	}
	return bad(ErrBadMove, strconv.Quote(verb))
}
