package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/locales"
)

// A board Discord refuses for good.
//
// The board of a game is one message, edited in
// place as the game goes (effEdit), and the final scoreboard is that same
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
//   - the bot token tries again at missingRetry intervals (the record's
//     Due is the next try, setTableDue);
//   - every click or command in the game tries again through its own
//     interaction (tellMissing) and tells its user privately, in their
//     language, what is missing, why (the permissions the bot lacks, read
//     from the interaction's app_permissions), what to do about it, and
//     that the game waits for it or can be abandoned (missingNotice); the
//     click itself works as usual where it can.
//
// Once an edit goes through, the mark goes and nobody is told anything
// more. A channel that no longer exists (10003 Unknown Channel) is not
// tried again by the bot token: nobody can click there any more, so the
// game stays in the store untouched until it expires, and the log says
// so. An answer Discord refuses for what it carries is replaced by a
// private text (answerRefused, notice.go): a board missing, it says so.

// Missing is why the board (or the final scoreboard) a game owes is not
// in its channel: Discord refused its edit for good.
type Missing struct {
	Kind   string    `json:"k"`           // missingBoard or missingScores
	Status int       `json:"s,omitempty"` // HTTP status of the last refusal
	Code   int       `json:"c,omitempty"` // Discord's JSON error code of the last refusal (0: none)
	Since  time.Time `json:"t"`           // the first refusal
	Tries  int       `json:"n"`           // refusals so far
	// Next is when the bot token tries again by itself (zero: only a
	// click or a command in the game does).
	Next time.Time `json:"nx,omitzero"`
}

// MarshalJSON writes the mark through encoding/json, which leaves a zero
// Next out (omitzero): the table data's encoder knows no omitzero.
func (m Missing) MarshalJSON() ([]byte, error) {
	type plain Missing
	return json.Marshal(plain(m))
}

// What is missing (Missing.Kind).
const (
	missingBoard  = "board"  // the board
	missingScores = "scores" // the final scoreboard
)

// Tries of a refused board with the bot token: after the n-th refusal the
// next try comes missingFirst·2ⁿ⁻¹ later, at most missingMax, and there
// are fewer than missingTries of them in all (about two and a half hours).
// A try is one or two requests (two with a picture): a game whose channel
// stays closed to the bot costs Discord a few dozen requests, not a loop.
const (
	missingFirst = 15 * time.Second
	missingMax   = 30 * time.Minute
	missingTries = 12
)

// missingRetry is how long after the tries-th refusal the bot token tries
// again (zero: it does not).
func missingRetry(tries int) time.Duration {
	if tries < 1 || tries >= missingTries {
		return 0
	}
	d := missingFirst
	for i := 1; i < tries && d < missingMax; i++ {
		d *= 2
	}
	return min(d, missingMax)
}

// near reports whether two stored times are the same moment, to the
// precision of any store.
func near(a, b time.Time) bool {
	d := a.Sub(b)
	return d > -time.Second && d < time.Second
}

// missingKey is how the mark starts in the table data (tableData.Missing).
var missingKey = []byte(`"bm":{`)

// boardNotice is what a call knows about its game's board being missing.
type boardNotice struct {
	seen  *dixbot.Record // the game as the call last read or wrote it
	ran   bool           // the call did its game's outbox (settle)
	after *Missing       // the mark as that run left it
	told  string         // what the answer itself told the user ("": nothing)
}

// What an answer refused by Discord told its user instead
// (boardNotice.told).
const (
	toldAnswer = "answer" // why the answer could not be shown
	toldBoard  = "board"  // that the board is missing, and why
)

// refusedText is the private text that replaces an answer Discord refused
// for what it carries (files: it carried files), and what it tells: that
// the board is missing when it is, else why the answer could not be
// shown.
func (c *Call) refusedText(files bool) (string, string) {
	if mk := c.seenMissing(); mk != nil {
		return c.missingNotice(c.Lang, mk), toldBoard
	}
	reason, fix := refusalText(c.Lang, discordgo.ErrCodeMissingPermissions, 0, c.I.AppPermissions, files)
	return locales.T(c.Lang, "answer_refused", map[string]any{"Reason": reason, "Fix": fix}), toldAnswer
}

