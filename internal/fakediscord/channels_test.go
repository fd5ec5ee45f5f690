package fakediscord_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

const allBot = fakediscord.BotPermissions

// TestBotPermissions posts and edits in channels and threads with and
// without the permission each write needs (valid/violating pairs).
// https://discord.com/developers/docs/resources/message#create-message
// (Limitations), https://discord.com/developers/docs/topics/permissions
// (SEND_MESSAGES_IN_THREADS), error codes 50001 and 50013 at
// https://discord.com/developers/docs/topics/opcodes-and-status-codes#json.
func TestBotPermissions(t *testing.T) {
	t.Parallel()
	embed := obj{"embeds": []obj{{"title": "board"}}}
	text := obj{"content": "hello"}
	tests := []struct {
		name     string
		perms    int64
		thread   bool
		edit     bool
		body     obj
		wantCode int // 0: accepted
	}{
		{"send with every permission", allBot, false, false, embed, 0},
		{"no View Channel", allBot &^ fakediscord.PermViewChannel, false, false, text, 50001},
		{"no Send Messages", allBot &^ fakediscord.PermSendMessages, false, false, text, 50013},
		{"text without Embed Links", allBot &^ fakediscord.PermEmbedLinks, false, false, text, 0},
		{"embed without Embed Links", allBot &^ fakediscord.PermEmbedLinks, false, false, embed, 50013},
		{"thread: Send Messages in Threads without Send Messages", allBot &^ fakediscord.PermSendMessages, true, false, text, 0},
		{"thread: Send Messages without Send Messages in Threads", allBot &^ fakediscord.PermSendMessagesInThreads, true, false, text, 50013},
		{"edit text without Send Messages", allBot &^ fakediscord.PermSendMessages, false, true, text, 0},
		{"edit in an embed without Embed Links", allBot &^ fakediscord.PermEmbedLinks, false, true, embed, 50013},
		{"edit without View Channel", allBot &^ fakediscord.PermViewChannel, false, true, text, 50001},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			target := w.channel.ID
			if tc.thread {
				th, err := w.srv.AddThread(w.channel.ID, fakediscord.ThreadSpec{Name: "game"})
				require.NoError(t, err)
				target = th.ID
			}
			var path, method = "/channels/" + target + "/messages", http.MethodPost
			if tc.edit {
				r := callH(t, w.srv, w.srv.Token(), http.MethodPost, path, text)
				require.Equal(t, http.StatusOK, r.status)
				path, method = path+"/"+r.body["id"].(string), http.MethodPatch
			}
			require.NoError(t, w.srv.SetBotPermissions(target, tc.perms))
			got, err := w.srv.BotPermissionsIn(target)
			require.NoError(t, err)
			require.Equal(t, tc.perms, got)
			r := callH(t, w.srv, w.srv.Token(), method, path, tc.body)
			if tc.wantCode == 0 {
				assert.Equal(t, http.StatusOK, r.status, "%v", r.body)
				assert.Empty(t, w.srv.Violations())
				return
			}
			assert.Equal(t, http.StatusForbidden, r.status)
			assert.Equal(t, float64(tc.wantCode), r.body["code"])
			require.Len(t, w.srv.Violations(), 1)
		})
	}
}

// TestAppPermissionsInInteractions: interactions carry the bot's
// permissions in their channel; answering needs no Send Messages (the
// answer is the application's webhook) but an embed needs Embed Links
// (bot permissions apply to interaction responses since November 2023).
func TestAppPermissionsInInteractions(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rawBot(t, w.srv)
	noSend := allBot &^ fakediscord.PermSendMessages &^ fakediscord.PermEmbedLinks
	require.NoError(t, w.srv.SetBotPermissions(w.channel.ID, noSend))

	ix := interactionFor(t, w)
	assert.Equal(t, fmt.Sprint(noSend), ix.Payload()["app_permissions"])
	r := callH(t, w.srv, "", http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 4, "data": obj{"embeds": []obj{{"title": "board"}}}})
	assert.Equal(t, http.StatusForbidden, r.status)
	assert.Equal(t, float64(50013), r.body["code"])
	r = callH(t, w.srv, "", http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 4, "data": obj{"content": "Missing Send Messages"}})
	assert.Equal(t, http.StatusNoContent, r.status, "%v", r.body)
}

