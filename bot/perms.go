package bot

import (
	"encoding/json"
	"errors"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/locales"
)

// ErrMissingPermission refuses a game in a channel where the bot lacks a
// permission the game needs.
var ErrMissingPermission = errors.New("bot: a permission the game needs is missing")

// neededPermissions are the bot's permissions a game needs in its channel,
// in the order they are named when missing. The board and its follow-ups
// go through interactions, which need no Send Messages, but they carry
// embeds, which need Embed Links there too since November 2023
// (https://discord.com/developers/docs/change-log); the bot token posts
// what no click causes (a board after a deadline, a reminder), which needs
// View Channel and Send Messages in a channel, Send Messages in Threads in
// a thread, which does not take Send Messages from its channel
// (https://discord.com/developers/docs/topics/permissions#permissions-for-threads).
func neededPermissions(thread bool) []permission {
	send := permission{discordgo.PermissionSendMessages, "perm_send_messages"}
	if thread {
		send = permission{discordgo.PermissionSendMessagesInThreads, "perm_send_threads"}
	}
	return []permission{
		{discordgo.PermissionViewChannel, "perm_view_channel"},
		send,
		{discordgo.PermissionEmbedLinks, "perm_embed_links"},
	}
}

// permission is a permission bit and the locale key of its name.
type permission struct {
	bits int64
	key  string
}

// missingPermission returns the error naming the first permission the bot
// lacks in the interaction's channel (app_permissions), or nil. An
// interaction without app_permissions (0) is not checked.
func (c *Call) missingPermission() error {
	p := c.I.AppPermissions
	if p == 0 || c.I.GuildID == "" {
		return nil
	}
	if p&discordgo.PermissionAdministrator != 0 {
		return nil
	}
	for _, n := range neededPermissions(c.inThread()) {
		if p&n.bits == 0 {
			lang := c.Lang
			return Refuse(ErrMissingPermission, "err_missing_permission", map[string]any{"Permission": locales.T(lang, n.key, nil)})
		}
	}
	return nil
}

// inThread reports whether the interaction came from a thread, read from
// the interaction's "channel" (a partial channel object with its type,
// https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-structure),
// which discordgo's Interaction does not decode: the intake hands over
// the interaction's JSON. Without it, the channel is taken as a channel,
// not a thread.
func (c *Call) inThread() bool {
	if len(c.raw) == 0 {
		return false
	}
	var v struct {
		Channel *struct {
			Type discordgo.ChannelType `json:"type"`
		} `json:"channel"`
	}
	if json.Unmarshal(c.raw, &v) != nil || v.Channel == nil {
		return false
	}
	switch v.Channel.Type {
	case discordgo.ChannelTypeGuildNewsThread, discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildPrivateThread:
		return true
	}
	return false
}
