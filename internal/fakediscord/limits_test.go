package fakediscord_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

type obj = map[string]any

// call sends a REST request as the bot and returns status and JSON body.
func call(t *testing.T, srv *fakediscord.Server, method, path string, body any) (int, obj) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, srv.URL()+"api/v9"+path, rd)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot "+srv.Token())
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out obj
	if len(raw) > 0 && raw[0] == '{' {
		require.NoError(t, json.Unmarshal(raw, &out))
	}
	return resp.StatusCode, out
}

// rawBot connects to the gateway with a bare websocket and identifies, so
// the fake has a bot session to dispatch interactions to.
func rawBot(t *testing.T, srv *fakediscord.Server) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(srv.GatewayURL()+"/?v=9&encoding=json", nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ws.Close() })
	var hello struct {
		Op int `json:"op"`
		D  struct {
			HeartbeatInterval int `json:"heartbeat_interval"`
		} `json:"d"`
	}
	require.NoError(t, ws.ReadJSON(&hello))
	require.Equal(t, 10, hello.Op)
	require.Equal(t, 41250, hello.D.HeartbeatInterval)
	require.NoError(t, ws.WriteJSON(obj{"op": 2, "d": obj{"token": srv.Token(), "intents": 0, "properties": obj{}}}))
	var ready struct {
		Op int    `json:"op"`
		T  string `json:"t"`
		S  int    `json:"s"`
	}
	require.NoError(t, ws.ReadJSON(&ready))
	require.Equal(t, "READY", ready.T)
	require.Equal(t, 1, ready.S)
	go func() { // drain
		for {
			if _, _, err := ws.ReadMessage(); err != nil {
				return
			}
		}
	}()
	return ws
}

func rep(n int) string { return strings.Repeat("x", n) }

func button(id string) obj { return obj{"type": 2, "style": 1, "label": "b", "custom_id": id} }

func row(components ...obj) obj { return obj{"type": 1, "components": components} }

func selectMenu(id string, n int) obj {
	opts := make([]obj, n)
	for i := range opts {
		opts[i] = obj{"label": fmt.Sprint("o", i), "value": fmt.Sprint("v", i)}
	}
	return obj{"type": 3, "custom_id": id, "options": opts}
}

func rows(n int) []obj {
	out := make([]obj, n)
	for i := range out {
		out[i] = row(button(fmt.Sprint("b", i)))
	}
	return out
}

func buttons(n int) []obj {
	out := make([]obj, n)
	for i := range out {
		out[i] = button(fmt.Sprint("b", i))
	}
	return out
}

func fields(n int) []obj {
	out := make([]obj, n)
	for i := range out {
		out[i] = obj{"name": "n", "value": "v"}
	}
	return out
}

func embeds(n int) []obj {
	out := make([]obj, n)
	for i := range out {
		out[i] = obj{"title": "t"}
	}
	return out
}

