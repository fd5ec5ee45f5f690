package bot

import (
	"fmt"
)

// Pace, clocks and absent players (DISCORD-UX "Pace, clocks and absent
// players"): every game has a clock (package clock) chosen by its pace. The
// decision running is the one of the player to act; when their time runs
// out the computer decides for them (autoMove), twice in a row and they are
// marked absent, and the others may vote to hand their seat to the
// computer for good. Deadlines and reminders are kept as the record's Due
// time, so any process finds them (Store.Due) and acts on them through the
// same exactly-once update as a click (RunDue).

// maxKickButtons bounds the vote buttons on the board (a row holds five,
// one is the hand's).
const maxKickButtons = 4

// parseSeatArg reads a seat number carried by a custom id, of a table of
// at most seats seats.
func parseSeatArg(s string, seats int) (int, error) {
	n, err := parseNumber(s, false, seats-1)
	if err != nil {
		return 0, fmt.Errorf("%w: seat %q", ErrBadCustomID, s)
	}
	return n, nil
}
