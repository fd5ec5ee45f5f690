package discordapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Rate limits of the requests made with the bot token
// (https://discord.com/developers/docs/topics/rate-limits).
//
// discordgo v0.28.1 sleeps, before sending a request, until the reset of
// its bucket when the bucket is empty, whatever the request's context and
// the no-retry option say; and it remembers a global 429 only when the
// answer carries X-RateLimit-Reset-After, which Discord's documented
// global 429 lacks ("Example Exceeded Global Rate Limit Response": only
// Retry-After, X-RateLimit-Global and X-RateLimit-Scope), so it keeps
// sending into the global limit, each request one more of the invalid
// requests that get a bot banned for an hour ("10,000 per 10 minutes",
// https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans).
// The outbox does its bot-token work holding its channel's lock: a sleep
// there would hold every later board of the channel back.
//
// So the bot-token requests go through BotSession: a request whose bucket
// is empty, or sent while a global 429 is running, is not sent; it fails
// at once with a *RateLimited saying how long to wait, like a 429 does, and
// the outbox tries it again then (deferOutbox). Answers to interactions and
// their follow-ups use the interaction's token: they are not bound by the
// global limit and never wait for a bot-token bucket (API.ix). The
// outbox's own requests with an interaction's token wait for their bucket
// only briefly and within their context (noWait).

// RateLimited is a request refused, by Discord or before it was sent, for
// a rate limit: it may be sent again After.
type RateLimited struct {
	After  time.Duration
	Global bool // the bot's global limit: no bot-token request until then
	Sent   bool // Discord answered 429 (false: not sent at all)
}

func (e *RateLimited) Error() string {
	scope := "route"
	if e.Global {
		scope = "global"
	}
	if !e.Sent {
		return fmt.Sprintf("discordapi: %s rate limit running, not sent; retry after %v", scope, e.After)
	}
	return fmt.Sprintf("discordapi: %s rate limit (429); retry after %v", scope, e.After)
}

// MinRetry is the least an outbox waits after a rate limit, so that a
// retry_after of 0 never makes it loop.
const MinRetry = 100 * time.Millisecond

// RetryAfter is how long to wait before sending again after err, when err
// is a rate limit: Discord's 429 (its retry_after) or one met before
// sending. global reports the bot's global limit.
func RetryAfter(err error) (wait time.Duration, global, ok bool) {
	var rl *RateLimited
	if errors.As(err, &rl) {
		return max(rl.After, MinRetry), rl.Global, true
	}
	var rle *discordgo.RateLimitError
	if errors.As(err, &rle) && rle.RateLimit != nil && rle.TooManyRequests != nil {
		return max(rle.RetryAfter, MinRetry), false, true
	}
	return 0, false, false
}

// Gate holds the end of a global 429: until then no bot-token
// request is sent. Safe for concurrent use.
type Gate struct {
	mu    sync.Mutex
	until time.Time
}

