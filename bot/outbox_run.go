package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/internal/discordapi"
	"github.com/dixgame/dixbot/locales"
)

// The outbox: the Discord work a change of a game owes besides the answer to its interaction (the board shown as the
// game stands, a ping, a ping settled, the game's end, its archiving) is
// written as effects into the table data (tableData.Outbox) by the same
// exactly-once store update as the change, and the record is made due a
// few seconds ahead (outboxGrace, outbox.go). The
// process that made the change does the effects after its answer and
// removes them; if it dies first, any process finds the game through
// Store.Due, claims it (runTableDue) and does them. Every effect is
// idempotent: the board is edited to the game as it stands (through its
// fence, so an older render never lands after a newer one), a ping is
// looked for among the channel's latest messages before it is posted
// again, a ping is settled by an edit.
//
// Requests go through interaction tokens wherever Discord allows one: an
// interaction's token edits the message its answer made or updated
// ("@original") and the follow-ups it posted, for 15 minutes
// (https://discord.com/developers/docs/interactions/receiving-and-responding#edit-original-interaction-response,
// https://discord.com/developers/docs/interactions/receiving-and-responding#edit-followup-message),
// and posts follow-ups in that time
// (https://discord.com/developers/docs/interactions/receiving-and-responding#create-followup-message).
// The public board is the answer to /<game> start and is updated in place
// by every click on it, so the table keeps the newest such interaction
// (tableData.BoardVia): a decision taken in a private prompt, a form or a
// command, whose own token edits only that prompt or answer, edits the
// board through it. The bot token is used only when no recorded
// interaction is younger than viaLife, or when Discord refuses one.

// Effect kinds of games.
const (
	effEdit   = "cedit"   // show the game as it stands on the board
	effPing   = "cping"   // post Text mentioning Users: the ping tableData.Ping records (its Eff)
	effSettle = "csettle" // edit the ping Msg (editable through Via) to say Text; Msg "#<n>": the ping effect n posts
	effEnd    = "cend"    // the game is over: the table's work at a game's end (gameEnded), done once
	effRetire = "cretire" // strip the buttons of Msg, a board no longer the board (editable through Via; nil: the bot token)
	effFinish = "cfinish" // archive the game (frees the channel); last
)

// owe appends effects to the table's outbox and makes the record due
// within the grace, so they are done even if this process dies first. It
// runs inside the store update of the change, after the record's clock
// (setTableDue) is set. It returns the first effect's number.
func (td *tableData) owe(r *dixbot.Record, now time.Time, effs ...effect) uint32 {
	first := td.NextEffect + 1
	for _, e := range effs {
		td.NextEffect++
		e.ID = td.NextEffect
		td.Outbox = append(td.Outbox, e)
	}
	td.outboxDue(r, now)
	return first
}

// outboxDue brings the record's Due forward to the end of the grace when
// effects are owed.
func (td *tableData) outboxDue(r *dixbot.Record, now time.Time) {
	if len(td.Outbox) == 0 {
		return
	}
	if at := now.Add(outboxGrace); r.Due.IsZero() || r.Due.After(at) {
		r.Due = at
	}
}

