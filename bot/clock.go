package bot

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// Pace, clocks and absent players (DISCORD-UX "Pace, clocks and absent
// players"): every game has a clock (package clock) chosen by its pace. The
// decision running is the one of the player to act; when their time runs
// out the computer decides for them (decideOutOfTime), twice in a row and
// they are marked absent, and the others may vote to hand their seat to
// the computer for good. Deadlines and reminders are kept as the record's Due
// time, so any process finds them (Store.Due) and acts on them through the
// same exactly-once update as a click (RunDue).

// Clocks of games: every seat deciding has its own deadline,
// the time the table's pace gives its decision after it opened
// (tableData.OpenAt): a time per decision (present.Pace.Clock), or what is
// left of the seat's time bank (present.Pace.Bank, tableData.Banks). The
// record's Due is the earliest deadline of a person deciding, so the due
// poller (RunDue) finds the game then; a decision out of time is the
// computer's Timeout for that seat (in Qwixx: a white sum passed, a colour
// sum the strong player's choice).

// noteOpened records when seat's decision opened.
func noteOpened(td *tableData, seat int, now time.Time) {
	if seat < 0 || seat >= len(td.Seats) {
		return
	}
	if len(td.OpenAt) < len(td.Seats) {
		td.OpenAt = append(td.OpenAt, make([]int64, len(td.Seats)-len(td.OpenAt))...)
	}
	td.OpenAt[seat] = now.UnixMilli()
}

// clocked reports whether seat's decision runs on the clock: a person
// playing their seat, whose decision opened.
func (td *tableData) clocked(seat int) bool {
	return seat >= 0 && seat < len(td.OpenAt) && seat < len(td.Seats) && td.OpenAt[seat] != 0 &&
		td.Seats[seat].Level == "" && !td.Seats[seat].Away
}

// deadline is when seat's decision in st runs out of time under the
// table's pace (zero: never, or not while the board is missing).
func (td *tableData) deadline(g *present.Game, st engine.State, seat int) time.Time {
	if !td.clocked(seat) || td.Missing != nil {
		return time.Time{}
	}
	d, ok := td.decisionTime(g, st, seat)
	if !ok {
		return time.Time{}
	}
	return time.UnixMilli(td.OpenAt[seat]).Add(d)
}

// decisionTime is the time seat's current decision in st has under the
// table's pace, from its opening: the pace's time per decision, or what
// is left of the seat's bank (which may be none); ok is false when the
// decision has no clock.
func (td *tableData) decisionTime(g *present.Game, st engine.State, seat int) (d time.Duration, ok bool) {
	p := g.PaceOf(td.Pace)
	switch {
	case p.Banked():
		return td.bank(p, seat), true
	case p.Clock == nil:
		return 0, false
	}
	d = p.Clock(st, seat)
	return d, d > 0
}

// bank is what is left of seat's time bank at pace p, the decision
// running aside (all of it before the seat's first decision).
func (td *tableData) bank(p present.Pace, seat int) time.Duration {
	if seat < 0 || seat >= len(td.Banks) {
		return p.Bank.Bank
	}
	return time.Duration(td.Banks[seat]) * time.Millisecond
}

// spend closes seat's decision at now on the table's pace of time banks:
// the time it ran is taken from the seat's bank, and the increment added
// when the seat made it (made: a click, or its time ran out) rather than
// losing it to another's move. Nothing changes for a seat off the clock
// or a pace of a time per decision.
func (td *tableData) spend(g *present.Game, seat int, now time.Time, made bool) {
	p := g.PaceOf(td.Pace)
	if !p.Banked() || !td.clocked(seat) {
		return
	}
	for len(td.Banks) < len(td.Seats) {
		td.Banks = append(td.Banks, p.Bank.Bank.Milliseconds())
	}
	used := time.Duration(max(0, td.clockNow(now).UnixMilli()-td.OpenAt[seat])) * time.Millisecond
	td.Banks[seat] = p.Bank.Spend(td.bank(p, seat), used, made).Milliseconds()
}

// setBanks gives the games' paces of time banks the bank and increment
// of the pace of the same name among paces (the operator's setting,
// clock.ParsePaces).
func (r registry) setBanks(paces []clock.Pace) {
	for _, g := range r {
		g.Paces = slices.Clone(g.Paces)
		for i, p := range g.Paces {
			if op, ok := clock.Find(paces, p.Name); ok && p.Banked() {
				g.Paces[i].Bank = op
			}
		}
	}
}

// timeLeft are, by seat, the time left in the bank of a person not
// deciding in st, for a pace of time banks, in the table's language
// (present.Table.TimeLeft); nil for another pace.
func (td *tableData) timeLeft(g *present.Game, st engine.State) []string {
	p := g.PaceOf(td.Pace)
	if !p.Banked() || st.Over() {
		return nil
	}
	out := make([]string, len(td.Seats))
	deciding := st.ToDecide()
	for s, seat := range td.Seats {
		if seat.Level == "" && !seat.Away && !slices.Contains(deciding, s) {
			out[s] = present.TimeLeftText(td.Lang, td.bank(p, s))
		}
	}
	return out
}

// boardTable is td's table for the board of st: with the banks' time
// left and the name of the pace chosen in the lobby.
func (td *tableData) boardTable(g *present.Game, st engine.State, pictures bool) present.Table {
	t := td.table(pictures)
	t.TimeLeft = td.timeLeft(g, st)
	if len(g.Paces) > 1 {
		t.Pace = paceLabel(td.Lang, g.Rules.Name(), g.PaceOf(td.Pace))
	}
	return t
}

