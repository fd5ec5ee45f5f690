package dixtable

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
)

// A change's own process posts the messages its effects owe only while it
// holds them (the grace after the change): a follow-up carries no nonce,
// so another process that took the effects over would post the same board
// again. Late, with the effects claimed by another process meanwhile, it
// posts nothing and leaves them to that process, which posts the board
// once. Late with nobody else on them, it holds them longer and posts the
// board itself, as a follow-up of the click.
func TestOwnEffectsOnlyWhileHeld(t *testing.T) {
	t.Parallel()
	for _, claimed := range []bool{true, false} {
		name := "nobody else"
		if claimed {
			name = "claimed by another process"
		}
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
			board := h.Board()
			h.ClickOn("u1", board, h.MustFind(board, verbDraw))
			h.ClickOn("u1", board, h.MustFind(board, verbStop))
			// The next click's effects start when its hold has ended.
			h.b.EffectDelay = bot.OutboxGrace
			if claimed {
				h.b.EffectsHook = func() {
					_, err := h.Db.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
						r.Due = time.Now().Add(bot.OutboxLease) // what another process's claim writes
						return nil
					})
					require.NoError(t, err)
				}
			}
			res := h.ClickOn("u1", board, h.MustFind(board, verbMoney))
			posts := 0
			for _, c := range res.Calls {
				if c.Posted() {
					posts++
					assert.Equal(t, "followup", c.Op, "posted with the click's token")
				}
			}
			rec, m := h.Record()
			if !claimed {
				assert.Equal(t, 1, posts, "the board is posted by the change's process")
				assert.Empty(t, m.Outbox)
				assert.Equal(t, []string{m.Board}, liveBoards(h.Rec))
				return
			}
			assert.Zero(t, posts, "nothing posted once the effects were taken over")
			require.Len(t, m.Outbox, 1, "the new board is still owed")
			assert.Equal(t, bot.EffBoard, m.Outbox[0].Kind)

			// The process that took them over does them.
			h.b.EffectDelay, h.b.EffectsHook = 0, nil
			before := h.Rec.Count()
			require.NoError(t, h.b.RunDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
			posts = 0
			for _, c := range h.Rec.Since(before) {
				if c.Posted() {
					posts++
				}
			}
			assert.Equal(t, 1, posts, "one board posted")
			_, m = h.Record()
			assert.Empty(t, m.Outbox)
			assert.Equal(t, []string{m.Board}, liveBoards(h.Rec), "exactly one board with buttons")
		})
	}
}

// The same for a contract game: the ping a Qwixx game's start owes is not
// posted by the change's own process once another process took its
// effects over, and that process posts it once.
func TestOwnContractEffectsOnlyWhileHeld(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	lobby := h.qcommand("u1", "start").Shown(nil)
	require.NotNil(t, lobby)
	lobby = h.ClickOn("u2", lobby, h.qmust(lobby, bot.CverbJoin, "")).Shown(lobby)
	h.b.EffectDelay = bot.OutboxGrace
	h.b.EffectsHook = func() {
		_, err := h.Db.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
			r.Due = time.Now().Add(bot.OutboxLease) // what another process's claim writes
			return nil
		})
		require.NoError(t, err)
	}
	res := h.ClickOn("u1", lobby, h.qmust(lobby, bot.CverbGo, ""))
	for _, c := range res.Calls {
		assert.False(t, c.Posted(), "nothing posted once the effects were taken over: %s", c.Op)
	}
	_, td, _ := h.qstate()
	owed := 0
	for _, e := range td.Outbox {
		if e.Kind == bot.CeffPing {
			owed++
		}
	}
	require.Equal(t, 1, owed, "Bob's ping is still owed")

	h.b.EffectDelay, h.b.EffectsHook = 0, nil
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	before := h.Rec.Count()
	require.NoError(t, h.b.RunDueOn(context.Background(), h.Rec, h.Channel, r.Due))
	posts := 0
	for _, c := range h.Rec.Since(before) {
		if c.Posted() {
			posts++
		}
	}
	assert.Equal(t, 1, posts, "the ping is posted once")
	_, td, _ = h.qstate()
	assert.Empty(t, td.Outbox)
}