// oweChange owes what a change of the game leaves to do after the answer:
// the board shown as it stands, the pings of p, and, when the game is
// over, its end and its archiving. by is the process that made the change
// (Bot.self), whose answer shows it. The change counts on the lobby's
// counter, so that the board's renders after it are newer than those
// before (boardSeq) even when only the table data changed (a person back,
// a vote, a pause).
func (td *tableData) oweChange(r *dixbot.Record, g *present.Game, st engine.State, p pingPlan, now time.Time, by string) {
	td.Lobby++
	effs := []effect{{Kind: effEdit, By: by}}
	if s := p.settle; s != nil && (s.ID != "" || s.Eff != 0) {
		e := effect{Kind: effSettle, Msg: s.ID, Via: s.Via,
			Text: locales.T(td.Lang, "table_ping_settled", map[string]any{"Names": escapedList(s.Names)})}
		if s.ID == "" {
			e.Msg = "#" + strconv.FormatUint(uint64(s.Eff), 10)
		}
		effs = append(effs, e)
	}
	ping := -1 // the index in effs of the ping posted now
	if len(p.users) > 0 && td.Board != "" {
		text := locales.T(td.Lang, "table_ping", map[string]any{"Mentions": Mentions(p.users),
			"Game": En(g.Rules.Name() + "_title"), "URL": messageURL(r.Guild, r.Channel, td.Board)})
		ping = len(effs)
		effs = append(effs, effect{Kind: effPing, Users: p.users, Text: text})
	}
	if st.Over() {
		// The final scoreboard is the board: every person seated is told,
		// once.
		var people []string
		for _, s := range td.Seats {
			if s.User != "" {
				people = append(people, s.User)
			}
		}
		if len(people) > 0 && td.Board != "" {
			text := locales.T(td.Lang, "table_over_ping", map[string]any{"Mentions": Mentions(people),
				"Game": En(g.Rules.Name() + "_title"), "URL": messageURL(r.Guild, r.Channel, td.Board)})
			effs = append(effs, effect{Kind: effPing, Users: people, Text: text})
		}
		effs = append(effs, effect{Kind: effEnd}, effect{Kind: effFinish})
	}
	first := td.owe(r, now, effs...)
	if ping >= 0 {
		// The new ping is recorded now; its message once posted.
		td.Ping = &pingMsg{Eff: first + uint32(ping), Users: p.users, Names: p.names, Opens: p.opens}
	}
}

// boardVia is the interaction of a click on the message clicked, kept as
// the one that edits the board (nil: the click is not on a public message).
func (c *Call) boardVia() *Via {
	m := c.I.Message
	if m == nil || m.Flags&discordgo.MessageFlagsEphemeral != 0 || c.I.Token == "" || c.I.AppID == "" {
		return nil
	}
	return &Via{App: c.I.AppID, Token: c.I.Token, At: c.At.UnixMilli(), Orig: m.ID}
}

// answeredVia is the call's interaction once answered (nil: not
// answered). A click on a public message whose change was answered
// updated that message, in place (type 7) or by acknowledging it (type 6,
// when the board already showed a newer game): either way the message is
// its "@original"
// (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-type).
// A click answered with a message of its own (an ephemeral reply) has
// that reply as its "@original", never the message clicked.
func (c *Call) answeredVia() *Via {
	v := c.Via()
	if v != nil && v.Orig == "" && c.acked {
		if b := c.boardVia(); b != nil {
			v.Orig = b.Orig
		}
	}
	return v
}

// settleAnswer queues the outbox of rec, the record a change of this
// call wrote, to be done after the answer through this interaction.
func (c *Call) settleAnswer(rec *dixbot.Record) {
	if rec == nil {
		return
	}
	c.B.wakeAt(rec.Due)
	done, written := c.B.batches.Start(rec.Channel), time.Now()
	c.Then(func(ctx context.Context) {
		defer done()
		c.B.beforeEffects()
		// The game this click's answer showed, when another process's
		// answer of a later change may have landed before it
		// (overtaken's read before the answer leaves that window): the
		// write that records the effects, or the fold's, compares it
		// with the game as stored and owes the board's edit again if
		// the game moved on (recordDone, fold.applyOn), with no read of
		// its own.
		lost := ""
		if !c.Answered {
			lost = c.I.Token
		}
		mk, err := c.B.runEffectsMark(ctx, c.B.apiFor(ctx), rec, c.wrote.of(rec), heldBy(c.answeredVia(), written), lost, 0, c.racedShown)
		c.notice.ran, c.notice.after = true, mk
		c.B.leftForLater(rec.Channel, err)
	})
}

// runEffects does the effects of a game's record in order,
// then removes the ones done from the stored outbox. It stops at the first
// effect Discord could not do for now, leaving it and the rest due; one
// Discord refuses for good is logged and counted done. ix is the
// interaction whose change wrote rec (nil: none, e.g. a deadline); effects
// numbered up to tried may have been done in part by a process that died
// (a ping it posted is looked for before it is posted again).
func (b *Bot) runEffects(ctx context.Context, d DiscordAPI, rec *dixbot.Record, ix *Via, tried uint32) error {
	_, err := b.runEffectsMark(ctx, d, rec, nil, ix, "", tried, nil)
	return err
}

