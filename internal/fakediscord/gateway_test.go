package fakediscord_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

type frame struct {
	Op int             `json:"op"`
	S  int64           `json:"s"`
	T  string          `json:"t"`
	D  json.RawMessage `json:"d"`
}

func dial(t *testing.T, srv *fakediscord.Server) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(srv.GatewayURL()+"/?v=9&encoding=json", nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ws.Close() })
	require.NoError(t, ws.SetReadDeadline(time.Now().Add(30*time.Second)))
	f := read(t, ws)
	require.Equal(t, 10, f.Op, "HELLO first")
	return ws
}

func read(t *testing.T, ws *websocket.Conn) frame {
	t.Helper()
	var f frame
	require.NoError(t, ws.ReadJSON(&f))
	return f
}

func closeCode(t *testing.T, ws *websocket.Conn) int {
	t.Helper()
	_, _, err := ws.ReadMessage()
	var ce *websocket.CloseError
	require.True(t, errors.As(err, &ce), "want a close frame, got %v", err)
	return ce.Code
}

func TestGatewayHandshakeAndHeartbeat(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ws := dial(t, w.srv)
	require.NoError(t, ws.WriteJSON(obj{"op": 1, "d": nil}))
	assert.Equal(t, 11, read(t, ws).Op, "heartbeat ACK before IDENTIFY")

	require.NoError(t, ws.WriteJSON(obj{"op": 2, "d": obj{"token": "Bot " + w.srv.Token(), "compress": true, "intents": 513}}))
	ready := read(t, ws)
	require.Equal(t, "READY", ready.T)
	assert.Equal(t, int64(1), ready.S)
	var r struct {
		V                int    `json:"v"`
		SessionID        string `json:"session_id"`
		ResumeGatewayURL string `json:"resume_gateway_url"`
		User             struct {
			ID  string `json:"id"`
			Bot bool   `json:"bot"`
		} `json:"user"`
		Guilds []struct {
			ID          string `json:"id"`
			Unavailable bool   `json:"unavailable"`
		} `json:"guilds"`
		Application struct {
			ID string `json:"id"`
		} `json:"application"`
	}
	require.NoError(t, json.Unmarshal(ready.D, &r))
	assert.Equal(t, 9, r.V)
	assert.NotEmpty(t, r.SessionID)
	assert.Equal(t, w.srv.GatewayURL(), r.ResumeGatewayURL)
	assert.Equal(t, w.srv.BotUser().ID, r.User.ID)
	assert.NotEqual(t, r.User.ID, r.Application.ID, "the bot user id differs from the application id")
	assert.Equal(t, w.srv.ApplicationID(), r.Application.ID)
	require.Len(t, r.Guilds, 1)
	assert.True(t, r.Guilds[0].Unavailable)
	gc := read(t, ws)
	assert.Equal(t, "GUILD_CREATE", gc.T)
	assert.Equal(t, int64(2), gc.S)

	require.NoError(t, ws.WriteJSON(obj{"op": 1, "d": 2}))
	assert.Equal(t, 11, read(t, ws).Op)
	assert.True(t, w.srv.Connected())
}

func TestGatewayRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tests := []struct {
		name string
		send obj
		code int
	}{
		{"wrong token", obj{"op": 2, "d": obj{"token": "Bot nope"}}, 4004},
		{"unknown opcode", obj{"op": 42, "d": nil}, 4001},
		{"resume with wrong token", obj{"op": 6, "d": obj{"token": "nope", "session_id": "x", "seq": 1}}, 4004},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws := dial(t, w.srv)
			require.NoError(t, ws.WriteJSON(tc.send))
			assert.Equal(t, tc.code, closeCode(t, ws))
		})
	}
	t.Run("resume of an unknown session", func(t *testing.T) {
		ws := dial(t, w.srv)
		require.NoError(t, ws.WriteJSON(obj{"op": 6, "d": obj{"token": w.srv.Token(), "session_id": "nope", "seq": 3}}))
		f := read(t, ws)
		assert.Equal(t, 9, f.Op)
		assert.JSONEq(t, "false", string(f.D))
	})
	t.Run("garbage", func(t *testing.T) {
		ws := dial(t, w.srv)
		require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte("{")))
		assert.Equal(t, 4002, closeCode(t, ws))
	})
}

