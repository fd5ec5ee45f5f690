package bot

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// Clocks of contract games: every seat deciding has its own deadline,
// present.Game.Decision after its decision opened (tableData.OpenAt). The
// record's Due is the earliest deadline of a person deciding, so the due
// poller (RunDue) finds the game then; a decision out of time is the
// computer's Timeout for that seat (in Qwixx: a white sum passed, a colour
// sum the strong player's choice).

// noteOpened records when seat's decision opened.
func noteOpened(td *TableData, seat int, now time.Time) {
	if seat < 0 || seat >= len(td.Seats) {
		return
	}
	if len(td.OpenAt) < len(td.Seats) {
		td.OpenAt = append(td.OpenAt, make([]int64, len(td.Seats)-len(td.OpenAt))...)
	}
	td.OpenAt[seat] = now.UnixMilli()
}

// deadline is when seat's decision in st runs out of time under the
// table's pace (zero: never).
func (td *TableData) deadline(g *present.Game, st engine.State, seat int) time.Time {
	if seat < 0 || seat >= len(td.OpenAt) || td.OpenAt[seat] == 0 || td.Seats[seat].Level != "" || td.Seats[seat].Away {
		return time.Time{}
	}
	d := g.PaceOf(td.Pace).Clock(st, seat)
	if d <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(td.OpenAt[seat]).Add(d)
}

// setDue sets the record's Due to the earliest deadline of a person
// deciding in st, or time a computer seat deciding takes its decision
// (zero: none, or the game is over).
func setContractDue(r *dixbot.Record, td *TableData, g *present.Game, st engine.State) {
	r.Due = time.Time{}
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

// ErrContractDue tells runDue that the record due is a contract game's.
var ErrContractDue = errors.New("bot: a contract game is due")

// RunContractDue takes the decisions out of time of the channel's contract
// game, then the forced and computer decisions that follow, in one update
// that owes the board's edit and the pings; the same update claims the
// effects owed (moving Due on by a lease, so other processes leave them),
// which are then done.
func (b *Bot) RunContractDue(ctx context.Context, d DiscordAPI, channel string, asOf time.Time) error {
	var tried uint32 // the effects owed before this claim: another process may have done some
	var fresh []string
	var origin string
	sctx, cancel := context.WithTimeout(ctx, b.Timeout)
	rec, err := b.Store.Update(sctx, channel, "", func(r *dixbot.Record) error {
		if r.Due.IsZero() || r.Due.After(asOf) {
			return ErrNothingToDo
		}
		g, ok := b.Games[r.Game]
		if !ok {
			r.Due = time.Time{} // not a game this process plays: nothing it can do
			return nil
		}
		td, err := DecodeTableData(r.Meta)
		if err != nil {
			return err
		}
		tried = td.NextEffect
		now := b.Now()
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
			moved := st.Seq() >= since
			for range maxAdvance {
				late := -1
				for _, s := range st.ToDecide() {
					if dl := td.deadline(g, st, s); !dl.IsZero() && !dl.After(now) {
						late = s
						break
					}
				}
				if late < 0 {
					break
				}
				moved = true
				rng := rand.New(rand.NewPCG(uint64(td.Seed), st.Seq()*8+uint64(late)))
				m, err := g.Player(g.Default).Timeout(st, late, rng)
				if err != nil {
					return err
				}
				e, err := applyOpen(st, td, late, m, now)
				if err != nil {
					return err
				}
				evs = append(evs, e...)
				td.addLog([]string{locales.T(td.Lang, "table_timed_out", map[string]any{"Name": td.Seats[late].Name})})
				td.addLog(td.markLate(late))
				more, err := b.advance(g, st, td, now)
				if err != nil {
					return err
				}
				evs = append(evs, more...)
			}
			td.tell(g, evs)
			reminders := td.reminders(r, g, st, now)
			setContractDue(r, td, g, st)
			if moved {
				td.oweChange(r, g, st, planPings(st, td, since, -1, now), now)
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
			if at := now.Add(OutboxLease); r.Due.IsZero() || r.Due.After(at) {
				r.Due = at
			}
		}
		r.Meta = td.Encode()
		fresh, origin = td.fresh, td.logOrigin()
		return nil
	})
	cancel()
	switch {
	case errors.Is(err, ErrNothingToDo), errors.Is(err, dixbot.ErrNotFound):
		return nil
	case err != nil:
		return err
	}
	b.WakeAt(rec.Due)
	if len(fresh) > 0 {
		if err := b.AppendLog(ctx, channel, origin, fresh); err != nil {
			b.Log.Warn("could not keep the game's log", "channel", channel, "err", err)
		}
	}
	return b.contractOutbox(ctx, d, rec, nil, tried)
}
