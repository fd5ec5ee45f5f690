package bot

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/locales"
)

// logPageLines is how many lines one page of /dix log shows.
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
