package schedule

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Source lists the keys whose work is due at or before now, at most max,
// earliest first. It is safe for concurrent use.
type Source interface {
	Due(ctx context.Context, now time.Time, max int) ([]string, error)
}

// Handler does the work of one due key, found due as of asOf (the poll's
// time). It must claim
// the key before acting so that two pollers finding it at once do not both
// act, and leave the key due (or due again later) when it could not finish.
// An error is logged and the key is offered again at a later poll.
type Handler func(ctx context.Context, key string, asOf time.Time) error

// Runner polls a Source and hands due keys to a Handler. The zero value is
// not usable: set Source and Handle.
type Runner struct {
	Source Source
	Handle Handler
	// Every is the time between polls (default 1 s). Lateness is at most
	// about one interval plus the handler's time.
	Every time.Duration
	// Batch is how many keys one poll takes (default 64); a full batch
	// polls again at once.
	Batch int
	// Workers handle keys in parallel (default 4).
	Workers int
	// Timeout bounds one handler call (default 15 s).
	Timeout time.Duration
	// Now is the clock (default time.Now); tests inject one.
	Now func() time.Time
	// Logger receives handler and source errors (default: discarded).
	Logger *slog.Logger

	wake chan struct{}
	once sync.Once
}

func (r *Runner) init() {
	r.once.Do(func() {
		if r.Every <= 0 {
			r.Every = time.Second
		}
		if r.Batch <= 0 {
			r.Batch = 64
		}
		if r.Workers <= 0 {
			r.Workers = 4
		}
		if r.Timeout <= 0 {
			r.Timeout = 15 * time.Second
		}
		if r.Now == nil {
			r.Now = time.Now
		}
		if r.Logger == nil {
			r.Logger = slog.New(slog.DiscardHandler)
		}
		r.wake = make(chan struct{}, 1)
	})
}

// Wake asks for a poll now rather than at the next interval. It never
// blocks and is safe for concurrent use.
func (r *Runner) Wake() {
	r.init()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// WakeAt asks for a poll at at when that is before the next regular poll
// (a deadline known to fall between two polls is then acted on at once
// rather than up to Every late). It never blocks and is safe for
// concurrent use.
func (r *Runner) WakeAt(at time.Time) {
	r.init()
	d := at.Sub(r.Now())
	switch {
	case at.IsZero() || d >= r.Every:
		// the regular polls find it
	case d <= 0:
		r.Wake()
	default:
		time.AfterFunc(d, r.Wake)
	}
}

// Run polls until ctx is done, then waits for the handlers in flight. The
// first poll is at once and, like every other, takes only the work due by
// then: work due later may be under way in a live process (a process that
// made a change has a grace to do its own Discord work), and taking it
// early would do it twice.
func (r *Runner) Run(ctx context.Context) {
	r.init()
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-r.wake:
		}
		full := r.Poll(ctx, 0)
		next := r.Every
		if full {
			next = 0
		}
		if !t.Stop() {
			select {
			case <-t.C:
			default:
			}
		}
		t.Reset(next)
	}
}

// Poll does one round: it takes the keys due at now+ahead and handles them,
// returning when all are handled, and reports whether the batch was full
// (more may be due).
func (r *Runner) Poll(ctx context.Context, ahead time.Duration) bool {
	r.init()
	asOf := r.Now().Add(ahead)
	keys, err := r.Source.Due(ctx, asOf, r.Batch)
	if err != nil {
		if ctx.Err() == nil {
			r.Logger.Warn("schedule: polling for due work", "err", err)
		}
		return false
	}
	work := make(chan string)
	var wg sync.WaitGroup
	for range min(r.Workers, len(keys)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range work {
				r.handle(ctx, k, asOf)
			}
		}()
	}
	for _, k := range keys {
		work <- k
	}
	close(work)
	wg.Wait()
	return len(keys) == r.Batch
}

func (r *Runner) handle(ctx context.Context, key string, asOf time.Time) {
	hctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			r.Logger.Error("schedule: handler panicked", "key", key, "panic", p)
		}
	}()
	if err := r.Handle(hctx, key, asOf); err != nil && ctx.Err() == nil {
		r.Logger.Warn("schedule: due work failed; it stays due", "key", key, "err", err)
	}
}