// written is a record's table data, decoded, with the bytes it was
// decoded from or encoded to. Its td may be a change's own value, with
// that update's fields (fresh, round, forgot): the outbox's run and a
// fold's write read or change only what the bytes hold; a change that
// tells events decodes the bytes instead.
type written struct {
	meta []byte
	td   *tableData
}

// of is the table data of rec, if these are its bytes (nil: not known).
func (w written) of(rec *dixbot.Record) *tableData {
	if w.td == nil || !bytes.Equal(w.meta, rec.Meta) {
		return nil
	}
	return w.td
}

// take is of, once: w then knows nothing (its taker may change the table
// data). A nil w knows nothing.
func (w *written) take(rec *dixbot.Record) *tableData {
	if w == nil {
		return nil
	}
	td := w.of(rec)
	*w = written{}
	return td
}

// runEffectsMark is runEffects, returning the board's mark as the
// run left it (nil: the board is there); lost is the token of the
// interaction whose change wrote rec when its answer did not land: its
// "@original" may be another delivery's answer (a private message), so
// nothing is edited through it (cexec.lost); td, when not nil, is rec's table
// data, decoded, which the run may read; shown, when not nil, is the game
// data an answer put on the board, which may have landed after a later
// change's answer: the effects are then recorded (or folded) with the
// board's edit owed again if the game as stored moved on from it.
func (b *Bot) runEffectsMark(ctx context.Context, d DiscordAPI, rec *dixbot.Record, td *tableData, ix *Via, lost string, tried uint32, shown []byte) (*Missing, error) {
	mu := &b.channelLocks[fnv32(rec.Channel)%uint32(len(b.channelLocks))]
	mu.Lock()
	defer mu.Unlock()
	ctx = discordapi.NoWait(ctx)
	var upTo uint32  // the last effect owed by the change ix answered
	table := ""      // the table the answer of ix showed, when known
	answeredTD := td // rec's table data, when known
	if ix != nil {
		if answeredTD == nil {
			answeredTD, _ = b.decodeTable(rec)
		}
		if answeredTD != nil {
			upTo, table = answeredTD.NextEffect, tableName(answeredTD)
		}
	}
	answered := rec.Version  // the record the answer of ix showed
	ours := newHold(rec, ix) // on the record this process wrote
	fresh, err := b.Latest(ctx, rec)
	switch {
	case err == nil && fresh.Finished && fresh.Version >= rec.Version:
		return nil, nil // archived: its last effect was done
	case err == nil && fresh.Version >= rec.Version:
		if !bytes.Equal(fresh.Meta, rec.Meta) {
			answeredTD = nil
		}
		rec = fresh
	}
	g, ok := b.games[rec.Game]
	if !ok {
		return nil, nil
	}
	td = answeredTD // the same bytes: decoded once
	if td == nil {
		if td, err = b.decodeTable(rec); err != nil {
			return nil, err
		}
	}
	if len(td.Outbox) == 0 {
		b.oweShownAgain(ctx, rec, table, shown)
		return nil, nil
	}
	x := &cexec{b: b, d: d, rec: rec, td: td, g: g, ix: ix, lost: lost, upTo: upTo, tried: tried, now: time.Now(),
		posted: map[uint32]Via{}, hold: ours, held: boardHold{missing: td.Missing, at: b.now()}, shown: shown, unchecked: shown != nil}
	x.pic, x.pic0 = td.startPicture(ix, rec.Version == answered), clonePtr(td.Pic)
	var done uint32
	waiting := x.foldWaiting()
	if waiting != nil {
		done = waiting.Done
	}
	done, failed, archived := x.run(ctx, done)
	if archived {
		if waiting != nil {
			b.folds.drop(rec.Channel, waiting) // archived with the game
		}
		return nil, nil // archived: the outbox went with it
	}
	wait, _, limited := discordapi.RetryAfter(failed)
	missing, refused := x.held.missing, x.held.refused
	if done == 0 && !limited && refused == nil {
		if x.unchecked {
			b.oweShownAgain(ctx, rec, table, x.shown)
		}
		return missing, failed
	}
	if failed == nil && refused == nil && missing == nil && x.fold(done) {
		return nil, nil
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.timeout)
	defer cancel()
	var mark *Missing
	after, err := b.update(sctx, rec.Channel, "", b.onTable(rec.Game, func(r *dixbot.Record, _ *present.Game, cur *tableData) error {
		return x.recordDone(r, cur, done, wait, limited, &mark)
	}))
	switch {
	case err == nil:
		if waiting != nil {
			b.folds.drop(rec.Channel, waiting) // written with these
		}
		b.wakeAt(after.Due)
	case errors.Is(err, ErrNothingToDo), errors.Is(err, dixbot.ErrNotFound):
		return nil, failed
	default:
		b.storeFailed("update", err)
		return missing, errors.Join(failed, fmt.Errorf("recording the effects done: %w", err))
	}
	var since time.Time
	if missing != nil && mark == nil {
		since = missing.Since
	}
	b.logMissing(rec.Channel, mark, refused, since)
	return mark, failed
}

