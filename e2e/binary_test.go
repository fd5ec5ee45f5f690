package e2e

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

var (
	buildOnce sync.Once
	buildDir  string
	buildPath string
	buildErr  error
)

// dixbotBinary builds cmd/dixbot once per test run and returns its path.
func dixbotBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "dixbot-e2e-")
		if buildErr != nil {
			return
		}
		buildPath = filepath.Join(buildDir, "dixbot")
		// A guard against a build that hangs, not a measure: a busy
		// machine building beside the race detector's tests takes minutes.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-ldflags", "-X main.version=e2e-test", "-o", buildPath, "../cmd/dixbot")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = errors.New(err.Error() + ": " + string(out))
		}
	})
	require.NoError(t, buildErr, "go build ./cmd/dixbot")
	return buildPath
}

// cleanEnviron is the environment without any of the bot's variables, so a
// developer's own settings cannot leak into a test.
func cleanEnviron(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "DISCORD_TOKEN", "DISCORD_API_URL", "DISCORD_GUILD_ID", "REDIS_URL", "REDIS_PREFIX",
			"DIX_DATA_FILE", "DIX_LANGUAGE", "LOG_LEVEL", "LOG_FORMAT", "HTTP_ADDR",
			"STORE_TIMEOUT", "SHUTDOWN_TIMEOUT", "GAME_TTL", "ARCHIVE_TTL",
			"INTERACTIONS_ADDR", "DISCORD_PUBLIC_KEY", "SHARD_ID", "SHARD_COUNT":
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

func TestBinaryMissingToken(t *testing.T) {
	t.Parallel()
	bin := dixbotBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = t.TempDir()
	// A password elsewhere in the configuration must not be echoed either.
	cmd.Env = cleanEnviron("REDIS_URL=redis://:hunter2-secret@127.0.0.1:1/0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()

	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "the program must exit with a status, got %v", err)
	assert.Equal(t, 2, exit.ExitCode())
	assert.Contains(t, stderr.String(), "DISCORD_TOKEN is not set")
	assert.Contains(t, stderr.String(), "DISCORD_TOKEN=<your bot token>", "the message says what to set")
	assert.NotContains(t, stderr.String(), "hunter2-secret")
	assert.Empty(t, stdout.String())
	entries, err := os.ReadDir(cmd.Dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "no data file is created without a token")
}

func TestBinaryVersion(t *testing.T) {
	t.Parallel()
	bin := dixbotBinary(t)
	out, err := exec.Command(bin, "-version").Output()
	require.NoError(t, err)
	assert.Equal(t, "dixbot e2e-test\n", string(out))
}

func TestBinaryBadTokenNotEchoed(t *testing.T) {
	t.Parallel()
	bin := dixbotBinary(t)
	const token = "NzQ.e2e-secret-token.abc"
	cmd := exec.Command(bin)
	cmd.Dir = t.TempDir()
	cmd.Env = cleanEnviron("DISCORD_TOKEN="+token, "DIX_LANGUAGE=klingon")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, 2, exit.ExitCode())
	assert.Contains(t, string(out), "DIX_LANGUAGE")
	assert.NotContains(t, string(out), token)
}

// TestBinaryHealthcheck runs dixbot -healthcheck, as the container's
// HEALTHCHECK does, against the running binary: healthy while it runs,
// unhealthy once it has stopped.
func TestBinaryHealthcheck(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	t.Cleanup(func() { noViolations(t, fake) })
	// The binary binds a port of its choosing (a port found free by the test
	// could be taken before the binary binds it) and logs it.
	env := []string{
		"DISCORD_TOKEN=" + fake.Token(),
		"DISCORD_API_URL=" + fake.URL(),
		"HTTP_ADDR=0.0.0.0:0",
	}
	p := startProcess(t, env)
	port := servedPort(t, p.log())
	env[2] = "HTTP_ADDR=0.0.0.0:" + port
	check := func() (int, string) {
		t.Helper()
		cmd := exec.Command(dixbotBinary(t), "-healthcheck")
		// The check needs only HTTP_ADDR; the container gives it everything.
		cmd.Env = cleanEnviron(env...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), string(out)
		}
		require.NoError(t, err)
		return 0, string(out)
	}

	code, out := check()
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, `"gateway":"ok"`)
	assert.NotContains(t, out, fake.Token())

	require.Equal(t, 0, p.terminate(), p.log())
	code, out = check()
	assert.Equal(t, 1, code, out)
}

// servedPort is the port of the "serving /healthz and /metrics" log line.
func servedPort(t *testing.T, log string) string {
	t.Helper()
	_, port, _ := net.SplitHostPort(loggedAddr(t, log, "serving /healthz"))
	return port
}

// loggedAddr is the addr= field of the first log line containing what.
func loggedAddr(t *testing.T, log, what string) string {
	t.Helper()
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, what) {
			continue
		}
		for _, f := range strings.Fields(line) {
			if addr, ok := strings.CutPrefix(f, "addr="); ok {
				_, _, err := net.SplitHostPort(addr)
				require.NoError(t, err, "address in %q", line)
				return addr
			}
		}
	}
	t.Fatalf("no %q line with an address in the log:\n%s", what, log)
	return ""
}
