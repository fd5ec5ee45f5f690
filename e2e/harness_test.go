package e2e

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/app"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// waitTimeout bounds every wait of these tests: generous, because the
// machine running them may be slow and busy (-race, 2 cores); a healthy run
// never comes close.
const waitTimeout = 30 * time.Second

func waitCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	t.Cleanup(cancel)
	return ctx
}

// running is one app.Run in a goroutine.
type running struct {
	t       *testing.T
	cancel  context.CancelFunc
	done    chan error
	started app.Started
}

// baseConfig is the configuration of a bot talking to fake, with the
// embedded store in a temporary file unless redisURL is set.
func baseConfig(t *testing.T, fake *fakediscord.Server, redisURL string) app.Config {
	t.Helper()
	return app.Config{
		Token:           fake.Token(),
		APIURL:          sharedURL(t, fake),
		RedisURL:        redisURL,
		RedisPrefix:     fmt.Sprintf("e2e%d:", time.Now().UnixNano()), // isolates tests sharing a REDIS_URL
		DataFile:        filepath.Join(t.TempDir(), "dix.db"),
		Language:        "en",
		StoreTimeout:    1500 * time.Millisecond,
		ShutdownTimeout: 20 * time.Second,
		GameTTL:         time.Hour,
		ArchiveTTL:      time.Hour,
	}
}

// testLogger writes the program's logs to the test log when E2E_LOG is
// set, and discards them otherwise (they are noisy under -race, and the
// test command's -json makes every run verbose).
func testLogger(t *testing.T) *slog.Logger {
	if os.Getenv("E2E_LOG") == "" {
		return slog.New(slog.DiscardHandler)
	}
	w := &tWriter{t: t}
	// Registered before the program's own clean-up, so it runs after the
	// program has stopped: stray lines after the test are dropped.
	t.Cleanup(func() { w.done.Store(true) })
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tWriter struct {
	t    *testing.T
	done atomic.Bool
}

func (w *tWriter) Write(p []byte) (int, error) {
	if !w.done.Load() {
		w.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

// startApp runs the program with cfg and waits until it is ready. The
// program is stopped, and its clean return checked, when the test ends
// unless stop was called first.
func startApp(t *testing.T, cfg app.Config) *running {
	t.Helper()
	return startAppLogging(t, cfg, testLogger(t))
}

// startAppLogging is startApp with the program's logger.
func startAppLogging(t *testing.T, cfg app.Config, logger *slog.Logger) *running {
	t.Helper()
	ready := make(chan app.Started, 1)
	cfg.Ready = func(s app.Started) { ready <- s }
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{t: t, cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- app.Run(ctx, cfg, logger) }()
	select {
	case r.started = <-ready:
	case err := <-r.done:
		cancel()
		t.Fatalf("app.Run returned during start-up: %v", err)
	case <-time.After(waitTimeout):
		cancel()
		t.Fatalf("app.Run not ready after %v", waitTimeout)
	}
	t.Cleanup(func() {
		if r.cancel != nil {
			r.stop()
		}
	})
	return r
}

// stop cancels the program's context and waits for Run to return nil.
func (r *running) stop() {
	r.t.Helper()
	r.cancel()
	r.cancel = nil
	select {
	case err := <-r.done:
		require.NoError(r.t, err, "app.Run after shutdown")
	case <-time.After(waitTimeout):
		r.t.Fatalf("app.Run did not return %v after its context was cancelled", waitTimeout)
	}
}

// sharedURL is the base of Discord's API that a bot running in this
// process gives for fake: the shared front of every stand-in of the
// process, as discordgo's endpoints are process-wide. Bots run in other
// processes may use fake.URL() itself.
func sharedURL(t testing.TB, fake *fakediscord.Server) string {
	t.Helper()
	u, err := fake.SharedURL()
	require.NoError(t, err)
	return u
}
