package discordapi_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/discordapi"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// TestBotTokenRequestsNeverWait: a bot-token request whose bucket is empty,
// or sent while a global 429 runs, is refused at once with the time to
// wait, instead of discordgo sleeping before sending it; Discord's global
// 429 without X-RateLimit-Reset-After, as documented
// (https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit),
// holds every later bot-token request back until its retry_after is over,
// so none is sent into it; a 429 of a route gives its retry_after.
func TestBotTokenRequestsNeverWait(t *testing.T) {
	// Not parallel: sets the process's Discord base URL.
	tests := []struct {
		name string
		// provoke makes Discord refuse what follows and returns the
		// requests that reached the stand-in meanwhile.
		provoke func(t *testing.T, srv *fakediscord.Server, a discordapi.API, channel string) int
		first   discordapi.RateLimited // the first refusal (After: at least)
		sent    int                    // requests the stand-in saw in all
		later   bool                   // the requests after the first are refused too, unsent
	}{{
		name: "global 429 without Reset-After",
		provoke: func(t *testing.T, srv *fakediscord.Server, a discordapi.API, channel string) int {
			srv.RateLimitGlobal(30 * time.Second)
			return 0
		},
		first: discordapi.RateLimited{After: 29 * time.Second, Global: true, Sent: true}, sent: 1, later: true,
	}, {
		name: "empty bucket",
		provoke: func(t *testing.T, srv *fakediscord.Server, a discordapi.API, channel string) int {
			for range 5 { // the stand-in's 5 messages per 5 s per channel
				_, err := a.Send(context.Background(), channel, &discordgo.MessageSend{Content: "x"}, "")
				require.NoError(t, err)
			}
			return 5
		},
		first: discordapi.RateLimited{After: time.Second}, sent: 5, later: true,
	}, {
		name: "a route's 429",
		provoke: func(t *testing.T, srv *fakediscord.Server, a discordapi.API, channel string) int {
			srv.RateLimitNext("POST /channels/{id}/messages", 1, 700*time.Millisecond)
			return 0
		},
		first: discordapi.RateLimited{After: 700 * time.Millisecond, Sent: true}, sent: 2,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
			g := srv.AddGuild(fakediscord.GuildSpec{Name: "g"})
			ch, err := srv.AddChannel(g.ID, "dix")
			require.NoError(t, err)
			require.NoError(t, discordapi.SetBaseURL(srv.URL()))
			t.Cleanup(func() { _ = discordapi.SetBaseURL("") })
			a := discordapi.NewAPI(&discordgo.Session{Token: "Bot " + srv.Token(), Ratelimiter: discordgo.NewRatelimiter()}, nil)
			ctx := context.Background()
			tc.provoke(t, srv, a, ch.ID)

			start := time.Now()
			_, err = a.Send(ctx, ch.ID, &discordgo.MessageSend{Content: "board"}, "n1")
			var rl *discordapi.RateLimited
			require.ErrorAs(t, err, &rl)
			assert.GreaterOrEqual(t, rl.After, tc.first.After)
			assert.Equal(t, tc.first.Global, rl.Global)
			assert.Equal(t, tc.first.Sent, rl.Sent)
			wait, global, ok := discordapi.RetryAfter(err)
			assert.True(t, ok)
			assert.Equal(t, rl.After, wait)
			assert.Equal(t, rl.Global, global)

			content := "edit"
			later := []error{
				func() error {
					_, err := a.Send(ctx, ch.ID, &discordgo.MessageSend{Content: "again"}, "n2")
					return err
				}(),
				a.Edit(ctx, &discordgo.MessageEdit{Channel: ch.ID, ID: "1", Content: &content}),
				a.Delete(ctx, ch.ID, "1"),
			}
			if tc.later {
				for i, err := range later[:1] {
					require.ErrorAs(t, err, &rl, "request %d", i)
					assert.False(t, rl.Sent, "request %d: not sent", i)
					assert.Equal(t, tc.first.Global, rl.Global)
				}
				if tc.first.Global {
					for i, err := range later {
						require.ErrorAs(t, err, &rl, "request %d", i)
						assert.False(t, rl.Sent, "request %d: not sent into the global limit", i)
					}
				}
			} else {
				assert.NoError(t, later[0], "the next one goes through")
			}
			assert.Less(t, time.Since(start), 2*time.Second, "nothing waited for the limit")
			st := srv.Stats()
			assert.Equal(t, tc.sent, st.Routes["POST /channels/{id}/messages"].Requests, "requests sent")
		})
	}
}

