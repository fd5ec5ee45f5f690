package fakediscord_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// reply is a REST answer with its headers.
type reply struct {
	status int
	body   obj
	header http.Header
}

// callH sends a REST request (token "" for none) and returns the answer
// with its headers.
func callH(t *testing.T, srv *fakediscord.Server, token, method, path string, body any) reply {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, srv.URL()+"api/v10"+path, rd)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bot "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out obj
	if len(raw) > 0 && raw[0] == '{' {
		require.NoError(t, json.Unmarshal(raw, &out))
	}
	return reply{resp.StatusCode, out, resp.Header}
}

// answered returns an interaction the bot answered with a message, so its
// token can be used for follow-ups.
func answered(t *testing.T, w *world) *fakediscord.Interaction {
	t.Helper()
	if !w.srv.Connected() {
		rawBot(t, w.srv)
	}
	ix := interactionFor(t, w)
	r := callH(t, w.srv, "", http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 4, "data": obj{"content": "ok"}})
	require.Equal(t, http.StatusNoContent, r.status, "%v", r.body)
	return ix
}

// TestRateLimits checks each documented limit with a request just within it
// (accepted, with the X-RateLimit headers) and one past it (429 with
// retry_after, global and X-RateLimit-Scope).
// https://discord.com/developers/docs/topics/rate-limits
func TestRateLimits(t *testing.T) {
	t.Parallel()
	type limitCase struct {
		name string
		// within sends the requests a bot may make; past the one too many.
		within func(t *testing.T, w *world, cs *caseState) []reply
		past   func(t *testing.T, w *world, cs *caseState) reply
		scope  string
		global bool
		code   int // JSON code of the 429, if any (30046)
	}
	post := func(w *world, channel string) func(t *testing.T) reply {
		return func(t *testing.T) reply {
			return callH(t, w.srv, w.srv.Token(), http.MethodPost, "/channels/"+channel+"/messages", obj{"content": "x"})
		}
	}
	times := func(n int, f func(t *testing.T) reply) func(t *testing.T) []reply {
		return func(t *testing.T) []reply {
			out := make([]reply, n)
			for i := range out {
				out[i] = f(t)
			}
			return out
		}
	}
	tests := []limitCase{{
		// Observed per-channel bucket of message creation (no published number).
		name:   "5 messages per 5 s per channel",
		within: func(t *testing.T, w *world, cs *caseState) []reply { return times(5, post(w, w.channel.ID))(t) },
		past:   func(t *testing.T, w *world, cs *caseState) reply { return post(w, w.channel.ID)(t) },
		scope:  "user",
	}, {
		name: "the message bucket is per channel",
		within: func(t *testing.T, w *world, cs *caseState) []reply {
			other, err := w.srv.AddChannel(w.guild.ID, "other")
			require.NoError(t, err)
			out := times(5, post(w, w.channel.ID))(t)
			return append(out, post(w, other.ID)(t)) // another channel's bucket
		},
		past:  func(t *testing.T, w *world, cs *caseState) reply { return post(w, w.channel.ID)(t) },
		scope: "user",
	}, {
		// "All bots can make up to 50 requests per second to our API."
		name: "global limit of 50 bot-token requests per second",
		within: func(t *testing.T, w *world, cs *caseState) []reply {
			out := times(25, func(t *testing.T) reply { return callH(t, w.srv, w.srv.Token(), http.MethodGet, "/users/@me", nil) })(t)
			return append(out, times(25, func(t *testing.T) reply {
				return callH(t, w.srv, w.srv.Token(), http.MethodGet, "/channels/"+w.channel.ID, nil)
			})(t)...)
		},
		past: func(t *testing.T, w *world, cs *caseState) reply {
			return callH(t, w.srv, w.srv.Token(), http.MethodGet, "/gateway/bot", nil)
		},
		scope:  "global",
		global: true,
	}, {
		// 5 requests per 2 s per webhook id + token (observed).
		name: "5 follow-ups per 2 s per interaction token",
		within: func(t *testing.T, w *world, cs *caseState) []reply {
			ix := answered(t, w)
			w.srv.ResetStats()
			cs.token = ix.Token
			return times(5, func(t *testing.T) reply {
				return callH(t, w.srv, "", http.MethodPost, "/webhooks/"+w.srv.ApplicationID()+"/"+ix.Token, obj{"content": "f"})
			})(t)
		},
		past: func(t *testing.T, w *world, cs *caseState) reply {
			return callH(t, w.srv, "", http.MethodPost, "/webhooks/"+w.srv.ApplicationID()+"/"+cs.token, obj{"content": "f"})
		},
		scope: "user",
	}, {
		// Webhook messages: 30 per minute per channel, a per-resource limit (observed).
		name: "30 webhook messages per minute per channel",
		within: func(t *testing.T, w *world, cs *caseState) []reply {
			var out []reply
			for i := 0; i < 6; i++ {
				ix := answered(t, w)
				out = append(out, times(5, func(t *testing.T) reply {
					return callH(t, w.srv, "", http.MethodPost, "/webhooks/"+w.srv.ApplicationID()+"/"+ix.Token, obj{"content": "f"})
				})(t)...)
			}
			cs.token = answered(t, w).Token
			return out
		},
		past: func(t *testing.T, w *world, cs *caseState) reply {
			return callH(t, w.srv, "", http.MethodPost, "/webhooks/"+w.srv.ApplicationID()+"/"+cs.token, obj{"content": "f"})
		},
		scope: "shared",
	}, {
		// 30046: Maximum number of edits to messages older than 1 hour.
		name: "edits of hour-old messages",
		within: func(t *testing.T, w *world, cs *caseState) []reply {
			r := post(w, w.channel.ID)(t)
			require.Equal(t, http.StatusOK, r.status)
			cs.msg = r.body["id"].(string)
			w.srv.Advance(61 * time.Minute)
			return times(3, func(t *testing.T) reply {
				return callH(t, w.srv, w.srv.Token(), http.MethodPatch, "/channels/"+w.channel.ID+"/messages/"+r.body["id"].(string), obj{"content": "e"})
			})(t)
		},
		past: func(t *testing.T, w *world, cs *caseState) reply {
			return callH(t, w.srv, w.srv.Token(), http.MethodPatch, "/channels/"+w.channel.ID+"/messages/"+cs.msg, obj{"content": "e"})
		},
		scope: "user",
		code:  30046,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The interaction is answered after the calls that provoke the
			// limit: a minute for it, since the 3 s deadline runs on real
			// time and a busy machine may take longer.
			w := newWorld(t, fakediscord.Options{ResponseDeadline: time.Minute})
			w.srv.Freeze() // the windows hold however slow the machine
			cs := &caseState{}
			for i, r := range tc.within(t, w, cs) {
				require.Containsf(t, []int{http.StatusOK, http.StatusNoContent}, r.status, "request %d refused: %v", i, r.body)
				if tc.code == 0 {
					assert.NotEmpty(t, r.header.Get("X-RateLimit-Bucket"), "request %d", i)
					assert.NotEmpty(t, r.header.Get("X-RateLimit-Limit"))
					assert.NotEmpty(t, r.header.Get("X-RateLimit-Remaining"))
					assert.NotEmpty(t, r.header.Get("X-RateLimit-Reset"))
					assert.NotEmpty(t, r.header.Get("X-RateLimit-Reset-After"))
				}
			}
			before := w.srv.Stats().RateLimited
			r := tc.past(t, w, cs)
			require.Equal(t, http.StatusTooManyRequests, r.status, "%v", r.body)
			assert.Equal(t, tc.scope, r.header.Get("X-RateLimit-Scope"))
			assert.NotEmpty(t, r.header.Get("Retry-After"))
			retry, ok := r.body["retry_after"].(float64)
			require.True(t, ok, "retry_after: %v", r.body)
			assert.Greater(t, retry, 0.0)
			assert.Equal(t, tc.global, r.body["global"])
			assert.NotEmpty(t, r.body["message"])
			if tc.global {
				assert.Equal(t, "true", r.header.Get("X-RateLimit-Global"))
			}
			if tc.code != 0 {
				assert.Equal(t, float64(tc.code), r.body["code"])
			}
			assert.Equal(t, before+1, w.srv.Stats().RateLimited, "429s are counted")
		})
	}
}

