package fakediscord_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

func TestAllowedMentions(t *testing.T) {
	t.Parallel()
	// Many messages in one channel: the rate limits are tested elsewhere.
	w := newWorld(t, fakediscord.Options{DisableRateLimits: true})
	a, b, c := w.alice.ID, w.bruno.ID, w.carol.ID
	outsider := w.srv.AddUser(fakediscord.UserSpec{Name: "outsider"})
	content := "<@" + a + "> <@!" + b + "> <@" + outsider.ID + ">"
	sorted := func(ids ...string) []string {
		sort.Slice(ids, func(i, j int) bool { return len(ids[i]) < len(ids[j]) || len(ids[i]) == len(ids[j]) && ids[i] < ids[j] })
		return ids
	}
	tests := []struct {
		name    string
		payload obj
		want    []string
	}{
		{"no allowed_mentions parses all", obj{"content": content}, sorted(a, b)},
		{"parse nothing", obj{"content": content, "allowed_mentions": obj{"parse": []string{}}}, nil},
		{"users list", obj{"content": content, "allowed_mentions": obj{"parse": []string{}, "users": []string{b}}}, []string{b}},
		{"parse users", obj{"content": content, "allowed_mentions": obj{"parse": []string{"users"}}}, sorted(a, b)},
		{"everyone allowed", obj{"content": "@everyone"}, sorted(a, b, c)},
		{"everyone not parsed", obj{"content": "@everyone", "allowed_mentions": obj{"parse": []string{"users"}}}, nil},
		{"suppress notifications", obj{"content": content, "flags": 4096}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body := call(t, w.srv, http.MethodPost, "/channels/"+w.channel.ID+"/messages", tc.payload)
			require.Equal(t, http.StatusOK, status, "%v", body)
			got := w.srv.Pinged(body["id"].(string))
			if tc.want == nil {
				assert.Empty(t, got)
			} else {
				assert.Equal(t, tc.want, got)
			}
		})
	}

	t.Run("reply pings the replied user unless replied_user is false", func(t *testing.T) {
		orig, err := w.srv.Post(w.carol.ID, w.channel.ID, "hi bot")
		require.NoError(t, err)
		_, body := call(t, w.srv, http.MethodPost, "/channels/"+w.channel.ID+"/messages", obj{"content": "hello", "message_reference": obj{"message_id": orig.ID}})
		assert.Equal(t, []string{c}, w.srv.Pinged(body["id"].(string)))
		_, body = call(t, w.srv, http.MethodPost, "/channels/"+w.channel.ID+"/messages", obj{"content": "hello", "message_reference": obj{"message_id": orig.ID}, "allowed_mentions": obj{"parse": []string{}}})
		assert.Empty(t, w.srv.Pinged(body["id"].(string)))
	})

	t.Run("an edit adding a mention does not ping", func(t *testing.T) {
		_, body := call(t, w.srv, http.MethodPost, "/channels/"+w.channel.ID+"/messages", obj{"content": "board"})
		id := body["id"].(string)
		status, body := call(t, w.srv, http.MethodPatch, "/channels/"+w.channel.ID+"/messages/"+id, obj{"content": "your turn <@" + a + ">"})
		require.Equal(t, http.StatusOK, status)
		assert.Len(t, body["mentions"], 1, "the mentions array follows the content")
		assert.Empty(t, w.srv.Pinged(id))
		m, _ := w.srv.Message(id)
		assert.Equal(t, []string{a}, m.Mentions)
	})
}

