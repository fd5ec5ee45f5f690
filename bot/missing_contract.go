package bot

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/locales"
)

// A board Discord refuses for good, on the shared table (the design is in
// notice.go). The board of a contract game is one message, edited in
// place as the game goes (ceffEdit), and the final scoreboard is that same
// message: an edit needs no Send Messages, but its embeds need Embed Links
// and its files Attach Files, the bot token needs View Channel, and no
// edit goes into an archived thread
// (https://discord.com/developers/docs/resources/message#edit-message,
// https://discord.com/developers/docs/interactions/receiving-and-responding#edit-original-interaction-response).
// When Discord refuses the board's edit for good, the edit stays first in
// the outbox and TableData.Missing records why; while it is there:
//   - no clock runs: no deadline, no reminder, and no computer seat's
//     reaction time ends (the decisions in progress keep their time, given
//     back once the board is there: giveBack);
//   - the bot token tries again at MissingRetry intervals (the record's
//     Due is the next try, setContractDue);
//   - every click or command in the game tries again through its own
//     interaction (tellMissing) and tells its user privately what is
//     missing and what to do (missingNotice).

// contractHeld reports whether an effect of a contract game stays owed
// when Discord refuses it for good: the board's edit, which is the final
// scoreboard's too.
func contractHeld(kind string) bool { return kind == ceffEdit }

// owesEdit reports whether effs owe the board's edit. An edit shows the
// game as it stands: one owed after another makes that one needless, so a
// board missing for several changes comes back as one edit.
func owesEdit(effs []Effect) bool {
	for _, e := range effs {
		if contractHeld(e.Kind) {
			return true
		}
	}
	return false
}

// refused records that Discord refused for good, at now, the board's edit
// with err: the first refusal holds the clocks; every refusal schedules
// the bot token's next try, if any. over: the game is over (the board is
// the final scoreboard).
func (td *TableData) refused(over bool, err error, now time.Time) {
	if td.Missing == nil {
		td.Missing = &Missing{Since: now}
	}
	mk := td.Missing
	mk.Kind = EffBoard
	if over {
		mk.Kind = EffScores
	}
	mk.Status, mk.Code = Refusal(err)
	mk.Tries++
	mk.Next = time.Time{}
	if d := MissingRetry(mk.Tries); d > 0 && mk.Code != discordgo.ErrCodeUnknownChannel {
		mk.Next = now.Add(d)
	}
}

// found clears the mark once the board is shown: the time the clocks
// stood still, from the first refusal to at, is given back (only up to
// the pause, in a game paused meanwhile: its resume gives back the rest).
func (td *TableData) found(at time.Time) {
	mk := td.Missing
	if mk == nil {
		return
	}
	td.Missing = nil
	to := at
	if td.Paused != "" && td.PausedAt < at.UnixMilli() {
		to = time.UnixMilli(td.PausedAt)
	}
	td.giveBack(mk.Since, to)
}

// giveBack gives the decisions in progress the time from from to to,
// when the clocks stood still: a decision opened before from starts that
// much later, one opened in between starts at to; a computer seat's
// reaction ends as much later as its decision starts.
func (td *TableData) giveBack(from, to time.Time) {
	f, t := from.UnixMilli(), to.UnixMilli()
	if t <= f {
		return
	}
	for s, at := range td.OpenAt {
		shift := int64(0)
		switch {
		case at == 0:
			continue
		case at < f:
			shift = t - f
		case at < t:
			shift = t - at
		}
		td.OpenAt[s] = at + shift
		if s < len(td.Wake) && td.Wake[s] != 0 {
			td.Wake[s] += shift
		}
	}
	for s, at := range td.Wake {
		if at != 0 && (s >= len(td.OpenAt) || td.OpenAt[s] == 0) && at > f {
			td.Wake[s] = at + t - f
		}
	}
}

// clockNow is the moment the clocks of td show at now: the first refusal
// while the board is missing, when they stand still.
func (td *TableData) clockNow(now time.Time) time.Time {
	if mk := td.Missing; mk != nil && mk.Since.Before(now) {
		return mk.Since
	}
	return now
}

// seenContractMissing is the mark of the contract game r holds (nil:
// none).
func seenContractMissing(r *dixbot.Record) *Missing {
	if r == nil || r.Finished || !bytes.Contains(r.Meta, MissingKey) {
		return nil // the common case, without decoding the table data
	}
	td, err := DecodeTableData(r.Meta)
	if err != nil {
		return nil
	}
	return td.Missing
}

// contractGame reports whether the call's game is played on the shared
// table.
func (c *Call) contractGame() bool {
	if r := c.Notice.Seen; r != nil {
		_, ok := c.B.Games[r.Game]
		return ok
	}
	_, ok := c.B.Games[c.Game]
	return ok
}

// seenMissing is the mark of the game the call saw (nil: none).
func (c *Call) seenMissing() *Missing {
	if c.contractGame() {
		return seenContractMissing(c.Notice.Seen)
	}
	return own.SeenMissing(c)
}

