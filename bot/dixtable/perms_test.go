package dixtable

import (
	"context"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
)

// /dix start, /dix solo and every game's start need Send Messages in a
// channel and Send
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
		for _, sub := range []string{"start", "solo", "qwixx start", "dixxit start"} {
			t.Run(tc.name+" "+sub, func(t *testing.T) {
				h := newGamesHarness(t)
				h.ChType, h.AppPerm = tc.chType, tc.perms
				var r result
				switch sub {
				case "qwixx start":
					r = h.qcommand("u1", "start")
				case "dixxit start":
					r = h.dcommand("u1", "start")
				default:
					r = h.Command("u1", sub)
				}
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

// The command is registered for servers only with contexts [GUILD], not
// with the deprecated dm_permission
// (https://discord.com/developers/docs/interactions/application-commands#application-command-object).
func TestCommandsUseContexts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cmds := h.b.Commands()
	require.NotEmpty(t, cmds)
	for _, cmd := range cmds {
		assert.Nil(t, cmd.DMPermission, cmd.Name)
		require.NotNil(t, cmd.Contexts, cmd.Name)
		assert.Equal(t, []discordgo.InteractionContextType{discordgo.InteractionContextGuild}, *cmd.Contexts, cmd.Name)
	}
}

// Where an interaction's app_permissions show no Attach Files, the boards
// the outbox posts carry no picture from the start: no request is refused
// with 403 (each one counts towards Discord's invalid request limit). A
// refusal teaches the same for the channel, and an interaction showing
// Attach Files again brings the pictures back.
func TestOutboxAttachesOnlyWhereAllowed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, "b1 g2 o3 p4 b5 g6", dix.Options{Players: 2, FirstPlayer: 0})
	owe := func(d bot.DiscordAPI) {
		t.Helper()
		rec, err := h.St.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
			m := mustDixTable(r.Meta)
			m.owe(r, bot.Effect{Kind: bot.EffBoard})
			r.Meta = m.Encode()
			return nil
		})
		require.NoError(t, err)
		require.NoError(t, runDixOutbox(h.b, context.Background(), d, rec, nil))
	}
	count := func() (refused, withFiles, text int) {
		for _, c := range h.Rec.Calls {
			switch {
			case c.Op == "refused":
				refused++
			case c.Op == "send" && len(c.Send.Components) > 0 && len(c.Send.Files) > 0:
				withFiles++
			case c.Op == "send" && len(c.Send.Components) > 0:
				text++
			}
		}
		return
	}

	// An interaction in the channel without Attach Files.
	h.AppPerm = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionEmbedLinks
	h.Command("u2", "hand")
	h.Rec.Calls = nil
	owe(noAttach{h.Rec})
	refused, files, text := count()
	assert.Equal(t, []int{0, 0, 1}, []int{refused, files, text}, "no file tried")

	// Pictures allowed again: the next board has its picture.
	h.AppPerm |= discordgo.PermissionAttachFiles
	h.Command("u2", "hand")
	h.Rec.Calls = nil
	owe(h.Rec)
	refused, files, text = count()
	assert.Equal(t, []int{0, 1, 0}, []int{refused, files, text}, "the picture is back")

	// Discord refuses files though nothing said so: one refusal, then
	// text boards without trying again.
	h.Rec.Calls = nil
	owe(noAttach{h.Rec})
	owe(noAttach{h.Rec})
	refused, _, text = count()
	assert.Equal(t, 1, refused, "one refusal")
	assert.Equal(t, 2, text)
}
