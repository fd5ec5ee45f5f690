package fakediscord_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// Options for load runs.

// TestDropFileData: the attachment is described as usual, its bytes are
// not kept.
func TestDropFileData(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakediscord.Options{DropFileData: true})
	board := file{"board.png", pngOf(t, 40, 20)}
	withImage := obj{"embeds": []obj{{"title": "Board", "image": obj{"url": "attachment://board.png"}}}}
	r := multipartCall(t, w.srv, w.srv.Token(), http.MethodPost, "/channels/"+w.channel.ID+"/messages", withImage, board)
	require.Equal(t, http.StatusOK, r.status, "%v", r.body)
	m, ok := w.srv.Message(r.body["id"].(string))
	require.True(t, ok)
	require.Len(t, m.Attachments, 1)
	a := m.Attachments[0]
	assert.Equal(t, len(board.data), a.Size)
	assert.Equal(t, 40, a.Width)
	assert.Equal(t, a.URL, m.Embeds[0].Image.URL)
	_, data, ok := w.srv.File(a.ID)
	assert.True(t, ok)
	assert.Nil(t, data, "no bytes kept")
	resp, err := http.Get(a.URL)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

// TestAPILatency: every REST answer comes that much later, but an
// interaction's answer counts from its request's arrival.
func TestAPILatency(t *testing.T) {
	t.Parallel()
	const d = 150 * time.Millisecond
	w := newWorld(t, fakediscord.Options{APILatency: d})
	start := time.Now()
	r := callH(t, w.srv, w.srv.Token(), http.MethodPost, "/channels/"+w.channel.ID+"/messages", obj{"content": "hello"})
	require.Equal(t, http.StatusOK, r.status)
	assert.GreaterOrEqual(t, time.Since(start), d, "the answer waited")

	rawBot(t, w.srv)
	ix := interactionFor(t, w)
	cb := callH(t, w.srv, "", http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 4, "data": obj{"content": "ok"}})
	require.Equal(t, http.StatusNoContent, cb.status)
	resp, ok := ix.Response()
	require.True(t, ok)
	assert.Less(t, resp.Latency, d, "answered when the request arrived")
}

// TestDropPayloads: the interaction is delivered and answered as usual, but
// its payload and its answer's raw data are not kept.
func TestDropPayloads(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakediscord.Options{DropPayloads: true})
	rawBot(t, w.srv)
	ix := interactionFor(t, w)
	cb := callH(t, w.srv, "", http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 4, "data": obj{"content": "ok"}})
	require.Equal(t, http.StatusNoContent, cb.status, "%v", cb.body)
	r, ok := ix.Response()
	require.True(t, ok)
	assert.Equal(t, "ok", r.Message.Content, "the answer's message is kept")
	assert.Empty(t, r.Data)
	assert.Nil(t, ix.Payload())
	assert.ErrorIs(t, ix.Redeliver(context.Background()), fakediscord.ErrNoPayload)
}

// TestDropHistory: an edited message keeps when each earlier version was
// replaced and its files, not its text, embeds or components; a request
// naming a file an edit replaced is still told apart from one naming a
// file the message never held.
func TestDropHistory(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakediscord.Options{DropHistory: true})
	board := file{"board.png", pngOf(t, 40, 20)}
	shown := func(text string) obj {
		return obj{"content": text, "embeds": []obj{{"title": text, "image": obj{"url": "attachment://board.png"}}}}
	}
	path := "/channels/" + w.channel.ID + "/messages"
	r := multipartCall(t, w.srv, w.srv.Token(), http.MethodPost, path, shown("first"), board)
	require.Equal(t, http.StatusOK, r.status, "%v", r.body)
	msg := r.body["id"].(string)
	first, ok := w.srv.Message(msg)
	require.True(t, ok)
	require.Len(t, first.Attachments, 1)
	old := first.Attachments[0].ID

	replace := shown("second")
	replace["attachments"] = []obj{{"id": 0}}
	r = multipartCall(t, w.srv, w.srv.Token(), http.MethodPatch, path+"/"+msg, replace, board)
	require.Equal(t, http.StatusOK, r.status, "%v", r.body)
	now, ok := w.srv.Message(msg)
	require.True(t, ok)
	assert.Equal(t, "second", now.Content)
	require.Len(t, now.History, 1)
	h := now.History[0]
	assert.False(t, h.ReplacedAt.IsZero())
	assert.Empty(t, h.Content, "no earlier text kept")
	assert.Empty(t, h.Embeds, "no earlier embeds kept")
	require.Len(t, h.Attachments, 1)
	assert.Equal(t, old, h.Attachments[0].ID)

	for _, tc := range []struct {
		id     string
		breach bool
	}{{old, false}, {"12345", true}} {
		edit := shown("refused")
		edit["attachments"] = []obj{{"id": tc.id}}
		before := len(w.srv.Violations())
		r = multipartCall(t, w.srv, w.srv.Token(), http.MethodPatch, path+"/"+msg, edit)
		assert.Equal(t, http.StatusBadRequest, r.status, "%v", r.body)
		breaches := len(w.srv.Violations()) - before
		if tc.breach {
			assert.Equal(t, 1, breaches, "a file the message never held")
		} else {
			assert.Zero(t, breaches, "a file an edit replaced")
		}
	}
}
