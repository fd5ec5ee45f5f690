package app

import (
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/store"
)

func testConfig(t *testing.T) Config {
	return Config{
		Token:           "not-a-real-token",
		APIURL:          "http://127.0.0.1:1/",
		RedisPrefix:     "dix:",
		DataFile:        filepath.Join(t.TempDir(), "dix.db"),
		Language:        "en",
		StoreTimeout:    300 * time.Millisecond,
		ShutdownTimeout: time.Second,
		GameTTL:         time.Hour,
		ArchiveTTL:      time.Hour,
	}
}

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

func TestRunStartupErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	t.Run("invalid configuration", func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Language = "de"
		err := Run(ctx, cfg, nil)
		assert.ErrorIs(t, err, ErrConfig)
		assert.ErrorContains(t, err, "DIX_LANGUAGE")
	})

	t.Run("redis unreachable", func(t *testing.T) {
		cfg := testConfig(t)
		cfg.RedisURL = "redis://:s3cret-pw@" + freeAddr(t) + "/0"
		err := Run(ctx, cfg, nil)
		require.Error(t, err)
		assert.ErrorIs(t, err, dixbot.ErrUnavailable)
		assert.ErrorContains(t, err, "REDIS_URL")
		assert.NotContains(t, err.Error(), "s3cret-pw", "the password is not shown")
	})

	t.Run("redis password in the query", func(t *testing.T) {
		cfg := testConfig(t)
		cfg.RedisURL = "redis://" + freeAddr(t) + "/0?password=s3cret-pw"
		err := Run(ctx, cfg, nil)
		require.Error(t, err)
		assert.ErrorIs(t, err, ErrConfig)
		assert.ErrorContains(t, err, "REDIS_URL")
		assert.NotContains(t, err.Error(), "s3cret-pw", "the password is not shown")
	})

	t.Run("data file in use", func(t *testing.T) {
		cfg := testConfig(t)
		held, err := store.OpenFile(cfg.DataFile, store.Options{})
		require.NoError(t, err)
		defer held.Close()
		err = Run(ctx, cfg, nil)
		require.Error(t, err)
		assert.ErrorIs(t, err, dixbot.ErrLocked)
		assert.ErrorContains(t, err, cfg.DataFile)
		assert.ErrorContains(t, err, "DIX_DATA_FILE")
	})

	t.Run("token refused", func(t *testing.T) {
		fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
		cfg := testConfig(t)
		cfg.APIURL = fake.URL()
		cfg.Token = "wrong-" + fake.Token()
		err := Run(ctx, cfg, nil)
		require.Error(t, err)
		assert.ErrorIs(t, err, ErrBadToken)
		assert.ErrorContains(t, err, "check DISCORD_TOKEN")
		assert.NotContains(t, err.Error(), cfg.Token)
		// The embedded store was closed on the way out: it opens again.
		st, err := store.OpenFile(cfg.DataFile, store.Options{})
		require.NoError(t, err)
		require.NoError(t, st.Close())
	})
}

// A busy HTTP_ADDR fails before anything else is tried (the Discord URL
// here answers nothing).
func TestRunBusyHTTPAddrFailsFast(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	cfg := testConfig(t)
	cfg.APIURL = "http://" + freeAddr(t) + "/"
	cfg.HTTPAddr = busy.Addr().String()
	err = Run(context.Background(), cfg, nil)
	assert.ErrorIs(t, err, ErrConfig)
	assert.ErrorContains(t, err, "HTTP_ADDR")
}

// A stop asked for while connecting ends Run at once, cleanly.
func TestRunStopsWhileConnecting(t *testing.T) {
	// A Discord that accepts connections and never answers.
	hang, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer hang.Close()
	connected := make(chan struct{}, 1)
	go func() {
		for {
			c, err := hang.Accept()
			if err != nil {
				return
			}
			defer c.Close()
			select {
			case connected <- struct{}{}:
			default:
			}
		}
	}()
	cfg := testConfig(t)
	cfg.APIURL = "http://" + hang.Addr().String() + "/"
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, cfg, nil) }()
	select {
	case <-connected: // Run is waiting on Discord now
	case err := <-done:
		t.Fatalf("Run returned before connecting: %v", err)
	}
	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return after its context was cancelled")
	}
}

func TestRunServesAndStops(t *testing.T) {
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	cfg := testConfig(t)
	cfg.APIURL = fake.URL()
	cfg.Token = fake.Token()
	cfg.HTTPAddr = "127.0.0.1:0"
	s, stop := startRun(t, cfg)
	assert.NotEmpty(t, s.HTTPAddr)
	require.NoError(t, s.Store.Ping(context.Background()))
	assert.NotEmpty(t, fake.Commands(""), "the commands are registered globally")

	stop()
	_, err := net.DialTimeout("tcp", s.HTTPAddr, time.Second)
	assert.Error(t, err, "the HTTP listener is closed")
	assert.Error(t, s.Store.Ping(context.Background()), "the store is closed")
	assert.Empty(t, fake.Violations())
}

// startRun runs Run with cfg until it is ready. stop cancels it and
// checks that it returns without an error.
func startRun(t *testing.T, cfg Config) (Started, func()) {
	t.Helper()
	started := make(chan Started, 1)
	cfg.Ready = func(s Started) { started <- s }
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	done := make(chan error, 1)
	go func() { done <- Run(ctx, cfg, nil) }()
	var s Started
	select {
	case s = <-started:
	case err := <-done:
		t.Fatalf("Run returned during start-up: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("not ready")
	}
	stop := func() {
		t.Helper()
		cancel()
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-time.After(30 * time.Second):
			t.Fatal("Run did not return after cancel")
		}
	}
	return s, stop
}

// A Redis URL in a message shows neither the password of its user part nor
// a secret query parameter's value; the other parameters stay readable.
func TestRedactedRedis(t *testing.T) {
	for _, raw := range []string{
		"redis://:s3cret-pw@h:6379/0",
		"redis://h:6379/0?password=s3cret-pw&db=1",
		"rediss://h:6379/0?Pass=s3cret-pw&auth=s3cret-pw&client_name=dix",
	} {
		c := Config{RedisURL: raw}
		got := c.redactedRedis()
		assert.NotContains(t, got, "s3cret-pw", raw)
		assert.Contains(t, got, "h:6379", raw)
	}
	c := Config{RedisURL: "rediss://h:6379/0?Pass=s3cret-pw&client_name=dix"}
	assert.Contains(t, c.redactedRedis(), "client_name=dix")
}
