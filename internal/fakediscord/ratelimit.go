package fakediscord

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Rate limits, as documented in
// https://discord.com/developers/docs/topics/rate-limits:
//
//   - "Per-route rate limits exist for many individual endpoints, and may
//     include the HTTP method", "often account for top-level resources
//     within the path" (channel_id, guild_id, webhook_id + webhook_token);
//     every answer carries X-RateLimit-Limit, -Remaining, -Reset,
//     -Reset-After and -Bucket.
//   - A 429 answer has a JSON body {message, retry_after, global}, a
//     Retry-After header and X-RateLimit-Scope: user (per bot), global or
//     shared (per resource).
//   - "All bots can make up to 50 requests per second to our API" (the
//     global rate limit), and "Interaction endpoints are not bound to the
//     bot's Global Rate Limit"; those endpoints are the callback and the
//     webhook routes taking the interaction token
//     (https://discord.com/developers/docs/interactions/receiving-and-responding#endpoints).
//
// Discord publishes no per-route numbers ("rate limits should not be hard
// coded"); the stand-in uses values commonly observed from its headers:
// 5 messages per 5 s per channel for a bot creating messages, 5 edits per
// 5 s and 5 deletions per second per channel, 5 requests per 2 s per
// interaction token on the webhook routes, 30 messages per minute per
// channel through webhooks (a shared, per-resource limit), and a generous
// 50 per second on other routes. A bot that adapts to the headers works
// with any of these values.

// globalLimit is Discord's global limit for bot-token requests.
const (
	globalLimit  = 50
	globalWindow = time.Second
)

// routeLimit is one per-route limit.
type routeLimit struct {
	limit  int
	window time.Duration
	scope  string // "user" or "shared"
	// key returns the top-level resource the limit is counted on.
	key func(r *http.Request) string
}

func byChannel(r *http.Request) string { return r.PathValue("chan") }
func byToken(r *http.Request) string   { return r.PathValue("app") + "/" + r.PathValue("token") }
func byNothing(*http.Request) string   { return "" }

// routeLimits maps route templates (templateOf) to their limits. Routes not listed get
// defaultLimit. Follow-up creation has two: the webhook's own and the
// channel's shared webhook-message limit.
var routeLimits = map[string][]routeLimit{
	"POST /channels/{id}/messages":                {{5, 5 * time.Second, "user", byChannel}},
	"PATCH /channels/{id}/messages/{id}":          {{5, 5 * time.Second, "user", byChannel}},
	"DELETE /channels/{id}/messages/{id}":         {{5, time.Second, "user", byChannel}},
	"POST /webhooks/{id}/{token}":                 {{5, 2 * time.Second, "user", byToken}, {30, time.Minute, "shared", nil}},
	"GET /webhooks/{id}/{token}/messages/{id}":    {{5, 2 * time.Second, "user", byToken}},
	"PATCH /webhooks/{id}/{token}/messages/{id}":  {{5, 2 * time.Second, "user", byToken}},
	"DELETE /webhooks/{id}/{token}/messages/{id}": {{5, 2 * time.Second, "user", byToken}},
	// One initial answer per interaction: no per-route limit is observed.
	"POST /interactions/{id}/{token}/callback": nil,
}

var defaultLimit = routeLimit{50, time.Second, "user", byNothing}

// bucket is a fixed-window counter.
type bucket struct {
	used  int
	reset time.Time
}

// limiter holds the buckets; it is guarded by Server.mu.
type limiter struct {
	buckets  map[string]*bucket
	global   []time.Time // bot-token request times within the last window
	disabled bool
	oldEdits map[string][]time.Time // channel -> edits of hour-old messages
}

// rateLimited is a 429 answer.
type rateLimited struct {
	scope      string
	global     bool
	retryAfter time.Duration
	code       int
	message    string
}

// bucketHash names a bucket as X-RateLimit-Bucket does: a hash that does
// not include the top-level resource.
func bucketHash(template string, i int) string {
	h := sha1.Sum([]byte(template + "#" + strconv.Itoa(i)))
	return hex.EncodeToString(h[:16])
}

// channelOfWebhookLocked finds the channel a webhook route writes to.
func (s *Server) channelOfWebhookLocked(r *http.Request) string {
	if st := s.ixByToken[r.PathValue("token")]; st != nil {
		return st.channelID
	}
	return ""
}