// foldWaiting is the fold waiting in the run's channel (fold.go) when it
// is of the run's record: its effects are done already (nil: none).
func (x *cexec) foldWaiting() *fold {
	w := x.b.folds.Get(x.rec.Channel)
	if w == nil || !w.Of(x.rec, tableName(x.td), x.td.Outbox) {
		return nil
	}
	if x.shown == nil && w.shown != nil && bytes.Equal(w.shown, x.rec.Data) {
		// Its answer's check goes with it. Where this process knows a
		// later game, this run's answer or edit shows it after that
		// answer.
		x.shown, x.unchecked = w.shown, true
	}
	return w
}

// oweShownAgain owes the board's edit again, due at once, when shown
// (nil: none), the game an answer put on the board of table, is not the
// game as stored: a later change of another process may have been
// answered first, and its effects done already (counted shown by its own
// answer), leaving this run no effect whose record would compare them.
func (b *Bot) oweShownAgain(ctx context.Context, rec *dixbot.Record, table string, shown []byte) {
	if shown == nil || table == "" {
		return
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.timeout)
	defer cancel()
	after, err := b.update(sctx, rec.Channel, "", b.onTable(rec.Game, func(r *dixbot.Record, _ *present.Game, cur *tableData) error {
		if r.Data == nil || tableName(cur) != table || !cur.showAgain(r.Data, shown, b.self) {
			return ErrNothingToDo
		}
		if now := b.now(); r.Due.IsZero() || r.Due.After(now) {
			r.Due = now
		}
		return nil
	}))
	b.afterOwnUpdate(rec.Channel, after, err, "could not owe the board's edit again; the board may show an older game")
}

// run does the outbox's effects after done, in order, up to the first
// Discord could not do for now (failed) or refused for good if it is the
// board's edit (x.held); it returns the last effect done, and whether the
// game was archived (its last effect).
func (x *cexec) run(ctx context.Context, done uint32) (last uint32, failed error, archived bool) {
	effs := x.td.Outbox
	for i, e := range effs {
		if e.ID <= done {
			continue // done by a batch whose record waits (fold)
		}
		if x.ix != nil && e.ID > x.upTo {
			// A later change's effects: its own process does them after
			// its answer (which shows a board click's change on the board
			// itself), or any process once they are due.
			break
		}
		if x.held.skip(x.td, e, effs[i+1:]) {
			done = e.ID
			continue
		}
		err := x.do(ctx, e)
		switch {
		case err != nil && !permanent(err):
			return done, fmt.Errorf("effect %s: %w", e.Kind, err), false
		case err != nil && x.held.refuse(e, err):
			return done, nil, false // the board's edit, refused for good: it stays owed
		case err != nil:
			x.b.log.Warn("effect refused by Discord; skipped", "channel", x.rec.Channel, "effect", e.Kind, "err", err)
		}
		done = e.ID
		if e.Kind == effFinish {
			return done, nil, true
		}
	}
	return done, nil, false
}

