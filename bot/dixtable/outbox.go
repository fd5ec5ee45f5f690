package dixtable

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/discordapi"
	"github.com/dixgame/dixbot/locales"

	dixview "github.com/dixgame/dixbot/bot/dix"
)

func (x *executor) do(ctx context.Context, e bot.Effect) error {
	channel, g, m := x.rec.Channel, dix.GameOf(x.rec.State), x.m
	switch e.Kind {
	case bot.EffLobby:
		if g != nil || x.board != "" && e.Msg != bot.EffLobbyAgain {
			return nil // started (the board follows), or the lobby is there
		}
		if v := x.boardVia; x.board == "" && v.Usable(x.now) {
			// The answer to /dix start is the lobby, if it was made: its
			// process died before recording it.
			msg, err := x.d.Original(ctx, v.Interaction())
			switch {
			case err == nil && msg != nil && msg.ID != "":
				x.board = msg.ID
				return nil
			case err != nil && !bot.Permanent(err):
				return err
			}
		}
		msg, v, err := x.post(ctx, e, &discordgo.MessageSend{
			Embeds:          []*discordgo.MessageEmbed{lobbyEmbed(m.Lang, m, "open")},
			Components:      lobbyButtons(m.Lang, m),
			AllowedMentions: bot.NoMentions(),
		})
		if err != nil {
			return err
		}
		old, oldVia := x.board, x.boardVia
		x.board, x.boardVia = msg.ID, v
		if old == msg.ID {
			old = ""
		}
		return x.boarded(ctx, bot.Effect{Kind: bot.EffBoarded, Msg: old}, oldVia)
	case bot.EffBoard:
		if a := bot.AdoptedAfter(m.Outbox, e.ID); a != "" && a != x.board {
			// A player clicked a board the table did not record: this
			// effect's earlier try posted it. It is the new board.
			old, oldVia := x.board, x.boardVia
			x.board, x.boardVia = a, nil
			return x.boarded(ctx, bot.Effect{ID: e.ID, Kind: bot.EffBoarded, Msg: old}, oldVia)
		}
		emb, files, key := boardMessageKey(x.b, m.Lang, m, g, x.b.MayAttach(channel), "")
		ms := &discordgo.MessageSend{
			Embeds:          []*discordgo.MessageEmbed{emb},
			Components:      dixview.BoardButtons(m.view(m.Lang), g),
			AllowedMentions: bot.NoMentions(),
			Files:           files,
		}
		if len(e.Users) > 0 {
			ms.Content = bot.Mentions(e.Users)
			ms.AllowedMentions = bot.MentionUsers(e.Users)
		}
		msg, v, err := x.post(ctx, e, ms)
		if bot.RefusedFiles(err, files) { // no ATTACH_FILES here: text only
			x.b.LacksFiles(channel)
			ms.Embeds, ms.Files = []*discordgo.MessageEmbed{dixview.BoardEmbed(m.view(m.Lang), g)}, nil
			msg, v, err = x.post(ctx, e, ms)
		}
		if err != nil {
			return err
		}
		x.pic = nil
		if len(ms.Files) > 0 {
			x.pic = &bot.BoardPic{Msg: msg.ID, Key: key}
		}
		old, oldVia := x.board, x.boardVia
		x.board, x.boardVia = msg.ID, v
		if old == msg.ID {
			old = ""
		}
		return x.boarded(ctx, bot.Effect{ID: e.ID, Kind: bot.EffBoarded, Msg: old}, oldVia)
	case bot.EffBoarded:
		return x.boarded(ctx, e, nil)
	case bot.EffEdit:
		if x.board == "" || x.shown(e, x.board) || bot.ReplacedLater(m.Outbox, e.ID, x.board) {
			return nil
		}
		ed := discordgo.NewMessageEdit(channel, x.board)
		comps := dixview.BoardButtons(m.view(m.Lang), g)
		ed.Components = &comps
		emb, files, key := boardMessageKey(x.b, m.Lang, m, g, x.b.MayAttach(channel), x.keptPicture())
		ed.Embeds = &[]*discordgo.MessageEmbed{emb}
		ed.Files, ed.Attachments = files, bot.AttachmentsFor(files) // the new picture replaces the old one
		if key != "" && len(files) == 0 {
			ed.Attachments = nil // the message keeps the picture it has (pictures.go)
		}
		ed.AllowedMentions = bot.NoMentions()
		sent, err := x.b.Fences.Send(x.board, bot.Shows{Seq: uint64(g.Seq)}, x.b.Now(), func() error {
			err := x.edit(ctx, x.board, x.boardVia, ed)
			if bot.RefusedFiles(err, files) { // no ATTACH_FILES here: text only
				x.b.LacksFiles(channel)
				key = ""
				ed.Embeds, ed.Files, ed.Attachments = &[]*discordgo.MessageEmbed{dixview.BoardEmbed(m.view(m.Lang), g)}, nil, bot.AttachmentsFor(nil)
				err = x.edit(ctx, x.board, x.boardVia, ed)
			}
			return err
		})
		x.edited = x.edited || sent && err == nil
		x.editedPicture(key, sent && err == nil)
		return err
	case bot.EffRetire:
		var summary *discordgo.MessageEmbed
		if e.Title != "" {
			summary = dixview.SummaryEmbed(m.Lang, e.Title, e.Lines)
		}
		if x.shown(e, e.Msg) {
			// The answer made the board clicked on the turn's summary;
			// it stays the recorded board until the next one is posted.
			return nil
		}
		err := x.retire(ctx, e.Msg, summary)
		if e.Msg == x.board && err == nil {
			x.board, x.boardVia = "", nil
		}
		return err
	case bot.EffAdopt:
		if x.board != "" && x.board != e.Msg {
			// A board was posted after the one clicked (the effects of
			// another change ran first): that one stays the board, and the
			// one clicked keeps no buttons.
			if x.b.Fences.Retired(e.Msg) {
				return nil
			}
			if bot.OlderMessage(e.Msg, x.board) {
				return x.retire(ctx, e.Msg, nil)
			}
		}
		old := x.board
		if old != "" && old != e.Msg {
			if err := x.retire(ctx, old, nil); err != nil {
				return err
			}
		}
		if old != e.Msg {
			x.boardVia = nil // a board this process did not post
		}
		x.board, x.boardVia = e.Msg, bot.NewestVia(x.boardVia, x.ix, e.Msg, x.now)
		return nil
	case bot.EffPing:
		if err := x.pinged(ctx); err != nil && !bot.Permanent(err) {
			return err
		}
		msg, v, err := x.post(ctx, e, &discordgo.MessageSend{
			Content: e.Text, AllowedMentions: bot.MentionUsers(e.Users),
		})
		if err != nil {
			return err
		}
		x.ping, x.users, x.pingVia = msg.ID, e.Users, v
		return nil
	case bot.EffPingEdit:
		if x.ping == "" {
			// Not recorded (a lost ping): a new one, as effPing would.
			return x.do(ctx, bot.Effect{ID: e.ID, Kind: bot.EffPing, Users: e.Users, Text: e.Text})
		}
		ed := discordgo.NewMessageEdit(channel, x.ping)
		ed.Content = &e.Text
		ed.AllowedMentions = bot.NoMentions()
		if err := x.edit(ctx, x.ping, x.pingVia, ed); err != nil && !bot.Permanent(err) {
			return err
		}
		return nil
	case bot.EffPinged:
		return x.pinged(ctx)
	case bot.EffRemind:
		_, _, err := x.post(ctx, e, &discordgo.MessageSend{
			Content: e.Text, AllowedMentions: bot.MentionUsers(e.Users),
		})
		return err
	case bot.EffResult:
		return x.b.Record(ctx, dixResult(x.b, x.rec, x.m))
	case bot.EffLog:
		return x.b.AppendLog(ctx, channel, x.m.Origin, append([]string{"**" + e.Title + "**"}, e.Lines...))
	case bot.EffEnded:
		if err := x.pinged(ctx); err != nil && !bot.Permanent(err) {
			return err
		}
		if x.board == "" {
			return nil
		}
		ed := discordgo.NewMessageEdit(channel, x.board)
		ed.Components = &[]discordgo.MessageComponent{}
		ed.Embeds = &[]*discordgo.MessageEmbed{dixview.AbandonedEmbed(m.view(m.Lang), g, e.Text)}
		ed.Attachments = bot.AttachmentsFor(nil) // the text says it all: no picture left behind
		empty := ""
		ed.Content = &empty
		ed.AllowedMentions = bot.NoMentions()
		return x.edit(ctx, x.board, x.boardVia, ed)
	case bot.EffScores:
		var all []string
		for s := range m.Seats {
			if u := m.human(s); u != "" {
				all = append(all, u)
			}
		}
		// The final scoreboard notifies every player, once.
		emb, files := scoresMessage(x.b, m.Lang, m, g, x.b.MayAttach(channel))
		ms := &discordgo.MessageSend{
			Content:         bot.Mentions(all),
			Embeds:          []*discordgo.MessageEmbed{emb},
			Components:      rematchRow(m.Lang),
			AllowedMentions: bot.MentionUsers(all),
			Files:           files,
		}
		msg, _, err := x.post(ctx, e, ms)
		if bot.RefusedFiles(err, files) { // no ATTACH_FILES here: text only
			x.b.LacksFiles(channel)
			emb.Image, ms.Files = nil, nil
			msg, _, err = x.post(ctx, e, ms)
		}
		if err != nil {
			return err
		}
		x.scores = msg.ID
		x.rest = &bot.Effect{Kind: bot.EffPinged}
		return x.pinged(ctx)
	case bot.EffFinish:
		sctx, cancel := context.WithTimeout(ctx, x.b.Timeout)
		defer cancel()
		x.keepScores(sctx)
		if err := x.b.Store.Finish(sctx, channel); err != nil && !errors.Is(err, dixbot.ErrNotFound) {
			if bot.IsStoreFailure(err) && x.b.Obs != nil {
				x.b.Obs.StoreError("finish")
			}
			return err
		}
		return nil
	}
	return fmt.Errorf("bot: unknown effect %q", e.Kind)
}

