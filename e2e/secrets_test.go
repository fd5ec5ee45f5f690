package e2e

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/internal/redistest"
)

// syncBuffer is a bytes.Buffer safe for the program's concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A fast five-player game on Redis meets Discord's rate limits, whose
// errors quote the URL of the interaction routes, and falls back to the bot
// token: not one interaction token the stand-in issued is in the program's
// logs, at the debug level. The game's log records, which have no server,
// leave no entry in Redis's server index.
func TestLogsHoldNoInteractionToken(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	t.Cleanup(func() { noViolations(t, fake) })
	srv := redistest.Start(t)
	w := &world{fake: fake, redis: srv, cfg: baseConfig(t, fake, srv.URL())}
	var logs syncBuffer
	var out io.Writer = &logs
	if os.Getenv("E2E_LOG") != "" {
		tw := &tWriter{t: t}
		t.Cleanup(func() { tw.done.Store(true) })
		out = io.MultiWriter(&logs, tw)
	}
	w.bot = startAppLogging(t, w.cfg, slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelDebug})))

	names := []string{"Ann", "Ben", "Cat", "Dov", "Eli"}
	tb := w.table(t, "en-US", names...)
	tb.think = 0
	tb.lobby("/dix start")
	// However fast the machine plays, the game meets limits: the next
	// follow-ups are refused with a 429, whose handling the logs quote.
	fake.RateLimitNext("POST /webhooks/{id}/{token}", 2, 300*time.Millisecond)
	tb.playToEnd()
	tb.checkScoreboard(names)
	w.bot.stop()

	require.Positive(t, fake.Stats().RateLimited, "the game met Discord's rate limits")
	text := logs.String()
	// Whether a run's logs quote an interaction route depends on which
	// requests met a limit (a refusal the bot makes itself quotes none);
	// the count says how much of the redaction this run exercised.
	t.Logf("%d log lines quote an interaction route", strings.Count(text, "/webhooks/")+strings.Count(text, "/interactions/"))
	ixs := fake.Interactions()
	require.NotEmpty(t, ixs)
	leaked := 0
	for _, ix := range ixs {
		require.NotEmpty(t, ix.Token)
		if strings.Contains(text, ix.Token) {
			leaked++
		}
	}
	assert.Zero(t, leaked, "interaction tokens in the logs, of %d issued", len(ixs))

	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer rdb.Close()
	n, err := rdb.Exists(context.Background(), w.cfg.RedisPrefix+"active:").Result()
	require.NoError(t, err)
	assert.Zero(t, n, "no index of records without a server")
}
