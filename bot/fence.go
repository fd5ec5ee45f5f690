package bot

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/internal/discordapi"
)

// shows is what a request puts on a board message: the game at version
// Seq, or, with Retire, no game at all (the buttons stripped, the turn's
// summary, a game gone).
type shows struct {
	Seq    uint64
	Retire bool
	// Newer: sent only when the board shows an older state than Seq by
	// this process's requests (an edit that shows the game again after
	// another process's answer, which this fence does not see).
	Newer bool
}

// fences order, within one process, what reaches each board message: a
// render of an older state never lands after a newer one, and nothing
// shows a game on a board once it is retired. Requests that change the
// same board run one at a time, in the order they pass the fence; a render
// older than what the board shows is not sent. The table still owes an
// edit after any change (effEdit), so a render left out is never the last
// word. fences is safe for concurrent use.
type fences struct {
	mu     sync.Mutex
	M      map[string]*fence
	pruned time.Time // the last look for idle fences
}

type fence struct {
	mu      sync.Mutex // held while a request on the board is in flight
	seq     uint64
	retired atomic.Bool   // read without mu, by retired
	shown   atomic.Uint64 // seq plus one once a render landed, read without mu, by Shown
	used    time.Time
}

// fenceKeep is how long a board's fence outlives its last request: longer
// than any request of the table stays in flight.
const fenceKeep = 10 * time.Minute

// fencePrune is the number of fences above which the idle ones are
// dropped, at most once per fencePruneEvery: a busy process keeps more
// fences than that within fenceKeep, and looking through them on every
// request would cost more than keeping them.
const (
	fencePrune      = 4096
	fencePruneEvery = time.Minute
)

// Send runs fn, the request that makes message show s, unless the message
// shows a newer state or is retired; it reports whether fn ran. A retire
// always runs (it is the same whenever it lands). The fence moves unless
// Discord (or the rate limiter, before sending) refused the request: one
// that failed otherwise may still have landed, and a later render of an
// older state must not follow it.
func (f *fences) Send(message string, s shows, now time.Time, fn func() error) (bool, error) {
	if message == "" {
		return true, fn()
	}
	e := f.entry(message, now)
	e.mu.Lock()
	defer e.mu.Unlock()
	if !s.Retire && (e.retired.Load() || s.Seq < e.seq || s.Newer && s.Seq == e.seq && e.shown.Load() > 0) {
		return false, nil
	}
	err := fn()
	if refusedRequest(err) {
		return true, err
	}
	if s.Retire {
		e.retired.Store(true)
	} else {
		e.seq = s.Seq
		e.shown.Store(s.Seq + 1)
	}
	return true, err
}

// refusedRequest reports whether err says the request changed nothing:
// Discord answered it with a client error (a 429 included), or the rate
// limiter kept it from being sent.
func refusedRequest(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrNotShown) {
		return true
	}
	if _, _, ok := discordapi.RetryAfter(err); ok {
		return true
	}
	var rerr *discordgo.RESTError
	return errors.As(err, &rerr) && rerr.Response != nil && rerr.Response.StatusCode >= 400 && rerr.Response.StatusCode < 500
}

// ErrNotShown is an answer that did not put its board on the message (it
// was refused, or became a private text).
var ErrNotShown = errors.New("bot: the answer did not show the board")

// Shown is the newest state a render sent by this process made message
// show (ok false: none, or it is retired).
func (f *fences) Shown(message string) (seq uint64, ok bool) {
	f.mu.Lock()
	e := f.M[message]
	f.mu.Unlock()
	if e == nil || e.retired.Load() {
		return 0, false
	}
	n := e.shown.Load()
	return n - 1, n > 0
}

func (f *fences) entry(message string, now time.Time) *fence {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.M == nil {
		f.M = map[string]*fence{}
	}
	if len(f.M) >= fencePrune && now.Sub(f.pruned) >= fencePruneEvery {
		f.pruned = now
		for id, e := range f.M {
			if now.Sub(e.used) > fenceKeep {
				delete(f.M, id)
			}
		}
	}
	e := f.M[message]
	if e == nil {
		e = &fence{}
		f.M[message] = e
	}
	e.used = now
	return e
}