func TestGatewayResumeReplaysMissedDispatches(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakediscord.Options{ResponseDeadline: time.Minute})
	ws := dial(t, w.srv)
	require.NoError(t, ws.WriteJSON(obj{"op": 2, "d": obj{"token": w.srv.Token()}}))
	var r struct {
		SessionID string `json:"session_id"`
	}
	require.NoError(t, json.Unmarshal(read(t, ws).D, &r))
	last := read(t, ws).S // GUILD_CREATE
	interactionFor(t, w)  // registers /dix and dispatches one interaction
	ix := read(t, ws)
	require.Equal(t, "INTERACTION_CREATE", ix.T)
	last = ix.S

	w.srv.DropGateway()
	require.Eventually(t, func() bool { return !w.srv.Connected() }, 30*time.Second, 10*time.Millisecond)
	missed := interactionFor(t, w)

	ws2 := dial(t, w.srv)
	require.NoError(t, ws2.WriteJSON(obj{"op": 6, "d": obj{"token": "Bot " + w.srv.Token(), "session_id": r.SessionID, "seq": last}}))
	replayed := read(t, ws2)
	assert.Equal(t, "INTERACTION_CREATE", replayed.T)
	assert.Equal(t, last+1, replayed.S)
	var d struct {
		ID string `json:"id"`
	}
	require.NoError(t, json.Unmarshal(replayed.D, &d))
	assert.Equal(t, missed.ID, d.ID)
	resumed := read(t, ws2)
	assert.Equal(t, "RESUMED", resumed.T)
	assert.Equal(t, last+2, resumed.S)
	assert.Equal(t, 1, w.srv.Resumes())
}

func TestWaitReportsAMissedDeadline(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakediscord.Options{ResponseDeadline: 50 * time.Millisecond})
	rawBot(t, w.srv) // connected, never answers
	ix := interactionFor(t, w)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := ix.Wait(ctx)
	require.ErrorIs(t, err, fakediscord.ErrNoResponse)
	require.Len(t, w.srv.Violations(), 1)
	reports := w.srv.Interactions()
	require.Len(t, reports, 1)
	assert.False(t, reports[0].Responded)
	// The bot answering now is too late.
	status, body := call(t, w.srv, "POST", "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 4, "data": obj{"content": "late"}})
	assert.Equal(t, 404, status)
	assert.Equal(t, float64(10062), body["code"])
}

func TestScriptingRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakediscord.Options{ResponseDeadline: time.Minute})
	ctx := context.Background()
	_, err := w.srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix start")
	require.ErrorIs(t, err, fakediscord.ErrNoBotConnected)
	rawBot(t, w.srv)
	interactionFor(t, w)
	outsider := w.srv.AddUser(fakediscord.UserSpec{Name: "outsider"})
	status, body := call(t, w.srv, "POST", "/channels/"+w.channel.ID+"/messages", obj{"content": "board", "components": []obj{
		row(button("go"), obj{"type": 2, "style": 2, "label": "off", "custom_id": "off", "disabled": true}),
		row(obj{"type": 3, "custom_id": "pick", "max_values": 2, "options": []obj{{"label": "a", "value": "a"}, {"label": "b", "value": "b"}, {"label": "c", "value": "c"}}}),
	}})
	require.Equal(t, 200, status, "%v", body)
	msg := body["id"].(string)

	tests := []struct {
		name string
		run  func() error
		want error
	}{
		{"unknown command", func() error { _, err := w.srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/nope"); return err }, fakediscord.ErrUnknownCommand},
		{"unknown subcommand", func() error { _, err := w.srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix nope"); return err }, fakediscord.ErrBadCommand},
		{"missing subcommand", func() error { _, err := w.srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix"); return err }, fakediscord.ErrBadCommand},
		{"unknown option", func() error {
			_, err := w.srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix start colour:red")
			return err
		}, fakediscord.ErrBadCommand},
		{"unterminated quote", func() error { _, err := w.srv.RunCommand(ctx, w.alice.ID, w.channel.ID, `/dix start "x`); return err }, fakediscord.ErrBadCommand},
		{"not a member", func() error { _, err := w.srv.RunCommand(ctx, outsider.ID, w.channel.ID, "/dix start"); return err }, fakediscord.ErrNotMember},
		{"unknown channel", func() error { _, err := w.srv.RunCommand(ctx, w.alice.ID, "1", "/dix start"); return err }, fakediscord.ErrUnknownChannel},
		{"unknown user", func() error { _, err := w.srv.Click(ctx, "1", msg, "go"); return err }, fakediscord.ErrUnknownUser},
		{"unknown message", func() error { _, err := w.srv.Click(ctx, w.alice.ID, "1", "go"); return err }, fakediscord.ErrUnknownMessage},
		{"unknown button", func() error { _, err := w.srv.Click(ctx, w.alice.ID, msg, "nope"); return err }, fakediscord.ErrUnknownComponent},
		{"disabled button", func() error { _, err := w.srv.Click(ctx, w.alice.ID, msg, "off"); return err }, fakediscord.ErrComponentDisabled},
		{"click a select", func() error { _, err := w.srv.Click(ctx, w.alice.ID, msg, "pick"); return err }, fakediscord.ErrUnknownComponent},
		{"too many values", func() error { _, err := w.srv.Select(ctx, w.alice.ID, msg, "pick", "a", "b", "c"); return err }, fakediscord.ErrBadSelection},
		{"no value", func() error { _, err := w.srv.Select(ctx, w.alice.ID, msg, "pick"); return err }, fakediscord.ErrBadSelection},
		{"not an option", func() error { _, err := w.srv.Select(ctx, w.alice.ID, msg, "pick", "z"); return err }, fakediscord.ErrBadSelection},
		{"no modal", func() error {
			ix := interactionFor(t, w)
			_, err := w.srv.SubmitModal(ctx, w.alice.ID, ix, nil)
			return err
		}, fakediscord.ErrNoModal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := len(w.srv.Interactions())
			require.ErrorIs(t, tc.run(), tc.want)
			if tc.name != "no modal" {
				assert.Len(t, w.srv.Interactions(), before, "nothing dispatched")
			}
		})
	}
	ix, err := w.srv.Select(ctx, w.alice.ID, msg, "pick", "a", "c")
	require.NoError(t, err)
	assert.Equal(t, []any{"a", "c"}, ix.Payload()["data"].(map[string]any)["values"])
}

func TestCommandAvailability(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakediscord.Options{ResponseDeadline: time.Minute})
	rawBot(t, w.srv)
	status, body := call(t, w.srv, "PUT", "/applications/"+w.srv.ApplicationID()+"/commands", []obj{
		{"name": "mod", "description": "Moderators", "default_member_permissions": "16"}, // Manage Channels
		{"name": "admin", "description": "Admins only", "default_member_permissions": "0"},
		{"name": "guildonly", "description": "Guilds", "contexts": []int{0}},
		{"name": "flags", "description": "Typed options", "options": []obj{
			{"type": 5, "name": "loud", "description": "b", "required": true},
			{"type": 4, "name": "n", "description": "i"},
			{"type": 6, "name": "who", "description": "u"},
		}},
	})
	require.Equal(t, 200, status, "%v", body)
	ctx := context.Background()
	_, err := w.srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/mod")
	require.ErrorIs(t, err, fakediscord.ErrMissingPermissions)
	_, err = w.srv.RunCommand(ctx, w.bruno.ID, w.channel.ID, "/mod") // has Manage Channels
	require.NoError(t, err)
	_, err = w.srv.RunCommand(ctx, w.bruno.ID, w.channel.ID, "/admin")
	require.ErrorIs(t, err, fakediscord.ErrMissingPermissions)
	dm, err := w.srv.DMChannel(w.alice.ID)
	require.NoError(t, err)
	_, err = w.srv.RunCommand(ctx, w.alice.ID, dm.ID, "/guildonly")
	require.ErrorIs(t, err, fakediscord.ErrUnknownCommand)

	// false and 0 are sent as values; users are resolved.
	ix, err := w.srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/flags loud:false n:0 who:<@"+w.carol.ID+">")
	require.NoError(t, err)
	b, err := json.Marshal(ix.Payload()["data"])
	require.NoError(t, err)
	var data struct {
		Options []struct {
			Name  string `json:"name"`
			Value any    `json:"value"`
		} `json:"options"`
		Resolved struct {
			Users map[string]any `json:"users"`
		} `json:"resolved"`
	}
	require.NoError(t, json.Unmarshal(b, &data))
	require.Len(t, data.Options, 3)
	assert.Equal(t, false, data.Options[0].Value)
	assert.Equal(t, float64(0), data.Options[1].Value)
	assert.Equal(t, w.carol.ID, data.Options[2].Value)
	assert.Contains(t, data.Resolved.Users, w.carol.ID)
	_, err = w.srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/flags n:3")
	require.ErrorIs(t, err, fakediscord.ErrBadCommand, "loud is required")
	_, err = w.srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/flags loud:maybe")
	require.ErrorIs(t, err, fakediscord.ErrBadCommand)
}

// TestGatewayShards: IDENTIFY's shard [id, count] gives a session the
// guilds where (guild_id >> 22) % count == id, as Discord's sharding
// formula says (https://discord.com/developers/docs/events/gateway#sharding);
// an impossible shard closes with 4010 Invalid shard.
func TestGatewayShards(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	// A second guild, so that two shards are likely to split them; the
	// test computes which shard owns each.
	other := w.srv.AddGuild(fakediscord.GuildSpec{Name: "Other"})
	owner := func(id string) int {
		v, err := strconv.ParseUint(id, 10, 64)
		require.NoError(t, err)
		return int((v >> 22) % 2)
	}
	for shard := 0; shard < 2; shard++ {
		ws := dial(t, w.srv)
		require.NoError(t, ws.WriteJSON(obj{"op": 2, "d": obj{"token": "Bot " + w.srv.Token(), "intents": 513, "shard": []int{shard, 2}}}))
		ready := read(t, ws)
		require.Equal(t, "READY", ready.T)
		var r struct {
			Shard  []int `json:"shard"`
			Guilds []struct {
				ID string `json:"id"`
			} `json:"guilds"`
		}
		require.NoError(t, json.Unmarshal(ready.D, &r))
		assert.Equal(t, []int{shard, 2}, r.Shard)
		var want, got []string
		for _, g := range []string{w.guild.ID, other.ID} {
			if owner(g) == shard {
				want = append(want, g)
			}
		}
		for _, g := range r.Guilds {
			got = append(got, g.ID)
		}
		assert.ElementsMatch(t, want, got, "shard %d gets its guilds only", shard)
	}
	ws := dial(t, w.srv)
	require.NoError(t, ws.WriteJSON(obj{"op": 2, "d": obj{"token": "Bot " + w.srv.Token(), "shard": []int{2, 2}}}))
	assert.Equal(t, 4010, closeCode(t, ws))
}

// Discord closes the gateway with a code saying why, and some codes mean
// the session is over and reconnecting cannot help ("Reconnect: false":
// 4004, 4010-4014)
// (https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes).
// Each code the stand-in sends is sent where Discord sends it.
func TestGatewayCloseCodes(t *testing.T) {
	t.Parallel()
	identify := func(w *world, d obj) *websocket.Conn {
		ws := dial(t, w.srv)
		d["token"] = "Bot " + w.srv.Token()
		require.NoError(t, ws.WriteJSON(obj{"op": 2, "d": d}))
		return ws
	}
	tests := []struct {
		name string
		opts fakediscord.Options
		run  func(w *world) *websocket.Conn
		code int
	}{
		{"4004 authentication failed: a wrong token", fakediscord.Options{}, func(w *world) *websocket.Conn {
			ws := dial(t, w.srv)
			require.NoError(t, ws.WriteJSON(obj{"op": 2, "d": obj{"token": "Bot nope", "intents": 1}}))
			return ws
		}, 4004},
		{"4010 invalid shard: shard id past the count", fakediscord.Options{}, func(w *world) *websocket.Conn {
			return identify(w, obj{"intents": 1, "shard": []int{2, 2}})
		}, 4010},
		{"4011 sharding required: one shard for too many servers", fakediscord.Options{}, func(w *world) *websocket.Conn {
			w.srv.RequireShards(2)
			return identify(w, obj{"intents": 1})
		}, 4011},
		{"4012 invalid API version", fakediscord.Options{}, func(w *world) *websocket.Conn {
			ws, _, err := websocket.DefaultDialer.Dial(w.srv.GatewayURL()+"/?v=6&encoding=json", nil)
			require.NoError(t, err)
			t.Cleanup(func() { _ = ws.Close() })
			return ws
		}, 4012},
		{"4013 invalid intents: an undefined bit", fakediscord.Options{}, func(w *world) *websocket.Conn {
			return identify(w, obj{"intents": 1 | 1<<18})
		}, 4013},
		{"4014 disallowed intents: message content not enabled", fakediscord.Options{}, func(w *world) *websocket.Conn {
			return identify(w, obj{"intents": 1 | 1<<15})
		}, 4014},
		{"4014 disallowed intents: members not enabled", fakediscord.Options{PrivilegedIntents: 1 << 15}, func(w *world) *websocket.Conn {
			return identify(w, obj{"intents": 1 | 1<<1})
		}, 4014},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, tc.opts)
			assert.Equal(t, tc.code, closeCode(t, tc.run(w)))
			assert.False(t, w.srv.Connected())
		})
	}

	t.Run("the accepted counterparts", func(t *testing.T) {
		w := newWorld(t, fakediscord.Options{PrivilegedIntents: 1 << 15})
		w.srv.RequireShards(2)
		for _, d := range []obj{
			{"intents": 1 | 1<<15 | 1<<24 | 1<<25, "shard": []int{0, 2}},
			{"intents": 1, "shard": []int{1, 2}},
		} {
			ws := identify(w, d)
			assert.Equal(t, "READY", read(t, ws).T, "%v", d)
		}
		ws, _, err := websocket.DefaultDialer.Dial(w.srv.GatewayURL()+"/?v=10&encoding=json", nil)
		require.NoError(t, err)
		defer ws.Close()
		assert.Equal(t, 10, read(t, ws).Op, "v=10 gets HELLO")
	})
}

