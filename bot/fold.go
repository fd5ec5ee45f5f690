package bot

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
)

// Effects done but not yet recorded. A batch of effects that changed
// nothing the table records (no message posted, retired or refused, no
// board edited: most often a click whose answer already showed its change
// on the board) need not be recorded done by a write of its own: this
// process records it with the channel's next change it makes (a click,
// its due work, the next batch's record), or on its own foldWait after
// the batch if no change came first. Until then the record stays due at
// the end of the grace (outboxGrace), so a process that dies with a fold
// unwritten leaves its effects to be taken over, exactly as if it had died
// before doing them; they are edits of the board to the game as it stands
// and ping edits, which are idempotent.
//
// Only a store that keeps the records this process wrote (store.Redis)
// folds: there the separate write is a round trip to the server; the
// embedded store writes at once, as it always did.

// foldWait is how long a fold waits for the channel's next change before
// it is written on its own: half the grace, so that a loaded process
// writes it well before the record falls due and another process (or its
// own poller) takes the effects over again.
const foldWait = outboxGrace / 2

// fold is the record of a batch of effects done: the effects of the table
// named table (tableName) numbered up to done leave the outbox of the
// record, of version at least version; via, when set, is the interaction
// that now edits board (the newest click on it).
type fold struct {
	Table   string
	Version uint64
	Done    uint32
	Board   string
	Via     *Via
	// pic, when set, is the pictures a game's board has (learnt
	// from the answer that showed them), recorded while the table data's
	// Pic is still pic0, as the batch read it (pictures.go).
	pic, pic0 *boardPic
	// shown, when set, is the game the batch's answer put on the board
	// while another process could change the game too: the write that
	// takes the fold compares it with the game as stored (applyOn).
	shown []byte
	by    string // the process that folded (Bot.self)
	// read is the table data the batch read, decoded, which the fold's
	// own write takes instead of decoding the same bytes again (once:
	// the write changes it; nil: taken).
	read atomic.Pointer[written]
}

// Of reports whether fd is of the table named table as stored in r: a
// table opened anew in the channel has another name, and starts again at
// version 1.
func (fd *fold) Of(r *dixbot.Record, table string, outbox []effect) bool {
	return fd.Table != "" && table == fd.Table && r.Version >= fd.Version &&
		len(outbox) > 0 && outbox[0].ID <= fd.Done
}

// tableName names a game's table: its board message, the
// answer to the command that opened it, with the rematch that opened it
// if any ("": no board yet, no fold).
func tableName(td *tableData) string {
	if td.Board == "" {
		return ""
	}
	return td.Origin + "/" + td.began()
}

// folds are the folds waiting, by channel. Safe for concurrent use.
type folds struct {
	mu sync.Mutex
	m  map[string]*fold
}

func (f *folds) Get(channel string) *fold {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.m[channel]
}

func (f *folds) put(channel string, fd *fold) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = map[string]*fold{}
	}
	f.m[channel] = fd
}

// drop forgets fd, once written, unless a later fold replaced it.
func (f *folds) drop(channel string, fd *fold) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m[channel] == fd {
		delete(f.m, channel)
	}
}

// All takes every fold waiting.
func (f *folds) All() map[string]*fold {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.m
	f.m = nil
	return m
}

