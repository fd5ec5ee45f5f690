package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/internal/redistest"
)

type health struct {
	Gateway string `json:"gateway"`
	Store   string `json:"store"`
}

func getHealth(t *testing.T, addr string) (int, health) {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/healthz")
	require.NoError(t, err)
	defer resp.Body.Close()
	var h health
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&h))
	return resp.StatusCode, h
}

// scrapeMetrics returns the samples of /metrics by their full name with labels.
func scrapeMetrics(t *testing.T, addr string) map[string]float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	out := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(body)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		require.Positive(t, i, "sample %q", line)
		v, err := strconv.ParseFloat(line[i+1:], 64)
		require.NoError(t, err, "sample %q", line)
		out[line[:i]] = v
	}
	return out
}

func TestHealthAndMetrics(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	t.Cleanup(func() { noViolations(t, fake) })
	rs := redistest.Start(t)
	cfg := baseConfig(t, fake, rs.URL())
	cfg.HTTPAddr = "127.0.0.1:0"
	bot := startApp(t, cfg)
	addr := bot.started.HTTPAddr
	require.NotEmpty(t, addr)

	code, h := getHealth(t, addr)
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, health{"ok", "ok"}, h)

	w := &world{fake: fake, redis: rs, cfg: cfg, bot: bot}
	tb := w.table(t, "en-US", "Alice", "Bob")
	tb.lobby("/dix start")
	for range 5 {
		require.True(t, tb.decide())
	}
	// A refused click, counted as such.
	rec := tb.record()
	board, buttons := tb.boardFor(rec)
	other := tb.user(seats(t, rec)[1-dixOf(rec).ToAct()])
	for _, id := range buttons {
		require.True(t, tb.click(other, board.ID, id.raw).Ephemeral())
		break
	}

	answered := 0
	for _, r := range fake.Interactions() {
		if r.Responded {
			answered++
		}
	}
	sum := func(m map[string]float64, prefix string) float64 {
		total := 0.0
		for k, v := range m {
			if strings.HasPrefix(k, prefix) {
				total += v
			}
		}
		return total
	}
	// The bot counts an interaction just after answering it.
	var m map[string]float64
	var total float64
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool {
		m = scrapeMetrics(t, addr)
		total = sum(m, "dix_interactions_total{")
		return total >= float64(answered)
	}))
	assert.Equal(t, float64(answered), total, "every interaction counted once")
	assert.Equal(t, float64(answered), m["dix_interaction_duration_seconds_count"])
	assert.Equal(t, float64(answered), m[`dix_interaction_duration_seconds_bucket{le="+Inf"}`])
	assert.Equal(t, 1.0, m[`dix_interactions_total{kind="command",outcome="ok"}`], "/dix start")
	assert.GreaterOrEqual(t, m[`dix_interactions_total{kind="button",outcome="refused"}`], 1.0)
	assert.Equal(t, 1.0, m["dix_active_games"], "one game in progress")

	// A dropped gateway connection is resumed and the game goes on.
	fake.DropGateway()
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool {
		code, _ := getHealth(t, addr)
		return fake.Resumes() > 0 && code == http.StatusOK
	}))
	require.True(t, tb.decide())

	// Redis down: unhealthy, and the failures are counted.
	rs.Stop()
	code, h = getHealth(t, addr)
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.Equal(t, health{"ok", "unreachable"}, h)
	r := tb.command(tb.users[0], "/dix board")
	assert.True(t, r.Ephemeral(), "a store failure is explained: %s", describe(r))
	storeErrors := sum(scrapeMetrics(t, addr), "dix_store_errors_total{")
	assert.GreaterOrEqual(t, storeErrors, 1.0)

	// Back up: healthy again, the game goes on.
	rs.Restart()
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool {
		code, _ := getHealth(t, addr)
		return code == http.StatusOK
	}))
	require.True(t, tb.decide())
}
