package loadtest

import (
	"context"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// buildDixbot builds cmd/dixbot for the test.
func buildDixbot(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "dixbot")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "../../cmd/dixbot").CombinedOutput()
	require.NoError(t, err, "go build ./cmd/dixbot: %s", out)
	return bin
}

// stubBot stops at once after each start, its log's last line the i-th
// of logs for the i-th start (the last of logs after that); addrs are
// the HTTP_ADDR of each start.
type stubBot struct {
	logs   []string
	addrs  []string
	exited chan struct{}
	stops  int
}

func (b *stubBot) Start(_ context.Context, s BotSettings) error {
	addr := ""
	for _, kv := range s.Env {
		if v, ok := strings.CutPrefix(kv, "HTTP_ADDR="); ok {
			addr = v
		}
	}
	b.addrs = append(b.addrs, addr)
	b.exited = make(chan struct{})
	close(b.exited)
	return nil
}

func (b *stubBot) Exited() <-chan struct{}        { return b.exited }
func (b *stubBot) Usage() (Usage, bool, error)    { return Usage{}, false, nil }
func (b *stubBot) Stop(ctx context.Context) error { b.stops++; return nil }
func (b *stubBot) Describe() string               { return "a stub" }
func (b *stubBot) StopReason() string             { return b.logs[min(len(b.addrs), len(b.logs))-1] }

const (
	logAddrTaken = `{"level":"ERROR","msg":"stopped","err":"invalid configuration: HTTP_ADDR: listen tcp 127.0.0.1:4000: bind: address already in use"}`
	logBadToken  = `{"level":"ERROR","msg":"stopped","err":"discord refused the token"}`
)

func newFake(t *testing.T) *fakediscord.Server {
	t.Helper()
	fake, err := fakediscord.New(fakediscord.Options{DisableWeb: true, DisableRateLimits: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = fake.Close() })
	return fake
}

// TestStartBotTriesAnotherPort: a bot that stops because the port of its
// /metrics was taken is started again at another port found free; one
// that stops for another reason is not, and the error quotes its log.
func TestStartBotTriesAnotherPort(t *testing.T) {
	t.Parallel()
	fake := newFake(t)
	ctx := context.Background()

	b := &stubBot{logs: []string{logAddrTaken, logBadToken}}
	_, err := startBot(ctx, fake, b, BotSettings{Env: []string{"LOG_LEVEL=info"}}, "")
	require.ErrorIs(t, err, errExited)
	assert.NotErrorIs(t, err, errAddrTaken)
	assert.Contains(t, err.Error(), "discord refused the token", "the log says why")
	require.Len(t, b.addrs, 2, "started again once the port was taken, not after another failure")
	for _, a := range b.addrs {
		host, _, err := net.SplitHostPort(a)
		require.NoError(t, err)
		assert.Equal(t, "127.0.0.1", host)
	}
	assert.Equal(t, 1, b.stops, "stopped once it gave up")

	b = &stubBot{logs: []string{logAddrTaken}}
	_, err = startBot(ctx, fake, b, BotSettings{}, "")
	require.ErrorIs(t, err, errAddrTaken)
	assert.Len(t, b.addrs, 5, "five ports tried, then given up")

	b = &stubBot{logs: []string{logAddrTaken}}
	_, err = startBot(ctx, fake, b, BotSettings{Env: []string{"HTTP_ADDR=127.0.0.1:4000"}}, "127.0.0.1:4000")
	require.ErrorIs(t, err, errAddrTaken)
	assert.Equal(t, []string{"127.0.0.1:4000"}, b.addrs, "an address given by the caller is not changed")
}

// TestDixbotSaysItsPortIsTaken: cmd/dixbot, its HTTP_ADDR taken, stops at
// once with a log that addrTaken recognises.
func TestDixbotSaysItsPortIsTaken(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	dir := t.TempDir()
	c := &Child{Path: buildDixbot(t), Dir: dir, LogFile: filepath.Join(dir, "dixbot.log")}
	require.NoError(t, c.Start(context.Background(), BotSettings{Token: "t", APIURL: "http://127.0.0.1:1/",
		RedisURL: "redis://127.0.0.1:1/0", Env: []string{"HTTP_ADDR=" + ln.Addr().String()}}))
	select {
	case <-c.Exited():
	case <-time.After(time.Minute):
		_ = c.Stop(context.Background())
		t.Fatal("the bot did not stop")
	}
	why := c.StopReason()
	assert.True(t, addrTaken(why), "its log: %s", why)
	assert.False(t, addrTaken(logBadToken))
}