// owe appends effects to the table's outbox and makes the record due, so
// that they are done even if this process dies before doing them. It runs
// inside the store update of the change.
func (m *dixTable) owe(r *dixbot.Record, effs ...bot.Effect) {
	if len(effs) == 0 {
		return
	}
	for _, e := range effs {
		m.NextEffect++
		e.ID = m.NextEffect
		m.Outbox = append(m.Outbox, e)
	}
	if r.Due.IsZero() || r.Due.After(time.Now().Add(bot.OutboxGrace)) {
		r.Due = time.Now().Add(bot.OutboxGrace)
	}
}

// settle queues the outbox of rec to be done after the answer.
func settle(c *bot.Call, rec *dixbot.Record) {
	if rec == nil {
		return
	}
	c.B.WakeAt(rec.Due)
	if m, err := decodeDixTable(rec.Meta); err != nil || len(m.Outbox) == 0 {
		return
	}
	done, written := c.B.Batches.Start(rec.Channel), time.Now()
	c.Then(func(ctx context.Context) {
		defer done()
		c.B.BeforeEffects()
		mk, err := doOutbox(c.B, ctx, c.B.ApiFor(ctx), rec, bot.HeldBy(c.Via(), written))
		c.Notice.Ran, c.Notice.After = true, mk
		c.B.LeftForLater(rec.Channel, err)
	})
}

