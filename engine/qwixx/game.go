package qwixx

import (
	"fmt"
	"math/rand/v2"
)

// Die indexes a Roll: the two white dice, then one die per colour.
type Die uint8

const (
	W1 Die = iota
	W2
	DieRed
	DieYellow
	DieGreen
	DieBlue
)

// DieOf returns the die of colour c.
func DieOf(c Color) Die { return DieRed + Die(c) }

// Roll is the six dice, W1 W2 r y g b; a die out of play (its row locked,
// §5) is 0.
type Roll [6]uint8

// WhiteSum returns W1 + W2 (action 1).
func (r Roll) WhiteSum() int { return int(r[W1]) + int(r[W2]) }

// String writes the roll in §10 notation: "W3 W4 r5 y1 g6 b2", a
// removed die absent.
func (r Roll) String() string {
	s := fmt.Sprintf("W%d W%d", r[W1], r[W2])
	for _, c := range Colors {
		if v := r[DieOf(c)]; v != 0 {
			s += fmt.Sprintf(" %s%d", c, v)
		}
	}
	return s
}

// Phase is where a turn stands. The zero value is PhaseWhite.
type Phase uint8

const (
	PhaseWhite  Phase = iota // action 1: every seat still deciding may mark the white sum
	PhaseColour              // action 2: the active seat alone may mark a colour sum
	PhaseOver                // the game has ended (§6)
)

// String returns "white", "colour" or "over".
func (p Phase) String() string {
	switch p {
	case PhaseWhite:
		return "white"
	case PhaseColour:
		return "colour"
	case PhaseOver:
		return "over"
	}
	return "?"
}

// Choice is one seat's action 1 decision on the current roll. The zero
// value is ChoiceNone: not decided yet.
type Choice uint8

const (
	ChoiceNone Choice = iota // not decided yet
	ChoicePass               // marked nothing
	// ChoiceRed + c: marked the white sum in row c.
	ChoiceRed
	ChoiceYellow
	ChoiceGreen
	ChoiceBlue
)

// Marked reports whether the choice marks a row, and which.
func (c Choice) Marked() (Color, bool) {
	if c >= ChoiceRed && c <= ChoiceBlue {
		return Color(c - ChoiceRed), true
	}
	return 0, false
}

// End says why the game ended. The zero value is EndNone.
type End uint8

const (
	EndNone      End = iota // not over
	EndLocks                // two rows locked (§6)
	EndPenalties            // a fourth penalty (§6, Q9)
)

// String returns "", "locks" or "penalties".
func (e End) String() string {
	switch e {
	case EndLocks:
		return "locks"
	case EndPenalties:
		return "penalties"
	}
	return ""
}

// Option names of engine.Setup.Options.
const (
	OptSolitaire = "solitaire" // "1": one sheet, that seat active on every roll
)

// MinPlayers and MaxPlayers bound a game (§2); solitaire has one seat.
const (
	MinPlayers = 2
	MaxPlayers = 5
)

// Options set up a game.
type Options struct {
	Players   int   // 2–5, or 1 with Solitaire
	Seed      int64 // every roll of the game comes from it
	First     int   // the first active seat; -1: drawn from Seed (§2)
	Solitaire bool  // one sheet, active on every roll; ends on its fourth penalty or two locks
}

// CheckOptions returns an error wrapping ErrBadOptions when o is not a
// game the rules allow.
func CheckOptions(o Options) error {
	switch {
	case o.Solitaire && o.Players != 1:
		return fmt.Errorf("%w: solitaire is one player, not %d", ErrBadOptions, o.Players)
	case !o.Solitaire && (o.Players < MinPlayers || o.Players > MaxPlayers):
		return fmt.Errorf("%w: %d players, not 2–5", ErrBadOptions, o.Players)
	case o.First < -1 || o.First >= o.Players:
		return fmt.Errorf("%w: first seat %d of %d", ErrBadOptions, o.First, o.Players)
	}
	return nil
}

// Game is the whole state of one game of Qwixx. Its exported fields are
// for reading (rendering, computer players, tests); change it only through
// Apply (and SetRoll, Reseed). A Game is not safe for concurrent use.
type Game struct {
	Players   int
	Solitaire bool
	First     int      // the first active seat, as drawn (never -1)
	Turn      int      // rolls made so far; the current roll is number Turn
	Active    int      // the seat that rolled
	Phase     Phase    //
	Dice      Roll     // the current roll
	Locked    [4]bool  // rows locked for everyone (§5); a pending action 1 lock is not here until action 1 ends (Q4, Q5)
	Sheets    []Sheet  // by seat
	Choices   []Choice // by seat: the action 1 decisions on the current roll
	Ended     End      // why the game ended
	Seq       uint64   // successful Apply calls

	seed    int64 // the source of every roll; hidden (Q11)
	firstIn int   // Options.First as given (-1: drawn)
	plan    Plan  // the active seat's action 2 decision given with its action 1 one; private to it
}

