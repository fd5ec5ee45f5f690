package bot

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
)

// Every game's start and solo need Send Messages in a channel and Send
// Messages in Threads in a thread, which does not take Send Messages from
// its channel
// (https://discord.com/developers/docs/topics/permissions#permissions-for-threads);
// the kind of channel is the interaction's "channel" type
// (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-structure).
func TestStartNeedsTheSendPermissionOfItsChannel(t *testing.T) {
	t.Parallel()
	const all = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionSendMessagesInThreads |
		discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles | discordgo.PermissionReadMessageHistory
	for _, tc := range []struct {
		name   string
		chType discordgo.ChannelType
		perms  int64
		want   string // the permission named, "" when the game starts
	}{
		{"text channel, Send Messages in Threads only", discordgo.ChannelTypeGuildText, all &^ discordgo.PermissionSendMessages, "Send Messages"},
		{"voice channel chat, Send Messages in Threads only", discordgo.ChannelTypeGuildVoice, all &^ discordgo.PermissionSendMessages, "Send Messages"},
		{"text channel, Send Messages only", discordgo.ChannelTypeGuildText, all &^ discordgo.PermissionSendMessagesInThreads, ""},
		{"public thread, Send Messages only", discordgo.ChannelTypeGuildPublicThread, all &^ discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads"},
		{"private thread, Send Messages only", discordgo.ChannelTypeGuildPrivateThread, all &^ discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads"},
		{"announcement thread, Send Messages only", discordgo.ChannelTypeGuildNewsThread, all &^ discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads"},
		{"public thread, Send Messages in Threads only", discordgo.ChannelTypeGuildPublicThread, all &^ discordgo.PermissionSendMessages, ""},
		{"no JSON: taken as a channel", -1, all &^ discordgo.PermissionSendMessages, "Send Messages"},
	} {
		for _, cmd := range [][2]string{{"dix", "start"}, {"dix", "solo"}, {"qwixx", "start"}, {"dixxit", "start"}} {
			t.Run(tc.name+" "+cmd[0]+" "+cmd[1], func(t *testing.T) {
				t.Parallel()
				h := newGamesHarness(t, nil, "en")
				h.ChType, h.AppPerm = tc.chType, tc.perms
				r := h.Run(h.GameCommandIx(cmd[0], "u1", cmd[1]))
				_, err := h.St.Get(context.Background(), h.Channel)
				if tc.want == "" {
					assert.NoError(t, err, "the game starts")
					return
				}
				assert.ErrorIs(t, err, dixbot.ErrNotFound, "no game")
				assert.Contains(t, r.EphemeralText(), "**"+tc.want+"**")
			})
		}
	}
}

// Every command is registered for servers only with contexts [GUILD], not
// with the deprecated dm_permission
// (https://discord.com/developers/docs/interactions/application-commands#application-command-object).
func TestCommandsUseContexts(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t, nil, "en")
	cmds := h.b.Commands()
	require.Len(t, cmds, 4, "/settings and the three games'")
	for _, cmd := range cmds {
		raw, err := json.Marshal(cmd)
		require.NoError(t, err)
		var wire map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(raw, &wire))
		assert.JSONEq(t, `[0]`, string(wire["contexts"]), cmd.Name)
		assert.NotContains(t, wire, "dm_permission", cmd.Name)
		assert.Equal(t, cmd.Name, strings.Trim(string(wire["name"]), `"`), "discordgo's fields are written beside")
	}
}
