package discordapi

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// API is Discord's REST API over a discordgo session, for the table
// (which declares what it needs of it). Every request carries
// the context (deadline) and is never retried on a rate limit: a
// rate-limited request fails fast and is tried again later (the table's outbox)
// instead of missing Discord's deadline silently.
//
// Requests made with an interaction's token go through ix, a session of
// their own with its own rate limiter: they are not bound by the bot's
// global limit ("Interaction endpoints are not bound to the bot's Global
// Rate Limit",
// https://discord.com/developers/docs/interactions/receiving-and-responding#endpoints),
// so a global 429 met by a bot-token request never makes discordgo hold an
// answer back before sending it.
//
// Requests made with the bot token go through bt (BotSession): never
// held back in discordgo's rate limiter, they fail at once when their
// bucket is empty or a global 429 runs, and are tried again later.
type API struct {
	s  *discordgo.Session
	ix *ixSessions
	bt *BotSession
}

// NewAPI returns the discordAPI of s, with a rate limiter of its
// own for the interaction-token requests, and bt for the bot-token ones
// (nil: one of its own).
func NewAPI(s *discordgo.Session, bt *BotSession) API {
	if bt == nil {
		bt = NewBotSession(s, &Gate{})
	}
	return API{s: s, ix: &ixSessions{base: s}, bt: bt}
}

// ixRenew is how long one session (and its rate limiter) serves the
// interaction-token requests.
const ixRenew = time.Minute

// ixSessions hands out the session of the interaction-token requests.
// discordgo keys a rate-limit bucket by the request's URL, which holds the
// interaction's id and token: a limiter gains a bucket per interaction and
// route (about 1 KB per click) and never drops one, so one limiter for the
// process's life grows without end (a load of 300 clicks a second: 1 GB an
// hour). A fresh session every ixRenew lets the old buckets go. What a
// bucket knew is then lost, which costs at most a request sent into a rate
// limit, refused fast and tried again later, as any 429 is. A request
// already under way keeps the session it took. Safe for concurrent use.
type ixSessions struct {
	base *discordgo.Session

	mu   sync.Mutex
	cur  *discordgo.Session
	made time.Time
}

// get returns the current session, replacing it once it is ixRenew old.
func (x *ixSessions) get() *discordgo.Session {
	x.mu.Lock()
	defer x.mu.Unlock()
	if now := time.Now(); x.cur == nil || now.Sub(x.made) >= ixRenew {
		s := x.base
		x.cur = &discordgo.Session{
			Token:          s.Token,
			Client:         s.Client,
			UserAgent:      s.UserAgent,
			MaxRestRetries: s.MaxRestRetries,
			LogLevel:       s.LogLevel,
			Ratelimiter:    discordgo.NewRatelimiter(),
		}
		if x.cur.Client == nil {
			x.cur.Client = http.DefaultClient
		}
		x.made = now
	}
	return x.cur
}

func opts(ctx context.Context) []discordgo.RequestOption {
	return []discordgo.RequestOption{discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false)}
}

// sizedReaderAt is a file's content that can be read from its start any
// number of times (a *bytes.Reader).
type sizedReaderAt interface {
	io.ReaderAt
	Size() int64
}

// whole returns files with readers of their own, each reading its file
// from the first byte to the last. A request reads its files to the end,
// so a File sent again (a retry, the bot-token fallback of a refused
// follow-up or edit) would otherwise go out empty. A reader that cannot be
// reread is left as it is.
func whole(files []*discordgo.File) []*discordgo.File {
	if len(files) == 0 {
		return files
	}
	out := make([]*discordgo.File, len(files))
	for i, f := range files {
		c := *f
		if r, ok := f.Reader.(sizedReaderAt); ok {
			c.Reader = io.NewSectionReader(r, 0, r.Size())
		}
		out[i] = &c
	}
	return out
}

func (a API) Respond(ctx context.Context, i *discordgo.Interaction, r *discordgo.InteractionResponse) error {
	if r.Data != nil {
		rr, d := *r, *r.Data
		d.Files = whole(d.Files)
		d.Components = quickComponents(d.Components)
		rr.Data = &d
		r = &rr
	}
	return respond(ctx, a.ix.get(), i, r)
}

func (a API) Original(ctx context.Context, i *discordgo.Interaction) (*discordgo.Message, error) {
	raw, err := a.webhookMessage(ctx, http.MethodGet, i, "@original", nil)
	if err != nil {
		return nil, err
	}
	var msg discordgo.Message
	if err := DecodeMessage(raw, &msg); err != nil {
		return nil, fmt.Errorf("discordapi: reading the interaction's message: %w", err)
	}
	return &msg, nil
}

func (a API) EditOriginal(ctx context.Context, i *discordgo.Interaction, e *discordgo.WebhookEdit) error {
	return a.FollowupEdit(ctx, i, "@original", e)
}

func (a API) DeleteOriginal(ctx context.Context, i *discordgo.Interaction) error {
	return a.ix.get().InteractionResponseDelete(i, opts(ctx)...)
}

