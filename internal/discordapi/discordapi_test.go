package discordapi

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSetBaseURL(t *testing.T) {
	t.Cleanup(func() { require.NoError(t, SetBaseURL("")) })

	tests := []struct {
		name, base, wantAPI string
	}{
		{"trailing slash", "http://127.0.0.1:8765/", "http://127.0.0.1:8765/api/v9/"},
		{"no trailing slash", "http://127.0.0.1:8765", "http://127.0.0.1:8765/api/v9/"},
		{"proxy prefix", "https://proxy.example/discord/", "https://proxy.example/discord/api/v9/"},
		{"empty restores discord", "", "https://discord.com/api/v9/"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, SetBaseURL(tc.base))
			require.NoError(t, SetBaseURL(tc.base)) // idempotent
			api := tc.wantAPI
			assert.Equal(t, api, discordgo.EndpointAPI)
			assert.Equal(t, api+"gateway", discordgo.EndpointGateway)
			assert.Equal(t, api+"gateway/bot", discordgo.EndpointGatewayBot)
			assert.Equal(t, api+"users/@me", discordgo.EndpointUser("@me"))
			assert.Equal(t, api+"channels/1/messages", discordgo.EndpointChannelMessages("1"))
			assert.Equal(t, api+"channels/1/messages/2", discordgo.EndpointChannelMessage("1", "2"))
			assert.Equal(t, api+"guilds/3", discordgo.EndpointGuild("3"))
			assert.Equal(t, api+"webhooks/4/tok/messages/@original", discordgo.EndpointInteractionResponseActions("4", "tok"))
			assert.Equal(t, api+"webhooks/4/tok", discordgo.EndpointFollowupMessage("4", "tok"))
			assert.Equal(t, api+"interactions/5/tok/callback", discordgo.EndpointInteractionResponse("5", "tok"))
			assert.Equal(t, api+"applications/6/commands", discordgo.EndpointApplicationGlobalCommands("6"))
			assert.Equal(t, api+"applications/6/guilds/3/commands", discordgo.EndpointApplicationGuildCommands("6", "3"))
			assert.Equal(t, api+"oauth2/applications/@me", discordgo.EndpointOAuth2Application("@me"))
			assert.Equal(t, api+"oauth2/applications", discordgo.EndpointOauth2Applications)
			assert.Equal(t, api+"guilds", discordgo.EndpointGuildCreate)
			assert.Equal(t, api+"applications", discordgo.EndpointApplications)
			assert.Equal(t, api+"invites/x", discordgo.EndpointInvite("x"))
		})
	}
}

func TestSetBaseURLRejectsBadInput(t *testing.T) {
	t.Cleanup(func() { require.NoError(t, SetBaseURL("")) })
	require.NoError(t, SetBaseURL("http://127.0.0.1:1/"))
	for _, base := range []string{"127.0.0.1:8765", "ftp://host/", "http://", "http://h/?q=1", "http://h/#f", "::"} {
		t.Run(base, func(t *testing.T) {
			err := SetBaseURL(base)
			require.ErrorIs(t, err, ErrInvalidBaseURL)
			assert.Equal(t, "http://127.0.0.1:1/", BaseURL(), "state must not change")
		})
	}
}