// setTableDue sets the record's Due to the earliest deadline of a person
// deciding in st, or time a computer seat deciding takes its decision
// (zero: none, or the game is over).
func setTableDue(r *dixbot.Record, td *tableData, g *present.Game, st engine.State) {
	r.Due = time.Time{}
	if td.Missing != nil {
		r.Due = td.Missing.Next // no clock runs; the bot token's next try (missing.go)
		return
	}
	if st.Over() || td.Paused != "" {
		return
	}
	for _, s := range st.ToDecide() {
		if d := td.deadline(g, st, s); !d.IsZero() && (r.Due.IsZero() || d.Before(r.Due)) {
			r.Due = d
		}
		if d := td.remindAt(g, st, s); !d.IsZero() && (r.Due.IsZero() || d.Before(r.Due)) {
			r.Due = d
		}
	}
	if d := td.nextWake(st); !d.IsZero() && (r.Due.IsZero() || d.Before(r.Due)) {
		r.Due = d // a computer seat taking its time decides then
	}
}

// decideOutOfTime has the computer decide, for each seat whose deadline
// is past at now, what the game's default level would (Timeout), and the
// computer seats whose turn comes next decide after it; it returns how
// late each decision was and the events.
func (b *Bot) decideOutOfTime(g *present.Game, st engine.State, td *tableData, now time.Time) ([]time.Duration, []engine.Event, error) {
	var lates []time.Duration
	var evs []engine.Event
	for range maxAdvance {
		late := -1
		for _, s := range st.ToDecide() {
			if dl := td.deadline(g, st, s); !dl.IsZero() && !dl.After(now) {
				late = s
				lates = append(lates, now.Sub(dl))
				break
			}
		}
		if late < 0 {
			break
		}
		m, err := g.Player(g.Default, td.Lang).Timeout(st, late, td.rng(st, late))
		if err != nil {
			return nil, nil, err
		}
		e, err := applyOpen(g, st, td, late, m, now, true)
		if err != nil {
			return nil, nil, err
		}
		evs = append(evs, e...)
		td.addLog([]string{locales.T(td.Lang, "table_timed_out", map[string]any{"Name": td.Seats[late].text()})})
		td.addLog(td.markLate(late))
		more, err := b.advance(g, st, td, now)
		if err != nil {
			return nil, nil, err
		}
		evs = append(evs, more...)
	}
	return lates, evs, nil
}

// runTableDue takes the decisions out of time of the channel's game,
// then the forced and computer decisions that follow, in one update
// that owes the board's edit and the pings; the same update claims the
// effects owed (moving Due on by a lease, so other processes leave them),
// which are then done.
func (b *Bot) runTableDue(ctx context.Context, d DiscordAPI, channel string, asOf time.Time) error {
	var tried uint32      // the effects owed before this claim: another process may have done some
	var logNow bool       // whether the update owes the log a write (logDue)
	var unlogged []string // the table's lines not known logged
	var origin string
	var logFirst int
	var lates []time.Duration // how late each decision out of time was taken
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	rec, err := b.update(sctx, channel, "", func(r *dixbot.Record) error {
		lates = lates[:0]
		if r.Due.IsZero() || r.Due.After(asOf) {
			return ErrNothingToDo
		}
		g, ok := b.games[r.Game]
		if !ok {
			r.Due = time.Time{} // not a game this process plays: nothing it can do
			return nil
		}
		td, err := b.decodeTable(r)
		if err != nil {
			return err
		}
		tried = td.NextEffect
		now := b.now()
		var st engine.State
		if r.Data != nil {
			if st, err = g.Rules.Decode(r.Data); err != nil {
				return err
			}
			since := st.Seq() + 1
			// The computer seats whose reaction time is over decide.
			evs, err := b.advance(g, st, td, now)
			if err != nil {
				return err
			}
			late, more, err := b.decideOutOfTime(g, st, td, now)
			if err != nil {
				return err
			}
			lates, evs = append(lates, late...), append(evs, more...)
			moved := st.Seq() >= since
			td.tell(g, evs)
			reminders := td.reminders(r, g, st, now)
			setTableDue(r, td, g, st)
			if moved {
				td.oweChange(r, g, st, planPings(st, td, since, -1, now), now, b.self)
				r.Data = st.Encode()
			}
			if len(reminders) > 0 {
				td.owe(r, now, reminders...)
			}
		} else {
			r.Due = time.Time{}
		}
		if len(td.Outbox) > 0 {
			// Claimed: the effects are this process's for a lease.
			if at := now.Add(outboxLease); r.Due.IsZero() || r.Due.After(at) {
				r.Due = at
			}
		}
		b.encodeTable(r, td)
		logNow, origin = td.logDue(r.Finished), td.logOrigin()
		logFirst, unlogged = td.unlogged()
		return nil
	})
	cancel()
	switch {
	case errors.Is(err, ErrNothingToDo), errors.Is(err, dixbot.ErrNotFound):
		return nil
	case err != nil:
		return err
	}
	for _, l := range lates {
		b.log.Info("decision out of time taken", "channel", channel, "late_ms", l.Milliseconds())
	}
	b.wakeAt(rec.Due)
	if logNow {
		if err := b.appendLog(ctx, channel, origin, logFirst, unlogged, true); err != nil {
			b.log.Warn("could not keep the game's log", "channel", channel, "err", err)
		}
	}
	return b.runEffects(ctx, d, rec, nil, tried)
}