// TestMessageLimits sends each limit at its edge (accepted) and one past it
// (refused with Discord's error).
func TestMessageLimits(t *testing.T) {
	t.Parallel()
	// Many messages in one channel: the rate limits are tested elsewhere.
	w := newWorld(t, fakediscord.Options{DisableRateLimits: true})
	srv := w.srv
	type limitCase struct {
		name     string
		ok, bad  obj
		wantCode int
	}
	selectWithOption := func(o obj) obj {
		return obj{"components": []obj{row(obj{"type": 3, "custom_id": "s", "options": []obj{o}})}}
	}
	tests := []limitCase{
		{"content 2000", obj{"content": rep(2000)}, obj{"content": rep(2001)}, 50035},
		{"empty message", obj{"content": "x"}, obj{"content": ""}, 50006},
		{"10 embeds", obj{"embeds": embeds(10)}, obj{"embeds": embeds(11)}, 50035},
		{"embed title 256", obj{"embeds": []obj{{"title": rep(256)}}}, obj{"embeds": []obj{{"title": rep(257)}}}, 50035},
		{"embed description 4096", obj{"embeds": []obj{{"description": rep(4096)}}}, obj{"embeds": []obj{{"description": rep(4097)}}}, 50035},
		{"embed 25 fields", obj{"embeds": []obj{{"fields": fields(25)}}}, obj{"embeds": []obj{{"fields": fields(26)}}}, 50035},
		{"field name 256", obj{"embeds": []obj{{"fields": []obj{{"name": rep(256), "value": "v"}}}}}, obj{"embeds": []obj{{"fields": []obj{{"name": rep(257), "value": "v"}}}}}, 50035},
		{"field value 1024", obj{"embeds": []obj{{"fields": []obj{{"name": "n", "value": rep(1024)}}}}}, obj{"embeds": []obj{{"fields": []obj{{"name": "n", "value": rep(1025)}}}}}, 50035},
		{"footer 2048", obj{"embeds": []obj{{"footer": obj{"text": rep(2048)}}}}, obj{"embeds": []obj{{"footer": obj{"text": rep(2049)}}}}, 50035},
		{"author name 256", obj{"embeds": []obj{{"author": obj{"name": rep(256)}}}}, obj{"embeds": []obj{{"author": obj{"name": rep(257)}}}}, 50035},
		{"embeds total 6000",
			obj{"embeds": []obj{{"description": rep(4000)}, {"description": rep(2000)}}},
			obj{"embeds": []obj{{"description": rep(4000)}, {"description": rep(2000), "title": "x"}}}, 50035},
		{"5 action rows", obj{"components": rows(5)}, obj{"components": rows(6)}, 50035},
		{"5 buttons per row", obj{"components": []obj{row(buttons(5)...)}}, obj{"components": []obj{row(buttons(6)...)}}, 50035},
		{"one select per row", obj{"components": []obj{row(selectMenu("s", 2))}}, obj{"components": []obj{row(selectMenu("s", 2), button("b"))}}, 50035},
		{"custom id 100", obj{"components": []obj{row(button(rep(100)))}}, obj{"components": []obj{row(button(rep(101)))}}, 50035},
		{"custom id not empty", obj{"components": []obj{row(button("a"))}}, obj{"components": []obj{row(button(""))}}, 50035},
		{"custom ids unique", obj{"components": []obj{row(button("a")), row(button("b"))}}, obj{"components": []obj{row(button("a")), row(button("a"))}}, 50035},
		{"25 select options", obj{"components": []obj{row(selectMenu("s", 25))}}, obj{"components": []obj{row(selectMenu("s", 26))}}, 50035},
		{"button label 80",
			obj{"components": []obj{row(obj{"type": 2, "style": 1, "custom_id": "b", "label": rep(80)})}},
			obj{"components": []obj{row(obj{"type": 2, "style": 1, "custom_id": "b", "label": rep(81)})}}, 50035},
		{"select placeholder 150",
			obj{"components": []obj{row(obj{"type": 3, "custom_id": "s", "placeholder": rep(150), "options": []obj{{"label": "a", "value": "a"}}})}},
			obj{"components": []obj{row(obj{"type": 3, "custom_id": "s", "placeholder": rep(151), "options": []obj{{"label": "a", "value": "a"}}})}}, 50035},
		{"option label 100", selectWithOption(obj{"label": rep(100), "value": "a"}), selectWithOption(obj{"label": rep(101), "value": "a"}), 50035},
		{"option value 100", selectWithOption(obj{"label": "a", "value": rep(100)}), selectWithOption(obj{"label": "a", "value": rep(101)}), 50035},
		{"option description 100", selectWithOption(obj{"label": "a", "value": "a", "description": rep(100)}), selectWithOption(obj{"label": "a", "value": "a", "description": rep(101)}), 50035},
		{"nonce 25 characters", obj{"content": "x", "nonce": rep(25)}, obj{"content": "x", "nonce": rep(26)}, 50035},
		{"allowed mentions exclusive",
			obj{"content": "hi", "allowed_mentions": obj{"parse": []string{}, "users": []string{"1"}}},
			obj{"content": "hi", "allowed_mentions": obj{"parse": []string{"users"}, "users": []string{"1"}}}, 50035},
	}
	path := "/channels/" + w.channel.ID + "/messages"
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body := call(t, srv, http.MethodPost, path, tc.ok)
			require.Equal(t, http.StatusOK, status, "valid payload refused: %v", body)
			assert.NotEmpty(t, body["id"])

			before := len(srv.Transcript(w.channel.ID))
			status, body = call(t, srv, http.MethodPost, path, tc.bad)
			require.Equal(t, http.StatusBadRequest, status, "invalid payload accepted: %v", body)
			assert.Equal(t, float64(tc.wantCode), body["code"])
			if tc.wantCode == 50035 {
				assert.Equal(t, "Invalid Form Body", body["message"])
				assert.NotEmpty(t, body["errors"])
			}
			assert.Len(t, srv.Transcript(w.channel.ID), before, "a refused message changes nothing")
		})
	}
}

