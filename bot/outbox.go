package bot

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/locales"
)

// The outbox: what a change of the game asks of Discord besides the answer
// to the click (a fresh board, a ping, retiring an old board, the final
// scoreboard) is written as effects into the table data by the same
// exactly-once store update as the change itself, with the record's Due
// time a few seconds ahead. The process that made the change then does the
// effects and removes them; if it dies first, any process finds the game
// through Store.Due once the grace is over (or at once at start-up),
// claims it by moving Due on, and does them. Effects are idempotent: a
// message is posted with a nonce Discord deduplicates, and edits set a
// message to what it must show, so doing one twice shows it once.

// Effect kinds.
const (
	effBoard    = "board"  // post a fresh board for the game as it stands, mentioning Users; the previous board is retired
	effEdit     = "edit"   // show the game as it stands on the current board
	effRetire   = "retire" // strip the buttons of Msg; with Title, replace it by the summary of Lines
	effAdopt    = "adopt"  // Msg (a board clicked on) is the current board: retire the one recorded
	effPing     = "ping"   // post Text mentioning Users (the previous ping is closed first)
	effPinged   = "pinged" // the decision of the current ping is made: the ping says so
	effPingEdit = "repin"  // the current ping, which notified Users already, now says Text (an edit notifies nobody)
	effScores   = "scores" // post the final scoreboard
	effEnded    = "ended"  // the game was abandoned by Text: the board says so for good
	effFinish   = "finish" // archive the game (frees the channel); last
	effRemind   = "remind" // post Text mentioning Users: a reminder of the decision running, never edited after
	effLog      = "log"    // add a finished turn (Title, Lines) to the game log record
)

// effect is one piece of Discord work owed by a change of the game.
type effect struct {
	ID    uint32   `json:"i"`
	Kind  string   `json:"k"`
	Msg   string   `json:"m,omitempty"`
	Users []string `json:"u,omitempty"` // users to mention
	Title string   `json:"t,omitempty"`
	Lines []string `json:"l,omitempty"`
	Text  string   `json:"x,omitempty"`
}

// outboxGrace is how long the process that made a change has to do its
// effects before any process may take them over; outboxLease how long a
// process that took them over has before another may.
const (
	outboxGrace = 3 * time.Second
	outboxLease = 30 * time.Second
)

// OutboxGrace is how long a live process has to do the Discord work of its
// own changes before another may take it over: a process starting up
// takes over what is due within it at once.
const OutboxGrace = outboxGrace

// owe appends effects to the table's outbox and makes the record due, so
// that they are done even if this process dies before doing them. It runs
// inside the store update of the change.
func (m *meta) owe(r *dixbot.Record, effs ...effect) {
	if len(effs) == 0 {
		return
	}
	for _, e := range effs {
		m.NextEffect++
		e.ID = m.NextEffect
		m.Outbox = append(m.Outbox, e)
	}
	if r.Due.IsZero() || r.Due.After(time.Now().Add(outboxGrace)) {
		r.Due = time.Now().Add(outboxGrace)
	}
}

// settle queues the outbox of rec to be done after the answer.
func (c *call) settle(rec *dixbot.Record) {
	if rec == nil {
		return
	}
	c.b.wakeAt(rec.Due)
	if m, err := decodeMeta(rec.Meta); err != nil || len(m.Outbox) == 0 {
		return
	}
	c.then(func(ctx context.Context) {
		if d := c.b.effectDelay; d > 0 {
			time.Sleep(d) // a test widens the window between the write and the effects
		}
		if err := c.b.runOutbox(ctx, c.b.apiFor(ctx), rec); err != nil {
			c.b.log.Warn("effects left for later", "channel", rec.Channel, "err", err)
		}
	})
}

// errNothingToDo ends an update that finds nothing to do (a claim on a game
// whose effects are not, or no longer, due).
var errNothingToDo = errors.New("bot: nothing due")

// RunDue does the pending work of a channel found by Store.Due as of asOf:
// it claims the game (moving its Due time on by a lease, so other processes
// leave it) and does its effects with the bot token of s. Use it as the
// handler of a schedule.Runner over the store. It returns nil when there
// was nothing to do (already done or taken by another process).
func (b *Bot) RunDue(ctx context.Context, s *discordgo.Session, channel string, asOf time.Time) error {
	return b.runDue(ctx, sessionAPI{s}, channel, asOf)
}

