package bot

import (
	"fmt"
	"time"

	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/locales"
)

// Pace, clocks and absent players (DISCORD-UX "Pace, clocks and absent
// players"): every game has a clock (package clock) chosen by its pace. The
// decision running is the one of the player to act; when their time runs
// out the computer decides for them (autoMove), twice in a row and they are
// marked absent, and the others may vote to hand their seat to the
// computer for good. Deadlines and reminders are kept as the record's Due
// time, so any process finds them (Store.Due) and acts on them through the
// same exactly-once update as a click (RunDue).

// Why a seat is played by the computer for the rest of the game.
const (
	goneLeft   = "left"   // /dix leave
	goneKicked = "kicked" // the others' vote, or the creator
)

// maxKickButtons bounds the vote buttons on the board (a row holds five,
// one is the hand's).
const maxKickButtons = 4

// DeadlineObserver is implemented by an Observer that also wants how late
// each deadline was acted on (after the moment it fell due).
type DeadlineObserver interface {
	Deadline(late time.Duration)
}

// paceText describes pace p in lang: its name and its durations.
func paceText(lang string, p clock.Pace) string {
	return locales.T(lang, "pace_"+p.Name, nil) + " " + locales.T(lang, "pace_times", map[string]any{
		"Bank": durationText(lang, p.Bank), "Increment": durationText(lang, p.Increment)})
}

// durationText is a duration in lang, as set for a pace: "3 d 4 h",
// "2 h 05", "45 min", "1 min 40 s", "10 s" (never "115 s"; hours drop the
// seconds).
func durationText(lang string, d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		days := d / (24 * time.Hour)
		h := (d - days*24*time.Hour) / time.Hour
		if h == 0 {
			return locales.T(lang, "dur_d", map[string]any{"D": int(days)})
		}
		return locales.T(lang, "dur_d_h", map[string]any{"D": int(days), "H": int(h)})
	case d >= time.Hour:
		h := d / time.Hour
		mins := (d - h*time.Hour) / time.Minute
		if mins == 0 {
			return locales.T(lang, "dur_h", map[string]any{"H": int(h)})
		}
		return locales.T(lang, "dur_h_m", map[string]any{"H": int(h), "M": fmt.Sprintf("%02d", int(mins))})
	case d >= time.Minute:
		mins := d / time.Minute
		if secs := (d - mins*time.Minute) / time.Second; secs > 0 {
			return locales.T(lang, "dur_m_s", map[string]any{"M": int(mins), "S": int(secs)})
		}
		return locales.T(lang, "dur_m", map[string]any{"M": int(mins)})
	}
	return locales.T(lang, "dur_s", map[string]any{"S": int(d / time.Second)})
}

// timeLeftText is a time left in lang, compact and never more than there
// is: to the minute below ("2 h 40", "4 min"), "< 1 min" under a minute.
func timeLeftText(lang string, d time.Duration) string {
	if d < time.Minute {
		return locales.T(lang, "dur_under_m", nil)
	}
	return durationText(lang, d.Truncate(time.Minute))
}

// maxLabel is the longest button label Discord accepts
// (https://discord.com/developers/docs/components/reference#button).
const maxLabel = 80

// parseSeatArg reads a seat number carried by a custom id, of a table of
// at most seats seats.
func parseSeatArg(s string, seats int) (int, error) {
	n, err := parseNumber(s, false, seats-1)
	if err != nil {
		return 0, fmt.Errorf("%w: seat %q", ErrBadCustomID, s)
	}
	return n, nil
}

func removeString(s []string, v string) []string {
	out := s[:0]
	for _, x := range s {
		if x != v {
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