// fold leaves the recording of the effects done up to done, all of the
// outbox, to the channel's next change (fold.go) when nothing the table
// records changed but the board's newest interaction; it reports whether
// it did.
func (x *cexec) fold(done uint32) bool {
	td := x.td
	if !x.b.foldsOn() || tableName(td) == "" || len(x.posted) != 0 || len(x.others) != 0 || x.shown != nil && !x.unchecked ||
		done != td.Outbox[len(td.Outbox)-1].ID {
		return false
	}
	// Nothing the table records changed but the board's newest
	// interaction: the effects are recorded done with the channel's
	// next change (fold.go).
	fd := &fold{Table: tableName(x.td), Version: x.rec.Version, Done: done, Board: x.td.Board, shown: x.shown, by: x.b.self}
	fd.read.Store(&written{meta: x.rec.Meta, td: x.td})
	if v := x.ix; v.usable(x.now) && v.Orig != "" && v.Orig == x.td.Board {
		fd.Via = v
	}
	if x.pic != nil && !samePicture(x.pic, x.td.Pic) {
		fd.pic, fd.pic0 = x.pic, x.pic0 // the pictures the answer showed
	}
	x.b.later(x.rec.Channel, fd)
	return true
}

// recordDone removes from the outbox of r, whose table data is cur, the
// effects done up to done and records what they posted and showed; a rate
// limit (limited) makes the rest due when it ends, wait from now.
func (x *cexec) recordDone(r *dixbot.Record, cur *tableData, done uint32, wait time.Duration, limited bool, mark **Missing) error {
	keep := cur.Outbox[:0]
	for _, e := range cur.Outbox {
		if e.ID <= done {
			continue
		}
		if n, ok := pingRef(e); ok {
			if v, posted := x.posted[n]; posted {
				e.Msg, e.Via = v.Orig, viaOrNil(v)
			}
		}
		keep = append(keep, e)
	}
	cur.Outbox = keep
	if v := x.ix; v.usable(x.now) && v.Orig != "" && (v.Orig == cur.Board || r.Data == nil && cur.BoardVia != nil && v.Orig == cur.BoardVia.Orig) &&
		(!cur.BoardVia.usable(x.now) || cur.BoardVia.At <= v.At) {
		// The newest click answered on the board (or the lobby): its token
		// edits it for the longest. Recorded once answered, so no request
		// goes through a token before its interaction is answered.
		cur.BoardVia = v
	}
	if p := cur.Ping; p != nil && p.ID == "" {
		if v, posted := x.posted[p.Eff]; posted {
			p.ID, p.Via, p.Eff = v.Orig, viaOrNil(v), 0
		}
	}
	x.forgetLost(cur)
	cur.Pic = x.boardPicture(r, cur)
	x.recordLobby(cur, r.Data)
	x.lobbyAgain(r, cur)
	// The game moved on since the board was edited or answered: a
	// newer change's answer may have landed before, and the board may
	// show an older game. The board is shown again.
	cur.showAgain(r.Data, x.shown, x.b.self)
	if r.Data != nil {
		for _, by := range x.others {
			cur.oweAgain(by) // two names make it owed in none's (oweAgain)
		}
	}
	now := x.b.now()
	var st engine.State
	if r.Data != nil {
		st, _ = x.g.Rules.Decode(r.Data)
	}
	x.held.record(cur, st != nil && st.Over(), now)
	*mark = cur.Missing
	r.Due = time.Time{}
	if st != nil {
		setTableDue(r, cur, x.g, st)
	}
	switch {
	case limited && len(cur.Outbox) > 0:
		if at := now.Add(wait); r.Due.IsZero() || r.Due.After(at) {
			r.Due = at
		}
	case cur.Missing == nil:
		cur.outboxDue(r, now)
	}
	return nil
}

// forgetLost takes the token of the interaction whose answer did not land
// (x.lost) out of cur: the board's and the effects' messages are then
// edited with the bot token.
func (x *cexec) forgetLost(cur *tableData) {
	if x.lost == "" {
		return
	}
	forget := func(v *Via) *Via {
		if v == nil || v.Token != x.lost {
			return v
		}
		return &Via{Orig: v.Orig}
	}
	cur.BoardVia = forget(cur.BoardVia)
	for i := range cur.Outbox {
		cur.Outbox[i].Via = forget(cur.Outbox[i].Via)
	}
}

// pingRef is the number of the ping effect whose message a settle effect
// names before it is posted ("#<n>").
func pingRef(e effect) (uint32, bool) {
	if e.Kind != effSettle || !strings.HasPrefix(e.Msg, "#") {
		return 0, false
	}
	n, err := strconv.ParseUint(e.Msg[1:], 10, 32)
	return uint32(n), err == nil
}

