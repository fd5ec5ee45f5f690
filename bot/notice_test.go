package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
)

// RefusalText names what the bot lacks, from app_permissions.
func TestRefusalText(t *testing.T) {
	t.Parallel()
	const allPerms = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionSendMessagesInThreads |
		discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles | discordgo.PermissionReadMessageHistory
	for _, tc := range []struct {
		name   string
		perms  int64
		code   int
		files  bool
		reason string
	}{
		{"no send", allPerms &^ discordgo.PermissionSendMessages &^ discordgo.PermissionSendMessagesInThreads, 50013, false, "I lack the **Send Messages** permission here"},
		{"no embeds", allPerms &^ discordgo.PermissionEmbedLinks, 50013, false, "I lack the **Embed Links** permission here"},
		{"three", discordgo.PermissionAttachFiles, 50013, false, "I lack the **View Channel**, **Send Messages** and **Embed Links** permissions here"},
		{"files", allPerms &^ discordgo.PermissionAttachFiles, 50013, true, "I lack the **Attach Files** permission here"},
		{"a thread without Send Messages in Threads", allPerms &^ discordgo.PermissionSendMessagesInThreads, 50013, false, "I lack the **Send Messages in Threads** permission here"},
		{"a channel without Send Messages", allPerms &^ discordgo.PermissionSendMessages, 50013, false, "I lack the **Send Messages** permission here"},
		{"unknown permissions", 0, 50013, false, "Discord says I lack a permission here"},
		{"unknown permissions, no access", 0, 50001, false, "I lack the **View Channel** permission here"},
		{"administrator", discordgo.PermissionAdministrator, 50013, false, "Discord says I lack a permission here"},
		{"archived thread", allPerms, 50083, false, "this thread is archived"},
		{"another refusal", allPerms, 50035, false, "Discord refused it (error 50035)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reason, fix := refusalText("en", tc.code, 400, tc.perms, tc.files)
			assert.Equal(t, tc.reason, reason)
			assert.NotEmpty(t, fix)
		})
	}
}