// TestEnforceNonce: "If true and nonce is present, it will be checked for
// uniqueness in the past few minutes. If another message was created by the
// same author with the same nonce, that message will be returned and no new
// message will be created."
// (https://discord.com/developers/docs/resources/message#create-message)
func TestEnforceNonce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := w.srv
	path := "/channels/" + w.channel.ID + "/messages"
	post := func(p obj) string {
		t.Helper()
		status, body := call(t, srv, http.MethodPost, path, p)
		require.Equal(t, http.StatusOK, status, "%v", body)
		return body["id"].(string)
	}
	first := post(obj{"content": "board", "nonce": "n1", "enforce_nonce": true})
	assert.Equal(t, first, post(obj{"content": "board again", "nonce": "n1", "enforce_nonce": true}), "the first message is returned")
	assert.Len(t, srv.Transcript(w.channel.ID), 1, "and no new one is created")
	assert.NotEqual(t, first, post(obj{"content": "other", "nonce": "n2", "enforce_nonce": true}))
	assert.NotEqual(t, first, post(obj{"content": "not enforced", "nonce": "n1"}), "without enforce_nonce a nonce is only echoed")
	assert.Len(t, srv.Transcript(w.channel.ID), 3)
}

func TestErrorShapes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := w.srv
	status, body := call(t, srv, http.MethodPost, "/channels/"+w.channel.ID+"/messages", obj{"content": rep(2001)})
	require.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, obj{
		"code": float64(50035), "message": "Invalid Form Body",
		"errors": obj{"content": obj{"_errors": []any{obj{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}}}},
	}, body)

	req, err := http.NewRequest(http.MethodGet, srv.URL()+"api/v9/users/@me", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot nope")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.JSONEq(t, `{"message": "401: Unauthorized", "code": 0}`, string(raw))

	// Only the author may edit.
	theirs, err := srv.Post(w.alice.ID, w.channel.ID, "my message")
	require.NoError(t, err)
	status, body = call(t, srv, http.MethodPatch, "/channels/"+w.channel.ID+"/messages/"+theirs.ID, obj{"content": "edited"})
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, float64(50005), body["code"])
	status, body = call(t, srv, http.MethodPatch, "/channels/"+w.channel.ID+"/messages/123", obj{"content": "edited"})
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, float64(10008), body["code"])
	m, _ := srv.Message(theirs.ID)
	assert.Equal(t, "my message", m.Content)
	assert.Len(t, srv.Violations(), 4)
}

// interactionFor registers /dix and runs it, returning a fresh interaction.
func interactionFor(t *testing.T, w *world) *fakediscord.Interaction {
	t.Helper()
	if len(w.srv.Commands(w.guild.ID)) == 0 {
		status, body := call(t, w.srv, http.MethodPut, "/applications/"+w.srv.ApplicationID()+"/guilds/"+w.guild.ID+"/commands", []obj{{
			"name": "dix", "description": "Play", "options": []obj{{"type": 1, "name": "start", "description": "Start"}},
		}})
		require.Equal(t, http.StatusOK, status, "%v", body)
	}
	ix, err := w.srv.RunCommand(context.Background(), w.alice.ID, w.channel.ID, "/dix start")
	require.NoError(t, err)
	return ix
}

