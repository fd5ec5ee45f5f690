package fakediscord_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Two stand-ins on the shared front: a request reaches the stand-in whose
// bot token it carries, an interaction's callback (which carries no token)
// the stand-in that issued the interaction, and a token no stand-in has is
// refused as Discord refuses it.
func TestSharedFrontRoutesEachRequestToItsStandIn(t *testing.T) {
	t.Parallel()
	a, b := newWorld(t), newWorld(t)
	base, err := a.srv.SharedURL()
	require.NoError(t, err)
	baseB, err := b.srv.SharedURL()
	require.NoError(t, err)
	require.Equal(t, base, baseB, "one front per process")
	require.NotEqual(t, a.srv.Token(), b.srv.Token(), "stand-ins made by Start have distinct tokens")

	call := func(method, path, token, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(ctxT(t), method, base+"api/v9/"+path, strings.NewReader(body))
		require.NoError(t, err)
		if token != "" {
			req.Header.Set("Authorization", "Bot "+token)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(out)
	}

	// Each token posts in its own stand-in's channel, which the other does
	// not have.
	code, _ := call(http.MethodPost, "channels/"+a.channel.ID+"/messages", a.srv.Token(), `{"content":"to a"}`)
	assert.Equal(t, http.StatusOK, code)
	code, _ = call(http.MethodPost, "channels/"+a.channel.ID+"/messages", b.srv.Token(), `{"content":"to b"}`)
	assert.Equal(t, http.StatusNotFound, code, "b has no channel of a's")
	if msgs := a.srv.Transcript(a.channel.ID); assert.Len(t, msgs, 1) {
		assert.Equal(t, "to a", msgs[0].Content)
	}
	assert.Empty(t, b.srv.Transcript(a.channel.ID))

	// An interaction of b's is answered through the front without a token.
	rawBot(t, b.srv)
	_ = interactionFor(t, b) // registers /dix
	ix, err := b.srv.RunCommand(ctxT(t), b.alice.ID, b.channel.ID, "/dix start")
	require.NoError(t, err)
	code, out := call(http.MethodPost, "interactions/"+ix.ID+"/"+ix.Token+"/callback", "",
		`{"type":4,"data":{"content":"answered"}}`)
	assert.Contains(t, []int{http.StatusOK, http.StatusNoContent}, code, out)
	r, err := ix.Wait(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, "answered", r.Message.Content)

	// No stand-in has this token.
	code, _ = call(http.MethodGet, "users/@me", "not-a-token", "")
	assert.Equal(t, http.StatusUnauthorized, code)
}
