package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRunPrintsHowToPointTheBot(t *testing.T) {
	capture := t.TempDir()
	env := map[string]string{"FAKEDISCORD_CAPTURE": capture}
	var out syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-token", "tok"}, &out, func(k string) string { return env[k] })
	}()
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "Web view") }, 30*time.Second, 10*time.Millisecond)
	text := out.String()
	assert.Contains(t, text, "DISCORD_TOKEN=tok ")
	m := regexp.MustCompile(`DISCORD_API_URL=(http://127\.0\.0\.1:\d+/)`).FindStringSubmatch(text)
	require.Len(t, m, 2, text)
	assert.Regexp(t, `User alice .* locale en-US`, text)
	assert.Regexp(t, `User bruno .* locale fr`, text)
	assert.Contains(t, text, "Capturing requests to "+capture)

	// The API and the page are served; requests are captured.
	req, err := http.NewRequest(http.MethodGet, m[1]+"api/v9/users/@me", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot tok")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	resp, err = http.Get(m[1])
	require.NoError(t, err)
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Contains(t, string(page), "<title>fakediscord</title>")
	files, _ := filepath.Glob(filepath.Join(capture, "*.json"))
	assert.Len(t, files, 1)

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("run did not stop")
	}
}

func TestRunRefusesNonLoopback(t *testing.T) {
	err := run(context.Background(), []string{"-addr", "0.0.0.0:0"}, io.Discard, os.Getenv)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "loopback")
}

// -quiet prints one line, the web view's address, and no advice to start
// a bot (the script that passes it started one).
func TestRunQuietPrintsOneURL(t *testing.T) {
	var out syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-quiet"}, &out, func(string) string { return "" })
	}()
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "\n") }, 30*time.Second, 10*time.Millisecond)
	assert.Regexp(t, `^Web view: http://127\.0\.0\.1:\d+/\?channel=\d+\n$`, out.String())
	assert.NotContains(t, out.String(), "DISCORD_TOKEN")
	cancel()
	require.NoError(t, <-done)
}