// TestThreads: a thread is a channel with a parent; interactions from it
// carry its id; an archived thread refuses writes with 50083; a private
// thread the bot was not added to is out of its sight (50001).
// https://discord.com/developers/docs/topics/threads
func TestThreads(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rawBot(t, w.srv)
	th, err := w.srv.AddThread(w.channel.ID, fakediscord.ThreadSpec{Name: "game 1"})
	require.NoError(t, err)
	assert.Equal(t, fakediscord.ChannelPublicThread, th.Type)
	assert.Equal(t, w.channel.ID, th.ParentID)

	r := callH(t, w.srv, w.srv.Token(), http.MethodGet, "/channels/"+th.ID, nil)
	require.Equal(t, http.StatusOK, r.status)
	assert.Equal(t, w.channel.ID, r.body["parent_id"])
	assert.Equal(t, false, r.body["thread_metadata"].(obj)["archived"])

	_ = interactionFor(t, w) // registers /dix
	ix, err := w.srv.RunCommand(context.Background(), w.alice.ID, th.ID, "/dix start")
	require.NoError(t, err)
	assert.Equal(t, th.ID, ix.Payload()["channel_id"])
	r = callH(t, w.srv, "", http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 4, "data": obj{"content": "lobby"}})
	require.Equal(t, http.StatusNoContent, r.status)

	post := func() reply {
		return callH(t, w.srv, w.srv.Token(), http.MethodPost, "/channels/"+th.ID+"/messages", obj{"content": "board"})
	}
	first := post()
	require.Equal(t, http.StatusOK, first.status, "active thread: %v", first.body)

	require.NoError(t, w.srv.ArchiveThread(th.ID, true))
	for name, r := range map[string]reply{
		"post":      post(),
		"edit":      callH(t, w.srv, w.srv.Token(), http.MethodPatch, "/channels/"+th.ID+"/messages/"+first.body["id"].(string), obj{"content": "x"}),
		"follow-up": callH(t, w.srv, "", http.MethodPost, "/webhooks/"+w.srv.ApplicationID()+"/"+ix.Token, obj{"content": "ping"}),
	} {
		assert.Equal(t, http.StatusBadRequest, r.status, name)
		assert.Equal(t, float64(50083), r.body["code"], name)
	}
	require.NoError(t, w.srv.ArchiveThread(th.ID, false))
	require.Equal(t, http.StatusOK, post().status, "unarchived")

	private, err := w.srv.AddThread(w.channel.ID, fakediscord.ThreadSpec{Name: "secret", Private: true, BotNotAdded: true})
	require.NoError(t, err)
	assert.Equal(t, fakediscord.ChannelPrivateThread, private.Type)
	r = callH(t, w.srv, w.srv.Token(), http.MethodPost, "/channels/"+private.ID+"/messages", obj{"content": "x"})
	assert.Equal(t, float64(50001), r.body["code"])
	invited, err := w.srv.AddThread(w.channel.ID, fakediscord.ThreadSpec{Name: "invited", Private: true})
	require.NoError(t, err)
	r = callH(t, w.srv, w.srv.Token(), http.MethodPost, "/channels/"+invited.ID+"/messages", obj{"content": "x"})
	assert.Equal(t, http.StatusOK, r.status)
}

// TestGuildLocale: only Community servers choose their language; others
// report en-US as preferred_locale and guild_locale.
// https://discord.com/developers/docs/resources/guild#guild-object
func TestGuildLocale(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec         fakediscord.GuildSpec
		wantLocale   string
		wantFeatures []any
	}{
		{fakediscord.GuildSpec{Name: "community", PreferredLocale: "fr", Community: true}, "fr", []any{"COMMUNITY"}},
		{fakediscord.GuildSpec{Name: "plain", PreferredLocale: "fr"}, "en-US", []any{}},
	}
	for _, tc := range tests {
		t.Run(tc.spec.Name, func(t *testing.T) {
			w := newWorld(t)
			rawBot(t, w.srv)
			g := w.srv.AddGuild(tc.spec)
			ch, err := w.srv.AddChannel(g.ID, "dix")
			require.NoError(t, err)
			require.NoError(t, w.srv.AddMember(g.ID, w.alice.ID, 0))
			status, _ := call(t, w.srv, http.MethodPut, "/applications/"+w.srv.ApplicationID()+"/commands", []obj{{"name": "dix", "description": "Play"}})
			require.Equal(t, http.StatusOK, status)

			r := callH(t, w.srv, w.srv.Token(), http.MethodGet, "/guilds/"+g.ID, nil)
			assert.Equal(t, tc.wantLocale, r.body["preferred_locale"])
			assert.Equal(t, tc.wantFeatures, r.body["features"])
			ix, err := w.srv.RunCommand(context.Background(), w.alice.ID, ch.ID, "/dix")
			require.NoError(t, err)
			assert.Equal(t, tc.wantLocale, ix.Payload()["guild_locale"])
		})
	}
}

// TestCommandsUnderTheApplicationID: the bot user's id is not the
// application's; commands registered under it are refused as Discord does.
func TestCommandsUnderTheApplicationID(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	require.NotEqual(t, w.srv.ApplicationID(), w.srv.BotUser().ID)
	cmds := []obj{{"name": "dix", "description": "Play"}}
	tests := []struct {
		name       string
		app        string
		wantStatus int
		wantCode   float64
	}{
		{"application id", w.srv.ApplicationID(), http.StatusOK, 0},
		{"bot user id", w.srv.BotUser().ID, http.StatusNotFound, 10002},
		{"another application", "1234567890123", http.StatusForbidden, 50001},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := callH(t, w.srv, w.srv.Token(), http.MethodPut, "/applications/"+tc.app+"/guilds/"+w.guild.ID+"/commands", cmds)
			assert.Equal(t, tc.wantStatus, r.status)
			if tc.wantCode != 0 {
				assert.Equal(t, tc.wantCode, r.body["code"])
			}
		})
	}
	r := callH(t, w.srv, w.srv.Token(), http.MethodGet, "/oauth2/applications/@me", nil)
	assert.Equal(t, w.srv.ApplicationID(), r.body["id"])
	assert.Equal(t, w.srv.BotUser().ID, r.body["bot"].(obj)["id"])
}
