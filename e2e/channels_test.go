package e2e

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// TestStartRefusedWithoutPermission: in a channel where the bot may not
// post, /dix start and /dix solo are refused with a message naming the
// missing permission in the player's language (read from app_permissions,
// https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object),
// and no game is created.
func TestStartRefusedWithoutPermission(t *testing.T) {
	t.Parallel()
	w := newWorldWith(t, false, fakediscord.Options{DisableWeb: true})
	tb := w.table(t, "en-US", "Alice", "Bruno/fr")
	for _, tc := range []struct {
		perms int64
		line  string
		user  int
		want  string
	}{
		{fakediscord.BotPermissions &^ fakediscord.PermSendMessages &^ fakediscord.PermSendMessagesInThreads, "/dix start", 0, "**Send Messages**"},
		{fakediscord.BotPermissions &^ fakediscord.PermSendMessages &^ fakediscord.PermSendMessagesInThreads, "/dix solo", 1, "**Envoyer des messages**"},
		{fakediscord.BotPermissions &^ fakediscord.PermEmbedLinks, "/dix start", 0, "**Embed Links**"},
		{fakediscord.BotPermissions &^ fakediscord.PermEmbedLinks, "/dix solo", 1, "**Intégrer des liens**"},
	} {
		require.NoError(t, w.fake.SetBotPermissions(tb.channel.ID, tc.perms))
		r := tb.command(tb.users[tc.user], tc.line)
		require.True(t, r.Ephemeral(), "%s: %s", tc.line, describe(r))
		assert.Contains(t, describe(r), tc.want)
		_, err := w.store().Get(context.Background(), tb.channel.ID)
		assert.True(t, errors.Is(err, dixbot.ErrNotFound), "no game was created: %v", err)
	}

	// With the permissions back, the game starts.
	require.NoError(t, w.fake.SetBotPermissions(tb.channel.ID, fakediscord.BotPermissions))
	r := tb.command(tb.users[0], "/dix start")
	assert.False(t, r.Ephemeral(), "the lobby opens: %s", describe(r))
}

// TestGameInAThread plays a whole game in a public thread, where the bot
// has Send Messages in Threads but not Send Messages (threads do not
// inherit Send Messages,
// https://discord.com/developers/docs/topics/permissions#permissions-for-threads).
func TestGameInAThread(t *testing.T) {
	t.Parallel()
	w := newWorldWith(t, true, fakediscord.Options{DisableWeb: true})
	tb := w.table(t, "en-US", "Alice", "Bob")
	th, err := w.fake.AddThread(tb.channel.ID, fakediscord.ThreadSpec{Name: "DIX"})
	require.NoError(t, err)
	require.NoError(t, w.fake.SetBotPermissions(th.ID, fakediscord.BotPermissions&^fakediscord.PermSendMessages))
	tb.channel = th
	tb.lobby("/dix start")
	tb.playToEnd()
	tb.checkScoreboard([]string{"Alice", "Bob"})
}

// TestSendPermissionByChannelKind: /dix start needs Send Messages in a
// channel and Send Messages in Threads in a thread
// (https://discord.com/developers/docs/topics/permissions#permissions-for-threads);
// the bot reads the kind from the interaction's "channel" type, over the
// gateway and over HTTP.
func TestSendPermissionByChannelKind(t *testing.T) {
	t.Parallel()
	for _, overHTTP := range []bool{false, true} {
		name := "gateway"
		if overHTTP {
			name = "http"
		}
		t.Run(name, func(t *testing.T) {
			fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
			t.Cleanup(func() { noViolations(t, fake) })
			w := &world{fake: fake, cfg: baseConfig(t, fake, "")}
			if overHTTP {
				w.cfg.InteractionsAddr, w.cfg.PublicKey = "127.0.0.1:0", fake.PublicKey()
			}
			w.bot = startApp(t, w.cfg)
			if overHTTP {
				require.NoError(t, fake.SetInteractionsEndpoints(waitCtx(t), "http://"+w.bot.started.InteractionsAddr+"/interactions"))
			}
			tb := w.table(t, "en-US", "Alice", "Bruno")
			channel := tb.channel
			th, err := fake.AddThread(channel.ID, fakediscord.ThreadSpec{Name: "DIX"})
			require.NoError(t, err)
			for _, tc := range []struct {
				in    fakediscord.Channel
				perms int64
				want  string // "" when the lobby opens
			}{
				{channel, fakediscord.BotPermissions &^ fakediscord.PermSendMessages, "**Send Messages**"},
				{th, fakediscord.BotPermissions &^ fakediscord.PermSendMessagesInThreads, "**Send Messages in Threads**"},
				{th, fakediscord.BotPermissions &^ fakediscord.PermSendMessages, ""},
			} {
				require.NoError(t, fake.SetBotPermissions(tc.in.ID, tc.perms))
				tb.channel = tc.in
				r := tb.command(tb.users[0], "/dix start")
				if tc.want == "" {
					assert.False(t, r.Ephemeral(), "the lobby opens: %s", describe(r))
					continue
				}
				require.True(t, r.Ephemeral(), "%s", describe(r))
				assert.Contains(t, describe(r), tc.want)
				_, err := w.store().Get(context.Background(), tc.in.ID)
				assert.True(t, errors.Is(err, dixbot.ErrNotFound), "no game was created: %v", err)
			}
		})
	}
}