// takeLocked counts a request against the global limit (bot token only) and
// its route buckets. It sets the X-RateLimit headers of the first route
// bucket, and returns a 429 answer when a limit is exhausted (then nothing
// is counted).
func (s *Server) takeLocked(w http.ResponseWriter, r *http.Request, template string, botToken bool) *rateLimited {
	l := &s.limits
	if l.disabled {
		return nil
	}
	now := s.now()
	if l.buckets == nil {
		l.buckets = map[string]*bucket{}
	}
	// Global limit: a sliding window of one second.
	if botToken {
		cut := 0
		for cut < len(l.global) && now.Sub(l.global[cut]) >= globalWindow {
			cut++
		}
		l.global = l.global[cut:]
		if len(l.global) >= globalLimit {
			return &rateLimited{scope: "global", global: true, retryAfter: globalWindow - now.Sub(l.global[0])}
		}
	}
	limits, listed := routeLimits[template]
	if !listed {
		limits = []routeLimit{defaultLimit}
	}
	type hit struct {
		b  *bucket
		rl routeLimit
		id string
	}
	var hits []hit
	for i, rl := range limits {
		var res string
		if rl.key != nil {
			res = rl.key(r)
		} else {
			res = s.channelOfWebhookLocked(r)
		}
		key := template + "#" + strconv.Itoa(i) + "@" + res
		b := l.buckets[key]
		if b == nil || !now.Before(b.reset) {
			b = &bucket{reset: now.Add(rl.window)}
			l.buckets[key] = b
		}
		hits = append(hits, hit{b, rl, bucketHash(template, i)})
	}
	for i, h := range hits {
		if h.b.used >= h.rl.limit {
			after := h.b.reset.Sub(now)
			if i == 0 {
				setRateHeaders(w, h.rl.limit, 0, h.b.reset, after, h.id)
			}
			return &rateLimited{scope: h.rl.scope, retryAfter: after}
		}
	}
	if botToken {
		l.global = append(l.global, now)
	}
	for i, h := range hits {
		h.b.used++
		if i == 0 {
			setRateHeaders(w, h.rl.limit, h.rl.limit-h.b.used, h.b.reset, h.b.reset.Sub(now), h.id)
		}
	}
	return nil
}

func setRateHeaders(w http.ResponseWriter, limit, remaining int, reset time.Time, after time.Duration, id string) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(reset.UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(seconds(after), 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", id)
}

func seconds(d time.Duration) float64 {
	return math.Ceil(d.Seconds()*1000) / 1000
}

// write429 answers a rate-limited request as Discord does.
func write429(w http.ResponseWriter, rl *rateLimited) map[string]any {
	h := w.Header()
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(rl.retryAfter.Seconds()))))
	h.Set("X-RateLimit-Scope", rl.scope)
	msg := "You are being rate limited."
	if rl.scope == "shared" {
		msg = "The resource is being rate limited."
	}
	if rl.global {
		h.Set("X-RateLimit-Global", "true")
	}
	if rl.message != "" {
		msg = rl.message
	}
	body := map[string]any{"message": msg, "retry_after": seconds(rl.retryAfter), "global": rl.global}
	if rl.code != 0 {
		body["code"] = rl.code
	}
	return body
}

// Edits of messages older than an hour: error 30046 "Maximum number of
// edits to messages older than 1 hour reached. Try again later"
// (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json).
// Discord answers it with HTTP 429 and does not publish the allowed count;
// the stand-in allows oldEditLimit such edits per channel in any window of
// oldEditWindow, a conservative reading of what bots report.
const (
	oldMessageAge = time.Hour
	oldEditLimit  = 3
	oldEditWindow = time.Hour
)

// oldEditLocked counts an edit of m, and refuses it with 30046 when m is
// older than an hour and the channel's allowance is used up.
func (s *Server) oldEditLocked(m *Message) *rateLimited {
	now := s.now()
	if now.Sub(m.Timestamp) < oldMessageAge || s.limits.disabled {
		return nil
	}
	if s.limits.oldEdits == nil {
		s.limits.oldEdits = map[string][]time.Time{}
	}
	list := s.limits.oldEdits[m.ChannelID]
	cut := 0
	for cut < len(list) && now.Sub(list[cut]) >= oldEditWindow {
		cut++
	}
	list = list[cut:]
	if len(list) >= oldEditLimit {
		s.limits.oldEdits[m.ChannelID] = list
		return &rateLimited{scope: "user", retryAfter: oldEditWindow - now.Sub(list[0]), code: 30046,
			message: "Maximum number of edits to messages older than 1 hour reached. Try again later"}
	}
	s.limits.oldEdits[m.ChannelID] = append(list, now)
	return nil
}

// SetRateLimits turns the rate limits (global, per route, and 30046) on or
// off. They are on by default, as on Discord: switch them off only in a
// test that measures something else (for example raw throughput), never to
// make a bot pass.
func (s *Server) SetRateLimits(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits.disabled = !on
	s.limits.buckets = nil
	s.limits.global = nil
	s.limits.oldEdits = nil
}

func (rl *rateLimited) String() string {
	return fmt.Sprintf("429 %s retry after %s", rl.scope, rl.retryAfter)
}

// templateOf turns a mux pattern into the route template used in stats,
// e.g. "POST /channels/{chan}/messages" → "POST /channels/{id}/messages".
func templateOf(pattern string) string {
	method, path, _ := strings.Cut(pattern, " ")
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, "{") {
			switch p {
			case "{token}":
			default:
				parts[i] = "{id}"
			}
		}
	}
	return method + " " + strings.Join(parts, "/")
}