func (a API) Followup(ctx context.Context, i *discordgo.Interaction, p *discordgo.WebhookParams) (*discordgo.Message, error) {
	if len(p.Components) > 0 {
		c := *p
		c.Components = quickComponents(p.Components)
		p = &c
	}
	if IsNoWait(ctx) {
		uri := discordgo.EndpointWebhookToken(i.AppID, i.Token) + "?wait=true"
		raw, err := SendNoWait(ctx, a.ix.get(), nil, IxPatience, http.MethodPost, uri, uri, p, whole(p.Files))
		if err != nil {
			return nil, err
		}
		var msg discordgo.Message
		if err := DecodeMessage(raw, &msg); err != nil {
			return nil, fmt.Errorf("discordapi: reading the follow-up Discord created: %w", err)
		}
		return &msg, nil
	}
	if len(p.Files) > 0 {
		c := *p
		c.Files = whole(p.Files)
		p = &c
	}
	return a.ix.get().FollowupMessageCreate(i, true, p, opts(ctx)...)
}

func (a API) FollowupEdit(ctx context.Context, i *discordgo.Interaction, message string, e *discordgo.WebhookEdit) error {
	e = quickEdit(e)
	if IsNoWait(ctx) {
		uri := discordgo.EndpointWebhookMessage(i.AppID, i.Token, message)
		_, err := SendNoWait(ctx, a.ix.get(), nil, IxPatience, http.MethodPatch, uri, uri, e, whole(e.Files))
		return err
	}
	if len(e.Files) > 0 {
		c := *e
		c.Files = whole(e.Files)
		// With files discordgo already keys the bucket by the message.
		_, err := a.ix.get().FollowupMessageEdit(i, message, &c, opts(ctx)...)
		return err
	}
	_, err := a.webhookMessage(ctx, http.MethodPatch, i, message, e)
	return err
}

// webhookMessage sends a request about one message of an interaction
// (GET or PATCH .../webhooks/{app}/{token}/messages/{message}) in a rate
// limit bucket of that message's own. discordgo's WebhookMessage and
// WebhookMessageEdit (without files) put every such request of the process
// in one bucket, "webhooks//", and a discordgo bucket is a lock held for
// the whole request: every board edit of every game would wait for the one
// before it, 20 a second for the whole bot when Discord takes 50 ms to
// answer. Discord's buckets for these routes are per interaction token.
func (a API) webhookMessage(ctx context.Context, method string, i *discordgo.Interaction, message string, data any) ([]byte, error) {
	uri := discordgo.EndpointWebhookMessage(i.AppID, i.Token, message)
	return a.ix.get().RequestWithBucketID(method, uri, data, uri, opts(ctx)...)
}

func (a API) Send(ctx context.Context, channel string, m *discordgo.MessageSend, nonce string) (*discordgo.Message, error) {
	if len(m.Components) > 0 {
		c := *m
		c.Components = quickComponents(m.Components)
		m = &c
	}
	var body any = m
	if nonce != "" {
		// discordgo's MessageSend has no nonce: the same body with one.
		body = struct {
			*discordgo.MessageSend
			Nonce        string `json:"nonce"`
			EnforceNonce bool   `json:"enforce_nonce"`
		}{m, nonce, true}
	}
	// With files (a picture), the same body as payload_json of a multipart
	// request: the nonce still makes a retry harmless.
	endpoint := discordgo.EndpointChannelMessages(channel)
	raw, err := a.bt.Request(ctx, http.MethodPost, endpoint, endpoint, body, whole(m.Files))
	if err != nil {
		return nil, err
	}
	var msg discordgo.Message
	if err := DecodeMessage(raw, &msg); err != nil {
		return nil, fmt.Errorf("discordapi: reading the message Discord created: %w", err)
	}
	return &msg, nil
}

func (a API) Recent(ctx context.Context, channel string, limit int) ([]*discordgo.Message, error) {
	endpoint := discordgo.EndpointChannelMessages(channel)
	uri := endpoint
	if limit > 0 {
		uri += "?limit=" + strconv.Itoa(limit)
	}
	raw, err := a.bt.Request(ctx, http.MethodGet, uri, "GET "+endpoint, nil, nil)
	if err != nil {
		return nil, err
	}
	msgs, err := decodeMessages(raw)
	if err != nil {
		return nil, fmt.Errorf("discordapi: reading the channel's messages: %w", err)
	}
	return msgs, nil
}

func (a API) Delete(ctx context.Context, channel, message string) error {
	_, err := a.bt.Request(ctx, http.MethodDelete, discordgo.EndpointChannelMessage(channel, message), discordgo.EndpointChannelMessage(channel, ""), nil, nil)
	return err
}

func (a API) Edit(ctx context.Context, m *discordgo.MessageEdit) error {
	if m.Components != nil {
		c, comps := *m, quickComponents(*m.Components)
		c.Components = &comps
		m = &c
	}
	_, err := a.bt.Request(ctx, http.MethodPatch, discordgo.EndpointChannelMessage(m.Channel, m.ID), discordgo.EndpointChannelMessage(m.Channel, ""), m, whole(m.Files))
	return err
}
