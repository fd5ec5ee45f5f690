package loadtest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

func row(ids ...string) fakediscord.Component {
	r := fakediscord.Component{Type: fakediscord.ComponentActionRow}
	for _, id := range ids {
		r.Components = append(r.Components, fakediscord.Component{Type: fakediscord.ComponentButton, CustomID: id})
	}
	return r
}

func TestReadBoard(t *testing.T) {
	t.Parallel()
	fields := []fakediscord.EmbedField{{Name: "Deck: 30 cards · Market"}, {Name: "p1"}, {Name: "👉 p2"}, {Name: "⭐ p3"}}
	tests := []struct {
		name    string
		msg     fakediscord.Message
		ok      bool
		version uint64
		verbs   []string
		actor   string
	}{
		{"a board", fakediscord.Message{Embeds: []fakediscord.Embed{{Fields: fields}}, Components: []fakediscord.Component{row("dix:draw:12", "dix:stop:12"), row("dix:hand:12")}},
			true, 12, []string{"draw", "stop"}, "p2"},
		{"older buttons left out", fakediscord.Message{Components: []fakediscord.Component{row("dix:bid:8", "dix:pass:9")}},
			true, 9, []string{"pass"}, ""},
		{"a lobby", fakediscord.Message{Components: []fakediscord.Component{row("dix:join:0", "dix:go:0")}}, false, 0, nil, ""},
		{"no buttons", fakediscord.Message{Content: "ping"}, false, 0, nil, ""},
		{"not ours", fakediscord.Message{Components: []fakediscord.Component{row("other:draw:1", "dix:draw:x")}}, false, 0, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, ok := readBoard(tc.msg, "en")
			require.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.version, b.version)
			var verbs []string
			for v := range b.buttons {
				verbs = append(verbs, v)
			}
			assert.ElementsMatch(t, tc.verbs, verbs)
			assert.Equal(t, tc.actor, b.actor)
		})
	}
}

func TestIsScoreboard(t *testing.T) {
	t.Parallel()
	assert.True(t, isScoreboard(fakediscord.Message{Embeds: []fakediscord.Embed{{Title: "DIX — final scores"}}}, "en"))
	assert.False(t, isScoreboard(fakediscord.Message{Embeds: []fakediscord.Embed{{Title: "DIX — game over"}}}, "en"))
	assert.False(t, isScoreboard(fakediscord.Message{Content: "DIX — final scores"}, "en"))
}

func TestIDAfter(t *testing.T) {
	t.Parallel()
	assert.True(t, idAfter("1000000000000000001", "999999999999999999"), "longer is newer")
	assert.True(t, idAfter("1000000000000000002", "1000000000000000001"))
	assert.False(t, idAfter("1000000000000000001", "1000000000000000001"))
}

func TestPercentiles(t *testing.T) {
	t.Parallel()
	var l []time.Duration
	for i := 1; i <= 200; i++ {
		l = append(l, time.Duration(i)*time.Millisecond)
	}
	assert.Equal(t, Percentiles{Count: 200, P50: 100, P90: 180, P99: 198, Max: 200}, percentiles(l), "nearest rank")
	assert.Equal(t, Percentiles{Count: 1, P50: 7, P90: 7, P99: 7, Max: 7}, percentiles([]time.Duration{7 * time.Millisecond}))
	assert.Equal(t, Percentiles{}, percentiles(nil))
}

func TestProcReadsThisProcess(t *testing.T) {
	t.Parallel()
	// Burn a little CPU so the tick counter moves.
	for deadline := time.Now().Add(50 * time.Millisecond); time.Now().Before(deadline); {
	}
	cpu, err := procCPU(os.Getpid())
	require.NoError(t, err)
	assert.Positive(t, cpu)
	_, err = procRunDelay(os.Getpid())
	require.NoError(t, err)
	st, err := procStatus(os.Getpid())
	require.NoError(t, err)
	assert.Positive(t, st["VmHWM"])
	assert.GreaterOrEqual(t, st["VmHWM"], st["VmRSS"])
	m := readMachine()
	assert.Positive(t, m.CPUs)
	assert.Positive(t, m.MemoryMiB)
	a := readMachineCPU()
	assert.Positive(t, a.busy+a.idle)
}

func TestReadLogProblems(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "bot.log")
	log := `{"time":"t","level":"INFO","msg":"ready"}
{"time":"t","level":"WARN","msg":"effects left for later","err":"429"}
{"time":"t","level":"WARN","msg":"effects left for later","err":"429"}
not json
{"time":"t","level":"ERROR","msg":"interaction failed","err":"boom"}
`
	require.NoError(t, os.WriteFile(path, []byte(log), 0o600))
	p, err := readLogProblems(path)
	require.NoError(t, err)
	assert.Equal(t, LogProblems{Warnings: 2, Errors: 1, First: []string{"WARN effects left for later: 429", "ERROR interaction failed: boom"}}, p)
}

func TestHistogram(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`# HELP dix_interaction_duration_seconds Time taken to handle an interaction.
# TYPE dix_interaction_duration_seconds histogram
dix_interaction_duration_seconds_bucket{le="0.005"} 60
dix_interaction_duration_seconds_bucket{le="0.01"} 90
dix_interaction_duration_seconds_bucket{le="0.05"} 99
dix_interaction_duration_seconds_bucket{le="0.1"} 100
dix_interaction_duration_seconds_bucket{le="+Inf"} 100
dix_interaction_duration_seconds_sum 0.6
dix_interaction_duration_seconds_count 100
dix_active_games 3
dix_redis_commands_sent_total 420
dix_redis_round_trips_total 400
`))
	}))
	defer srv.Close()
	h, err := scrapeHistogram(context.Background(), strings.TrimPrefix(srv.URL, "http://"))
	require.NoError(t, err)
	assert.Equal(t, uint64(100), h.count)
	assert.InDelta(t, 0.0025, h.quantile(0.3), 1e-9, "interpolated in the first bucket")
	assert.InDelta(t, 0.01, h.quantile(0.9), 1e-9)
	assert.InDelta(t, 0.05, h.quantile(0.99), 1e-9)
	assert.Equal(t, uint64(1), h.over(0.05))

	before := histogram{bounds: h.bounds, cum: []uint64{50, 50, 50, 50, 50}, sum: 0.1, count: 50}
	d := h.minus(before)
	assert.Equal(t, uint64(50), d.count)
	assert.Equal(t, []uint64{10, 40, 49, 50, 50}, d.cum)
	assert.InDelta(t, 0.5, d.sum, 1e-9)

	_, sent, err := scrapeMetrics(context.Background(), strings.TrimPrefix(srv.URL, "http://"))
	require.NoError(t, err)
	assert.Equal(t, redisSent{known: true, commands: 420, roundTrips: 400}, sent)

	_, err = scrapeHistogram(context.Background(), "127.0.0.1:1")
	assert.Error(t, err, "nothing listens there")
}