// tellMissing queues what a call in a game whose board is missing owes
// after its answer: a try at once through its interaction (unless the
// call did the outbox already) and, if the board is still missing, a
// private notice to its user.
func (c *Call) tellMissing() {
	c.Then(func(ctx context.Context) {
		v := c.Via()
		if v == nil {
			return // not answered: no follow-up possible
		}
		mk := c.notice.after
		if !c.notice.ran {
			if c.seenMissing() == nil {
				return
			}
			var err error
			mk, err = c.B.retryMissing(ctx, c.B.apiFor(ctx), c.I.ChannelID, v)
			if err != nil {
				c.B.log.Warn("the missing board was not tried again", "channel", c.I.ChannelID, "err", err)
			}
		}
		if mk == nil || c.notice.told == toldBoard {
			return
		}
		text := c.missingNotice(c.Lang, mk)
		if c.notice.told == toldAnswer {
			// The answer said why it could not be shown: it says that
			// the board is missing too, in one message rather than two.
			ectx, cancel := context.WithTimeout(ctx, respondTimeout)
			defer cancel()
			err := c.D.FollowupEdit(ectx, c.I, "@original", &discordgo.WebhookEdit{Content: &text, AllowedMentions: noMentions()})
			if err == nil {
				return
			}
			c.B.log.Warn("could not edit the answer into the missing board's notice", "interaction", c.I.ID, "err", err)
		}
		c.Ephemeral(text, nil)
	})
}

// heldKind reports whether an effect of a game stays owed
// when Discord refuses it for good: the board's edit, which is the final
// scoreboard's too.
func heldKind(kind string) bool { return kind == effEdit }

// owesEdit reports whether effs owe the board's edit, which may change
// its pictures. An edit shows the game as it stands: one owed after
// another makes that one needless, so a board missing for several changes
// comes back as one edit.
func owesEdit(effs []effect) bool {
	return slices.ContainsFunc(effs, func(e effect) bool { return e.Kind == effEdit })
}

// refused records that Discord refused for good, at now, the board's edit
// with err: the first refusal holds the clocks; every refusal schedules
// the bot token's next try, if any. over: the game is over (the board is
// the final scoreboard).
func (td *tableData) refused(over bool, err error, now time.Time) {
	if td.Missing == nil {
		td.Missing = &Missing{Since: now}
	}
	mk := td.Missing
	mk.Kind = missingBoard
	if over {
		mk.Kind = missingScores
	}
	mk.Status, mk.Code = Refusal(err)
	mk.Tries++
	mk.Next = time.Time{}
	if d := missingRetry(mk.Tries); d > 0 && mk.Code != discordgo.ErrCodeUnknownChannel {
		mk.Next = now.Add(d)
	}
}