// wait is how long the global limit still runs (0: not running, or no
// gate).
func (g *Gate) Wait() time.Duration {
	if g == nil {
		return 0
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return time.Until(g.until)
}

// close holds every bot-token request back for d.
func (g *Gate) Close(d time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if t := time.Now().Add(d); t.After(g.until) {
		g.until = t
	}
}

// gateTransport reads every answer to a bot-token request: a 429 of the
// global limit (X-RateLimit-Global: true, or X-RateLimit-Scope: global)
// closes the gate for its retry_after (the body's, in seconds with
// decimals; else the Retry-After header's). While the gate is closed it
// sends nothing.
type gateTransport struct {
	base http.RoundTripper
	gate *Gate
}

func (t gateTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if w := t.gate.Wait(); w > 0 {
		if r.Body != nil {
			_ = r.Body.Close()
		}
		return nil, &RateLimited{After: w, Global: true}
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil || resp.StatusCode != http.StatusTooManyRequests ||
		resp.Header.Get("X-RateLimit-Global") == "" && resp.Header.Get("X-RateLimit-Scope") != "global" {
		return resp, err
	}
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	wait := time.Duration(0)
	var tm struct {
		RetryAfter float64 `json:"retry_after"`
	}
	if rerr == nil && json.Unmarshal(body, &tm) == nil && tm.RetryAfter > 0 {
		wait = time.Duration(tm.RetryAfter * float64(time.Second))
	} else if s, err := strconv.ParseFloat(resp.Header.Get("Retry-After"), 64); err == nil && s > 0 {
		wait = time.Duration(s * float64(time.Second))
	}
	t.gate.Close(max(wait, time.Second)) // a global 429 without a time: a second
	return resp, nil
}

// BotSession sends the requests made with the bot token: a session of its
// own, sharing the bot session's token and HTTP client, whose rate limiter
// is never waited on and whose global 429s close a gate.
type BotSession struct {
	s    *discordgo.Session
	gate *Gate
}

func NewBotSession(base *discordgo.Session, gate *Gate) *BotSession {
	client := base.Client
	if client == nil {
		client = http.DefaultClient
	}
	tr := client.Transport
	if tr == nil {
		tr = http.DefaultTransport
	}
	c := *client
	c.Transport = gateTransport{base: tr, gate: gate}
	return &BotSession{gate: gate, s: &discordgo.Session{
		Token:          base.Token,
		Client:         &c,
		UserAgent:      base.UserAgent,
		MaxRestRetries: base.MaxRestRetries,
		LogLevel:       base.LogLevel,
		Ratelimiter:    discordgo.NewRatelimiter(),
	}}
}

// request sends data (as JSON, or as the payload_json of a multipart body
// with files) to url in the rate-limit bucket named bucket, unless the
// bucket is empty or the global limit runs: then it returns a *RateLimited
// at once, without sending. The wait for the bucket's lock is the wait for
// the request of the same bucket under way, bounded by its context.
func (b *BotSession) Request(ctx context.Context, method, url, bucket string, data any, files []*discordgo.File) ([]byte, error) {
	return SendNoWait(ctx, b.s, b.gate, 0, method, url, bucket, data, files)
}

// SendNoWait sends a request through s in the bucket named bucket. When
// gate (nil: none) is closed, or the bucket is empty for longer than
// patience, it returns a *RateLimited at once, without sending (see
// BotSession.request); a shorter wait is waited out within ctx, never
// beyond it.
func SendNoWait(ctx context.Context, s *discordgo.Session, gate *Gate, patience time.Duration, method, url, bucket string, data any, files []*discordgo.File) ([]byte, error) {
	var body []byte
	contentType := "application/json"
	var err error
	switch {
	case len(files) > 0:
		contentType, body, err = multipartBody(data, files)
	case data != nil:
		body, err = discordgo.Marshal(data)
	}
	if err != nil {
		return nil, fmt.Errorf("discordapi: encoding a request: %w", err)
	}
	if w := gate.Wait(); w > 0 {
		return nil, &RateLimited{After: w, Global: true}
	}
	rl := s.Ratelimiter
	bk := rl.GetBucket(bucket)
	for {
		bk.Lock()
		w := rl.GetWaitTime(bk, 1)
		if w <= 0 {
			break
		}
		bk.Unlock()
		if w > patience {
			return nil, &RateLimited{After: w}
		}
		t := time.NewTimer(w)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("discordapi: waiting for a rate limit of %v: %w", w, ctx.Err())
		case <-t.C:
		}
	}
	bk.Remaining--
	raw, err := s.RequestWithLockedBucket(method, url, contentType, body, bk, 0, requestOptions(ctx)...)
	var rle *discordgo.RateLimitError
	if errors.As(err, &rle) && rle.RateLimit != nil && rle.TooManyRequests != nil {
		// Discord's 429: the same wait, with the global flag the gate read.
		w := rle.RetryAfter
		global := false
		if gw := gate.Wait(); gw > 0 {
			w, global = max(w, gw), true
		}
		return nil, &RateLimited{After: w, Global: global, Sent: true}
	}
	return raw, err
}

// noWaitKey marks the context of the outbox's work, which holds its
// channel's lock: its requests made with an interaction's token wait for
// their bucket only up to IxPatience, and within the context, where
// discordgo would sleep until the bucket's reset whatever the context
// says; longer, they are refused at once and go with the bot token. An
// answer to a click, which has its own 3 seconds and a bucket of its own,
// is not concerned.
type noWaitKey struct{}

// IxPatience is the longest the outbox waits for an interaction token's
// bucket (Discord's are a few requests per 2 s per token).
const IxPatience = 2500 * time.Millisecond

// NoWait returns ctx marked so (see noWaitKey).
func NoWait(ctx context.Context) context.Context { return context.WithValue(ctx, noWaitKey{}, true) }

// IsNoWait reports whether ctx is marked by NoWait.
func IsNoWait(ctx context.Context) bool { v, _ := ctx.Value(noWaitKey{}).(bool); return v }

// requestOptions are the options of a request made within ctx: bound by
// it, and never retried by discordgo after a 429.
func requestOptions(ctx context.Context) []discordgo.RequestOption {
	return []discordgo.RequestOption{discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false)}
}