// Planned returns the active seat's action 2 decision given with its
// action 1 decision and not applied yet (Plan.Set false: none). Only the
// active seat may see it.
func (g *Game) Planned() Plan { return g.plan }

// New starts a game: empty sheets, all dice in play, the first roll made
// (§2, §3). It returns an error wrapping ErrBadOptions.
func New(o Options) (*Game, error) {
	if err := CheckOptions(o); err != nil {
		return nil, err
	}
	g := &Game{
		Players:   o.Players,
		Solitaire: o.Solitaire,
		First:     o.First,
		Sheets:    make([]Sheet, o.Players),
		Choices:   make([]Choice, o.Players),
		seed:      o.Seed,
		firstIn:   o.First,
	}
	if g.First < 0 {
		// §2: a random first player, from the seed.
		g.First = rand.New(rand.NewPCG(uint64(o.Seed), 0x6669727374)).IntN(o.Players)
	}
	g.Active = g.First
	g.Turn = 1
	g.Dice = g.roll()
	return g, nil
}

// roll returns the dice of roll number g.Turn: a function of the seed and
// the turn alone, so a game replays the same from the same seed and
// decisions. Every die is drawn, then the removed ones are zeroed, so a
// lock changes no other die.
func (g *Game) roll() Roll {
	r := rand.New(rand.NewPCG(uint64(g.seed), uint64(g.Turn)))
	var d Roll
	for i := range d {
		d[i] = uint8(r.IntN(6) + 1)
	}
	for _, c := range Colors {
		if g.Locked[c] {
			d[DieOf(c)] = 0
		}
	}
	return d
}

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.Phase == PhaseOver }

// LockCount returns how many rows are locked for everyone.
func (g *Game) LockCount() int {
	n := 0
	for _, l := range g.Locked {
		if l {
			n++
		}
	}
	return n
}

// InPlay reports whether die d is still rolled: the white dice always,
// a coloured one until its row is locked (§5).
func (g *Game) InPlay(d Die) bool {
	return d <= W2 || (d <= DieBlue && !g.Locked[d-DieRed])
}

// ToDecide returns the seats that must decide now, in seat order: in
// action 1 every seat that has not decided yet (all at once), in action 2
// the active seat; none once the game is over.
func (g *Game) ToDecide() []int {
	switch g.Phase {
	case PhaseWhite:
		var out []int
		for s, c := range g.Choices {
			if c == ChoiceNone {
				out = append(out, s)
			}
		}
		return out
	case PhaseColour:
		return []int{g.Active}
	}
	return nil
}

// Deciding reports whether seat must decide now.
func (g *Game) Deciding(seat int) bool {
	if seat < 0 || seat >= g.Players {
		return false
	}
	switch g.Phase {
	case PhaseWhite:
		return g.Choices[seat] == ChoiceNone
	case PhaseColour:
		return seat == g.Active
	}
	return false
}

// Clone returns a copy of g sharing nothing with it (two small slices are
// copied). The copy rolls the same future dice as g: a computer player
// that plays a clone forward calls Reseed first (Q11).
func (g *Game) Clone() *Game {
	c := *g
	c.Sheets = append([]Sheet(nil), g.Sheets...)
	c.Choices = append([]Choice(nil), g.Choices...)
	return &c
}

// CloneInto copies g into dst, reusing dst's slices: a clone without
// allocation for search loops. The copy rolls the same future dice as g.
func (g *Game) CloneInto(dst *Game) {
	sheets, choices := dst.Sheets, dst.Choices
	*dst = *g
	dst.Sheets = append(sheets[:0], g.Sheets...)
	dst.Choices = append(choices[:0], g.Choices...)
}

// Reseed makes the game's future rolls come from seed: what a computer
// player does to a Clone before playing it forward, so it never reads the
// real game's future rolls (Q11). The current roll does not change.
func (g *Game) Reseed(seed int64) { g.seed = seed }

// SetRoll replaces the current roll, before anyone decided on it: the hook
// of scenario files and of computer players' what-if searches (on a
// Clone). Removed dice must be 0 and the others 1–6. It returns an error
// wrapping ErrBadRoll, and changes nothing then.
func (g *Game) SetRoll(r Roll) error {
	if g.Phase != PhaseWhite {
		return fmt.Errorf("%w: not at the start of a roll", ErrBadRoll)
	}
	for _, c := range g.Choices {
		if c != ChoiceNone {
			return fmt.Errorf("%w: a seat already decided on this roll", ErrBadRoll)
		}
	}
	for d := W1; d <= DieBlue; d++ {
		v := r[d]
		if g.InPlay(d) != (v != 0) || v > 6 {
			return fmt.Errorf("%w: die %d is %d", ErrBadRoll, d, v)
		}
	}
	g.Dice = r
	return nil
}
