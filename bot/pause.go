package bot

import (
	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// Pause and resume. While a game is paused no clock runs (every deadline
// moves on by the pause's length when it resumes), nobody decides and the
// computer waits.

// pauseCommand pauses (on) or resumes the game: /<game> pause and
// /<game> resume.
func (c *Call) pauseCommand(g *present.Game, on bool) error {
	cmd := "/" + En(g.Rules.Name()+"_cmd_name")
	r, _, err := c.changeTable(g, func(r *dixbot.Record, td *tableData) error {
		if !c.manages(td.Creator) {
			return Refuse(ErrNoPermission, "err_no_permission_pause", nil)
		}
		st, err := runningState(g, r)
		if err != nil {
			return err
		}
		now := c.B.now()
		name := present.Escape(c.Name)
		var pings pingPlan
		switch {
		case on && td.Paused != "":
			return Refuse(ErrPaused, "err_already_paused", map[string]any{"Name": td.Paused})
		case !on && td.Paused == "":
			return ErrNotPaused
		case on:
			td.Paused, td.PausedAt = name, now.UnixMilli()
			td.addLog([]string{locales.T(td.Lang, "log_paused", map[string]any{"Name": name})})
		default:
			// Every clock running stands still for the pause's length.
			// While the board is missing the clocks stand still anyway:
			// its return gives back that time (missing.go).
			if held := td.clockNow(now).UnixMilli() - td.PausedAt; held > 0 {
				for s, at := range td.OpenAt {
					if at != 0 {
						td.OpenAt[s] = at + held
					}
				}
				for s, at := range td.Wake {
					if at != 0 {
						td.Wake[s] = at + held
					}
				}
			}
			td.Paused, td.PausedAt = "", 0
			td.addLog([]string{locales.T(td.Lang, "log_resumed", map[string]any{"Name": name})})
			// The game goes on from where the pause held it: the
			// computer plays the seats handed over meanwhile.
			since := st.Seq() + 1
			evs, err := c.B.advance(g, st, td, now)
			if err != nil {
				return err
			}
			td.tell(g, evs)
			pings = planPings(st, td, since, -1, now)
		}
		setTableDue(r, td, g, st)
		td.oweChange(r, g, st, pings, now, c.B.self)
		r.Data = st.Encode()
		return nil
	})
	if err != nil {
		return err
	}
	key := "table_pause_done"
	if !on {
		key = "resume_done"
	}
	c.Ephemeral(locales.T(c.Lang, key, map[string]any{"Command": cmd}), nil)
	c.settleAnswer(r)
	return nil
}

// pausedLine is the board's line of a paused game.
func pausedLine(g *present.Game, td *tableData) string {
	return locales.T(td.Lang, "table_paused", map[string]any{"Name": td.Paused, "Command": "/" + En(g.Rules.Name()+"_cmd_name")})
}

// runningState is the state of the game r holds while it runs; a lobby or
// a game over is refused, in words.
func runningState(g *present.Game, r *dixbot.Record) (engine.State, error) {
	if r.Data == nil {
		return nil, Refuse(ErrNotStarted, "table_err_not_started", nil)
	}
	st, err := g.Rules.Decode(r.Data)
	if err != nil {
		return nil, err
	}
	if st.Over() {
		return nil, Refuse(ErrNotStarted, "table_err_over", nil)
	}
	return st, nil
}
