package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Qwixx board keeps its very picture through edits that do not change
// it: /qwixx pause and /qwixx resume upload nothing once the bot knows the
// picture the board has; the next click, which changes it, uploads a new
// one.
func TestContractPicturesKeptWhenUnchanged(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)
	tb := w.table(t, "en-US", "Alice", "Bob")
	r := tb.command(tb.users[0], "/qwixx start")
	require.NotNil(t, r.Message)
	board := tb.gameClick("qwixx", tb.users[1], *r.Message, "join", "")
	board = tb.gameClick("qwixx", tb.users[0], board, "go", "")

	type tableData struct {
		Board  string            `json:"b"`
		Outbox []json.RawMessage `json:"ob"`
		Pic    *struct {
			Msg string `json:"m"`
		} `json:"bp"`
	}
	// settle waits for the board to show what (and not gone) and for its
	// work to be done; it reports whether the bot knows its picture.
	settle := func(what, gone string) bool {
		t.Helper()
		var meta tableData
		require.NoError(t, waitUntil(waitCtx(t), w.fake, func() bool {
			m, ok := w.fake.Message(board.ID)
			board = m
			meta = tableData{}
			require.NoError(t, json.Unmarshal(tb.record().Meta, &meta))
			return ok && strings.Contains(m.Content, what) && (gone == "" || !strings.Contains(m.Content, gone)) && len(meta.Outbox) == 0
		}), "%s: %s", what, tb.record().Meta)
		return meta.Pic != nil && meta.Pic.Msg == board.ID
	}
	steps := []struct{ command, shows, gone string }{
		{"/qwixx pause", "Paused by", ""},
		{"/qwixx resume", "resumed the game", "Paused by"},
	}
	pause := func(i int) {
		t.Helper()
		require.True(t, tb.command(tb.users[0], steps[i].command).Ephemeral(), steps[i].command)
	}
	// The answer that started the game may not be recorded as the board's
	// picture (its work may be recorded with the next change): a pause
	// and a resume make it known.
	known := false
	for i := range 2 {
		pause(i)
		known = settle(steps[i].shows, steps[i].gone)
	}
	require.True(t, known, "the bot knows the board's picture")
	checkPicture(t, w.fake, board, "qwixx.png")
	att := board.Attachments[0]
	uploads := w.fake.Stats().Uploads

	for i := range steps {
		pause(i)
		settle(steps[i].shows, steps[i].gone)
		checkPicture(t, w.fake, board, "qwixx.png")
		assert.Equal(t, att.ID, board.Attachments[0].ID, "%s: the board keeps its file", steps[i].command)
		assert.Equal(t, uploads, w.fake.Stats().Uploads, "%s: no file uploaded", steps[i].command)
	}

	// Bob passes his white sum: his frame on the picture goes.
	now := tb.gameClick("qwixx", tb.users[1], board, "mv", "w -")
	checkPicture(t, w.fake, now, "qwixx.png")
	assert.NotEqual(t, att.ID, now.Attachments[0].ID, "a changed picture is a new file")
	assert.Greater(t, w.fake.Stats().Uploads, uploads)
}