// outbox is doOutbox for effects of which those numbered up to tried may
// have been done, in part, by a process that died or failed to record
// them: a message such an effect posts is looked for among the channel's
// latest before it is posted again (a follow-up carries no nonce).
func outbox(b *bot.Bot, ctx context.Context, d bot.DiscordAPI, rec *dixbot.Record, ix *bot.Via, tried uint32) (*bot.Missing, error) {
	// One channel's effects are done one batch at a time in a process,
	// each from the game as it stands then: a slower batch of an earlier
	// click can never show an older board after a newer one.
	mu := &b.ChannelLocks[bot.Fnv32(rec.Channel)%uint32(len(b.ChannelLocks))]
	mu.Lock()
	defer mu.Unlock()
	// Holding the lock, no request waits for a rate limit's bucket: one
	// refused so is tried again when the limit ends (internal/discordapi).
	ctx = discordapi.NoWait(ctx)
	var upTo uint32 // the last effect owed by the change ix answered
	if ix != nil {
		if m, err := decodeDixTable(rec.Meta); err == nil {
			upTo = m.NextEffect
		}
	}
	answered := rec.Version      // the record the answer of ix showed
	ours := bot.NewHold(rec, ix) // on the record this process wrote
	if fresh, err := b.Latest(ctx, rec); err == nil && !fresh.Finished && fresh.Version >= rec.Version {
		rec = fresh
	}
	m, err := decodeDixTable(rec.Meta)
	if err != nil || len(m.Outbox) == 0 {
		return nil, err
	}
	channel := rec.Channel
	x := &executor{b: b, d: d, rec: rec, m: m, ix: ix, upTo: upTo, tried: tried, now: time.Now(), hold: ours,
		board: m.Board, ping: m.Ping, users: m.PingUsers, boardVia: m.BoardVia, pingVia: m.PingVia, scores: m.Scores}
	x.boardVia = bot.NewestVia(x.boardVia, ix, x.board, x.now)
	x.pic, x.pic0 = startPicture(m, ix, rec.Version == answered), bot.ClonePtr(m.BoardPic)
	var done uint32
	// A fold waiting (fold.go): its effects are done already.
	waiting := b.Folds.Get(channel)
	if waiting != nil && waiting.Of(rec, tableOf(m), m.Outbox) {
		done = waiting.Done
		x.boardVia = bot.NewestVia(x.boardVia, waiting.Via, x.board, x.now)
	} else {
		waiting = nil
	}
	var failed, refused error // refused: the board or scoreboard Discord refused for good
	var rest *bot.Effect      // what is left of the effect a later step of which failed
	refusedKind, posted := "", false
	clockAt := b.Now() // the clock held while the board was missing runs again from here
	for i, e := range m.Outbox {
		if e.ID <= done {
			continue // done by a batch whose record waits (fold)
		}
		if m.Missing != nil && bot.Held(e.Kind) {
			if e.Kind == bot.EffBoard && bot.SupersededBoard(m.Outbox[i+1:]) {
				done = e.ID
				continue
			}
			if x.m.Clock != nil && x.m.PausedBy == "" {
				x.m.Clock.Resume(clockAt) // the board shows the countdown that starts with it
			}
		}
		x.rest = nil
		if err := x.do(ctx, e); err != nil {
			if !bot.Permanent(err) {
				failed = fmt.Errorf("effect %s: %w", e.Kind, err)
				if x.rest != nil {
					// Its first steps are done (a board posted): only
					// the rest is tried again.
					rest = x.rest
					rest.ID = e.ID
					posted = posted || bot.Held(e.Kind)
				}
				break
			}
			if bot.Held(e.Kind) {
				refused, refusedKind = err, e.Kind
				break
			}
			b.Log.Warn("effect refused by Discord; skipped", "channel", channel, "effect", e.Kind, "err", err)
		} else if bot.Held(e.Kind) {
			posted = true
		}
		done = e.ID
		if e.Kind == bot.EffFinish {
			if waiting != nil {
				b.Folds.Drop(channel, waiting) // archived with the game
			}
			return nil, nil // archived: the outbox went with it
		}
	}
	wait, _, limited := discordapi.RetryAfter(failed)
	if done == 0 && refused == nil && rest == nil {
		if limited {
			deferOutbox(b, ctx, channel, wait)
		}
		return m.Missing, failed
	}
	if b.FoldsOn() && tableOf(m) != "" && failed == nil && refused == nil && rest == nil && !posted && !x.edited && m.Missing == nil &&
		done == m.Outbox[len(m.Outbox)-1].ID && x.board == m.Board && x.ping == m.Ping && x.pingVia == m.PingVia &&
		slices.Equal(x.users, m.PingUsers) && x.scores == m.Scores {
		// Nothing the table records changed: the effects are recorded
		// done with the channel's next change (fold.go).
		fd := &bot.Fold{Table: tableOf(m), Version: rec.Version, Done: done, Board: x.board}
		if x.boardVia != m.BoardVia {
			fd.Via = x.boardVia
		}
		b.Later(channel, fd)
		return nil, nil
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.Timeout)
	defer cancel()
	var mark *bot.Missing
	after, err := b.Store.Update(sctx, channel, "", onTable(func(r *dixbot.Record, cur *dixTable) error {
		keep := cur.Outbox[:0]
		for _, e := range cur.Outbox {
			if e.ID > done {
				if rest != nil && e.ID == rest.ID {
					e = *rest
				}
				keep = append(keep, e)
			}
		}
		cur.Outbox = keep
		cur.Board, cur.Ping, cur.PingUsers = x.board, x.ping, x.users
		cur.BoardVia, cur.PingVia = x.boardVia, x.pingVia
		cur.Scores = x.scores
		cur.BoardPic = x.boardPicture(r, cur)
		now := b.Now()
		switch {
		case refused != nil:
			cur.refused(refusedKind, refused, now)
			r.Due = time.Time{} // the next try's moment (setDue)
		case posted || cur.Missing != nil && !bot.Holds(keep):
			cur.found(clockAt)
		}
		if x.edited && movedOn(x.rec, r) && !bot.OwesAgain(cur.Outbox) {
			// The game moved on while the board was being edited: a
			// newer click's answer may have landed before this edit,
			// which shows an older state. The board is shown again.
			cur.owe(r, bot.Effect{Kind: bot.EffEdit, Again: true})
			keep = cur.Outbox
		}
		if len(keep) == 0 {
			r.Due = time.Time{} // the clock's next moment, if any
		} else if limited {
			r.Due = now.Add(wait) // when the rate limit lets it go
		}
		cur.setDue(r, now)
		mark = cur.Missing
		return nil
	}))
	if err != nil && !errors.Is(err, dixbot.ErrNotFound) {
		if bot.IsStoreFailure(err) && b.Obs != nil {
			b.Obs.StoreError("update")
		}
		return m.Missing, errors.Join(failed, fmt.Errorf("recording the effects done: %w", err))
	}
	if waiting != nil {
		b.Folds.Drop(channel, waiting) // written with these
	}
	if after != nil {
		b.WakeAt(after.Due)
	}
	if refused != nil && mark != nil {
		args := []any{"channel", channel, "effect", refusedKind, "status", mark.Status, "code", mark.Code, "tries", mark.Tries, "err", refused}
		switch {
		case mark.Code == discordgo.ErrCodeUnknownChannel:
			b.Log.Warn("the game's channel is gone: the game stays stored, untouched, until it expires", args...)
		case mark.Next.IsZero():
			b.Log.Warn("board refused by Discord again; no more tries without a click", args...)
		default:
			b.Log.Warn("board refused by Discord; the game waits for it", append(args, "next", mark.Next)...)
		}
	} else if posted && m.Missing != nil {
		b.Log.Info("the missing board is posted", "channel", channel, "missing_since", m.Missing.Since)
	}
	return mark, failed
}

