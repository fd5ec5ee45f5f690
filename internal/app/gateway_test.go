package app

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// logBuffer collects log lines for a test.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// lines returns the lines that contain every one of parts.
func (l *logBuffer) lines(parts ...string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
next:
	for _, line := range strings.Split(l.b.String(), "\n") {
		for _, p := range parts {
			if !strings.Contains(line, p) {
				continue next
			}
		}
		out = append(out, line)
	}
	return out
}

// runLogged runs Run with cfg and a logger writing to the returned buffer
// until it is ready; the run is stopped at the end of the test.
func runLogged(t *testing.T, cfg Config) (Started, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	started := make(chan Started, 1)
	cfg.Ready = func(s Started) { started <- s }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, cfg, slog.New(slog.NewTextHandler(logs, nil))) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("Run did not return after cancel")
		}
	})
	select {
	case s := <-started:
		return s, logs
	case err := <-done:
		t.Fatalf("Run returned during start-up: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("not ready")
	}
	return Started{}, nil
}

func healthStatus(t *testing.T, addr string) int {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/healthz")
	require.NoError(t, err)
	_ = resp.Body.Close()
	return resp.StatusCode
}

func fastReconnects(t *testing.T) {
	w, m, i := reconnectWait, reconnectMaxWait, identifyInterval
	reconnectWait, reconnectMaxWait, identifyInterval = 10*time.Millisecond, 50*time.Millisecond, 10*time.Millisecond
	t.Cleanup(func() { reconnectWait, reconnectMaxWait, identifyInterval = w, m, i })
}

// On the close codes Discord documents as "do not reconnect" (4004, 4010,
// 4011 without SHARD_COUNT=auto, 4012, 4013, 4014:
// https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes)
// the shard stops: one log line says why, /healthz turns unready, and
// the gateway is not dialled again. Discord refuses every later attempt
// with the same code here, as it would for a reset token.
func TestGatewayStopsOnFinalCloseCodes(t *testing.T) {
	fastReconnects(t)
	for _, tc := range []struct {
		code int
		why  string
	}{
		{4004, "DISCORD_TOKEN"},
		{4010, "SHARD_ID"},
		{4011, "SHARD_COUNT=auto"},
		{4012, "API version"},
		{4013, "intents"},
		{4014, "Developer Portal"},
	} {
		t.Run(strconv.Itoa(tc.code), func(t *testing.T) {
			fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
			cfg := testConfig(t)
			cfg.APIURL, cfg.Token, cfg.HTTPAddr = fake.URL(), fake.Token(), "127.0.0.1:0"
			started, logs := runLogged(t, cfg)
			require.Equal(t, http.StatusOK, healthStatus(t, started.HTTPAddr))
			connects := fake.GatewayConnects()

			fake.RefuseGateway(tc.code)
			require.Eventually(t, func() bool { return len(logs.lines("gateway shard stopped")) > 0 }, 30*time.Second, 5*time.Millisecond)
			stopped := logs.lines("gateway shard stopped")
			require.Len(t, stopped, 1, "one line")
			assert.Contains(t, stopped[0], "code="+strconv.Itoa(tc.code))
			assert.Contains(t, stopped[0], tc.why)
			assert.Equal(t, http.StatusServiceUnavailable, healthStatus(t, started.HTTPAddr))

			// Reconnecting would take 10 to 50 ms here.
			time.Sleep(300 * time.Millisecond)
			assert.Equal(t, connects, fake.GatewayConnects(), "no reconnection")
			assert.False(t, fake.Connected())
			assert.Len(t, logs.lines("gateway shard stopped"), 1)
		})
	}
}

