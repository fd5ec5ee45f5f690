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
