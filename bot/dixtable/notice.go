package dixtable

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
)

// refused records that Discord refused for good, at now, to post the
// effect of kind with err: the first time it holds the game's clock; it
// schedules the next try of the bot token.
func (m *dixTable) refused(kind string, err error, now time.Time) {
	if m.Missing == nil {
		m.Missing = &bot.Missing{Since: now}
		if m.Clock != nil {
			m.Clock.Pause(now)
		}
	}
	mk := m.Missing
	mk.Kind = kind
	mk.Status, mk.Code = bot.Refusal(err)
	mk.Tries++
	mk.Next = time.Time{}
	if d := bot.MissingRetry(mk.Tries); d > 0 && mk.Code != discordgo.ErrCodeUnknownChannel {
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
		if !bot.Held(e.Kind) {
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
func retryMissing(b *bot.Bot, ctx context.Context, d bot.DiscordAPI, channel string, ix *bot.Via) (*bot.Missing, error) {
	sctx, cancel := context.WithTimeout(ctx, b.Timeout)
	var mark *bot.Missing
	rec, err := b.Store.Update(sctx, channel, "", onTable(func(r *dixbot.Record, m *dixTable) error {
		mark = m.Missing
		if m.Missing == nil || len(m.Outbox) == 0 {
			return bot.ErrNothingToDo
		}
		now := b.Now()
		if r.Due.After(now) && !bot.Near(r.Due, m.Missing.Next) {
			return bot.ErrNothingToDo
		}
		r.Due = now.Add(bot.OutboxGrace)
		return nil
	}))
	cancel()
	switch {
	case errors.Is(err, bot.ErrNothingToDo):
		return mark, nil
	case errors.Is(err, dixbot.ErrNotFound):
		return nil, nil
	case err != nil:
		if bot.IsStoreFailure(err) && b.Obs != nil {
			b.Obs.StoreError("update")
		}
		return mark, err
	}
	b.WakeAt(rec.Due)
	return doOutbox(b, ctx, d, rec, ix)
}

// seenMissing is the mark of the game the call saw (nil: none).
func seenMissing(c *bot.Call) *bot.Missing {
	r := c.Notice.Seen
	if r == nil || r.Finished || dix.GameOf(r.State) == nil || !bytes.Contains(r.Meta, bot.MissingKey) {
		return nil // the common case, without decoding the table data
	}
	m, err := decodeDixTable(r.Meta)
	if err != nil {
		return nil
	}
	return m.Missing
}