func (b *Bot) runDue(ctx context.Context, d discordAPI, channel string, asOf time.Time) error {
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	late := time.Duration(-1)
	rec, err := b.store.Update(sctx, channel, "", func(r *dixbot.Record) error {
		late = -1
		if r.Due.IsZero() || r.Due.After(asOf) {
			return errNothingToDo
		}
		m, err := decodeMeta(r.Meta)
		if err != nil {
			return err
		}
		// The clock is read at the real time: a start-up poll looks ahead
		// for the outbox, never for deadlines.
		now := b.now()
		if late, err = b.onClock(r, m, now); err != nil {
			return err
		}
		if len(m.Outbox) == 0 {
			m.setDue(r, now) // nothing to do now: the clock's next moment
			r.Meta = m.encode()
			return nil
		}
		r.Due = now.Add(outboxLease)
		if w := m.Clock.Wake(); m.PausedBy == "" && !w.IsZero() && w.Before(r.Due) {
			r.Due = w
		}
		r.Meta = m.encode()
		return nil
	})
	cancel()
	switch {
	case errors.Is(err, errNothingToDo), errors.Is(err, dixbot.ErrNotFound):
		return nil
	case err != nil:
		return err
	}
	b.wakeAt(rec.Due)
	if late >= 0 {
		b.log.Info("decision out of time taken by the computer", "channel", channel, "late_ms", late.Milliseconds())
		if o, ok := b.obs.(DeadlineObserver); ok {
			o.Deadline(late)
		}
	}
	return b.runOutbox(ctx, d, rec)
}

// runOutbox does the effects of rec in order, then removes the ones done
// from the stored outbox (with the messages they posted). It stops at the
// first effect Discord could not do for now (unreachable, rate limited,
// 5xx), leaving it and the rest due; an effect Discord refuses for good
// (a message deleted, a permission missing) is logged and counted done.
func (b *Bot) runOutbox(ctx context.Context, d discordAPI, rec *dixbot.Record) error {
	// One channel's effects are done one batch at a time in a process,
	// each from the game as it stands then: a slower batch of an earlier
	// click can never show an older board after a newer one.
	mu := &b.channelLocks[fnv32(rec.Channel)%uint32(len(b.channelLocks))]
	mu.Lock()
	defer mu.Unlock()
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	fresh, err := b.store.Get(sctx, rec.Channel)
	cancel()
	if err == nil && !fresh.Finished && fresh.Version >= rec.Version {
		rec = fresh
	}
	m, err := decodeMeta(rec.Meta)
	if err != nil || len(m.Outbox) == 0 {
		return err
	}
	channel := rec.Channel
	x := &executor{b: b, d: d, rec: rec, m: m, board: m.Board, ping: m.Ping, users: m.PingUsers}
	var done uint32
	var failed error
	for _, e := range m.Outbox {
		if err := x.do(ctx, e); err != nil {
			if !permanent(err) {
				failed = fmt.Errorf("effect %s: %w", e.Kind, err)
				break
			}
			b.log.Warn("effect refused by Discord; skipped", "channel", channel, "effect", e.Kind, "err", err)
		}
		done = e.ID
		if e.Kind == effFinish {
			return nil // archived: the outbox went with it
		}
	}
	if done == 0 {
		return failed
	}
	sctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), b.timeout)
	defer cancel()
	after, err := b.store.Update(sctx, channel, "", func(r *dixbot.Record) error {
		cur, err := decodeMeta(r.Meta)
		if err != nil {
			return err
		}
		keep := cur.Outbox[:0]
		for _, e := range cur.Outbox {
			if e.ID > done {
				keep = append(keep, e)
			}
		}
		cur.Outbox = keep
		cur.Board, cur.Ping, cur.PingUsers = x.board, x.ping, x.users
		if len(keep) == 0 {
			r.Due = time.Time{} // the clock's next moment, if any
		}
		cur.setDue(r, b.now())
		r.Meta = cur.encode()
		return nil
	})
	if err != nil && !errors.Is(err, dixbot.ErrNotFound) {
		if isStoreFailure(err) && b.obs != nil {
			b.obs.StoreError("update")
		}
		return errors.Join(failed, fmt.Errorf("recording the effects done: %w", err))
	}
	if after != nil {
		b.wakeAt(after.Due)
	}
	return failed
}