func TestTranscriptEphemeralAndEdits(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakediscord.Options{ResponseDeadline: time.Minute})
	rawBot(t, w.srv)
	ix := interactionFor(t, w)
	status, _ := call(t, w.srv, http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 4, "data": obj{"content": "only alice", "flags": 64}})
	require.Equal(t, http.StatusNoContent, status)
	app := w.srv.ApplicationID()
	status, _ = call(t, w.srv, http.MethodPatch, "/webhooks/"+app+"/"+ix.Token+"/messages/@original", obj{"content": "only alice, edited"})
	require.Equal(t, http.StatusOK, status)
	status, fu := call(t, w.srv, http.MethodPost, "/webhooks/"+app+"/"+ix.Token+"?wait=true", obj{"content": "public follow-up"})
	require.Equal(t, http.StatusOK, status)
	status, _ = call(t, w.srv, http.MethodPatch, "/webhooks/"+app+"/"+ix.Token+"/messages/"+fu["id"].(string), obj{"content": "public follow-up v2"})
	require.Equal(t, http.StatusOK, status)
	status, _ = call(t, w.srv, http.MethodPatch, "/webhooks/"+app+"/"+ix.Token+"/messages/12345", obj{"content": "x"})
	require.Equal(t, http.StatusNotFound, status)

	// Ephemeral messages are not reachable through channel routes.
	orig, _ := ix.Response()
	status, _ = call(t, w.srv, http.MethodGet, "/channels/"+w.channel.ID+"/messages/"+orig.Message.ID, nil)
	assert.Equal(t, http.StatusNotFound, status)

	tr := w.srv.Transcript(w.channel.ID)
	require.Len(t, tr, 2)
	assert.Equal(t, "only alice, edited", tr[0].Content)
	assert.True(t, tr[0].Ephemeral())
	assert.Equal(t, w.alice.ID, tr[0].VisibleTo)
	require.Len(t, tr[0].History, 1)
	assert.Equal(t, "only alice", tr[0].History[0].Content)
	assert.False(t, tr[0].EditedTimestamp.IsZero())
	assert.Equal(t, "public follow-up v2", tr[1].Content)
	assert.Len(t, w.srv.VisibleMessages(w.channel.ID, w.alice.ID), 2)
	assert.Len(t, w.srv.VisibleMessages(w.channel.ID, w.bruno.ID), 1)
	assert.Empty(t, w.srv.Ephemerals(w.channel.ID, w.bruno.ID))
	latest, ok := w.srv.LatestPublic(w.channel.ID)
	require.True(t, ok)
	assert.Equal(t, tr[1].ID, latest.ID)
}

func TestCapture(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := newWorld(t, fakediscord.Options{CaptureDir: dir})
	call(t, w.srv, http.MethodPost, "/channels/"+w.channel.ID+"/messages", obj{"content": "hello"})
	call(t, w.srv, http.MethodGet, "/users/@me", nil)
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	require.Len(t, files, 2)
	assert.Contains(t, filepath.Base(files[0]), "000001-POST-v9_channels_")
	raw, err := os.ReadFile(files[0])
	require.NoError(t, err)
	assert.NotContains(t, string(raw), w.srv.Token())
	var got struct {
		Method string         `json:"method"`
		Path   string         `json:"path"`
		Status int            `json:"status"`
		Body   map[string]any `json:"body"`
	}
	require.NoError(t, json.Unmarshal(raw, &got))
	assert.Equal(t, http.MethodPost, got.Method)
	assert.Equal(t, "/api/v9/channels/"+w.channel.ID+"/messages", got.Path)
	assert.Equal(t, http.StatusOK, got.Status)
	assert.Equal(t, "hello", got.Body["content"])
	assert.Contains(t, filepath.Base(files[1]), "000002-GET-v9_users_-me")
}

func TestConcurrentClicks(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakediscord.Options{ResponseDeadline: time.Minute})
	ws := rawBot(t, w.srv)
	_ = ws
	_, body := call(t, w.srv, http.MethodPost, "/channels/"+w.channel.ID+"/messages", obj{"content": "board", "components": []obj{row(button("go"))}})
	id := body["id"].(string)
	const n = 40
	errs := make(chan error, n)
	ids := make(chan string, n)
	for i := range n {
		go func() {
			user := []string{w.alice.ID, w.bruno.ID, w.carol.ID}[i%3]
			ix, err := w.srv.Click(t.Context(), user, id, "go")
			if err == nil {
				ids <- ix.ID
			}
			errs <- err
		}()
	}
	seen := map[string]bool{}
	for range n {
		require.NoError(t, <-errs)
		seen[<-ids] = true
	}
	assert.Len(t, seen, n)
	assert.Len(t, w.srv.Interactions(), n)
}

