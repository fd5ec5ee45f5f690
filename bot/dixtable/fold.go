package dixtable

import (
	"slices"
	"time"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
)

// tableOf names a DIX table: the interaction that opened it ("": not
// known, no fold).
func tableOf(m *dixTable) string { return m.Origin }

// apply records fd on the table m of r: the effects it did leave the
// outbox, and the record is due only for what is left. It reports
// whether fd is of this table (the same table, effects still there).
func apply(fd *bot.Fold, r *dixbot.Record, m *dixTable, now time.Time) bool {
	if !fd.Of(r, tableOf(m), m.Outbox) {
		return false
	}
	m.Outbox = slices.DeleteFunc(m.Outbox, func(e bot.Effect) bool { return e.ID <= fd.Done })
	if fd.Via != nil && m.Board == fd.Board {
		m.BoardVia = bot.NewestVia(m.BoardVia, fd.Via, m.Board, now)
	}
	if len(m.Outbox) == 0 && m.Missing == nil {
		r.Due = time.Time{} // the clock's next moment, if any
	}
	m.setDue(r, now)
	return true
}

// applyDix applies fd to the DIX record r, its table data decoded and
// written back: whether fd was of this table, or why the data could not
// be read.
func applyDix(fd *bot.Fold, r *dixbot.Record, now time.Time) (bool, error) {
	m, err := decodeDixTable(r.Meta)
	if err != nil {
		return false, err
	}
	if !apply(fd, r, m, now) {
		return false, nil
	}
	r.Meta = m.Encode()
	return true, nil
}