// caseState carries ids from a case's valid requests to its violating one.
type caseState struct{ token, msg string }

// TestRateLimitsReset checks that a bucket refills after its window and that
// the limits can be switched off for a test measuring something else.
func TestRateLimitsReset(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.srv.Freeze() // the window holds however slow the machine
	path := "/channels/" + w.channel.ID + "/messages"
	for i := 0; i < 5; i++ {
		r := callH(t, w.srv, w.srv.Token(), http.MethodPost, path, obj{"content": "x"})
		require.Equal(t, http.StatusOK, r.status)
		assert.Equal(t, strconv.Itoa(4-i), r.header.Get("X-RateLimit-Remaining"))
		assert.Equal(t, "5", r.header.Get("X-RateLimit-Limit"))
	}
	require.Equal(t, http.StatusTooManyRequests, callH(t, w.srv, w.srv.Token(), http.MethodPost, path, obj{"content": "x"}).status)
	w.srv.Advance(5 * time.Second)
	require.Equal(t, http.StatusOK, callH(t, w.srv, w.srv.Token(), http.MethodPost, path, obj{"content": "x"}).status, "refilled after 5 s")

	w.srv.SetRateLimits(false)
	for i := 0; i < 20; i++ {
		require.Equal(t, http.StatusOK, callH(t, w.srv, w.srv.Token(), http.MethodPost, path, obj{"content": "x"}).status)
	}
}