// RequireShards closes the sessions with too few shards with 4011, and
// GET /gateway/bot recommends enough.
func TestGatewayRequireShardsClosesSmallerSessions(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ws := dial(t, w.srv)
	require.NoError(t, ws.WriteJSON(obj{"op": 2, "d": obj{"token": "Bot " + w.srv.Token(), "intents": 1}}))
	require.Equal(t, "READY", read(t, ws).T)
	require.Equal(t, "GUILD_CREATE", read(t, ws).T)
	w.srv.RequireShards(3)
	assert.Equal(t, 4011, closeCode(t, ws))
	status, body := call(t, w.srv, "GET", "/gateway/bot", nil)
	require.Equal(t, 200, status)
	assert.Equal(t, float64(3), body["shards"])
}

// RefuseGateway closes the connected sessions with the code and answers
// every later IDENTIFY and RESUME with it; after a code that ends the
// session a RESUME gets Invalid Session once the refusal is lifted. A
// code that keeps the session (4000 Unknown error) lets it resume.
func TestGatewayRefuseAndClose(t *testing.T) {
	t.Parallel()
	connect := func(w *world) (*websocket.Conn, string, int64) {
		ws := dial(t, w.srv)
		require.NoError(t, ws.WriteJSON(obj{"op": 2, "d": obj{"token": "Bot " + w.srv.Token(), "intents": 1}}))
		ready := read(t, ws)
		require.Equal(t, "READY", ready.T)
		var r struct {
			SessionID string `json:"session_id"`
		}
		require.NoError(t, json.Unmarshal(ready.D, &r))
		return ws, r.SessionID, read(t, ws).S // GUILD_CREATE
	}
	resume := func(w *world, id string, seq int64) *websocket.Conn {
		ws := dial(t, w.srv)
		require.NoError(t, ws.WriteJSON(obj{"op": 6, "d": obj{"token": "Bot " + w.srv.Token(), "session_id": id, "seq": seq}}))
		return ws
	}
	for _, code := range []int{4004, 4010, 4011, 4012, 4013, 4014} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			w := newWorld(t)
			ws, id, seq := connect(w)
			w.srv.RefuseGateway(code)
			assert.Equal(t, code, closeCode(t, ws), "the connected session")
			assert.Equal(t, code, closeCode(t, resume(w, id, seq)), "a RESUME")
			again := dial(t, w.srv)
			require.NoError(t, again.WriteJSON(obj{"op": 2, "d": obj{"token": "Bot " + w.srv.Token(), "intents": 1}}))
			assert.Equal(t, code, closeCode(t, again), "an IDENTIFY")

			w.srv.RefuseGateway(0)
			f := read(t, resume(w, id, seq))
			assert.Equal(t, 9, f.Op, "the session ended")
			connect(w)
		})
	}
	t.Run("4000 keeps the session", func(t *testing.T) {
		w := newWorld(t)
		ws, id, seq := connect(w)
		w.srv.CloseGateway(4000)
		assert.Equal(t, 4000, closeCode(t, ws))
		assert.Equal(t, "RESUMED", read(t, resume(w, id, seq)).T)
	})
}