func TestModalLimits(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakediscord.Options{ResponseDeadline: time.Minute})
	rawBot(t, w.srv)
	input := func(mod func(obj)) obj {
		in := obj{"type": 4, "custom_id": "amount", "style": 1, "label": "Amount"}
		if mod != nil {
			mod(in)
		}
		return in
	}
	modal := func(title string, rows ...obj) obj {
		return obj{"type": 9, "data": obj{"custom_id": "m", "title": title, "components": rows}}
	}
	inputs := func(n int) []obj {
		out := make([]obj, n)
		for i := range out {
			out[i] = row(input(func(o obj) { o["custom_id"] = fmt.Sprint("i", i) }))
		}
		return out
	}
	tests := []struct {
		name    string
		ok, bad obj
	}{
		{"title 45", modal(rep(45), row(input(nil))), modal(rep(46), row(input(nil)))},
		{"title required", modal("t", row(input(nil))), modal("", row(input(nil)))},
		{"5 rows", modal("t", inputs(5)...), modal("t", inputs(6)...)},
		{"at least one row", modal("t", inputs(1)...), modal("t")},
		{"one input per row", modal("t", row(input(nil))), modal("t", row(input(nil), input(func(o obj) { o["custom_id"] = "b" })))},
		{"input label 45", modal("t", row(input(func(o obj) { o["label"] = rep(45) }))), modal("t", row(input(func(o obj) { o["label"] = rep(46) })))},
		{"placeholder 100", modal("t", row(input(func(o obj) { o["placeholder"] = rep(100) }))), modal("t", row(input(func(o obj) { o["placeholder"] = rep(101) })))},
		{"value 4000", modal("t", row(input(func(o obj) { o["value"] = rep(4000); o["style"] = 2 }))), modal("t", row(input(func(o obj) { o["value"] = rep(4001); o["style"] = 2 })))},
		{"max_length 4000", modal("t", row(input(func(o obj) { o["max_length"] = 4000 }))), modal("t", row(input(func(o obj) { o["max_length"] = 4001 })))},
		{"min_length <= max_length", modal("t", row(input(func(o obj) { o["min_length"] = 3; o["max_length"] = 3 }))), modal("t", row(input(func(o obj) { o["min_length"] = 4; o["max_length"] = 3 })))},
		{"value within max_length", modal("t", row(input(func(o obj) { o["value"] = "abc"; o["max_length"] = 3 }))), modal("t", row(input(func(o obj) { o["value"] = "abcd"; o["max_length"] = 3 })))},
		{"modal custom id 100", obj{"type": 9, "data": obj{"custom_id": rep(100), "title": "t", "components": []obj{row(input(nil))}}}, obj{"type": 9, "data": obj{"custom_id": rep(101), "title": "t", "components": []obj{row(input(nil))}}}},
		{"message content 2000 in a callback", obj{"type": 4, "data": obj{"content": rep(2000)}}, obj{"type": 4, "data": obj{"content": rep(2001)}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ix := interactionFor(t, w)
			status, body := call(t, w.srv, http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", tc.bad)
			require.Equal(t, http.StatusBadRequest, status, "invalid payload accepted")
			assert.Equal(t, float64(50035), body["code"])
			_, answered := ix.Response()
			assert.False(t, answered, "a refused response does not acknowledge")

			status, body = call(t, w.srv, http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", tc.ok)
			require.Equal(t, http.StatusNoContent, status, "valid payload refused: %v", body)
			_, answered = ix.Response()
			assert.True(t, answered)
		})
	}
}

func TestCommandLimits(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	path := "/applications/" + w.srv.ApplicationID() + "/commands"
	opts := func(n int) []obj {
		out := make([]obj, n)
		for i := range out {
			out[i] = obj{"type": 3, "name": fmt.Sprint("o", i), "description": "d"}
		}
		return out
	}
	tests := []struct {
		name    string
		ok, bad obj
	}{
		{"name 32", obj{"name": rep(32), "description": "d"}, obj{"name": rep(33), "description": "d"}},
		{"name lowercase", obj{"name": "dix", "description": "d"}, obj{"name": "Dix", "description": "d"}},
		{"description 100", obj{"name": "a", "description": rep(100)}, obj{"name": "a", "description": rep(101)}},
		{"25 options", obj{"name": "a", "description": "d", "options": opts(25)}, obj{"name": "a", "description": "d", "options": opts(26)}},
		{"known locales", obj{"name": "a", "description": "d", "name_localizations": obj{"fr": "a"}}, obj{"name": "a", "description": "d", "name_localizations": obj{"xx": "a"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body := call(t, w.srv, http.MethodPut, path, []obj{tc.bad})
			require.Equal(t, http.StatusBadRequest, status)
			assert.Equal(t, float64(50035), body["code"])
			status, _ = call(t, w.srv, http.MethodPut, path, []obj{tc.ok})
			require.Equal(t, http.StatusOK, status)
		})
	}
}

// TestTruncatedRequestIsNotServed: a client that dies in the middle of a
// request (its process killed during an upload) sent no request Discord
// could act on. The stand-in neither applies the part that arrived nor
// counts it as a rule the bot broke.
func TestTruncatedRequestIsNotServed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := w.srv
	conn, err := net.Dial("tcp", strings.TrimPrefix(strings.TrimSuffix(srv.URL(), "/"), "http://"))
	require.NoError(t, err)
	part := "--b\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"content\":\"half a board\"}\r\n--b\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"board.png\"\r\n\r\n\x89PNG"
	_, err = fmt.Fprintf(conn, "POST /api/v9/channels/%s/messages HTTP/1.1\r\nHost: discord\r\nAuthorization: Bot %s\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: %d\r\n\r\n%s",
		w.channel.ID, srv.Token(), len(part)+5000, part)
	require.NoError(t, err)
	require.NoError(t, conn.Close())

	// Served, the request would be refused at once; give it a second.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	served := srv.WaitFor(ctx, func() bool { return len(srv.Violations()) > 0 || len(srv.Transcript(w.channel.ID)) > 0 })
	assert.Error(t, served, "a request cut short is not a rule broken: %v", srv.Violations())
	assert.Empty(t, srv.Transcript(w.channel.ID), "and nothing of it is applied")
}
