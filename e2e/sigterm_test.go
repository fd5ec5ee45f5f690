package e2e

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/store"
)

// process is the built dixbot running as a subprocess.
type process struct {
	t     *testing.T
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	ready chan struct{}
	done  chan struct{}
}

// startProcess runs the binary with env and waits for its "ready" log line.
func startProcess(t *testing.T, env []string) *process {
	t.Helper()
	p := &process{t: t, cmd: exec.Command(dixbotBinary(t)), ready: make(chan struct{}), done: make(chan struct{})}
	p.cmd.Env = cleanEnviron(env...)
	p.cmd.Dir = t.TempDir()
	stderr, err := p.cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, p.cmd.Start())
	go p.read(stderr)
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	select {
	case <-p.ready:
	case <-p.done:
		t.Fatalf("dixbot exited during start-up:\n%s", p.log())
	case <-time.After(waitTimeout):
		t.Fatalf("dixbot not ready after %v:\n%s", waitTimeout, p.log())
	}
	return p
}

func (p *process) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	once := sync.Once{}
	for sc.Scan() {
		line := sc.Text()
		p.mu.Lock()
		p.lines = append(p.lines, line)
		p.mu.Unlock()
		if strings.Contains(line, "msg=ready") {
			once.Do(func() { close(p.ready) })
		}
	}
	_ = p.cmd.Wait()
	close(p.done)
}

func (p *process) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines, "\n")
}

// terminate sends SIGTERM and returns the exit status.
func (p *process) terminate() int {
	p.t.Helper()
	require.NoError(p.t, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-p.done:
	case <-time.After(waitTimeout):
		p.t.Fatalf("dixbot still running %v after SIGTERM:\n%s", waitTimeout, p.log())
	}
	return p.cmd.ProcessState.ExitCode()
}

func TestSIGTERMLosesNothing(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	t.Cleanup(func() { noViolations(t, fake) })
	rs := redistest.Start(t)
	cfg := baseConfig(t, fake, rs.URL())
	env := []string{
		"DISCORD_TOKEN=" + fake.Token(),
		"DISCORD_API_URL=" + fake.URL(),
		"REDIS_URL=" + rs.URL(),
		"REDIS_PREFIX=" + cfg.RedisPrefix,
		"LOG_LEVEL=debug",
	}
	// The test reads the games through its own client of the same Redis.
	st, err := store.OpenRedis(context.Background(), store.Options{URL: rs.URL(), Prefix: cfg.RedisPrefix})
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })

	p := startProcess(t, env)
	tb := newTable(t, fake, "en-US", "Alice", "Bob")
	tb.store = func() dixbot.Store { return st }
	tb.lobby("/dix start")
	for range 4 {
		require.True(t, tb.decide())
	}

	// The click in flight is a decision made in one click: when the deal
	// leaves the player to act with only decisions made in several steps (an
	// auction's winner can only open the payment prompt), the driver makes
	// those first, until the rules offer a one-click decision.
	rec, board, buttons, user := tb.untilOneClick()
	before := dixOf(rec).Seq
	oneClick := map[string]customID{}
	for v, id := range buttons {
		if slices.Contains(oneClickVerbs, v) {
			oneClick[v] = id
		}
	}
	// A click, and SIGTERM as soon as the bot has saved it, while it
	// answers and, at a turn's end, posts the next board.
	id := tb.choose(oneClick)
	ix, err := fake.Click(waitCtx(t), user.ID, board.ID, id.raw)
	require.NoError(t, err)
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return dixOf(tb.record()).Seq != before }))
	code := p.terminate()
	assert.Equal(t, 0, code, "exit status after SIGTERM; log:\n%s", p.log())
	assert.NotContains(t, p.log(), fake.Token(), "the token is never logged")

	// The click was answered, and saved exactly once.
	r, err := ix.Wait(waitCtx(t))
	require.NoError(t, err, "the click in flight was answered; log:\n%s", p.log())
	assert.False(t, r.Ephemeral(), "the click was applied: %s", describe(r))
	afterRec := tb.record()
	after := dixOf(afterRec)
	assert.Greater(t, after.Seq, before, "the click was applied and saved")
	// Whatever the bot had to post after answering was posted before exit.
	tb.boardFor(afterRec)

	// While the bot is down, nothing answers: the game waits.
	assert.Equal(t, after.Seq, dixOf(tb.record()).Seq)

	// Started again, the game goes on to the end.
	p2 := startProcess(t, env)
	tb.playToEnd()
	tb.checkScoreboard([]string{"Alice", "Bob"})
	assert.Equal(t, 0, p2.terminate())
}
