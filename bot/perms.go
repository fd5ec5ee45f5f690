package bot

import (
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
// View Channel and Send Messages, or Send Messages in Threads in a thread
// (https://discord.com/developers/docs/topics/permissions#permissions-for-threads).
var neededPermissions = []struct {
	bits int64
	key  string
}{
	{discordgo.PermissionViewChannel, "perm_view_channel"},
	// Send Messages in a channel, Send Messages in Threads in a thread:
	// the interaction does not say which kind of channel it came from in
	// the fields discordgo reads, so either one is taken.
	{discordgo.PermissionSendMessages | discordgo.PermissionSendMessagesInThreads, "perm_send_messages"},
	{discordgo.PermissionEmbedLinks, "perm_embed_links"},
}

// missingPermission returns the error naming the first permission the bot
// lacks in the interaction's channel (app_permissions), or nil. An
// interaction without app_permissions (0) is not checked.
func (c *call) missingPermission() error {
	p := c.i.AppPermissions
	if p == 0 || c.i.GuildID == "" {
		return nil
	}
	if p&discordgo.PermissionAdministrator != 0 {
		return nil
	}
	for _, n := range neededPermissions {
		if p&n.bits == 0 {
			lang := c.lang
			return refuse(ErrMissingPermission, "err_missing_permission", map[string]any{"Permission": locales.T(lang, n.key, nil)})
		}
	}
	return nil
}