// deferOutbox makes the channel's outbox due in wait, the time a rate
// limit asks before another request (Discord's retry_after, or the time
// left of a limit this process knows is running), earlier or later than
// the grace or lease it had: a clock deadline due sooner stays first.
func deferOutbox(b *bot.Bot, ctx context.Context, channel string, wait time.Duration) {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.Timeout)
	defer cancel()
	after, err := b.Store.Update(sctx, channel, "", onTable(func(r *dixbot.Record, m *dixTable) error {
		if len(m.Outbox) == 0 {
			return bot.ErrNothingToDo
		}
		now := b.Now()
		r.Due = now.Add(wait)
		m.setDue(r, now)
		return nil
	}))
	b.AfterOwnUpdate(channel, after, err, "could not defer the effects to the end of a rate limit")
}

// executor does effects, keeping the board and ping messages they change.
type executor struct {
	b        *bot.Bot
	d        bot.DiscordAPI
	rec      *dixbot.Record
	m        *dixTable
	ix       *bot.Via             // the clicking interaction (nil: none, e.g. a deadline)
	upTo     uint32               // the last effect owed by the change ix's answer showed
	tried    uint32               // the last effect another try may have done in part
	recent   []*discordgo.Message // the channel's latest messages, once read (tried)
	edited   bool                 // the board was edited to show the game of rec
	read     bool
	hold     *bot.Hold     // the run's hold on the effects: only while it lasts does it post
	now      time.Time     // when the effects started
	board    string        // the current board message
	ping     string        // the current ping message
	users    []string      // who the current ping notified
	boardVia *bot.Via      // the interaction that can edit board (nil: none)
	pingVia  *bot.Via      // the interaction that can edit ping (nil: none)
	scores   string        // the final scoreboard message, once posted
	pic      *bot.BoardPic // the picture the board has, when known (pictures.go)
	pic0     *bot.BoardPic // the table data's BoardPic as read
	// rest is what remains owed of the effect being done once its first
	// steps took effect (a message posted): if a later step fails, the
	// effect is recorded as this rest, so a retry never posts again.
	rest *bot.Effect
}

