package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"
)

// DiscordAPI is everything the bot asks of Discord. discordapi.API
// implements it over a *discordgo.Session; tests implement it with a
// recorder.
type DiscordAPI interface {
	// Respond sends the first answer to an interaction (within 3 s).
	Respond(ctx context.Context, i *discordgo.Interaction, r *discordgo.InteractionResponse) error
	// Original returns the message of the first answer.
	Original(ctx context.Context, i *discordgo.Interaction) (*discordgo.Message, error)
	// EditOriginal edits the message of the first answer.
	EditOriginal(ctx context.Context, i *discordgo.Interaction, e *discordgo.WebhookEdit) error
	// DeleteOriginal deletes the message of the first answer.
	DeleteOriginal(ctx context.Context, i *discordgo.Interaction) error
	// Followup sends another message for an interaction already answered.
	Followup(ctx context.Context, i *discordgo.Interaction, p *discordgo.WebhookParams) (*discordgo.Message, error)
	// FollowupEdit edits a message sent by the interaction (a follow-up,
	// or "@original") with the interaction's token.
	FollowupEdit(ctx context.Context, i *discordgo.Interaction, message string, e *discordgo.WebhookEdit) error
	// Send posts a message in a channel. A non-empty nonce makes it
	// idempotent: Discord answers a second send with the same nonce, within
	// a few minutes, with the message the first one created
	// (enforce_nonce).
	Send(ctx context.Context, channel string, m *discordgo.MessageSend, nonce string) (*discordgo.Message, error)
	// Edit edits a message of the bot in a channel.
	Edit(ctx context.Context, m *discordgo.MessageEdit) error
	// Delete deletes a message of the bot in a channel.
	Delete(ctx context.Context, channel, message string) error
	// Recent lists the channel's latest messages, newest first, at most
	// limit (1 to 100); none without Read Message History
	// (https://discord.com/developers/docs/resources/message#get-channel-messages).
	Recent(ctx context.Context, channel string, limit int) ([]*discordgo.Message, error)
}