// executor does effects, keeping the board and ping messages they change.
type executor struct {
	b     *Bot
	d     discordAPI
	rec   *dixbot.Record
	m     *meta
	board string   // the current board message
	ping  string   // the current ping message
	users []string // who the current ping notified
}

func (x *executor) do(ctx context.Context, e effect) error {
	channel, g, m := x.rec.Channel, x.rec.State, x.m
	switch e.Kind {
	case effBoard:
		emb, files := x.b.boardMessage(m.Lang, m, g, true)
		ms := &discordgo.MessageSend{
			Embeds:          []*discordgo.MessageEmbed{emb},
			Components:      boardButtons(m.Lang, m, g),
			AllowedMentions: noMentions(),
			Files:           files,
		}
		if len(e.Users) > 0 {
			ms.Content = mentions(e.Users)
			ms.AllowedMentions = mentionUsers(e.Users)
		}
		msg, err := x.d.Send(ctx, channel, ms, x.nonce(e))
		if refusedFiles(err, files) { // no ATTACH_FILES here: text only
			ms.Embeds, ms.Files = []*discordgo.MessageEmbed{boardEmbed(m.Lang, m, g)}, nil
			msg, err = x.d.Send(ctx, channel, ms, x.nonce(e))
		}
		if err != nil {
			return err
		}
		if x.board != "" && x.board != msg.ID {
			if err := x.retire(ctx, x.board, nil); err != nil && !permanent(err) {
				return err
			}
		}
		x.board = msg.ID
		// A new turn's board closes the last turn's ping.
		return x.pinged(ctx)
	case effEdit:
		if x.board == "" {
			return nil
		}
		ed := discordgo.NewMessageEdit(channel, x.board)
		comps := boardButtons(m.Lang, m, g)
		ed.Components = &comps
		emb, files := x.b.boardMessage(m.Lang, m, g, true)
		ed.Embeds = &[]*discordgo.MessageEmbed{emb}
		ed.Files, ed.Attachments = files, attachmentsFor(files) // the new picture replaces the old one
		ed.AllowedMentions = noMentions()
		err := x.d.Edit(ctx, ed)
		if refusedFiles(err, files) { // no ATTACH_FILES here: text only
			ed.Embeds, ed.Files, ed.Attachments = &[]*discordgo.MessageEmbed{boardEmbed(m.Lang, m, g)}, nil, attachmentsFor(nil)
			err = x.d.Edit(ctx, ed)
		}
		return err
	case effRetire:
		var summary *discordgo.MessageEmbed
		if e.Title != "" {
			summary = summaryEmbed(m.Lang, m, e.Title, e.Lines)
		}
		if e.Msg == x.board {
			x.board = ""
		}
		return x.retire(ctx, e.Msg, summary)
	case effAdopt:
		old := x.board
		x.board = e.Msg
		if old != "" && old != e.Msg {
			return x.retire(ctx, old, nil)
		}
		return nil
	case effPing:
		if err := x.pinged(ctx); err != nil && !permanent(err) {
			return err
		}
		msg, err := x.d.Send(ctx, channel, &discordgo.MessageSend{
			Content: e.Text, AllowedMentions: mentionUsers(e.Users),
		}, x.nonce(e))
		if err != nil {
			return err
		}
		x.ping, x.users = msg.ID, e.Users
		return nil
	case effPingEdit:
		if x.ping == "" {
			// Not recorded (a lost ping): a new one, as effPing would.
			return x.do(ctx, effect{ID: e.ID, Kind: effPing, Users: e.Users, Text: e.Text})
		}
		ed := discordgo.NewMessageEdit(channel, x.ping)
		ed.Content = &e.Text
		ed.AllowedMentions = noMentions()
		if err := x.d.Edit(ctx, ed); err != nil && !permanent(err) {
			return err
		}
		return nil
	case effPinged:
		return x.pinged(ctx)
	case effRemind:
		_, err := x.d.Send(ctx, channel, &discordgo.MessageSend{
			Content: e.Text, AllowedMentions: mentionUsers(e.Users),
		}, x.nonce(e))
		return err
	case effLog:
		return x.b.appendLog(ctx, channel, x.m.Origin, append([]string{"**" + e.Title + "**"}, e.Lines...))
	case effEnded:
		if err := x.pinged(ctx); err != nil && !permanent(err) {
			return err
		}
		if x.board == "" {
			return nil
		}
		ed := discordgo.NewMessageEdit(channel, x.board)
		ed.Components = &[]discordgo.MessageComponent{}
		ed.Embeds = &[]*discordgo.MessageEmbed{abandonedEmbed(m.Lang, m, g, e.Text)}
		ed.Attachments = attachmentsFor(nil) // the text says it all: no picture left behind
		empty := ""
		ed.Content = &empty
		ed.AllowedMentions = noMentions()
		return x.d.Edit(ctx, ed)
	case effScores:
		var all []string
		for s := range m.Seats {
			if u := m.human(s); u != "" {
				all = append(all, u)
			}
		}
		// The final scoreboard notifies every player, once.
		emb, files := x.b.scoresMessage(m.Lang, m, g, true)
		ms := &discordgo.MessageSend{
			Content:         mentions(all),
			Embeds:          []*discordgo.MessageEmbed{emb},
			AllowedMentions: mentionUsers(all),
			Files:           files,
		}
		_, err := x.d.Send(ctx, channel, ms, x.nonce(e))
		if refusedFiles(err, files) { // no ATTACH_FILES here: text only
			emb.Image, ms.Files = nil, nil
			_, err = x.d.Send(ctx, channel, ms, x.nonce(e))
		}
		if err != nil {
			return err
		}
		return x.pinged(ctx)
	case effFinish:
		sctx, cancel := context.WithTimeout(ctx, x.b.timeout)
		defer cancel()
		if err := x.b.store.Finish(sctx, channel); err != nil && !errors.Is(err, dixbot.ErrNotFound) {
			if isStoreFailure(err) && x.b.obs != nil {
				x.b.obs.StoreError("finish")
			}
			return err
		}
		return nil
	}
	return fmt.Errorf("bot: unknown effect %q", e.Kind)
}

