package bot

import (
	"context"
	"errors"
	"time"

	"github.com/dixgame/dixbot"
)

// Retire deletes what is kept of the channel's game archived at or before
// before (DIX_RETENTION): its archived record, and its game log when that
// was last written at or before before too (a later log belongs to a newer
// game of the channel). An active game is never touched. It is the handler
// of the retention scheduler, which finds the channels with
// dixbot.Retention.Retired; a store without retention has nothing to do.
func (b *Bot) Retire(ctx context.Context, channel string, before time.Time) error {
	rs, ok := b.store.(dixbot.Retention)
	if !ok {
		return nil
	}
	if _, err := rs.Purge(ctx, channel, before); err != nil {
		return err
	}
	key := logChannel(channel)
	lr, err := b.store.Get(ctx, key)
	switch {
	case errors.Is(err, dixbot.ErrNotFound):
		return nil
	case err != nil:
		return err
	case lr.UpdatedAt.After(before):
		return nil
	}
	if err := b.store.Delete(ctx, key); err != nil && !errors.Is(err, dixbot.ErrNotFound) {
		return err
	}
	return nil
}
