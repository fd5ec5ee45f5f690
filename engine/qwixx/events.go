package qwixx

// EventKind says what happened. Events are what the bot renders; the
// engine never formats text. Each kind lists the Event fields it sets.
type EventKind uint8

const (
	EvInvalid     EventKind = iota
	EvRolled                // Seat (the active seat) rolled Dice; Turn is the roll's number
	EvMarked                // Seat marked Number in row Color in action Action (1 or 2); Lock: the mark locks the row; Die: action 2's white die
	EvPassed                // Seat marked nothing in action Action
	EvPenalty               // Seat (the active seat) marked a penalty; Count: its penalties now
	EvLocked                // row Color is locked for everyone (Seats: who locked it, several in action 1, Q4)
	EvDieRemoved            // the die of Color is out of play (§5)
	EvGameOver              // the game ended; End says why
	EvPlanDropped           // Seat's (the active seat's) planned action 2 is no longer allowed (Q5): it decides action 2 now
)

var eventNames = [...]string{"invalid", "rolled", "marked", "passed", "penalty", "locked", "die-removed", "game-over", "plan-dropped"}

// String returns the kind's name ("rolled", "marked", "passed", "penalty",
// "locked", "die-removed", "game-over", "plan-dropped").
func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "invalid"
}

// MarshalText writes the kind's name, so events encode as readable JSON.
func (k EventKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Event is one thing that happened while applying a move. Everything in
// it is public (Q11).
type Event struct {
	Kind   EventKind `json:"kind"`
	Seat   int       `json:"seat"`
	Action int       `json:"action,omitempty"`
	Color  Color     `json:"color"`
	Number int       `json:"number,omitempty"`
	Lock   bool      `json:"lock,omitempty"`
	Die    Die       `json:"die,omitempty"`
	Dice   Roll      `json:"dice"`
	Turn   int       `json:"turn,omitempty"`
	Count  int       `json:"count,omitempty"`
	Seats  []int     `json:"seats,omitempty"`
	End    End       `json:"end,omitempty"`
}