// movedOn reports whether the game of now is past the one of shown.
func movedOn(shown, now *dixbot.Record) bool {
	return dix.GameOf(shown.State) != nil && dix.GameOf(now.State) != nil && dix.GameOf(now.State).Seq != dix.GameOf(shown.State).Seq
}

// reshow owes the board of channel an edit when its game moved past seq,
// the state an answer showed on it: a newer change's answer may have
// landed first, and the board would stay one step behind.
func reshow(b *bot.Bot, ctx context.Context, channel string, seq uint32) {
	sctx, cancel := context.WithTimeout(ctx, b.Timeout)
	defer cancel()
	rec, err := b.Store.Update(sctx, channel, "", func(r *dixbot.Record) error {
		if dix.GameOf(r.State) == nil || dix.GameOf(r.State).Seq == seq {
			return bot.ErrNothingToDo
		}
		m, err := decodeDixTable(r.Meta)
		if err != nil {
			return err
		}
		if bot.OwesAgain(m.Outbox) {
			return bot.ErrNothingToDo
		}
		m.owe(r, bot.Effect{Kind: bot.EffEdit, Again: true})
		m.setDue(r, b.Now())
		r.Meta = m.Encode()
		return nil
	})
	switch {
	case err == nil:
		b.WakeAt(rec.Due)
	case !errors.Is(err, bot.ErrNothingToDo) && !errors.Is(err, dixbot.ErrNotFound):
		b.Log.Warn("could not check the board after an answer", "channel", channel, "err", err)
	}
}

