package discordapi

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInteractionSessionRenewed: the session of the interaction-token
// requests, whose rate limiter gains a bucket per interaction, is replaced
// once ixRenew old, with the settings of the bot's session.
func TestInteractionSessionRenewed(t *testing.T) {
	base := &discordgo.Session{Token: "Bot t", UserAgent: "dix", MaxRestRetries: 2}
	x := NewAPI(base, nil).ix
	first := x.get()
	assert.Same(t, first, x.get(), "the same session within ixRenew")
	assert.NotSame(t, base.Ratelimiter, first.Ratelimiter, "a rate limiter of its own")
	assert.Equal(t, "Bot t", first.Token)
	assert.Equal(t, "dix", first.UserAgent)
	assert.Equal(t, 2, first.MaxRestRetries)
	assert.NotNil(t, first.Client)

	x.made = x.made.Add(-ixRenew)
	second := x.get()
	assert.NotSame(t, first, second, "a fresh session once ixRenew old")
	assert.NotSame(t, first.Ratelimiter, second.Ratelimiter, "and a fresh limiter: the old buckets go")
	assert.WithinDuration(t, time.Now(), x.made, time.Minute)
}

// TestInteractionEditsInParallel: edits of two interactions' messages are
// sent side by side, not one after the other (discordgo alone would put
// both in one bucket, held for each whole request).
func TestInteractionEditsInParallel(t *testing.T) {
	arrived := make(chan string, 4)
	both := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	seen := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Method+" "+r.URL.Path] = true
		if len(seen) == 2 {
			once.Do(func() { close(both) })
		}
		mu.Unlock()
		arrived <- r.URL.Path
		select { // answer once the other request is under way too
		case <-both:
		case <-time.After(3 * time.Second):
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"1","channel_id":"2","content":"x"}`))
	}))
	defer srv.Close()
	require.NoError(t, SetBaseURL(srv.URL))
	t.Cleanup(func() { _ = SetBaseURL("") })

	a := NewAPI(&discordgo.Session{Token: "Bot t", Client: srv.Client()}, nil)
	content := "x"
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Add(2)
	go func() {
		defer wg.Done()
		errs[0] = a.FollowupEdit(context.Background(), &discordgo.Interaction{AppID: "9", Token: "tok1"}, "11", &discordgo.WebhookEdit{Content: &content})
	}()
	go func() {
		defer wg.Done()
		_, errs[1] = a.Original(context.Background(), &discordgo.Interaction{AppID: "9", Token: "tok2"})
	}()
	wg.Wait()
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])
	assert.Less(t, time.Since(start), 2*time.Second, "both requests were under way at once")
	mu.Lock()
	defer mu.Unlock()
	assert.True(t, seen["PATCH /api/v9/webhooks/9/tok1/messages/11"], "%v", seen)
	assert.True(t, seen["GET /api/v9/webhooks/9/tok2/messages/@original"], "%v", seen)
}

// TestWholeFiles: every request gets readers of its own over the files'
// bytes, so a file sent a second time (the bot-token fallback of a refused
// follow-up) goes out whole, and the caller's File is left untouched.
func TestWholeFiles(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n the picture's bytes")
	f := &discordgo.File{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}
	for try := range 3 {
		got := whole([]*discordgo.File{f})
		require.Len(t, got, 1)
		assert.NotSame(t, f, got[0])
		assert.Equal(t, "board.png", got[0].Name)
		assert.Equal(t, "image/png", got[0].ContentType)
		data, err := io.ReadAll(got[0].Reader)
		require.NoError(t, err)
		assert.Equal(t, png, data, "try %d: the whole picture", try)
	}
	assert.Nil(t, whole(nil))
}