// retire strips the buttons of an old board message (replacing it by the
// turn summary when one is given).
func (x *executor) retire(ctx context.Context, message string, summary *discordgo.MessageEmbed) error {
	if message == "" {
		return nil
	}
	e := discordgo.NewMessageEdit(x.rec.Channel, message)
	e.Components = &[]discordgo.MessageComponent{}
	if summary != nil {
		e.Embeds = &[]*discordgo.MessageEmbed{summary}
		e.Attachments = attachmentsFor(nil) // the board's picture goes with the board
		empty := ""
		e.Content = &empty
	}
	e.AllowedMentions = noMentions()
	return x.d.Edit(ctx, e)
}

// pinged edits the current ping, whose decision is made, to say so: the
// notification it raised still leads to a message, and the edit (without
// a mention) notifies nobody.
func (x *executor) pinged(ctx context.Context) error {
	if x.ping == "" {
		return nil
	}
	e := discordgo.NewMessageEdit(x.rec.Channel, x.ping)
	text := locales.T(x.m.Lang, "ping_closed", nil)
	if x.board != "" {
		text = locales.T(x.m.Lang, "ping_closed_link", map[string]any{"URL": messageURL(x.rec.Guild, x.rec.Channel, x.board)})
	}
	e.Content = &text
	e.Components = &[]discordgo.MessageComponent{}
	e.AllowedMentions = noMentions()
	x.ping, x.users = "", nil
	return x.d.Edit(ctx, e)
}

// nonce is the idempotency key of the message an effect posts: the same
// for every try of that effect, different for every other one (Discord
// keeps at most 25 characters).
func (x *executor) nonce(e effect) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%s/%d", x.rec.Channel, x.m.Origin, e.ID)
	return "dix" + strconv.FormatUint(h.Sum64(), 36)
}

func fnv32(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// permanent reports whether Discord refused a request for good (a client
// error other than a rate limit), so retrying it is pointless.
func permanent(err error) bool {
	var rerr *discordgo.RESTError
	if errors.As(err, &rerr) && rerr.Response != nil {
		code := rerr.Response.StatusCode
		return code >= 400 && code < 500 && code != http.StatusTooManyRequests
	}
	return false
}

// mentionUsers allows exactly users to be notified.
func mentionUsers(users []string) *discordgo.MessageAllowedMentions {
	am := noMentions()
	am.Users = append([]string(nil), users...)
	return am
}