// keepScores records the final scoreboard's message with the game about to
// be archived, so a prompt used after the game can point to it. Best
// effort: without it the answer only says the game is over.
func (x *executor) keepScores(ctx context.Context) {
	if x.scores == "" || x.scores == x.m.Scores {
		return
	}
	_, err := x.b.Store.Update(ctx, x.rec.Channel, "", onTable(func(r *dixbot.Record, m *dixTable) error {
		m.Scores = x.scores
		return nil
	}))
	if err != nil && !errors.Is(err, dixbot.ErrNotFound) {
		x.b.Log.Warn("could not record the scoreboard's message", "channel", x.rec.Channel, "err", err)
	}
}

// runDixDue claims the work due on channel when it holds a DIX game, and
// passes it to runContractDue when it holds another.
func runDixDue(b *bot.Bot, ctx context.Context, d bot.DiscordAPI, channel string, asOf time.Time) error {
	sctx, cancel := context.WithTimeout(ctx, b.Timeout)
	late := time.Duration(-1)
	var tried uint32           // the effects owed before this claim: another process may have done some
	var takeOver bool          // the claim takes over effects a change left owed
	fd := b.Folds.Get(channel) // effects done whose record waits (fold.go)
	claim := func(r *dixbot.Record) error {
		late, takeOver = -1, false
		if r.Due.IsZero() || r.Due.After(asOf) {
			return bot.ErrNothingToDo
		}
		if r.Game != "" {
			return bot.ErrContractDue
		}
		m, err := decodeDixTable(r.Meta)
		if err != nil {
			return err
		}
		now := b.Now()
		if fd != nil {
			apply(fd, r, m, now)
		}
		tried, takeOver = m.NextEffect, len(m.Outbox) > 0
		if late, err = onClock(b, r, m, now); err != nil {
			return err
		}
		if len(m.Outbox) == 0 {
			m.setDue(r, now) // nothing to do now: the clock's next moment
			r.Meta = m.Encode()
			return nil
		}
		r.Due = now.Add(bot.OutboxLease)
		if w := m.Clock.Wake(); m.PausedBy == "" && !w.IsZero() && w.Before(r.Due) {
			r.Due = w
		}
		r.Meta = m.Encode()
		return nil
	}
	rec, err := b.Store.Update(sctx, channel, "", claim)
	cancel()
	if fd != nil && err == nil {
		b.Folds.Drop(channel, fd) // written with the claim
	}
	switch {
	case errors.Is(err, bot.ErrContractDue):
		return b.RunContractDue(ctx, d, channel, asOf)
	case errors.Is(err, bot.ErrNothingToDo), errors.Is(err, dixbot.ErrNotFound):
		return nil
	case err != nil:
		return err
	}
	b.WakeAt(rec.Due)
	if takeOver {
		// The change's own process did not finish its effects within
		// the grace (it died, or ran late): they are done here, with the
		// bot token.
		b.Log.Info("effects taken over", "channel", channel)
	}
	if late >= 0 {
		b.Log.Info("decision out of time taken by the computer", "channel", channel, "late_ms", late.Milliseconds())
		if o, ok := b.Obs.(bot.DeadlineObserver); ok {
			o.Deadline(late)
		}
	}
	_, err = outbox(b, ctx, d, rec, nil, tried)
	return err
}

// doOutbox is runOutbox; it also returns the game's missing board as the
// run left it (nil: the board is where it should be).
func doOutbox(b *bot.Bot, ctx context.Context, d bot.DiscordAPI, rec *dixbot.Record, ix *bot.Via) (*bot.Missing, error) {
	return outbox(b, ctx, d, rec, ix, 0)
}

