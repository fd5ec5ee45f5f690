package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/locales"
)

// TestSlowRedis: Redis answers nothing for 2.5 s (frozen, as by DEBUG
// SLEEP) while a player clicks. The click is not failed: it is deferred
// within Discord's deadline (noViolations checks it), applied once when
// Redis answers again, and the board shows the result; nobody is told the
// store is unreachable.
func TestSlowRedis(t *testing.T) {
	t.Parallel()
	w := newOpsWorld(t)
	tb := w.table(t, "en-US", "Alice", "Bob/fr")
	tb.lobby("/dix start")
	rec, board, buttons, user := tb.untilOneClick()
	id := oneClickDecision(t, buttons)
	ok := w.metric(t, `dix_interactions_total{kind="button",outcome="ok"}`)

	w.redis.Pause()
	paused := time.Now()
	ix, err := tb.fake.Click(waitCtx(t), user.ID, board.ID, id.raw)
	require.NoError(t, err)
	r, err := ix.Wait(waitCtx(t))
	require.NoError(t, err)
	assert.Equal(t, 6, r.Type, "deferred: %s", describe(r))
	time.Sleep(time.Until(paused.Add(2500 * time.Millisecond)))
	w.redis.Resume()

	// The board shows the game after the click.
	require.NoError(t, waitUntil(waitCtx(t), w.fake, func() bool {
		return w.metric(t, `dix_interactions_total{kind="button",outcome="ok"}`) == ok+1
	}), "the click is handled")
	after := tb.record()
	assert.Greater(t, dixOf(after).Seq, dixOf(rec).Seq, "applied")
	tb.boardFor(after)
	for _, m := range append(ix.Followups(), tb.fake.Transcript(tb.channel.ID)...) {
		for _, lang := range []string{"en", "fr"} {
			assert.False(t, strings.Contains(m.Content, locales.T(lang, "err_store_unavailable", nil)), "told unreachable: %q", m.Content)
		}
	}
	assert.Zero(t, w.metric(t, `dix_interactions_total{kind="button",outcome="duplicate"}`))
	require.True(t, tb.decide(), "the game goes on")

	// A command meanwhile: "thinking…" privately, then the answer there.
	w.redis.Pause()
	paused = time.Now()
	ix, err = tb.fake.RunCommand(waitCtx(t), tb.users[1].ID, tb.channel.ID, "/dix hand")
	require.NoError(t, err)
	r, err = ix.Wait(waitCtx(t))
	require.NoError(t, err)
	assert.Equal(t, 5, r.Type, "deferred: %s", describe(r))
	time.Sleep(time.Until(paused.Add(2500 * time.Millisecond)))
	w.redis.Resume()
	r = tb.final(ix, r)
	require.NotNil(t, r.Message, describe(r))
	assert.True(t, r.Ephemeral(), describe(r))
	assert.NotEmpty(t, r.Message.Embeds, "the hand: %s", describe(r))
}