// viaOrNil is v without its message, nil when it has no token (a message
// posted with the bot token).
func viaOrNil(v Via) *Via {
	if v.Token == "" {
		return nil
	}
	v.Orig = ""
	return &v
}

// showAgain owes the board's edit again when shown, the game an edit or an
// answer of process by put on the board (nil: none), is not data, the game
// as stored: a later change's answer may have landed first. It reports
// whether it changed the outbox.
func (td *tableData) showAgain(data, shown []byte, by string) bool {
	if shown == nil || bytes.Equal(data, shown) {
		return false
	}
	return td.oweAgain(by)
}

// oweAgain owes the board's edit again in the name of process by (effect.By),
// whose render may have landed after a newer one. One edit is owed again
// at most: one owed already in another process's name is then left out by
// none (By ""), since either process's render may be the last. It reports
// whether it changed the outbox.
func (td *tableData) oweAgain(by string) bool {
	for i, e := range td.Outbox {
		if e.Kind == effEdit && e.Again {
			if e.By == by || e.By == "" {
				return false
			}
			td.Outbox[i].By = ""
			return true
		}
	}
	td.NextEffect++
	td.Outbox = append(td.Outbox, effect{ID: td.NextEffect, Kind: effEdit, Again: true, By: by})
	return true
}

// cexec does the effects of a game.
type cexec struct {
	b   *Bot
	d   DiscordAPI
	rec *dixbot.Record // the record as it stands (the freshest read)
	td  *tableData
	g   *present.Game
	ix  *Via // the interaction whose change owed effects up to upTo (nil: none)
	// lost is the token of the interaction whose change owed the effects
	// when its answer did not land ("": none): no edit goes through it,
	// and the table forgets it (recordDone).
	lost   string
	upTo   uint32 // the last effect owed by ix's change
	tried  uint32 // the last effect another try may have done in part
	now    time.Time
	posted map[uint32]Via // ping messages posted by this run, by effect: the message (Orig) and its interaction
	shown  []byte         // the game data the board may show: of a board edit of this run, or of the answer run with (nil: none)
	// unchecked: shown is an answer's, not yet compared with the game as
	// stored; a fold carries that check (fold.applyOn).
	unchecked bool
	pic       *boardPic // the pictures the board has, when known (pictures.go)
	pic0      *boardPic // the table data's Pic as read
	read      bool
	recent    []*discordgo.Message
	hold      *Hold // the run's hold on the effects: only while it lasts does it post
	lobby     *Via  // the lobby message this run found or posted (lobby.go)
	// lobbyShown is the lobby counter plus one of the lobby this run's
	// edit put on the lobby message (0: none).
	lobbyShown uint32
	held       boardHold
	// others are the processes of earlier changes whose board edits this
	// run counted shown by its own answer, owed again in their names
	// (recordDone).
	others []string
}