// post posts a message for effect e: as a follow-up of the clicking
// interaction while its token is valid, else (or if Discord refuses the
// follow-up) with the bot token and the effect's nonce. It returns the
// interaction the message can be edited with (nil: the bot token).
func (x *executor) post(ctx context.Context, e bot.Effect, ms *discordgo.MessageSend) (*discordgo.Message, *bot.Via, error) {
	if err := x.b.Keep(ctx, x.hold); err != nil {
		return nil, nil, err
	}
	if e.ID != 0 && e.ID <= x.tried {
		if msg := x.postedBefore(ctx, ms); msg != nil {
			x.b.Log.Info("message posted by an earlier try found; not posted again", "channel", x.rec.Channel, "effect", e.Kind, "message", msg.ID)
			return msg, nil, nil
		}
	}
	if x.ix.Usable(x.now) {
		msg, err := x.d.Followup(ctx, x.ix.Interaction(), &discordgo.WebhookParams{
			Content: ms.Content, Embeds: ms.Embeds, Components: ms.Components,
			AllowedMentions: ms.AllowedMentions, Files: ms.Files,
		})
		if err == nil {
			if x.hold.Contested(time.Now()) {
				if first := x.firstOf(ctx, ms, msg); first != msg {
					return first, nil, nil
				}
			}
			v := *x.ix
			v.Orig = ""
			return msg, &v, nil
		}
		if ctx.Err() != nil {
			return nil, nil, err
		}
		x.b.Log.Info("follow-up refused; posting with the bot token", "channel", x.rec.Channel, "effect", e.Kind, "err", err)
	}
	msg, err := x.d.Send(ctx, x.rec.Channel, ms, x.nonce(e))
	if err == nil && (x.hold.Contested(time.Now()) || (e.ID != 0 && e.ID <= x.tried)) {
		msg = x.firstOf(ctx, ms, msg)
	}
	return msg, nil, err
}

// firstOf settles two processes posting the same message at once: the
// holder of the effects whose post landed late, and a process that took
// them over and looked for it before it landed. Each, once its own
// message mine is posted, reads the channel again; the one whose message
// came second (a later id) finds the other's and deletes its own, so the
// channel keeps the first. It returns the message that stays.
func (x *executor) firstOf(ctx context.Context, ms *discordgo.MessageSend, mine *discordgo.Message) *discordgo.Message {
	msgs, err := x.d.Recent(ctx, x.rec.Channel, 20)
	if err != nil {
		return mine
	}
	for _, m := range msgs {
		if m.ID == mine.ID || !bot.LaterID(mine.ID, m.ID) || (x.board != "" && !bot.LaterID(m.ID, x.board)) || !sameMessage(m, ms) {
			continue
		}
		if err := x.d.Delete(ctx, x.rec.Channel, mine.ID); err != nil {
			x.b.Log.Warn("could not delete a message posted twice", "channel", x.rec.Channel, "message", mine.ID, "err", err)
			return mine
		}
		x.b.Log.Info("message posted twice at once; the second deleted", "channel", x.rec.Channel, "kept", m.ID, "deleted", mine.ID)
		return m
	}
	return mine
}

// postedBefore is the message ms among the channel's latest, posted after
// the current board by an earlier try of the same effect (nil: none). The
// channel is read once per run; without Read Message History nothing is
// found and the message is posted.
func (x *executor) postedBefore(ctx context.Context, ms *discordgo.MessageSend) *discordgo.Message {
	if !x.read {
		x.read = true
		msgs, err := x.d.Recent(ctx, x.rec.Channel, 20)
		if err != nil {
			x.b.Log.Info("could not read the channel's latest messages", "channel", x.rec.Channel, "err", err)
		}
		x.recent = msgs
	}
	for _, m := range x.recent {
		if (x.board == "" || bot.LaterID(m.ID, x.board)) && sameMessage(m, ms) {
			return m
		}
	}
	return nil
}

// sameMessage reports whether m is the message ms posts. A board is the
// same board when it carries the same buttons, whose custom ids name the
// game's state: its text, drawn at another moment, may differ by a
// clock's second. Another message must be the same to the letter.
func sameMessage(m *discordgo.Message, ms *discordgo.MessageSend) bool {
	if ids := bot.CustomIDs(ms.Components); len(ids) > 0 {
		return slices.Equal(bot.CustomIDs(m.Components), ids)
	}
	return bot.SameMessage(m, ms)
}

// edit applies ed to message, made with v (nil: the bot token): through
// the clicking interaction when its answer updated that very message,
// through v while its token is valid, else with the bot token.
func (x *executor) edit(ctx context.Context, message string, v *bot.Via, ed *discordgo.MessageEdit) error {
	we := &discordgo.WebhookEdit{Content: ed.Content, Components: ed.Components, Embeds: ed.Embeds,
		Files: ed.Files, Attachments: ed.Attachments, AllowedMentions: ed.AllowedMentions}
	target, id := v, message
	if x.ix.Usable(x.now) && x.ix.Orig == message {
		target, id = x.ix, "@original"
	} else if v != nil && v.Orig == message {
		id = "@original"
	}
	if target.Usable(x.now) {
		err := x.d.FollowupEdit(ctx, target.Interaction(), id, we)
		if err == nil || ctx.Err() != nil {
			return err
		}
		x.b.Log.Info("edit through the interaction refused; editing with the bot token", "channel", x.rec.Channel, "err", err)
	}
	ed.Channel, ed.ID = x.rec.Channel, message
	return x.d.Edit(ctx, ed)
}