// dm_permission is deprecated in favour of contexts, and ignored when
// contexts is given
// (https://discord.com/developers/docs/interactions/application-commands#application-command-object):
// Discord still takes it, the stand-in too, but records a violation for
// each command registered with it, so a bot cannot keep using it unseen.
func TestCommandDMPermissionIsDeprecated(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fakediscord.Options{ResponseDeadline: time.Minute})
	rawBot(t, w.srv)
	base := "/applications/" + w.srv.ApplicationID() + "/commands"
	status, body := call(t, w.srv, "PUT", base, []obj{
		{"name": "ctx", "description": "Guilds", "contexts": []int{0}},
		{"name": "both", "description": "Both", "contexts": []int{0, 1}, "dm_permission": false},
	})
	require.Equal(t, 200, status, "%v", body)
	v := w.srv.Violations()
	require.Len(t, v, 1, "only the command with dm_permission")
	assert.Contains(t, v[0].Error(), "/both: dm_permission is deprecated, use contexts")

	status, body = call(t, w.srv, "POST", base, obj{"name": "old", "description": "Old", "dm_permission": false})
	require.Equal(t, 201, status, "%v", body)
	require.Len(t, w.srv.Violations(), 2, "create too")

	dm, err := w.srv.DMChannel(w.alice.ID)
	require.NoError(t, err)
	ctx := context.Background()
	_, err = w.srv.RunCommand(ctx, w.alice.ID, dm.ID, "/both")
	assert.NoError(t, err, "contexts [0, 1] wins over dm_permission false")
	_, err = w.srv.RunCommand(ctx, w.alice.ID, dm.ID, "/old")
	assert.ErrorIs(t, err, fakediscord.ErrUnknownCommand, "dm_permission false alone still counts")
	_, err = w.srv.RunCommand(ctx, w.alice.ID, dm.ID, "/ctx")
	assert.ErrorIs(t, err, fakediscord.ErrUnknownCommand)
}
