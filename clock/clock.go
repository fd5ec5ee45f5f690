package clock

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Pace is a time bank per player and an increment added to it at every
// decision made; a bank never grows beyond its starting value.
type Pace struct {
	Name      string        `json:"n"`
	Bank      time.Duration `json:"b"`
	Increment time.Duration `json:"i"`
}

// The paces offered, by name. Live is for a game played in one sitting,
// evening for a game across an evening (the default), relaxed for a
// decision a day.
var (
	Live    = Pace{Name: "live", Bank: 5 * time.Minute, Increment: time.Minute}
	Evening = Pace{Name: "evening", Bank: 3 * time.Hour, Increment: 20 * time.Minute}
	Relaxed = Pace{Name: "relaxed", Bank: 24 * time.Hour, Increment: 24 * time.Hour}
)

// Defaults are the paces before any operator setting, in the order they
// are offered.
var Defaults = []Pace{Live, Evening, Relaxed}

// DefaultPace is the pace of a game created without one.
const DefaultPace = "evening"

// ErrPaces is wrapped by the errors of ParsePaces.
var ErrPaces = errors.New("clock: bad pace setting")

// ParsePaces reads an operator's setting of the paces: a comma-separated
// list of name=bank+increment (Go durations), e.g.
// "live=5m+1m,evening=3h+20m,relaxed=24h+24h". Paces it does not name keep
// their defaults; an unknown name, a bad duration or a bank of zero is an
// error wrapping ErrPaces. An empty setting gives the defaults.
func ParsePaces(s string) ([]Pace, error) {
	out := slices.Clone(Defaults)
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, item := range strings.Split(s, ",") {
		name, spec, ok := strings.Cut(strings.TrimSpace(item), "=")
		bank, inc, ok2 := strings.Cut(spec, "+")
		if !ok || !ok2 {
			return nil, fmt.Errorf("%w: %q is not name=bank+increment (e.g. live=5m+1m)", ErrPaces, item)
		}
		i := slices.IndexFunc(out, func(p Pace) bool { return p.Name == strings.ToLower(strings.TrimSpace(name)) })
		if i < 0 {
			return nil, fmt.Errorf("%w: unknown pace %q (live, evening, relaxed)", ErrPaces, name)
		}
		b, err1 := time.ParseDuration(strings.TrimSpace(bank))
		n, err2 := time.ParseDuration(strings.TrimSpace(inc))
		if err1 != nil || err2 != nil || b <= 0 || n < 0 {
			return nil, fmt.Errorf("%w: %q needs a positive bank and an increment of zero or more", ErrPaces, item)
		}
		out[i].Bank, out[i].Increment = b, n
	}
	return out, nil
}

// Spend is a bank after a decision that used used of it: the time used
// taken from it (never below zero) and, when the decision was made
// (made), the increment added, up to the bank the game started with (as
// time controls with an increment usually do, a fast player does not
// hoard hours).
func (p Pace) Spend(bank, used time.Duration, made bool) time.Duration {
	bank = max(bank-max(used, 0), 0)
	if made {
		bank = min(bank+p.Increment, p.Bank)
	}
	return bank
}

// Find returns the pace named name among paces.
func Find(paces []Pace, name string) (Pace, bool) {
	i := slices.IndexFunc(paces, func(p Pace) bool { return p.Name == name })
	if i < 0 {
		return Pace{}, false
	}
	return paces[i], true
}

// Reminders per decision, at these shares of the time the decision had
// when it started: half of it gone, then nine tenths.
var reminderAt = []float64{0.5, 0.9}

// MaxReminders is how many reminders one decision gets at most.
const MaxReminders = 2

// Clock is the time of one game: the players' banks, and the decision
// running now. The zero value has no players; use New. It is a plain value
// (JSON-serialisable), not safe for concurrent use.
type Clock struct {
	Pace  Pace            `json:"p"`
	Banks []time.Duration `json:"k"` // by seat
	// The decision running: Seat (−1: none), since when, how long it had
	// when it started, and how many reminders were sent for it.
	Seat     int           `json:"s"`
	Since    time.Time     `json:"t,omitzero"`
	Had      time.Duration `json:"h,omitempty"`
	Reminded int           `json:"r,omitempty"`
	// PausedAt is when the game was paused (zero: running).
	PausedAt time.Time `json:"pa,omitzero"`
}

// New returns the clock of a game of players seats at pace p.
func New(p Pace, players int) *Clock {
	c := &Clock{Pace: p, Seat: -1, Banks: make([]time.Duration, players)}
	for i := range c.Banks {
		c.Banks[i] = p.Bank
	}
	return c
}

