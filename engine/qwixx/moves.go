package qwixx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dixgame/dixbot/engine"
)

// ActionKind says which action a move decides. The zero value is not a
// valid action.
type ActionKind uint8

const (
	ActInvalid ActionKind = iota
	ActWhite              // action 1: the white sum, every seat at once
	ActColour             // action 2: a colour sum, the active seat alone
)

// Action is one seat's decision: in action Kind, mark Number in row Color,
// or nothing (Pass). An action 1 decision of the active seat may carry its
// action 2 decision too (Plan): both at once.
type Action struct {
	Kind   ActionKind
	Pass   bool
	Color  Color
	Number int // 2–12
	Plan   Plan
}

// Plan is the active seat's action 2 decision given with its action 1
// decision ("w r7 c b10"). The zero value is no plan. It is private to the
// active seat until it is applied: once every seat decided on the white
// sum, it is applied at once if it is still allowed (a row locked in action
// 1 may forbid it, Q5), and dropped otherwise, the seat deciding action 2
// as usual.
type Plan struct {
	Set    bool
	Pass   bool
	Color  Color
	Number int
}

// AsPlan returns action 2 decision a as a Plan, to give with an action 1
// decision.
func (a Action) AsPlan() Plan {
	return Plan{Set: true, Pass: a.Pass, Color: a.Color, Number: a.Number}
}

// Action returns the plan as the action 2 decision it stands for.
func (p Plan) Action() Action {
	return Action{Kind: ActColour, Pass: p.Pass, Color: p.Color, Number: p.Number}
}

// Move notation (engine.Move), short enough for a button's custom id:
//
//	w r7    action 1: mark the white sum 7 in the red row
//	w -     action 1: mark nothing
//	c b10   action 2: mark 10 in the blue row, a white die plus the blue die
//	c -     action 2: mark nothing (the active seat takes a penalty if it
//	        marked nothing in action 1 either)
//	w r7 c b10, w - c b10, w r7 c -
//	        the active seat's two decisions at once (see Plan)
//
// Rows are "r y g b" (§10). Marking a row's last number (r12, y12,
// g2, b2) marks its lock too; the notation has no separate lock. The
// number is part of the move so that a decision sent for an older roll is
// refused (ErrWrongSum) instead of marking another number.

// String returns a in the move notation.
func (a Action) String() string {
	var k string
	switch a.Kind {
	case ActWhite:
		k = "w"
	case ActColour:
		k = "c"
	default:
		return "?"
	}
	s := k + " -"
	if !a.Pass {
		s = k + " " + a.Color.String() + strconv.Itoa(a.Number)
	}
	if a.Plan.Set && a.Kind == ActWhite {
		s += " " + a.Plan.Action().String()
	}
	return s
}

// Move returns a as an engine.Move.
func (a Action) Move() engine.Move { return engine.Move(a.String()) }

// ParseMove reads the move notation. It returns an error wrapping
// engine.ErrBadMove and ErrBadMove.
func ParseMove(m engine.Move) (Action, error) {
	bad := func(why string) (Action, error) {
		return Action{}, fmt.Errorf("%w: %w: %q: %s", engine.ErrBadMove, ErrBadMove, m, why)
	}
	if len(m) > engine.MaxMoveLen {
		return bad("too long")
	}
	f := strings.Fields(string(m))
	if len(f) == 4 && f[0] == "w" && f[2] == "c" {
		a, err := ParseMove(engine.Move(f[0] + " " + f[1]))
		if err != nil {
			return Action{}, err
		}
		p, err := ParseMove(engine.Move(f[2] + " " + f[3]))
		if err != nil {
			return Action{}, err
		}
		a.Plan = Plan{Set: true, Pass: p.Pass, Color: p.Color, Number: p.Number}
		return a, nil
	}
	if len(f) != 2 {
		return bad("want an action and a mark")
	}
	var a Action
	switch f[0] {
	case "w":
		a.Kind = ActWhite
	case "c":
		a.Kind = ActColour
	default:
		return bad("action is w or c")
	}
	if f[1] == "-" {
		a.Pass = true
		return a, nil
	}
	c, n, ok := ParseMark(f[1])
	if !ok {
		return bad("mark is a row letter and a number 2–12, or -")
	}
	a.Color, a.Number = c, n
	return a, nil
}

// ParseMark reads a mark of §10 ("r7", "g12"): a row letter and a
// number 2–12 in canonical form.
func ParseMark(s string) (Color, int, bool) {
	if len(s) < 2 || len(s) > 3 {
		return 0, 0, false
	}
	c, ok := ParseColor(s[:1])
	if !ok {
		return 0, 0, false
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 2 || n > 12 || strconv.Itoa(n) != s[1:] {
		return 0, 0, false
	}
	return c, n, true
}
