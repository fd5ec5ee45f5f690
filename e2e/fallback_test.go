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
