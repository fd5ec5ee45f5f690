package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// Records kept by a table that hosted a game before the shared table did
// (DIX's own table) are converted when the table reads them: every read of
// a channel's record goes through get or update (or Latest, Peek), which
// hand the table its own shape, so that the first write stores it. A
// record is converted by its game's present.Game.Upgrade; one that names
// no game (written before records named their game) is offered to each
// game that upgrades.

// get is the table's read of a channel's record, converted (upgrade).
func (b *Bot) get(ctx context.Context, channel string) (*dixbot.Record, error) {
	r, err := b.store.Get(ctx, channel)
	if r != nil {
		if uerr := b.upgrade(r); uerr != nil {
			return nil, uerr
		}
	}
	return r, err
}

// update is the table's Store.Update: fn runs on the record converted
// (upgrade), so that the write stores the table's own shape.
func (b *Bot) update(ctx context.Context, channel, interactionID string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	return b.store.Update(ctx, channel, interactionID, func(r *dixbot.Record) error {
		if err := b.upgrade(r); err != nil {
			return err
		}
		return fn(r)
	})
}

// ownTableSeats is how the seats of a table kept before the shared table
// begin in its JSON; the shared table's never begin so (TableSeat's first
// key is "u" or "n"), and no text in the JSON holds it unescaped.
var ownTableSeats = []byte(`"s":[{"i":`)

// upgrade converts r in place when a game's table kept it in an older
// shape (present.Game.Upgrade): its game named, its state in Data, the
// table's data in Meta. A game's log and a record of the shared table are
// left as they are.
func (b *Bot) upgrade(r *dixbot.Record) error {
	if strings.Contains(r.Channel, "/") || !bytes.Contains(r.Meta, ownTableSeats) {
		return nil // a log (LogChannel), or the shared table's own
	}
	names := []string{r.Game}
	data := r.Data
	if r.Game == "" {
		names = b.gameNames()
	}
	for _, name := range names {
		g := b.games[name]
		if g == nil || g.Upgrade == nil {
			continue
		}
		u, ok, err := g.Upgrade(r.Meta, data)
		if !ok {
			continue
		}
		if err != nil {
			return upgradeErr(r.Channel, err)
		}
		var st engine.State
		if data != nil {
			if st, err = g.Rules.Decode(data); err != nil {
				return upgradeErr(r.Channel, err)
			}
		}
		td := upgradedTable(g, u, st)
		// The old table's due work is its own (its outbox): what is due
		// is the deadline of the person deciding, and the board shown as
		// it stands, in the shared table's buttons, at once.
		r.Due = time.Time{}
		if st != nil && !r.Finished {
			setTableDue(r, td, g, st)
			if !st.Over() {
				now := b.now()
				td.owe(r, now, effect{Kind: effEdit})
				r.Due = now
			}
		}
		r.Game, r.Data, r.Meta = name, data, td.Encode()
		return nil
	}
	return nil
}

// upgradeErr is the store's error for a record that does not convert.
func upgradeErr(channel string, err error) error {
	if errors.Is(err, engine.ErrSchemaTooNew) {
		return fmt.Errorf("%w: channel %s: %v", dixbot.ErrSchemaTooNew, channel, err)
	}
	return fmt.Errorf("%w: channel %s: %v", dixbot.ErrCorrupt, channel, err)
}

// upgradedTable is the table data of u, a table of g kept before the
// shared table, its game at st (nil: a lobby). The decisions open in st
// open at its version; the one that ran on the old table's clock keeps
// its opening and its seat's bank, so its deadline stays; a decision
// without a clock there gets one at the next decision.
func upgradedTable(g *present.Game, u present.Upgraded, st engine.State) *tableData {
	td := &tableData{V: tableDataVersion, Creator: u.Creator, Lang: u.Lang, Lobby: u.Lobby, Board: u.Board,
		Opened: u.Opened, Origin: u.Opened, Seed: u.Seed, First: u.First, Starts: u.Starts, NoPics: u.NoPictures,
		Paused: u.PausedBy, Rematch: u.Rematch, Opts: g.OptionValues(u.Options)}
	if !locales.Supported(td.Lang) {
		td.Lang = "en"
	}
	if td.Paused != "" {
		td.PausedAt = u.PausedAt
	}
	if p := g.PaceOf(u.Pace); p.Name == u.Pace {
		td.Pace = u.Pace
	}
	td.Log = u.Log[max(0, len(u.Log)-maxTableLog):]
	if v := u.Via; v != nil {
		td.BoardVia = &Via{App: v.App, Token: v.Token, At: v.At, Orig: v.Orig}
	}
	for i, s := range u.Seats {
		seat := tableSeat{User: s.User, Name: s.Name, Level: s.Level, Late: s.Late, Away: s.Away, Votes: s.Votes}
		if s.Gone && seat.Level == "" {
			seat.Level = g.Default
		}
		if seat.Name == "" && seat.Level != "" {
			seat.Name = locales.T(td.Lang, "table_cpu_name", map[string]any{
				"N": i + 1, "Level": locales.T(td.Lang, "table_level_"+seat.Level, nil)})
		}
		td.Seats = append(td.Seats, seat)
	}
	if st == nil {
		return td
	}
	n := len(td.Seats)
	td.Open = make([]uint64, n)
	if g.PaceOf(td.Pace).Banked() && len(u.Banks) == n {
		td.Banks = u.Banks
	}
	for _, s := range st.ToDecide() {
		if s < 0 || s >= n {
			continue
		}
		td.Open[s] = st.Seq()
		if s == u.Deciding && u.DecidingAt != 0 {
			noteOpened(td, s, time.UnixMilli(u.DecidingAt))
			if u.Reminded {
				td.Reminded = make([]uint64, n)
				td.Reminded[s] = td.Open[s] + 1
			}
		}
	}
	return td
}

// oldClick answers a click on a component posted by the table
// that hosted g before the shared table (present.Game.OldClick), whose id
// the shared table's do not read (perr): the click of the same meaning
// when it has one, checked as any (it applies while the state it was shown
// at stands), else "outdated" with the board (or lobby) as it stands. An
// id that does not read as one of that table's either is refused as perr.
func (c *Call) oldClick(g *present.Game, id string, perr error) error {
	parts := strings.SplitN(id, ":", 4)
	if len(parts) < 3 || len(id) > present.MaxCustomID {
		return perr
	}
	n, err := strconv.ParseUint(parts[2], 10, 64)
	if err != nil {
		return perr
	}
	p := parsedID{Verb: parts[1], n: n}
	if len(parts) == 4 {
		p.Arg = parts[3]
	}
	old, ok := g.OldClick(p.Verb, p.Arg, c.Values())
	switch {
	case !ok:
		r, _, err := c.readTable(g)
		if err != nil {
			return err
		}
		return c.answerStale(g, r.Data == nil)
	case old.Move != "":
		return c.applyMove(g, parsedID{Verb: verbMove, n: n, Arg: string(old.Move)})
	case old.Prompt:
		return c.showPrompt(g, parsedID{Verb: verbPrompt, n: n}, "")
	case old.Next != "":
		return c.showPrompt(g, parsedID{Verb: verbStep, n: n, Arg: old.Next}, old.Next)
	case old.Level != "":
		return c.lobbyButton(g, parsedID{Verb: verbCPU, n: n, Arg: old.Level})
	}
	return perr
}