func (x *cexec) do(ctx context.Context, e effect) error {
	switch e.Kind {
	case effEdit:
		if x.td.Board == "" || x.rec.Data == nil {
			return nil
		}
		answered := x.ix != nil && x.ix.Orig == x.td.Board && e.ID <= x.upTo
		if !e.Again && answered && !x.behind() {
			// The answer showed the change on the board; a newer change
			// shows itself (its answer, or its own owed edit). Where
			// several seats decide at once (shown: this answer was
			// checked against such races), the answer of an earlier
			// change made by another process may land after this one's,
			// and only that process knows when it landed: the edit is
			// owed again in its name (recordDone), which it leaves out
			// once its own later render shows the game, and any process
			// sends should that process die first. Where one seat
			// decides, the click came from a board that showed the
			// earlier change.
			if e.By != "" && e.By != x.b.self && x.shown != nil {
				if !slices.Contains(x.others, e.By) {
					x.others = append(x.others, e.By)
				}
			}
			return nil
		}
		// An edit that shows the game again after an older render of
		// this process is left out where this process showed that
		// state since; one after another process's must be sent.
		return x.editBoard(ctx, e.Again && e.By == x.b.self || answered)
	case effPing:
		if x.td.Board == "" {
			return nil
		}
		ms := &discordgo.MessageSend{Content: e.Text, AllowedMentions: &discordgo.MessageAllowedMentions{Users: e.Users}}
		msg, v, err := x.post(ctx, e, ms)
		if err != nil {
			return err
		}
		pv := Via{Orig: msg.ID}
		if v != nil {
			pv = *v
			pv.Orig = msg.ID
		}
		x.posted[e.ID] = pv
		return nil
	case effSettle:
		msg, v := e.Msg, e.Via
		if n, ok := pingRef(e); ok {
			p, posted := x.posted[n]
			if !posted {
				return nil // its ping was never posted (refused for good)
			}
			msg, v = p.Orig, viaOrNil(p)
		}
		if msg == "" {
			return nil
		}
		text := e.Text
		if v.usable(x.now) {
			err := x.d.FollowupEdit(ctx, v.Interaction(), msg, &discordgo.WebhookEdit{Content: &text, AllowedMentions: noMentions()})
			if err == nil || ctx.Err() != nil {
				return err
			}
			x.b.log.Info("ping edit through the interaction refused; editing with the bot token", "channel", x.rec.Channel, "err", err)
		}
		return x.d.Edit(ctx, &discordgo.MessageEdit{Channel: x.rec.Channel, ID: msg, Content: &text, AllowedMentions: noMentions()})
	case effRetire:
		return x.retire(ctx, e.Msg, e.Via)
	case effLobby:
		return x.showLobby(ctx, e)
	case effLobbyEdit:
		return x.editLobby(ctx, e)
	case effEnd:
		return x.b.gameEnded(ctx, x.rec, x.td)
	case effFinish:
		sctx, cancel := context.WithTimeout(ctx, x.b.timeout)
		defer cancel()
		if err := x.b.finishTable(sctx, x.rec.Channel, x.rec.Game, x.td); err != nil && !errors.Is(err, dixbot.ErrNotFound) {
			x.b.storeFailed("finish", err)
			return err
		}
		return nil
	}
	return fmt.Errorf("bot: unknown effect %q", e.Kind)
}

// behind reports whether the board shows an older game than the record's:
// the answer landed after a later change's (shown), so no answer of that
// later change shows it any more; the run's edit does, at once.
func (x *cexec) behind() bool {
	return x.shown != nil && !bytes.Equal(x.rec.Data, x.shown)
}

// tableFinisher is a store that archives a channel's record only when it
// is the one meant, in one compare-and-set (store.Redis.FinishIf,
// store.File.FinishIf).
type tableFinisher interface {
	FinishIf(ctx context.Context, channel string, same func(*dixbot.Record) bool) error
}

// finishTable archives the channel's record when it still holds the table
// td of game (the one opened by the same interaction): a game over may be
// archived by the start of the next table (FinishOver) while its own last
// effects are still being done, and its archiving must not take the new
// table with it. Another table gives dixbot.ErrNotFound, as no record
// does. A store without FinishIf archives whatever record is there.
func (b *Bot) finishTable(ctx context.Context, channel, game string, td *tableData) error {
	f, ok := b.store.(tableFinisher)
	if !ok {
		return b.store.Finish(ctx, channel)
	}
	opening := td.opening()
	return f.FinishIf(ctx, channel, func(r *dixbot.Record) bool {
		if r.Game != game {
			return false
		}
		cur, err := decodeTableData(r.Meta)
		return err == nil && cur.opening() == opening
	})
}

// gameEnded is the table's work at the end of a game, done once
// (effect effEnd) before the game is archived, with the record as it
// stands: the game's log gets its last lines, should the write after the
// last change have been lost, and its result is recorded in the stats
// (stats.go). An error leaves the effect owed, tried again later.
func (b *Bot) gameEnded(ctx context.Context, rec *dixbot.Record, td *tableData) error {
	if first, lines := td.unlogged(); len(lines) > 0 {
		// The log of a later table (this one archived by its start) is
		// left alone.
		if err := b.appendLog(ctx, rec.Channel, td.logOrigin(), first, lines, false); err != nil {
			return err
		}
	}
	return b.recordOver(ctx, rec)
}