// Start starts the decision of seat at now (stopping any other first,
// without its increment: use Stop for a decision made). A paused clock
// records the seat and starts counting at Resume.
func (c *Clock) Start(seat int, now time.Time) {
	if c.Seat >= 0 && c.Seat != seat {
		c.charge(now)
	}
	if c.Seat == seat && !c.Since.IsZero() {
		return // already running
	}
	c.Seat, c.Reminded = seat, 0
	c.Had = c.Banks[seat]
	if c.Paused() {
		c.Since = time.Time{}
		return
	}
	c.Since = now
}

// Stop ends the running decision at now, made: its time is taken from the
// bank and the increment added (Pace.Spend).
func (c *Clock) Stop(now time.Time) {
	if c.Seat < 0 {
		return
	}
	c.charge(now)
	c.Banks[c.Seat] = c.Pace.Spend(c.Banks[c.Seat], 0, true)
	c.Seat, c.Since, c.Had, c.Reminded = -1, time.Time{}, 0, 0
}

// Halt ends the running decision at now without its increment (nobody's
// decision runs on the clock now: the seat was handed to the computer,
// the game is over): its time so far is taken from the bank.
func (c *Clock) Halt(now time.Time) {
	if c.Seat < 0 {
		return
	}
	c.charge(now)
	c.Seat, c.Since, c.Had, c.Reminded = -1, time.Time{}, 0, 0
}

// charge takes the running decision's time so far from its bank.
func (c *Clock) charge(now time.Time) {
	if c.Seat < 0 || c.Since.IsZero() {
		return
	}
	c.Banks[c.Seat] = c.Pace.Spend(c.Banks[c.Seat], now.Sub(c.Since), false)
	c.Since = now
}

// Remaining is how much time seat has left at now.
func (c *Clock) Remaining(seat int, now time.Time) time.Duration {
	left := c.Banks[seat]
	if seat == c.Seat && !c.Since.IsZero() {
		left -= max(now.Sub(c.Since), 0)
	}
	return max(left, 0)
}

// Deadline is when the running decision runs out of time (zero when no
// decision runs, or while paused).
func (c *Clock) Deadline() time.Time {
	if c == nil {
		return time.Time{}
	}
	if c.Seat < 0 || c.Since.IsZero() {
		return time.Time{}
	}
	return c.Since.Add(c.Banks[c.Seat])
}

// Expired reports whether the running decision is out of time at now.
func (c *Clock) Expired(now time.Time) bool {
	d := c.Deadline()
	return !d.IsZero() && !now.Before(d)
}

// NextReminder is when the next reminder of the running decision is due
// (zero when none is left, or no decision runs).
func (c *Clock) NextReminder() time.Time {
	if c.Seat < 0 || c.Since.IsZero() || c.Reminded >= MaxReminders {
		return time.Time{}
	}
	// The reminder moments are shares of what the decision had at its
	// start, counted from the start of the decision.
	start := c.Deadline().Add(-c.Had)
	return start.Add(time.Duration(reminderAt[c.Reminded] * float64(c.Had)))
}

// Remind reports whether a reminder is due at now and, if so, counts it
// as sent: a decision gets at most MaxReminders, never two at once (a
// reminder overdue by more than one moment sends only the last).
func (c *Clock) Remind(now time.Time) bool {
	r := c.NextReminder()
	if r.IsZero() || now.Before(r) {
		return false
	}
	for c.Reminded < MaxReminders-1 && !now.Before(c.nextAfter()) {
		c.Reminded++ // skip a moment already past
	}
	c.Reminded++
	return true
}

// nextAfter is the reminder moment after the next one.
func (c *Clock) nextAfter() time.Time {
	start := c.Deadline().Add(-c.Had)
	return start.Add(time.Duration(reminderAt[c.Reminded+1] * float64(c.Had)))
}

// Wake is the next moment the clock needs its owner: the next reminder or
// the deadline, whichever comes first (zero: none).
func (c *Clock) Wake() time.Time {
	if c == nil {
		return time.Time{}
	}
	r, d := c.NextReminder(), c.Deadline()
	if !r.IsZero() && r.Before(d) {
		return r
	}
	return d
}

// Paused reports whether the clock is paused.
func (c *Clock) Paused() bool { return !c.PausedAt.IsZero() }

// Pause stops the clock at now: no time runs until Resume.
func (c *Clock) Pause(now time.Time) {
	if c.Paused() {
		return
	}
	c.charge(now)
	c.PausedAt = now
	if c.Seat >= 0 {
		// What the decision had is what is left: reminders count anew.
		c.Had, c.Reminded, c.Since = c.Banks[c.Seat], 0, time.Time{}
	}
}

// Resume restarts a paused clock at now.
func (c *Clock) Resume(now time.Time) {
	if !c.Paused() {
		return
	}
	c.PausedAt = time.Time{}
	if c.Seat >= 0 {
		c.Since = now
	}
}
