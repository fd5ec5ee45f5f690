package bot

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// Pause, resume and the log of games. While a game is paused no
// clock runs (every deadline moves on by the pause's length when it
// resumes), nobody decides and the computer waits. The log keeps the
// game's event lines in the channel's log record (log.go), written after
// each update's answer.

// addLog adds event lines to the board's latest lines and to the lines
// this update owes the game's log.
func (td *tableData) addLog(lines []string) {
	td.Log = appendLog(td.Log, lines)
	td.toLog(lines)
}

// The log is written once every logEvery lines of the table (a change
// whose lines cross a multiple of it), when the game ends (gameEnded) and
// when the table is archived, not after every change: each write reads and
// writes the whole log record. Until written, a line is in the table data
// (tableData.Unlogged), where the log's readers find it too. The table
// keeps maxUnlogged lines of earlier changes there, beside all of the
// update's own: the lines since the last write, and those of two writes
// lost at a kill.
const (
	logEvery    = 6
	maxUnlogged = 3 * logEvery
)

// logDue reports whether the update's lines are to be written to the log
// now: they cross a multiple of logEvery, or the game or the table ends
// with them (finished: the record is archived).
func (td *tableData) logDue(finished bool) bool {
	if len(td.fresh) == 0 {
		return false
	}
	ends := slices.ContainsFunc(td.Outbox, func(e effect) bool { return e.Kind == effEnd })
	return finished || ends || (td.Lines-len(td.fresh))/logEvery != td.Lines/logEvery
}

// withUnlogged is the log's lines, numbered n in all among the table's,
// with the table's lines not in it yet.
func (td *tableData) withUnlogged(lines []string, n int) []string {
	first, unlogged := td.unlogged()
	if skip := max(0, n-first); skip < len(unlogged) {
		return append(slices.Clip(lines), unlogged[skip:]...)
	}
	return lines
}

// toLog owes lines to the game's log: this update's (fresh), and the
// table's not known to be logged.
func (td *tableData) toLog(lines []string) {
	td.fresh = append(td.fresh, lines...)
	td.Lines += len(lines)
	td.Unlogged = append(td.Unlogged, lines...)
	if cut := len(td.Unlogged) - maxUnlogged - len(td.fresh); cut > 0 {
		td.Unlogged = append([]string(nil), td.Unlogged[cut:]...)
	}
}

// unlogged are the lines of the table not known to be in its log, and
// the number of the first of them among the table's lines.
func (td *tableData) unlogged() (first int, lines []string) {
	return td.Lines - len(td.Unlogged), td.Unlogged
}

// tell adds the lines of events evs as addLog does. For a game whose
// board tells one round at a time (present.Rounder), a round that starts
// among evs starts the board's lines afresh: this update's lines up to it
// (how the round before ended, as far as this update saw it) become
// Ended, and only the new round's stay in Log.
func (td *tableData) tell(g *present.Game, evs []engine.Event) {
	t := td.table(false)
	if rd, ok := g.Presenter.(present.Rounder); ok {
		for i := len(evs) - 1; i >= 0; i-- {
			if !rd.RoundStarts(evs[i]) {
				continue
			}
			td.toLog(g.Presenter.Events(t, evs[:i]))
			td.Ended = appendLog(nil, td.fresh[min(td.round, len(td.fresh)):])
			td.Log, td.round = nil, len(td.fresh)
			evs = evs[i:]
			break
		}
	}
	td.addLog(g.Presenter.Events(t, evs))
}

// logOrigin names the table in the channel's log record: the interaction
// that opened a rematch, else the board message the game started on.
func (td *tableData) logOrigin() string {
	if td.Origin != "" {
		return "t" + td.Origin
	}
	return "t" + td.began()
}

// opening names the interaction that opened the table ("": a table
// written before tables were named so).
func (td *tableData) opening() string {
	if td.Origin != "" {
		return td.Origin
	}
	return td.Opened
}

// began is the board message the game started on ("": not known yet).
func (td *tableData) began() string {
	if td.Began != "" {
		return td.Began
	}
	return td.Board
}

// keepLog writes the table's lines not known to be logged to the game's
// log after the answer, when the update owes it (logDue): r is the record
// it wrote.
func (c *Call) keepLog(r *dixbot.Record, td *tableData) {
	if td == nil || !td.logDue(r.Finished) {
		return
	}
	channel, origin := c.I.ChannelID, td.logOrigin()
	first, lines := td.unlogged()
	c.Then(func(ctx context.Context) {
		if err := c.B.appendLog(ctx, channel, origin, first, lines, true); err != nil {
			c.B.log.Warn("could not keep the game's log", "channel", channel, "err", err)
		}
	})
}

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
		td.oweChange(r, g, st, pings, now)
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

// showLog answers /<game> log privately with page page of the game's
// log (0: the latest lines), the channel's game running or over.
func (c *Call) showLog(g *present.Game, page uint64) error {
	var r *dixbot.Record
	err := c.Retry("get", func(ctx context.Context) (err error) {
		r, err = c.B.get(ctx, c.I.ChannelID)
		return err
	})
	if errors.Is(err, dixbot.ErrNotFound) || err == nil && r.Game != g.Rules.Name() && r.Finished {
		return Refuse(dixbot.ErrNotFound, "table_err_no_game", map[string]any{"Command": "/" + En(g.Rules.Name()+"_cmd_name")})
	}
	if err != nil {
		return err
	}
	if r.Game != g.Rules.Name() {
		return otherGame(r.Game)
	}
	c.notice.seen = r
	td, err := decodeTableData(r.Meta)
	if err != nil {
		return err
	}
	var l gameLogRecord
	if r.Data != nil {
		ctx, cancel := c.storeCtx()
		lr, lerr := c.B.get(ctx, logChannel(c.I.ChannelID))
		cancel()
		switch {
		case lerr == nil:
			if json.Unmarshal(lr.Meta, &l) != nil || !sameLog(l.Origin, td.logOrigin()) {
				l = gameLogRecord{}
			}
		case !errors.Is(lerr, dixbot.ErrNotFound):
			return c.storeErr("get", lerr)
		}
	}
	if r.Data != nil {
		l.Lines = td.withUnlogged(l.Lines, l.N)
	}
	pages := uint64(max(1, (len(l.Lines)+logPageLines-1)/logPageLines))
	page = min(page, pages-1)
	// The log speaks the game's language, as its lines do.
	lang := td.Lang
	text := logText(lang, l.Lines, l.Cut, int(page))
	// The page buttons are the game's own.
	var row []discordgo.MessageComponent
	if page+1 < pages {
		row = append(row, Button(lang, "btn_log_older", nil, discordgo.SecondaryButton, buttonID(g.Rules.Name(), verbLog, page+1, "")))
	}
	if page > 0 {
		row = append(row, Button(lang, "btn_log_newer", nil, discordgo.SecondaryButton, buttonID(g.Rules.Name(), verbLog, page-1, "")))
	}
	var comps []discordgo.MessageComponent
	if len(row) > 0 {
		comps = []discordgo.MessageComponent{discordgo.ActionsRow{Components: row}}
	}
	if c.I.Type == discordgo.InteractionMessageComponent {
		c.Update(text, nil, comps)
		return nil
	}
	c.Ephemeral(text, comps)
	return nil
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
