package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/bwmarrin/discordgo"
)

// discordAPI is everything the bot asks of Discord. sessionAPI implements it
// over a *discordgo.Session; tests implement it with a recorder.
type discordAPI interface {
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
}

// sessionAPI is discordAPI over a discordgo session. Every request carries
// the context (deadline) and is never retried on a rate limit: a
// rate-limited request fails fast and is tried again later (see outbox.go)
// instead of missing Discord's deadline silently.
//
// Requests made with an interaction's token go through ix, a session of
// their own with its own rate limiter: they are not bound by the bot's
// global limit ("Interaction endpoints are not bound to the bot's Global
// Rate Limit",
// https://discord.com/developers/docs/interactions/receiving-and-responding#endpoints),
// so a global 429 met by a bot-token request never makes discordgo hold an
// answer back before sending it.
type sessionAPI struct{ s, ix *discordgo.Session }

// newSessionAPI returns the discordAPI of s, with a rate limiter of its
// own for the interaction-token requests.
func newSessionAPI(s *discordgo.Session) sessionAPI {
	ix := &discordgo.Session{
		Token:          s.Token,
		Client:         s.Client,
		UserAgent:      s.UserAgent,
		MaxRestRetries: s.MaxRestRetries,
		LogLevel:       s.LogLevel,
		Ratelimiter:    discordgo.NewRatelimiter(),
	}
	if ix.Client == nil {
		ix.Client = http.DefaultClient
	}
	return sessionAPI{s: s, ix: ix}
}

func opts(ctx context.Context) []discordgo.RequestOption {
	return []discordgo.RequestOption{discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false)}
}

func (a sessionAPI) Respond(ctx context.Context, i *discordgo.Interaction, r *discordgo.InteractionResponse) error {
	return a.ix.InteractionRespond(i, r, opts(ctx)...)
}

func (a sessionAPI) Original(ctx context.Context, i *discordgo.Interaction) (*discordgo.Message, error) {
	return a.ix.InteractionResponse(i, opts(ctx)...)
}

func (a sessionAPI) EditOriginal(ctx context.Context, i *discordgo.Interaction, e *discordgo.WebhookEdit) error {
	_, err := a.ix.InteractionResponseEdit(i, e, opts(ctx)...)
	return err
}

func (a sessionAPI) DeleteOriginal(ctx context.Context, i *discordgo.Interaction) error {
	return a.ix.InteractionResponseDelete(i, opts(ctx)...)
}

func (a sessionAPI) Followup(ctx context.Context, i *discordgo.Interaction, p *discordgo.WebhookParams) (*discordgo.Message, error) {
	return a.ix.FollowupMessageCreate(i, true, p, opts(ctx)...)
}

func (a sessionAPI) FollowupEdit(ctx context.Context, i *discordgo.Interaction, message string, e *discordgo.WebhookEdit) error {
	_, err := a.ix.FollowupMessageEdit(i, message, e, opts(ctx)...)
	return err
}

func (a sessionAPI) Send(ctx context.Context, channel string, m *discordgo.MessageSend, nonce string) (*discordgo.Message, error) {
	if nonce == "" {
		return a.s.ChannelMessageSendComplex(channel, m, opts(ctx)...)
	}
	// discordgo's MessageSend has no nonce: the same body with one.
	body := struct {
		*discordgo.MessageSend
		Nonce        string `json:"nonce"`
		EnforceNonce bool   `json:"enforce_nonce"`
	}{m, nonce, true}
	endpoint := discordgo.EndpointChannelMessages(channel)
	var raw []byte
	var err error
	if len(m.Files) > 0 {
		// With files (a picture), the same body as payload_json of a
		// multipart request: the nonce still makes a retry harmless.
		ct, mp, merr := discordgo.MultipartBodyWithJSON(body, m.Files)
		if merr != nil {
			return nil, fmt.Errorf("bot: encoding a message with files: %w", merr)
		}
		raw, err = a.s.RequestRaw("POST", endpoint, ct, mp, endpoint, 0, opts(ctx)...)
	} else {
		raw, err = a.s.RequestWithBucketID("POST", endpoint, body, endpoint, opts(ctx)...)
	}
	if err != nil {
		return nil, err
	}
	var msg discordgo.Message
	if err := json.Unmarshal(raw, &msg); err != nil {
		return nil, fmt.Errorf("bot: reading the message Discord created: %w", err)
	}
	return &msg, nil
}

func (a sessionAPI) Delete(ctx context.Context, channel, message string) error {
	return a.s.ChannelMessageDelete(channel, message, opts(ctx)...)
}

func (a sessionAPI) Edit(ctx context.Context, m *discordgo.MessageEdit) error {
	_, err := a.s.ChannelMessageEditComplex(m, opts(ctx)...)
	return err
}