// TestInteractionEndpointsAreExemptFromTheGlobalLimit: "Interaction
// endpoints are not bound to the bot's Global Rate Limit."
func TestInteractionEndpointsAreExemptFromTheGlobalLimit(t *testing.T) {
	t.Parallel()
	// The answer comes after 50 calls: on a busy machine they may take
	// longer than the 3 s deadline, which runs on real time.
	w := newWorld(t, fakediscord.Options{ResponseDeadline: time.Minute})
	rawBot(t, w.srv)
	ix := interactionFor(t, w)
	w.srv.ResetStats()
	w.srv.Freeze()             // the window holds however slow the machine
	w.srv.Advance(time.Second) // the command registration leaves the global window
	for i := 0; i < 50; i++ {
		require.Equal(t, http.StatusOK, callH(t, w.srv, w.srv.Token(), http.MethodGet, "/users/@me", nil).status)
	}
	require.Equal(t, http.StatusTooManyRequests, callH(t, w.srv, w.srv.Token(), http.MethodGet, "/gateway/bot", nil).status, "global limit reached")
	// discordgo sends its bot token on the interaction routes too.
	r := callH(t, w.srv, w.srv.Token(), http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 4, "data": obj{"content": "ok"}})
	require.Equal(t, http.StatusNoContent, r.status, "%v", r.body)
	r = callH(t, w.srv, w.srv.Token(), http.MethodPost, "/webhooks/"+w.srv.ApplicationID()+"/"+ix.Token, obj{"content": "follow-up"})
	require.Equal(t, http.StatusOK, r.status, "%v", r.body)

	st := w.srv.Stats()
	assert.Equal(t, 2, st.InteractionToken)
	assert.Equal(t, 1, st.RateLimited)
	assert.Equal(t, "interaction", st.Routes["POST /interactions/{id}/{token}/callback"].Class)
	assert.Equal(t, 1, st.Routes["POST /webhooks/{id}/{token}"].Requests)
	assert.Equal(t, 1, st.Routes["GET /gateway/bot"].RateLimited)
}

// TestStats checks the counters through the Go method and GET /_test/stats.
func TestStats(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i := 0; i < 3; i++ {
		require.Equal(t, http.StatusOK, callH(t, w.srv, w.srv.Token(), http.MethodPost, "/channels/"+w.channel.ID+"/messages", obj{"content": "x"}).status)
	}
	require.Equal(t, http.StatusBadRequest, callH(t, w.srv, w.srv.Token(), http.MethodPost, "/channels/"+w.channel.ID+"/messages", obj{"content": ""}).status)
	answered(t, w)

	st := w.srv.Stats()
	route := st.Routes["POST /channels/{id}/messages"]
	assert.Equal(t, fakediscord.RouteStats{Class: "bot", Requests: 4, Errors: 1}, route)
	assert.Equal(t, 1, st.InteractionToken)
	assert.GreaterOrEqual(t, st.BotToken, 5, "the messages and the command registration")

	resp, err := http.Get(w.srv.URL() + "_test/stats")
	require.NoError(t, err)
	var got fakediscord.Stats
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&got))
	resp.Body.Close()
	assert.Equal(t, st, got)

	req, _ := http.NewRequest(http.MethodDelete, w.srv.URL()+"_test/stats", nil)
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.Zero(t, w.srv.Stats().BotToken)
	assert.Empty(t, w.srv.Stats().Routes)
}

// TestDiscordgoHonoursRateLimits drives the real discordgo client into the
// limits: it must wait on X-RateLimit-Remaining 0 (no 429 for the channel
// bucket) and retry after a global 429, so that every message arrives.
func TestDiscordgoHonoursRateLimits(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	s, _ := connect(t, w.srv, nil)
	w.srv.ResetStats()

	start := time.Now()
	for i := 0; i < 7; i++ {
		_, err := s.ChannelMessageSend(w.channel.ID, fmt.Sprint("m", i))
		require.NoError(t, err)
	}
	assert.GreaterOrEqual(t, time.Since(start), 4*time.Second, "the 6th message waited for the bucket to reset")
	assert.Zero(t, w.srv.Stats().RateLimited, "discordgo waits on the headers instead of hitting 429")

	// 60 concurrent bot-token requests on different routes: past the
	// global limit, discordgo is answered 429 and retries after retry_after.
	// The first of them meet a global limit however slowly a busy machine
	// sends them (at 50 a second they would meet it by themselves).
	w.srv.ResetStats()
	w.srv.RateLimitGlobal(300 * time.Millisecond)
	var wg sync.WaitGroup
	errs := make(chan error, 60)
	for i := 0; i < 60; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var err error
			if i%2 == 0 {
				_, err = s.User("@me")
			} else {
				_, err = s.Channel(w.channel.ID)
			}
			errs <- err
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	st := w.srv.Stats()
	assert.Positive(t, st.RateLimited, "the global limit was hit")
	assert.Equal(t, 60+st.RateLimited, st.BotToken, "each 429 was retried")
}

