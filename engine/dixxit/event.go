package dixxit

import "fmt"

// EventKind is what an Event says happened.
type EventKind uint8

// The event kinds. Events are public (X11): none names the target before
// the turn is scored.
const (
	EvNone        EventKind = iota
	EvTurnStarted           // Seat is the active player of a new turn
	EvClue                  // Seat gave the clue Text, or said it aloud (Aloud) (X4)
	EvSkipped               // Seat gave no clue: the turn passes, nothing is scored (X9)
	EvFinger                // Seat's finger is on Square (Card): "no" (§3.3)
	EvLifted                // Seat's finger on Square was lifted: By got there first (X7); Seat picks again
	EvOut                   // Seat is out of the turn with no finger (X9)
	EvFound                 // Seat found the target on Square (Card) and takes it (§3.4)
	EvIgnored               // Seat's finger on Square came after the find and never counts (§3.4)
	EvTook                  // Seat, the active player, takes Cards from Squares, fingered before the find (§3.4)
	EvNotFound              // nobody found the target of Seat, the active player: Square (Card) (§3.4)
	EvReturned              // Seat, the active player, returns Card to the bottom of the draw pile (§3.4)
	EvDiscarded             // Cards on Squares go to the discard (§3.4)
	EvRefilled              // Cards from the draw pile fill Squares (§3.5)
	EvGameOver              // the grid cannot be refilled (§4, X5); see Results
)

var eventNames = [...]string{"none", "turn-started", "clue", "skipped", "finger", "lifted", "out", "found",
	"ignored", "took", "not-found", "returned", "discarded", "refilled", "game-over"}

// String returns the kind's name as scenario files and JSON spell it.
func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return fmt.Sprintf("event(%d)", uint8(k))
}

// MarshalText writes the kind's name.
func (k EventKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Event is one thing that happened in Apply. Fields a kind does not use
// are zero.
type Event struct {
	Kind    EventKind `json:"kind"`
	Seat    int       `json:"seat"`
	By      int       `json:"by"`
	Square  int       `json:"square,omitempty"` // 1–9
	Card    Card      `json:"card,omitzero"`
	Squares []int     `json:"squares,omitempty"` // 1–9
	Cards   []Card    `json:"cards,omitempty"`
	Text    string    `json:"text,omitempty"`
	Aloud   bool      `json:"aloud,omitempty"`
}

// MarshalText writes the deck id.
func (c Card) MarshalText() ([]byte, error) { return []byte(c.String()), nil }
