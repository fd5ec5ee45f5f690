package bot

import (
	"time"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// Reminders and absent players of games (DISCORD-UX "Pace,
// clocks and absent players"). A person deciding against a clock of at
// least minReminded is reminded once per decision, when half of its time
// is gone. A person whose time runs out absentAfter times in a row is
// absent: the computer decides for them at once, without waiting, until
// they click again: its timeout policy, or the game's own decision for an
// absent seat where its computer has one (engine.AbsentPlayer), for a
// game whose timeout would leave the game where it was.

// absentAfter is how many decisions in a row out of time make a person
// absent.
const absentAfter = 2

// minReminded is the shortest clock a reminder is sent for: a shorter
// decision is one the person was pinged for moments before.
const minReminded = 10 * time.Minute

// markLate counts a decision of seat out of time; the lines say when the
// person becomes absent.
func (td *tableData) markLate(seat int) []string {
	if seat < 0 || seat >= len(td.Seats) || td.Seats[seat].Level != "" {
		return nil
	}
	s := &td.Seats[seat]
	s.Late++
	if s.Late < absentAfter || s.Away {
		return nil
	}
	s.Away = true
	return []string{locales.T(td.Lang, "log_absent", map[string]any{"Name": s.text()})}
}

// returns reports whether a click of seat's person brings them back to
// the game st: they are absent, and the game goes on (a game over brings
// nobody back).
func (td *tableData) returns(seat int, st engine.State) bool {
	return td.Seats[seat].Away && !st.Over()
}

// comeBack gives an absent person their seat back at now: their clock
// starts again on the decision they have in st, if any.
func (td *tableData) comeBack(seat int, st engine.State, now time.Time) {
	s := &td.Seats[seat]
	s.Away, s.Late = false, 0
	td.addLog([]string{locales.T(td.Lang, "log_back", map[string]any{"Name": s.text()})})
	for _, d := range st.ToDecide() {
		if d == seat {
			noteOpened(td, seat, now)
		}
	}
}

// remindAt is when the person deciding in seat is reminded of their
// decision in st (zero: never, or already reminded).
func (td *tableData) remindAt(g *present.Game, st engine.State, seat int) time.Time {
	dl := td.deadline(g, st, seat)
	if dl.IsZero() || seat >= len(td.Open) {
		return time.Time{}
	}
	if seat < len(td.Reminded) && td.Reminded[seat] == td.Open[seat]+1 {
		return time.Time{}
	}
	opened := time.UnixMilli(td.OpenAt[seat])
	d := dl.Sub(opened)
	if d < minReminded {
		return time.Time{}
	}
	return opened.Add(d / 2)
}

// reminders are the reminders due at now in st, one message per person,
// each decision reminded once; they are recorded as sent.
func (td *tableData) reminders(r *dixbot.Record, g *present.Game, st engine.State, now time.Time) []effect {
	if st.Over() || td.Paused != "" {
		return nil
	}
	var out []effect
	for _, s := range st.ToDecide() {
		at := td.remindAt(g, st, s)
		if at.IsZero() || at.After(now) || td.Seats[s].User == "" {
			continue
		}
		if len(td.Reminded) < len(td.Seats) {
			td.Reminded = append(td.Reminded, make([]uint64, len(td.Seats)-len(td.Reminded))...)
		}
		td.Reminded[s] = td.Open[s] + 1
		user := td.Seats[s].User
		out = append(out, effect{Kind: effPing, Users: []string{user}, Text: locales.T(td.Lang, "table_remind", map[string]any{
			"Mentions": "<@" + user + ">", "Game": En(g.Rules.Name() + "_title"),
			"Unix": td.deadline(g, st, s).Unix(), "URL": messageURL(r.Guild, r.Channel, td.Board)})})
	}
	return out
}