// TestRateLimitAnswers checks the shape of each kind of 429 against the
// examples of https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit:
// a per-route ("user") limit carries the bucket's X-RateLimit-* headers; a
// resource ("shared") limit met without warning (RateLimitNext) says
// "The resource is being rate limited."; the global limit
// (RateLimitGlobal, or 50 bot-token requests in a second) carries
// X-RateLimit-Global and X-RateLimit-Scope: global but no bucket header,
// no X-RateLimit-Reset-After in particular, and leaves the requests made
// with an interaction's token alone.
func TestRateLimitAnswers(t *testing.T) {
	t.Parallel()
	post := func(t *testing.T, w *world) reply {
		return callH(t, w.srv, w.srv.Token(), http.MethodPost, "/channels/"+w.channel.ID+"/messages", obj{"content": "x"})
	}
	tests := []struct {
		name       string
		provoke    func(t *testing.T, w *world) reply
		scope      string
		global     bool
		message    string
		retryAfter float64 // seconds; 0: not checked
		resetAfter bool    // X-RateLimit-Reset-After present
	}{{
		name: "per-route limit",
		provoke: func(t *testing.T, w *world) reply {
			for range 5 {
				require.Equal(t, http.StatusOK, post(t, w).status)
			}
			return post(t, w)
		},
		scope: "user", message: "You are being rate limited.", resetAfter: true,
	}, {
		name: "resource limit without warning",
		provoke: func(t *testing.T, w *world) reply {
			w.srv.RateLimitNext("POST /channels/{id}/messages", 1, 1500*time.Millisecond)
			r := post(t, w)
			require.Equal(t, http.StatusOK, post(t, w).status, "only the next request")
			return r
		},
		scope: "shared", message: "The resource is being rate limited.", retryAfter: 1.5,
	}, {
		name: "global limit without Reset-After",
		provoke: func(t *testing.T, w *world) reply {
			w.srv.RateLimitGlobal(65 * time.Second)
			return callH(t, w.srv, w.srv.Token(), http.MethodGet, "/users/@me", nil)
		},
		scope: "global", global: true, message: "You are being rate limited.", retryAfter: 65,
	}, {
		name: "global limit of 50 per second",
		provoke: func(t *testing.T, w *world) reply {
			w.srv.Advance(time.Second)
			for range 50 {
				require.Equal(t, http.StatusOK, callH(t, w.srv, w.srv.Token(), http.MethodGet, "/users/@me", nil).status)
			}
			return callH(t, w.srv, w.srv.Token(), http.MethodGet, "/users/@me", nil)
		},
		scope: "global", global: true, message: "You are being rate limited.",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The interaction is answered after the calls that provoke the
			// limit: a minute for it, since the 3 s deadline runs on real
			// time and a busy machine may take longer.
			w := newWorld(t, fakediscord.Options{ResponseDeadline: time.Minute})
			w.srv.Freeze() // the windows hold however slow the machine
			rawBot(t, w.srv)
			ix := interactionFor(t, w)
			r := tc.provoke(t, w)
			require.Equal(t, http.StatusTooManyRequests, r.status, "%v", r.body)
			assert.Equal(t, tc.scope, r.header.Get("X-RateLimit-Scope"))
			assert.Equal(t, tc.global, r.body["global"])
			assert.Equal(t, tc.message, r.body["message"])
			assert.NotEmpty(t, r.header.Get("Retry-After"))
			if tc.retryAfter > 0 {
				assert.InDelta(t, tc.retryAfter, r.body["retry_after"], 0.01)
				assert.Equal(t, strconv.Itoa(int(tc.retryAfter+0.999)), r.header.Get("Retry-After"))
			}
			if tc.global {
				assert.Equal(t, "true", r.header.Get("X-RateLimit-Global"))
				for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Reset-After", "X-RateLimit-Bucket"} {
					assert.Empty(t, r.header.Get(h), h)
				}
				// Interaction endpoints are not bound by it.
				cb := callH(t, w.srv, w.srv.Token(), http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 4, "data": obj{"content": "ok"}})
				assert.Equal(t, http.StatusNoContent, cb.status, "%v", cb.body)
				return
			}
			assert.Empty(t, r.header.Get("X-RateLimit-Global"))
			assert.Equal(t, tc.resetAfter, r.header.Get("X-RateLimit-Reset-After") != "")
		})
	}
}
