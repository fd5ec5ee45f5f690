package bot

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"
)

// refused records that Discord refused for good, at now, to post the
// effect of kind with err: the first time it holds the game's clock; it
// schedules the next try of the bot token.
func (m *dixTable) refused(kind string, err error, now time.Time) {
	if m.Missing == nil {
		m.Missing = &missing{Since: now}
		if m.Clock != nil {
			m.Clock.Pause(now)
		}
	}
	mk := m.Missing
	mk.Kind = kind
	mk.Status, mk.Code = refusal(err)
	mk.Tries++
	mk.Next = time.Time{}
	if d := missingRetry(mk.Tries); d > 0 && mk.Code != discordgo.ErrCodeUnknownChannel {
		mk.Next = now.Add(d)
	}
}

// found clears the mark once the board is posted: the clock runs again
// from at, unless someone paused the game.
func (m *dixTable) found(at time.Time) {
	if m.Missing == nil {
		return
	}
	m.Missing = nil
	if m.Clock != nil && m.PausedBy == "" {
		m.Clock.Resume(at)
	}
}

// dropHeld forgets the board and scoreboard still owed and the mark (the
// game is abandoned: they have nothing left to show).
func (m *dixTable) dropHeld() {
	if m.Missing == nil {
		return
	}
	keep := m.Outbox[:0]
	for _, e := range m.Outbox {
		if !held(e.Kind) {
			keep = append(keep, e)
		}
	}
	m.Outbox, m.Missing = keep, nil
}

// retryMissing tries the board owed in channel again at once through ix,
// the interaction of a click or command in the game, unless another call
// is at it (a lease, or the grace of a change: it then leaves it alone).
// It claims the game for the grace a change gives its own process, so no
// other process posts the board at the same time. It returns the mark as
// it is after the try (nil: the board is there).
func (b *Bot) retryMissing(ctx context.Context, d discordAPI, channel string, ix *via) (*missing, error) {
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	var mark *missing
	rec, err := b.store.Update(sctx, channel, "", onTable(func(r *dixbot.Record, m *dixTable) error {
		mark = m.Missing
		if m.Missing == nil || len(m.Outbox) == 0 {
			return errNothingToDo
		}
		now := b.now()
		if r.Due.After(now) && !near(r.Due, m.Missing.Next) {
			return errNothingToDo
		}
		r.Due = now.Add(outboxGrace)
		return nil
	}))
	cancel()
	switch {
	case errors.Is(err, errNothingToDo):
		return mark, nil
	case errors.Is(err, dixbot.ErrNotFound):
		return nil, nil
	case err != nil:
		if isStoreFailure(err) && b.obs != nil {
			b.obs.StoreError("update")
		}
		return mark, err
	}
	b.wakeAt(rec.Due)
	return b.doOutbox(ctx, d, rec, ix)
}

// seenMissing is the mark of the game the call saw (nil: none).
func (c *call) seenMissing() *missing {
	r := c.notice.seen
	if r == nil || r.Finished || r.State == nil || !bytes.Contains(r.Meta, missingKey) {
		return nil // the common case, without decoding the table data
	}
	m, err := decodeDixTable(r.Meta)
	if err != nil {
		return nil
	}
	return m.Missing
}