func TestDirectMessageInteraction(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakediscord.Options{ResponseDeadline: time.Minute})
	rawBot(t, w.srv)
	interactionFor(t, w) // registers the guild command /dix
	status, _ := call(t, w.srv, http.MethodPut, "/applications/"+w.srv.ApplicationID()+"/commands", []obj{{"name": "help", "description": "Help"}})
	require.Equal(t, http.StatusOK, status)
	dm, err := w.srv.DMChannel(w.bruno.ID)
	require.NoError(t, err)

	_, err = w.srv.RunCommand(t.Context(), w.bruno.ID, dm.ID, "/dix start")
	require.ErrorIs(t, err, fakediscord.ErrUnknownCommand, "guild commands are not offered in DMs")
	_, err = w.srv.RunCommand(t.Context(), w.alice.ID, dm.ID, "/help")
	require.ErrorIs(t, err, fakediscord.ErrUnknownChannel, "another user's DM")
	ix, err := w.srv.RunCommand(t.Context(), w.bruno.ID, dm.ID, "/help")
	require.NoError(t, err)
	p := ix.Payload()
	assert.NotContains(t, p, "member")
	assert.NotContains(t, p, "guild_id")
	assert.Equal(t, "fr", p["locale"])
	assert.Equal(t, w.bruno.ID, p["user"].(map[string]any)["id"])

	// The bot may open the DM itself and write there.
	status, body := call(t, w.srv, http.MethodPost, "/users/@me/channels", obj{"recipient_id": w.bruno.ID})
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, dm.ID, body["id"])
	status, _ = call(t, w.srv, http.MethodPost, "/channels/"+dm.ID+"/messages", obj{"content": "your turn"})
	require.Equal(t, http.StatusOK, status)
	assert.Len(t, w.srv.Transcript(dm.ID), 1)
}

func TestDeferredUpdateThenEditOriginal(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakediscord.Options{ResponseDeadline: time.Minute})
	rawBot(t, w.srv)
	_, body := call(t, w.srv, http.MethodPost, "/channels/"+w.channel.ID+"/messages", obj{"content": "board v1", "components": []obj{row(button("draw"))}})
	board := body["id"].(string)
	ix, err := w.srv.Click(t.Context(), w.carol.ID, board, "draw")
	require.NoError(t, err)
	status, _ := call(t, w.srv, http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 6})
	require.Equal(t, http.StatusNoContent, status)
	status, body = call(t, w.srv, http.MethodGet, "/webhooks/"+w.srv.ApplicationID()+"/"+ix.Token+"/messages/@original", nil)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, board, body["id"], "@original of a deferred update is the clicked message")
	status, _ = call(t, w.srv, http.MethodPatch, "/webhooks/"+w.srv.ApplicationID()+"/"+ix.Token+"/messages/@original", obj{"content": "board v2"})
	require.Equal(t, http.StatusOK, status)
	m, _ := w.srv.Message(board)
	assert.Equal(t, "board v2", m.Content)
	assert.True(t, m.Edited())
	assert.Len(t, m.Components, 1, "absent fields are kept")
	r, ok := ix.Response()
	require.True(t, ok)
	assert.Equal(t, fakediscord.CallbackDeferredUpdateMessage, r.Type)
	assert.Empty(t, w.srv.Violations())
}

func TestStartCapturesWithEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("FAKEDISCORD_CAPTURE", dir)
	srv := fakediscord.Start(t)
	call(t, srv, http.MethodGet, "/users/@me", nil)
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	assert.Equal(t, "TestStartCapturesWithEnvironment", filepath.Base(filepath.Dir(files[0])))
}