// Any other close is followed by a reconnection that resumes the session
// (4000 Unknown error, "Reconnect: true"), and when the session can no
// longer be resumed (4009 Session timed out) by a new one.
func TestGatewayReconnectsAfterOtherCloseCodes(t *testing.T) {
	fastReconnects(t)
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	cfg := testConfig(t)
	cfg.APIURL, cfg.Token, cfg.HTTPAddr = fake.URL(), fake.Token(), "127.0.0.1:0"
	started, logs := runLogged(t, cfg)

	fake.CloseGateway(4000)
	require.Eventually(t, func() bool { return fake.Resumes() == 1 && fake.Connected() }, 30*time.Second, 5*time.Millisecond, "resumed")
	fake.CloseGateway(4009)
	require.Eventually(t, func() bool { return fake.Connected() }, 30*time.Second, 5*time.Millisecond, "a new session")
	require.Eventually(t, func() bool { return healthStatus(t, started.HTTPAddr) == http.StatusOK }, 30*time.Second, 5*time.Millisecond)
	assert.Equal(t, 1, fake.Resumes())
	assert.Empty(t, logs.lines("gateway shard stopped"))
}

// With SHARD_COUNT=auto, 4011 Sharding required has GET /gateway/bot
// read again and every shard opened anew with the count it recommends.
func TestGatewayReshardsOnShardingRequired(t *testing.T) {
	fastReconnects(t)
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	cfg := testConfig(t)
	cfg.APIURL, cfg.Token, cfg.HTTPAddr = fake.URL(), fake.Token(), "127.0.0.1:0"
	cfg.ShardCount = ShardsAuto
	started, logs := runLogged(t, cfg)
	require.Equal(t, [][2]int{{0, 1}}, fake.ConnectedShards())

	fake.RequireShards(3)
	require.Eventually(t, func() bool { return len(fake.ConnectedShards()) == 3 }, 30*time.Second, 5*time.Millisecond)
	assert.Equal(t, [][2]int{{0, 3}, {1, 3}, {2, 3}}, fake.ConnectedShards())
	require.Eventually(t, func() bool { return healthStatus(t, started.HTTPAddr) == http.StatusOK }, 30*time.Second, 5*time.Millisecond)
	assert.Len(t, logs.lines("4011", "reopening every shard"), 1)
	assert.Empty(t, logs.lines("gateway shard stopped"))

	// A server of the new shard 2 gets its commands answered.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	u := fake.AddUser(fakediscord.UserSpec{Name: "alice"})
	for i := 0; ; i++ {
		require.Less(t, i, 200)
		g := fake.AddGuild(fakediscord.GuildSpec{Name: "Club " + strconv.Itoa(i)})
		id, err := strconv.ParseUint(g.ID, 10, 64)
		require.NoError(t, err)
		if (id>>22)%3 != 2 {
			continue
		}
		ch, err := fake.AddChannel(g.ID, "dix")
		require.NoError(t, err)
		require.NoError(t, fake.AddMember(g.ID, u.ID, 0))
		ix, err := fake.RunCommand(ctx, u.ID, ch.ID, "/dix rules")
		require.NoError(t, err)
		_, err = ix.Wait(ctx)
		require.NoError(t, err)
		break
	}
	assert.Empty(t, fake.Violations())
}

// Shutting down while a shard reconnects to a gateway that accepts the
// connection but never says HELLO does not wait for it: the connection
// is cut and Run returns.
func TestGatewayCloseDoesNotWaitForASilentGateway(t *testing.T) {
	fastReconnects(t)
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	cfg := testConfig(t)
	cfg.APIURL, cfg.Token = fake.URL(), fake.Token()
	started := make(chan Started, 1)
	cfg.Ready = func(s Started) { started <- s }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- Run(ctx, cfg, nil) }()
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("Run returned during start-up: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("not ready")
	}

	connects := fake.GatewayConnects()
	fake.SilenceGateway(true)
	fake.CloseGateway(4000)
	require.Eventually(t, func() bool { return fake.GatewayConnects() > connects }, 30*time.Second, 5*time.Millisecond, "the shard reconnects")
	cancel()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return: the shutdown waits for the silent gateway")
	}
}
