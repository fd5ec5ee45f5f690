package e2e

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// TestPicturesThroughTheBotToken: the work a table does without a click
// (a decision out of time taken by the computer) edits the board with the
// bot token, while Discord refuses every follow-up and every edit made
// with an interaction's token (429, a limit no header announced). Each of
// those edits that shows the board's picture carries it whole: a PNG that
// decodes to its last pixel, as wide as the first board's, and never a
// file of 0 bytes (which the stand-in records as a violation, checked when
// the test ends).
func TestPicturesThroughTheBotToken(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	t.Cleanup(func() { noViolations(t, fake) })
	w := &world{fake: fake, cfg: baseConfig(t, fake, "")}
	w.cfg.Paces = "live=2s+1s"
	w.bot = startApp(t, w.cfg)
	tb := w.table(t, "en-US", "Alice", "Bob")
	tb.lobby("/dix start pace:live")
	first, _ := tb.boardFor(tb.record())
	require.Len(t, first.Attachments, 1, "the first board shows its picture")
	_, data, ok := w.fake.File(first.Attachments[0].ID)
	require.True(t, ok)
	want, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)

	w.fake.RateLimitNext("POST /webhooks/{id}/{token}", 1<<20, 100*time.Millisecond)
	w.fake.RateLimitNext("PATCH /webhooks/{id}/{token}/messages/{id}", 1<<20, 100*time.Millisecond)
	// Alice decides at once, Bob never: his decisions are the computer's,
	// once his time is out, with no click to answer.
	alice := tb.users[0].ID
	byBot := func() []fakediscord.Revision {
		var out []fakediscord.Revision
		for _, m := range w.fake.Transcript(tb.channel.ID) {
			versions := append(append([]fakediscord.Revision(nil), m.History...),
				fakediscord.Revision{Embeds: m.Embeds, Attachments: m.Attachments, By: m.EditedBy})
			for _, v := range versions {
				if v.By == "bot-token edit" && len(v.Attachments) > 0 {
					out = append(out, v)
				}
			}
		}
		return out
	}
	deadline := time.Now().Add(waitTimeout)
	for len(byBot()) < 3 {
		require.True(t, time.Now().Before(deadline), "no board edited with the bot token")
		rec := tb.record()
		g := dixOf(rec)
		if rec.Finished || g.Phase == dix.PhaseOver {
			break
		}
		if seats(t, rec)[g.ToAct()] == alice {
			tb.decideInTime(rec)
			continue
		}
		seq := g.Seq
		require.NoError(t, waitUntil(waitCtx(t), w.fake, func() bool { return dixOf(tb.record()).Seq != seq }), "Bob's decision out of time")
	}
	checkPictures(t, w.fake, tb.channel.ID, true)
	edits := byBot()
	for i, v := range edits {
		a := v.Attachments[0]
		assert.Equal(t, "board.png", a.Filename)
		_, data, ok := w.fake.File(a.ID)
		require.True(t, ok)
		require.NotEmpty(t, data, "edit %d: the picture's bytes", i)
		img, err := png.Decode(bytes.NewReader(data))
		require.NoError(t, err, "edit %d: a whole PNG", i)
		assert.Equal(t, want.Bounds().Dx(), img.Bounds().Dx(), "edit %d: a board picture", i)
	}
	t.Logf("%d board edits with a picture made with the bot token", len(edits))
	assert.Positive(t, len(edits), "boards edited with the bot token")
}

// TestGlobalRateLimit: for 6 s Discord answers every bot-token request with
// its global 429 as documented, without X-RateLimit-Reset-After
// (https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit),
// while it refuses every follow-up and every edit through an interaction's
// token too. Every click is still answered at once, the board shown by
// the answer itself (the answers use the interaction's token, which the
// global limit does not bind, and never wait for a bot-token bucket), so
// the game goes on; and the bot sends at most one bot-token request into
// the global limit, then holds the others back for its retry_after
// instead of sending them into it.
func TestGlobalRateLimit(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)
	tb := w.table(t, "en-US", "Alice", "Bob")
	tb.think = 0
	tb.lobby("/dix start")
	tb.boardFor(tb.record())
	w.fake.RateLimitNext("POST /webhooks/{id}/{token}", 1<<20, 50*time.Millisecond)
	w.fake.RateLimitNext("PATCH /webhooks/{id}/{token}/messages/{id}", 1<<20, 50*time.Millisecond)
	w.fake.ResetStats()
	w.fake.RateLimitGlobal(6 * time.Second)
	start := time.Now()
	turn := dixOf(tb.record()).Active
	for dixOf(tb.record()).Active == turn {
		require.Less(t, time.Since(start), waitTimeout, "a turn ended")
		require.True(t, tb.decide())
	}
	tb.boardFor(tb.record()) // the next turn's board
	elapsed := time.Since(start)

	st := w.fake.Stats()
	botLimited := 0
	for _, r := range st.RouteNames() {
		if st.Routes[r].Class == "bot" {
			botLimited += st.Routes[r].RateLimited
		}
	}
	t.Logf("next board after %v; slowest answer %v; %d bot-token requests, %d answered 429", elapsed, tb.slowest, st.BotToken, botLimited)
	assert.Less(t, tb.slowest, 3*time.Second, "answers never wait for the bot token")
	assert.LessOrEqual(t, botLimited, 1, "at most one request sent into the global limit")
}