// shown reports whether the answer to the clicking interaction already
// changed message the way e does: it updated that very message in place
// for the change that owed e. An edit owed again (Again) is never shown:
// an older render may have landed after that answer.
func (x *executor) shown(e bot.Effect, message string) bool {
	return !e.Again && x.ix != nil && message != "" && x.ix.Orig == message && e.ID <= x.upTo
}

// viaOf is the interaction that can edit message: the clicking one when
// its answer updated it, else the one recorded for it.
func (x *executor) viaOf(message string) *bot.Via {
	if x.ix != nil && x.ix.Orig == message {
		return x.ix
	}
	switch message {
	case x.board:
		return x.boardVia
	case x.ping:
		return x.pingVia
	}
	return nil
}

// boarded does the rest of a board effect once the new board is posted
// (x.board): the previous board e.Msg (editable through v, when known)
// loses its buttons and the last turn's ping is closed. Until both are
// done, the effect is owed as e.
func (x *executor) boarded(ctx context.Context, e bot.Effect, v *bot.Via) error {
	x.rest = &e
	if e.Msg != "" && !x.shown(e, e.Msg) { // not already the summary the answer made of it
		if v == nil {
			v = x.viaOf(e.Msg)
		}
		if err := x.retireVia(ctx, e.Msg, v, nil); err != nil && !bot.Permanent(err) {
			return err
		}
		x.rest = &bot.Effect{Kind: bot.EffPinged}
	}
	// A new turn's board closes the last turn's ping.
	if err := x.pinged(ctx); err != nil && !bot.Permanent(err) {
		return err
	}
	return nil
}

// retire strips the buttons of an old board message (replacing it by the
// turn summary when one is given).
func (x *executor) retire(ctx context.Context, message string, summary *discordgo.MessageEmbed) error {
	return x.retireVia(ctx, message, x.viaOf(message), summary)
}

// retireVia is retire for a message editable through v (nil: the bot token).
func (x *executor) retireVia(ctx context.Context, message string, v *bot.Via, summary *discordgo.MessageEmbed) error {
	if message == "" {
		return nil
	}
	e := discordgo.NewMessageEdit(x.rec.Channel, message)
	e.Components = &[]discordgo.MessageComponent{}
	if summary != nil {
		e.Embeds = &[]*discordgo.MessageEmbed{summary}
		e.Attachments = bot.AttachmentsFor(nil) // the board's picture goes with the board
		empty := ""
		e.Content = &empty
	}
	e.AllowedMentions = bot.NoMentions()
	_, err := x.b.Fences.Send(message, bot.Shows{Retire: true}, x.b.Now(), func() error {
		return x.edit(ctx, message, v, e)
	})
	return err
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
		text = locales.T(x.m.Lang, "ping_closed_link", map[string]any{"URL": bot.MessageURL(x.rec.Guild, x.rec.Channel, x.board)})
	}
	e.Content = &text
	e.Components = &[]discordgo.MessageComponent{}
	e.AllowedMentions = bot.NoMentions()
	err := x.edit(ctx, x.ping, x.pingVia, e)
	if err == nil || bot.Permanent(err) {
		x.ping, x.users, x.pingVia = "", nil, nil
	}
	return err
}

// nonce is the idempotency key of the message an effect posts: the same
// for every try of that effect, different for every other one (Discord
// keeps at most 25 characters).
func (x *executor) nonce(e bot.Effect) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%s/%d", x.rec.Channel, x.m.Origin, e.ID)
	return "dix" + strconv.FormatUint(h.Sum64(), 36)
}

// runDixOutbox does the effects of rec in order, then removes the ones done
// from the stored outbox (with the messages they posted). It stops at the
// first effect Discord could not do for now (unreachable, rate limited,
// 5xx), leaving it and the rest due. An effect Discord refuses for good (a
// message deleted, a permission missing) is logged and counted done,
// except a board or the final scoreboard: that one stays owed, first, and
// the game records that its board is missing (notice.go).
//
// ix is the interaction whose click made the change, when there is one: its
// token posts and edits messages at no cost against the bot's global rate
// limit (see via).
func runDixOutbox(b *bot.Bot, ctx context.Context, d bot.DiscordAPI, rec *dixbot.Record, ix *bot.Via) error {
	_, err := doOutbox(b, ctx, d, rec, ix)
	return err
}