// TestRetryAfter: the wait of each kind of refusal, never less than
// discordapi.MinRetry.
func TestRetryAfter(t *testing.T) {
	t.Parallel()
	rle := &discordgo.RateLimitError{RateLimit: &discordgo.RateLimit{TooManyRequests: &discordgo.TooManyRequests{RetryAfter: 1500 * time.Millisecond}}}
	for _, tc := range []struct {
		name   string
		err    error
		wait   time.Duration
		global bool
		ok     bool
	}{
		{"discordgo's 429", rle, 1500 * time.Millisecond, false, true},
		{"wrapped", errors.Join(errors.New("effect board"), rle), 1500 * time.Millisecond, false, true},
		{"global", &discordapi.RateLimited{After: 65 * time.Second, Global: true}, 65 * time.Second, true, true},
		{"retry_after 0", &discordapi.RateLimited{}, discordapi.MinRetry, false, true},
		{"not a rate limit", errors.New("boom"), 0, false, false},
		{"nil", nil, 0, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wait, global, ok := discordapi.RetryAfter(tc.err)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.wait, wait)
			assert.Equal(t, tc.global, global)
		})
	}
}

// TestOutboxFollowUpsNeverWait: in the outbox's context (noWait), a
// follow-up or an edit through an interaction's token whose bucket Discord
// said is empty waits for it only briefly and within its context: a bucket
// that resets in 5 s refuses the request at once, unsent (discordgo would
// sleep the 5 s holding the outbox's channel lock); one that resets in
// 300 ms is waited for, then sent; a context ending first ends the wait.
func TestOutboxFollowUpsNeverWait(t *testing.T) {
	// Not parallel: sets the process's Discord base URL.
	var mu sync.Mutex
	seen, resetAfter := 0, "5"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen++
		ra := resetAfter
		mu.Unlock()
		w.Header().Set("X-RateLimit-Limit", "5")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset-After", ra)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"11","channel_id":"2","content":"x"}`))
	}))
	defer srv.Close()
	sent := func() int {
		mu.Lock()
		defer mu.Unlock()
		return seen
	}
	require.NoError(t, discordapi.SetBaseURL(srv.URL))
	t.Cleanup(func() { _ = discordapi.SetBaseURL("") })
	a := discordapi.NewAPI(&discordgo.Session{Token: "Bot t", Client: srv.Client()}, nil)
	ix := &discordgo.Interaction{AppID: "9", Token: "tok"}
	ctx := discordapi.NoWait(context.Background())
	content := "x"

	msg, err := a.Followup(ctx, ix, &discordgo.WebhookParams{Content: "board"})
	require.NoError(t, err)
	assert.Equal(t, "11", msg.ID)
	require.NoError(t, a.FollowupEdit(ctx, ix, "11", &discordgo.WebhookEdit{Content: &content}))

	// Reset in 5 s: refused at once.
	start := time.Now()
	_, err = a.Followup(ctx, ix, &discordgo.WebhookParams{Content: "ping"})
	var rl *discordapi.RateLimited
	require.ErrorAs(t, err, &rl)
	assert.False(t, rl.Sent)
	assert.Greater(t, rl.After, 3*time.Second)
	err = a.FollowupEdit(ctx, ix, "11", &discordgo.WebhookEdit{Content: &content})
	require.ErrorAs(t, err, &rl)
	assert.False(t, rl.Sent)
	assert.Less(t, time.Since(start), time.Second, "nothing waited for the bucket")
	assert.Equal(t, 2, sent(), "the refused requests were not sent")

	// Reset in 300 ms: waited for, then sent.
	mu.Lock()
	resetAfter = "0.3"
	mu.Unlock()
	other := &discordgo.Interaction{AppID: "9", Token: "tok2"}
	require.NoError(t, a.FollowupEdit(ctx, other, "11", &discordgo.WebhookEdit{Content: &content}))
	start = time.Now()
	require.NoError(t, a.FollowupEdit(ctx, other, "11", &discordgo.WebhookEdit{Content: &content}))
	assert.GreaterOrEqual(t, time.Since(start), 250*time.Millisecond, "the bucket's reset was waited for")
	assert.Equal(t, 4, sent())

	// Reset in 2 s, the context ending in 100 ms: the wait ends with it.
	mu.Lock()
	resetAfter = "2"
	mu.Unlock()
	third := &discordgo.Interaction{AppID: "9", Token: "tok3"}
	require.NoError(t, a.FollowupEdit(ctx, third, "11", &discordgo.WebhookEdit{Content: &content}))
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start = time.Now()
	err = a.FollowupEdit(short, third, "11", &discordgo.WebhookEdit{Content: &content})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), time.Second, "the context ended the wait")
	assert.Equal(t, 5, sent())
}