// found clears the mark once the board is shown: the time the clocks
// stood still, from the first refusal to at, is given back (only up to
// the pause, in a game paused meanwhile: its resume gives back the rest).
func (td *tableData) found(at time.Time) {
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
func (td *tableData) giveBack(from, to time.Time) {
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
func (td *tableData) clockNow(now time.Time) time.Time {
	if mk := td.Missing; mk != nil && mk.Since.Before(now) {
		return mk.Since
	}
	return now
}

// boardMissingSeen is the mark of the game r holds (nil:
// none).
func boardMissingSeen(r *dixbot.Record) *Missing {
	if r == nil || r.Finished || !bytes.Contains(r.Meta, missingKey) {
		return nil // the common case, without decoding the table data
	}
	td, err := decodeTableData(r.Meta)
	if err != nil {
		return nil
	}
	return td.Missing
}

// seenMissing is the mark of the game the call saw (nil: none).
func (c *Call) seenMissing() *Missing {
	r := c.notice.seen
	if r == nil {
		return nil
	}
	if _, ok := c.B.games[r.Game]; !ok {
		return nil
	}
	return boardMissingSeen(r)
}

// missingNotice is what the user of a call in a game whose board is
// missing is told, in lang: what is missing, why, what to do, that the
// game waits, and how to end it (the game's own abandon command).
func (c *Call) missingNotice(lang string, mk *Missing) string {
	reason, fix := refusalText(lang, mk.Code, mk.Status, c.I.AppPermissions, false)
	if mk.Kind == missingScores {
		return locales.T(lang, "table_scores_missing", map[string]any{"Reason": reason, "Fix": fix})
	}
	game := c.Game
	if r := c.notice.seen; r != nil {
		game = r.Game
	}
	return locales.T(lang, "table_board_missing", map[string]any{"Reason": reason, "Fix": fix,
		"Command": "/" + En(game+"_cmd_name") + " " + locales.T(lang, "cmd_abandon_name", nil)})
}

// retryMissing tries the board owed in channel again at once
// through ix, the interaction of a click or command in the game, unless
// another call is at it (a lease, or the grace of a change: it then
// leaves it alone). It claims the game for the grace a change gives its
// own process, so that no other process edits the board at the same time.
// It returns the mark as it is after the try (nil: the board is there).
func (b *Bot) retryMissing(ctx context.Context, d DiscordAPI, channel string, ix *Via) (*Missing, error) {
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	var mark *Missing
	claimed := time.Now()
	rec, err := b.update(sctx, channel, "", func(r *dixbot.Record) error {
		if _, ok := b.games[r.Game]; !ok {
			return ErrNothingToDo
		}
		td, err := decodeTableData(r.Meta)
		if err != nil {
			return err
		}
		mark = td.Missing
		if td.Missing == nil || !owesEdit(td.Outbox) {
			return ErrNothingToDo
		}
		now := b.now()
		if r.Due.After(now) && !near(r.Due, td.Missing.Next) {
			return ErrNothingToDo
		}
		r.Due = now.Add(outboxGrace)
		return nil
	})
	cancel()
	switch {
	case errors.Is(err, ErrNothingToDo):
		return mark, nil
	case errors.Is(err, dixbot.ErrNotFound):
		return nil, nil
	case err != nil:
		b.storeFailed("update", err)
		return mark, err
	}
	b.wakeAt(rec.Due)
	return b.runEffectsMark(ctx, d, rec, nil, heldBy(ix, claimed), "", 0, nil)
}

// logMissing logs what a run of the outbox left of the board's mark:
// refused again (err), or shown after being missing since.
func (b *Bot) logMissing(channel string, mark *Missing, err error, shownSince time.Time) {
	if err != nil && mark != nil {
		args := []any{"channel", channel, "effect", mark.Kind, "status", mark.Status, "code", mark.Code, "tries", mark.Tries, "err", err}
		switch {
		case mark.Code == discordgo.ErrCodeUnknownChannel:
			b.log.Warn("the game's channel is gone: the game stays stored, untouched, until it expires", args...)
		case mark.Next.IsZero():
			b.log.Warn("board refused by Discord again; no more tries without a click", args...)
		default:
			b.log.Warn("board refused by Discord; the game waits for it", append(args, "next", mark.Next)...)
		}
		return
	}
	if !shownSince.IsZero() {
		b.log.Info("the missing board is shown", "channel", channel, "missing_since", shownSince)
	}
}

// boardHold is what a run of a game's outbox knows of the
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
func (h *boardHold) skip(td *tableData, e effect, after []effect) bool {
	if h.missing == nil || !heldKind(e.Kind) {
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
func (h *boardHold) refuse(e effect, err error) bool {
	if !heldKind(e.Kind) {
		return false
	}
	h.refused = err
	return true
}

// record writes the board's mark on cur, the table data as it stands
// (the effects done removed), at now: refused (over: the final
// scoreboard), or found again once no edit of the board is owed any more
// (one owed by a later change keeps the mark until it goes through).
func (h *boardHold) record(cur *tableData, over bool, now time.Time) {
	switch {
	case h.refused != nil && owesEdit(cur.Outbox):
		cur.refused(over, h.refused, now)
	case cur.Missing != nil && !owesEdit(cur.Outbox):
		cur.found(h.at)
	}
}
