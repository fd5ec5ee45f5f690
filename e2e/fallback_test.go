package e2e

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPicturesThroughTheBotToken: Discord refuses every follow-up and every
// edit made with an interaction's token (429, a limit no header announced),
// so the bot posts and edits its boards with the bot token instead. Each of
// those requests carries the board's picture whole: a PNG that decodes to
// its last pixel, as wide as the pictures of the boards before the
// refusals, and never a file of 0 bytes (which the stand-in records as a
// violation, checked when the test ends).
func TestPicturesThroughTheBotToken(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)
	tb := w.table(t, "en-US", "Alice", "Bob")
	tb.lobby("/dix start")
	first, _ := tb.boardFor(tb.record())
	require.Len(t, first.Attachments, 1, "the first board shows its picture")
	_, data, ok := w.fake.File(first.Attachments[0].ID)
	require.True(t, ok)
	want, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)

	w.fake.RateLimitNext("POST /webhooks/{id}/{token}", 1<<20, 100*time.Millisecond)
	w.fake.RateLimitNext("PATCH /webhooks/{id}/{token}/messages/{id}", 1<<20, 100*time.Millisecond)
	for range 40 {
		if !tb.decide() {
			break
		}
	}
	// The effects of the last decision are done (its board is out) before
	// the messages are read.
	tb.boardFor(tb.record())
	checkPictures(t, w.fake, tb.channel.ID, true)

	byBot := 0
	for _, m := range w.fake.Transcript(tb.channel.ID) {
		if m.WebhookID != "" || m.Ephemeral() || len(m.Attachments) == 0 {
			continue
		}
		byBot++
		a := m.Attachments[0]
		assert.Equal(t, "board.png", a.Filename)
		_, data, ok := w.fake.File(a.ID)
		require.True(t, ok)
		require.NotEmpty(t, data, "message %s: the picture's bytes", m.ID)
		img, err := png.Decode(bytes.NewReader(data))
		require.NoError(t, err, "message %s: a whole PNG", m.ID)
		assert.Equal(t, want.Bounds().Dx(), img.Bounds().Dx(), "message %s: a board picture", m.ID)
	}
	assert.Positive(t, byBot, "boards posted with the bot token")
}

// TestGlobalRateLimit: for 6 s Discord answers every bot-token request with
// its global 429 as documented, without X-RateLimit-Reset-After
// (https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit),
// while it refuses every follow-up and every edit through an interaction's
// token too, so the boards can only go with the bot token. Every click is
// still answered at once (the answers use the interaction's token, which
// the global limit does not bind, and never wait for a bot-token bucket);
// the bot sends at most one bot-token request into the global limit, then
// holds the others back for its retry_after instead of sending them into
// it; and the boards come once it is over.
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
	tb.boardFor(tb.record()) // the next turn's board, posted with the bot token
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
	assert.GreaterOrEqual(t, elapsed, 5*time.Second, "the board waited for the global limit to end")
}