// retryMissing tries the board the call's game owes again, through the
// call's interaction v; it returns the mark as the try left it.
func (c *Call) retryMissing(ctx context.Context, v *Via) (*Missing, error) {
	if c.contractGame() {
		return c.B.retryContractMissing(ctx, c.B.ApiFor(ctx), c.I.ChannelID, v)
	}
	return own.RetryMissing(c.B, ctx, c.B.ApiFor(ctx), c.I.ChannelID, v)
}

// missingNotice is what the user of a call in a game whose board is
// missing is told, in lang: for a contract game, the way to end it is the
// game's own abandon command.
func (c *Call) missingNotice(lang string, mk *Missing) string {
	if !c.contractGame() || mk.Kind == EffScores {
		return MissingText(lang, mk, c.I.AppPermissions)
	}
	game := c.Game
	if r := c.Notice.Seen; r != nil {
		game = r.Game
	}
	reason, fix := RefusalText(lang, mk.Code, mk.Status, c.I.AppPermissions, false)
	return locales.T(lang, "table_board_missing", map[string]any{"Reason": reason, "Fix": fix,
		"Command": "/" + En(game+"_cmd_name") + " " + locales.T(lang, "cmd_abandon_name", nil)})
}

// retryContractMissing tries the board owed in channel again at once
// through ix, the interaction of a click or command in the game, unless
// another call is at it (a lease, or the grace of a change: it then
// leaves it alone). It claims the game for the grace a change gives its
// own process, so that no other process edits the board at the same time.
// It returns the mark as it is after the try (nil: the board is there).
func (b *Bot) retryContractMissing(ctx context.Context, d DiscordAPI, channel string, ix *Via) (*Missing, error) {
	sctx, cancel := context.WithTimeout(ctx, b.Timeout)
	var mark *Missing
	claimed := time.Now()
	rec, err := b.update(sctx, channel, "", func(r *dixbot.Record) error {
		if _, ok := b.Games[r.Game]; !ok {
			return ErrNothingToDo
		}
		td, err := DecodeTableData(r.Meta)
		if err != nil {
			return err
		}
		mark = td.Missing
		if td.Missing == nil || !owesEdit(td.Outbox) {
			return ErrNothingToDo
		}
		now := b.Now()
		if r.Due.After(now) && !Near(r.Due, td.Missing.Next) {
			return ErrNothingToDo
		}
		r.Due = now.Add(OutboxGrace)
		return nil
	})
	cancel()
	switch {
	case errors.Is(err, ErrNothingToDo):
		return mark, nil
	case errors.Is(err, dixbot.ErrNotFound):
		return nil, nil
	case err != nil:
		if IsStoreFailure(err) && b.Obs != nil {
			b.Obs.StoreError("update")
		}
		return mark, err
	}
	b.WakeAt(rec.Due)
	return b.contractOutboxMark(ctx, d, rec, HeldBy(ix, claimed), 0)
}

// logMissing logs what a run of the outbox left of the board's mark:
// refused again (err), or shown after being missing since.
func (b *Bot) logMissing(channel string, mark *Missing, err error, shownSince time.Time) {
	if err != nil && mark != nil {
		args := []any{"channel", channel, "effect", mark.Kind, "status", mark.Status, "code", mark.Code, "tries", mark.Tries, "err", err}
		switch {
		case mark.Code == discordgo.ErrCodeUnknownChannel:
			b.Log.Warn("the game's channel is gone: the game stays stored, untouched, until it expires", args...)
		case mark.Next.IsZero():
			b.Log.Warn("board refused by Discord again; no more tries without a click", args...)
		default:
			b.Log.Warn("board refused by Discord; the game waits for it", append(args, "next", mark.Next)...)
		}
		return
	}
	if !shownSince.IsZero() {
		b.Log.Info("the missing board is shown", "channel", channel, "missing_since", shownSince)
	}
}

// boardHold is what a run of a contract game's outbox knows of the
// board's edit Discord refuses for good.
type boardHold struct {
	missing *Missing  // the mark as the run read it (nil: the board is there)
	at      time.Time // when the run began: the clocks held run again from then
	refused error     // the board's edit, refused for good by this run
}

// skip reports whether the run leaves out e, an effect of td's outbox
// followed by after: a board's edit another one after it makes needless
// while the board is missing. The edit the run does make shows the clocks
// as they run again once it goes through.
func (h *boardHold) skip(td *TableData, e Effect, after []Effect) bool {
	if h.missing == nil || !contractHeld(e.Kind) {
		return false
	}
	if owesEdit(after) {
		return true
	}
	td.found(h.at)
	return false
}

// refuse reports whether e, refused by Discord for good with err, is the
// board's edit, which stops the run and stays owed.
func (h *boardHold) refuse(e Effect, err error) bool {
	if !contractHeld(e.Kind) {
		return false
	}
	h.refused = err
	return true
}

// record writes the board's mark on cur, the table data as it stands
// (the effects done removed), at now: refused (over: the final
// scoreboard), or found again once no edit of the board is owed any more
// (one owed by a later change keeps the mark until it goes through).
func (h *boardHold) record(cur *TableData, over bool, now time.Time) {
	switch {
	case h.refused != nil && owesEdit(cur.Outbox):
		cur.refused(over, h.refused, now)
	case cur.Missing != nil && !owesEdit(cur.Outbox):
		cur.found(h.at)
	}
}
