package bot

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// logPageLines is how many lines one page of /<game> log shows.
const logPageLines = 20

// The game log lives in a record of its own (logChannel), written after
// each change's answer (keepLog) with the lines the table has not seen
// logged (tableData.Unlogged), so that the table data read and written by
// every click stays small. It keeps the last maxLogLines lines of the game.
const maxLogLines = 1000

// gameLogRecord is the log record's data.
type gameLogRecord struct {
	V      int      `json:"v"`
	Origin string   `json:"o"` // the table the lines belong to (dixTable.Origin)
	Lines  []string `json:"l"`
	Cut    int      `json:"c,omitempty"` // older lines no longer kept
	// N is the number of the table's lines (tableData.Lines) the log
	// has had: a line numbered below it is in already.
	N int `json:"n,omitempty"`
}

// logChannel is the store key of a channel's game log.
func logChannel(channel string) string { return channel + "/log" }

// sameLog reports whether a log record naming the table kept is the log
// of the table origin (TableData.logOrigin): the same name, or the bare
// interaction id that the table of a record kept before the shared table
// (present.Game.Upgrade) named its log with.
func sameLog(kept, origin string) bool {
	return kept == origin || "t"+kept == origin
}

// errLogged ends a log write that has nothing new to add.
var errLogged = errors.New("bot: the lines are logged already")

// appendLog adds lines, numbered from first among the lines of the table
// origin, to the game log of channel; the lines the log has had already
// are left out, so writing them again is harmless. A log of another table
// is started anew for this one when restart is set, else left alone.
func (b *Bot) appendLog(ctx context.Context, channel, origin string, first int, lines []string, restart bool) error {
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	key := logChannel(channel)
	add := func(r *dixbot.Record) error {
		var l gameLogRecord
		if len(r.Meta) > 0 {
			if err := json.Unmarshal(r.Meta, &l); err != nil {
				l = gameLogRecord{}
			}
		}
		if !sameLog(l.Origin, origin) {
			if !restart && len(r.Meta) > 0 {
				return errLogged
			}
			l = gameLogRecord{V: 1, Origin: origin}
		}
		l.Origin = origin
		skip := max(0, l.N-first) // a log behind (lines lost beyond Unlogged) takes what there is
		if skip >= len(lines) {
			return errLogged
		}
		l.Lines = append(l.Lines, lines[skip:]...)
		l.N = first + len(lines)
		if cut := len(l.Lines) - maxLogLines; cut > 0 {
			l.Lines = append([]string(nil), l.Lines[cut:]...)
			l.Cut += cut
		}
		meta, err := json.Marshal(l)
		if err != nil {
			return err
		}
		r.Meta = meta
		return nil
	}
	_, err := b.store.Update(sctx, key, "", add)
	if errors.Is(err, dixbot.ErrNotFound) {
		// No server index for it: the log is not a game of the server.
		r := &dixbot.Record{Channel: key}
		if err = add(r); err == nil {
			err = b.store.Create(sctx, r)
		}
		if errors.Is(err, dixbot.ErrExists) {
			_, err = b.store.Update(sctx, key, "", add)
		}
	}
	if errors.Is(err, errLogged) {
		return nil
	}
	return err
}

// logText is page page of a log in lang (lines already in the game's
// language, a heading in lang), counted from the most recent (0); cut
// lines are gone.
func logText(lang string, history []string, cut, page int) string {
	n := len(history)
	pages := max(1, (n+logPageLines-1)/logPageLines)
	page = min(page, pages-1)
	hi := n - page*logPageLines
	lo := max(0, hi-logPageLines)
	lines := []string{locales.T(lang, "log_title", map[string]any{"Page": pages - page, "Pages": pages})}
	if lo == 0 && cut > 0 {
		lines = append(lines, locales.N(lang, "log_gone", cut, nil))
	}
	if n == 0 {
		lines = append(lines, locales.T(lang, "none", nil))
	}
	lines = append(lines, history[lo:hi]...)
	return present.Truncate(strings.Join(lines, "\n"), present.MaxContent)
}

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

// appendLog is log with lines added, its latest maxTableLog lines.
func appendLog(log, lines []string) []string {
	log = append(log, lines...)
	if len(log) > maxTableLog {
		log = append([]string(nil), log[len(log)-maxTableLog:]...)
	}
	return log
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
	if clickedEphemeral(c.I) { // a page of the log, turned
		c.Update(text, nil, comps)
		return nil
	}
	c.Ephemeral(text, comps)
	return nil
}
