package bot

import (
	"context"
	"errors"
	"time"

	"github.com/dixgame/dixbot"
)

// Store calls made for an interaction are tried again while the store
// fails for a moment (unreachable, too slow, busy), until the call's budget
// (workBudget) ends: the interaction is deferred meanwhile (deferral.go).
// A write that failed that way may still have landed (the reply is what
// was lost, or a slowed store runs it later): before writing again, the
// store is asked whether the interaction is recorded, so a click is never
// told refused when it was applied, and never applied twice.

// transient reports whether err is the store failing for a moment, so that
// trying again may succeed.
func transient(err error) bool {
	for _, e := range []error{dixbot.ErrUnavailable, dixbot.ErrLocked, dixbot.ErrConflict, context.DeadlineExceeded} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// Retry runs op, each try with its own store timeout, until it succeeds,
// fails otherwise than transiently, or the call's budget ends; a failed
// store call of kind op ("get", "update"…) is counted each time.
func (c *Call) Retry(kind string, op func(ctx context.Context) error) error {
	return c.B.retry(c.ctx, kind, op)
}

// retry runs op, each try within the store's timeout, until it succeeds,
// fails otherwise than transiently, or ctx ends; a failed store call of
// kind op is counted each time.
func (b *Bot) retry(ctx context.Context, kind string, op func(ctx context.Context) error) error {
	pause := b.retryPause
	for {
		sctx, cancel := context.WithTimeout(ctx, b.timeout)
		err := op(sctx)
		cancel()
		b.storeFailed(kind, err)
		if !transient(err) || ctx.Err() != nil {
			return err
		}
		b.log.Debug("store call failed; trying again", "op", kind, "err", err)
		t := time.NewTimer(pause)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return err
		}
		pause = min(2*pause, time.Second)
	}
}

// errProbe is the answer of the update applied runs: it never writes.
var errProbe = errors.New("bot: probe")

// applied reports whether the store recorded the call's interaction: it
// then returns the channel's record as it stands, else nil. It asks with an
// update that writes nothing: a store answers dixbot.ErrDuplicate for an
// interaction it recorded whatever the change would do now
// (store.Redis.Update, store.File.Update).
func (c *Call) applied(ctx context.Context) (*dixbot.Record, error) {
	_, err := c.B.update(ctx, c.I.ChannelID, c.I.ID, func(*dixbot.Record) error { return errProbe })
	switch {
	case errors.Is(err, dixbot.ErrDuplicate):
		return c.B.get(ctx, c.I.ChannelID)
	case errors.Is(err, errProbe), errors.Is(err, dixbot.ErrNotFound):
		return nil, nil
	}
	return nil, err
}