// applyOn is apply for the table td of a game: the record
// is due for what is left when due is set (the change it is written with
// sets its due time itself otherwise). When the game as stored moved on
// from the one the batch's answer showed (shown), a later change's answer
// may have landed first: the board's edit is owed again, due at once.
//
// The effects may be gone already, done by another process's change
// (whose answer then counted them shown by itself): the comparison is
// made all the same, since this batch's answer may have landed after
// that change's.
func (fd *fold) applyOn(r *dixbot.Record, td *tableData, g *present.Game, now time.Time, due bool) bool {
	if fd.Table == "" || tableName(td) != fd.Table || r.Version < fd.Version {
		return false
	}
	took := fd.Of(r, fd.Table, td.Outbox)
	if took {
		td.Outbox = slices.DeleteFunc(td.Outbox, func(e effect) bool { return e.ID <= fd.Done })
	}
	again := td.showAgain(r.Data, fd.shown, fd.by)
	if !took && !again {
		return false
	}
	if v := fd.Via; v.usable(now) && v.Orig == td.Board && (!td.BoardVia.usable(now) || td.BoardVia.At <= v.At) {
		td.BoardVia = v
	}
	if fd.pic != nil && fd.pic.Msg == td.Board && samePicture(td.Pic, fd.pic0) {
		td.Pic = clonePtr(fd.pic)
	}
	if due {
		r.Due = time.Time{}
		if r.Data != nil {
			if st, err := g.Rules.Decode(r.Data); err == nil {
				setTableDue(r, td, g, st)
			}
		}
		td.outboxDue(r, now)
	}
	if again && (r.Due.IsZero() || r.Due.After(now)) {
		r.Due = now
	}
	return true
}

// foldsOn reports whether this bot folds: its store keeps the records
// this process wrote.
func (b *Bot) foldsOn() bool {
	_, ok := b.store.(latestRecords)
	return ok
}

// withFold is fn run on a record of channel after the fold waiting
// there, if any, is applied; fd is that fold (nil: none), to drop once the
// update is written.
func (b *Bot) withFold(channel string, fn func(*dixbot.Record) error) (func(*dixbot.Record) error, *fold) {
	fd := b.folds.Get(channel)
	if fd == nil {
		return fn, nil
	}
	return func(r *dixbot.Record) error {
		if g, ok := b.games[r.Game]; ok {
			if td, err := b.decodeTable(r); err == nil && fd.applyOn(r, td, g, b.now(), false) {
				b.encodeTable(r, td)
			}
		}
		return fn(r)
	}, fd
}

// later folds fd: it waits for the channel's next change, and is written
// on its own after foldWait.
func (b *Bot) later(channel string, fd *fold) {
	b.folds.put(channel, fd)
	wait := foldWait
	if b.hooks.foldWait > 0 {
		wait = b.hooks.foldWait
	}
	time.AfterFunc(wait, func() {
		if b.folds.Get(channel) != fd {
			return // written with a change, or replaced by a later one
		}
		// On a goroutine whose stack holds the write, not the timer's own.
		b.work.Run(func() {
			ctx, cancel := context.WithTimeout(context.Background(), b.timeout)
			defer cancel()
			b.writeFold(ctx, channel, fd)
		})
	})
}

// writeFold writes fd on its own.
func (b *Bot) writeFold(ctx context.Context, channel string, fd *fold) {
	after, err := b.update(ctx, channel, "", b.onTableRead("", fd.read.Swap(nil), func(r *dixbot.Record, g *present.Game, td *tableData) error {
		if !fd.applyOn(r, td, g, b.now(), true) {
			return ErrNothingToDo
		}
		return nil
	}))
	b.folds.drop(channel, fd)
	b.afterOwnUpdate(channel, after, err, "could not record the effects done; they are left for later")
}

// afterOwnUpdate follows an update the bot makes on its own (no click):
// once written, the poller wakes for the record's due time; an update
// with nothing to do, or of a game gone, is no failure; a failure is
// counted and logged with what it leaves undone (failed).
func (b *Bot) afterOwnUpdate(channel string, after *dixbot.Record, err error, failed string) {
	switch {
	case err == nil:
		b.wakeAt(after.Due)
	case errors.Is(err, ErrNothingToDo), errors.Is(err, dixbot.ErrNotFound):
	default:
		b.storeFailed("update", err)
		b.log.Warn(failed, "channel", channel, "err", err)
	}
}

// writeFolds writes every fold waiting, as the process stops; none when
// ctx is over already (they wait for a later call, or their timers).
func (b *Bot) writeFolds(ctx context.Context) {
	if ctx.Err() != nil {
		return
	}
	for channel, fd := range b.folds.All() {
		b.writeFold(ctx, channel, fd)
	}
}

// clonePtr is a pointer to a copy of *p, nil if p is; T holds no slice or
// pointer.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}
