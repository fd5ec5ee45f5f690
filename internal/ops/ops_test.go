package ops

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exposition is a parsed Prometheus text page.
type exposition struct {
	help    map[string]string
	typ     map[string]string
	samples map[string]float64 // `name{labels}` exactly as written → value
	order   []string           // metric families in order of their TYPE line
}

// parseExposition parses the text format strictly enough to catch mistakes:
// every sample must belong to a family declared by HELP and TYPE lines
// before it, and values must parse.
func parseExposition(t *testing.T, text string) exposition {
	t.Helper()
	e := exposition{help: map[string]string{}, typ: map[string]string{}, samples: map[string]float64{}}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			t.Fatalf("empty line in exposition")
		case strings.HasPrefix(line, "# HELP "):
			name, help, ok := strings.Cut(strings.TrimPrefix(line, "# HELP "), " ")
			require.True(t, ok, "HELP line without text: %q", line)
			e.help[name] = help
		case strings.HasPrefix(line, "# TYPE "):
			name, typ, ok := strings.Cut(strings.TrimPrefix(line, "# TYPE "), " ")
			require.True(t, ok, "TYPE line without type: %q", line)
			require.Contains(t, []string{"counter", "gauge", "histogram"}, typ)
			require.Contains(t, e.help, name, "TYPE before HELP for %s", name)
			e.typ[name] = typ
			e.order = append(e.order, name)
		case strings.HasPrefix(line, "#"):
			t.Fatalf("unexpected comment %q", line)
		default:
			i := strings.LastIndexByte(line, ' ')
			require.Positive(t, i, "sample without value: %q", line)
			key, val := line[:i], line[i+1:]
			v, err := strconv.ParseFloat(val, 64)
			require.NoError(t, err, "value of %q", line)
			name, _, _ := strings.Cut(key, "{")
			family := name
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				if base, ok := strings.CutSuffix(name, suffix); ok && e.typ[base] == "histogram" {
					family = base
				}
			}
			require.Contains(t, e.typ, family, "sample %q before its TYPE line", line)
			require.NotContains(t, e.samples, key, "duplicate sample %q", key)
			e.samples[key] = v
		}
	}
	require.NoError(t, sc.Err())
	return e
}

func scrape(t *testing.T, m *Metrics) exposition {
	t.Helper()
	var b strings.Builder
	require.NoError(t, m.WriteTo(context.Background(), &b))
	return parseExposition(t, b.String())
}

func TestMetricsEmpty(t *testing.T) {
	e := scrape(t, NewMetrics(MetricsOptions{}))
	assert.Equal(t, "counter", e.typ["dix_interactions_total"])
	assert.Equal(t, "histogram", e.typ["dix_interaction_duration_seconds"])
	assert.Equal(t, "counter", e.typ["dix_store_errors_total"])
	assert.NotContains(t, e.typ, "dix_active_games", "no store: no gauge")
	assert.Equal(t, "counter", e.typ["dix_interactions_redelivered_total"])
	assert.Equal(t, 0.0, e.samples["dix_interactions_redelivered_total"])
	assert.Equal(t, 0.0, e.samples[`dix_interaction_duration_seconds_bucket{le="+Inf"}`])
	assert.Equal(t, 0.0, e.samples[`dix_interaction_duration_seconds_count`])
}

func TestMetricsInteractions(t *testing.T) {
	m := NewMetrics(MetricsOptions{})
	calls := []struct {
		kind, outcome string
		d             time.Duration
	}{
		{"button", "ok", 3 * time.Millisecond},
		{"button", "ok", 40 * time.Millisecond},
		{"button", "stale", 10 * time.Millisecond}, // exactly on a bound: counted in it
		{"command", "ok", 700 * time.Millisecond},
		{"modal", "error", 5 * time.Second}, // beyond the last bound
	}
	for _, c := range calls {
		m.Interaction(c.kind, c.outcome, c.d)
	}
	m.StoreError("update")
	m.StoreError("update")
	m.StoreError("get")
	m.Redelivered()

	e := scrape(t, m)
	tests := []struct {
		sample string
		want   float64
	}{
		{`dix_interactions_total{kind="button",outcome="ok"}`, 2},
		{`dix_interactions_total{kind="button",outcome="stale"}`, 1},
		{`dix_interactions_total{kind="command",outcome="ok"}`, 1},
		{`dix_interactions_total{kind="modal",outcome="error"}`, 1},
		{`dix_interaction_duration_seconds_bucket{le="0.005"}`, 1},
		{`dix_interaction_duration_seconds_bucket{le="0.01"}`, 2},
		{`dix_interaction_duration_seconds_bucket{le="0.05"}`, 3},
		{`dix_interaction_duration_seconds_bucket{le="0.5"}`, 3},
		{`dix_interaction_duration_seconds_bucket{le="1"}`, 4},
		{`dix_interaction_duration_seconds_bucket{le="3"}`, 4},
		{`dix_interaction_duration_seconds_bucket{le="+Inf"}`, 5},
		{`dix_interaction_duration_seconds_count`, 5},
		{`dix_store_errors_total{op="update"}`, 2},
		{`dix_store_errors_total{op="get"}`, 1},
		{`dix_interactions_redelivered_total`, 1},
	}
	for _, tc := range tests {
		t.Run(tc.sample, func(t *testing.T) {
			got, ok := e.samples[tc.sample]
			require.True(t, ok, "missing sample")
			assert.Equal(t, tc.want, got)
		})
	}
	assert.InDelta(t, 5.753, e.samples[`dix_interaction_duration_seconds_sum`], 1e-9)

	// Buckets are cumulative: never decreasing, in increasing le order.
	prev := -1.0
	for _, le := range DurationBuckets {
		v := e.samples[`dix_interaction_duration_seconds_bucket{le="`+formatFloat(le)+`"}`]
		assert.GreaterOrEqual(t, v, prev, "bucket le=%v", le)
		prev = v
	}
}

func TestMetricsLabelEscaping(t *testing.T) {
	m := NewMetrics(MetricsOptions{})
	m.StoreError("a\"b\\c\nd")
	e := scrape(t, m)
	assert.Equal(t, 1.0, e.samples[`dix_store_errors_total{op="a\"b\\c\nd"}`])
}

func TestMetricsConcurrent(t *testing.T) {
	m := NewMetrics(MetricsOptions{})
	const workers, each = 16, 250
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				m.Interaction("button", "ok", time.Duration(i)*time.Millisecond)
				if w%2 == 0 {
					m.StoreError("update")
				}
				if i%50 == 0 {
					var b strings.Builder
					_ = m.WriteTo(context.Background(), &b)
				}
			}
		})
	}
	wg.Wait()
	e := scrape(t, m)
	assert.Equal(t, float64(workers*each), e.samples[`dix_interactions_total{kind="button",outcome="ok"}`])
	assert.Equal(t, float64(workers*each), e.samples[`dix_interaction_duration_seconds_count`])
	assert.Equal(t, float64(workers*each), e.samples[`dix_interaction_duration_seconds_bucket{le="+Inf"}`])
	assert.Equal(t, float64(workers/2*each), e.samples[`dix_store_errors_total{op="update"}`])
}

// fakeStore answers Active and Ping from fields; safe for concurrent use.
type fakeStore struct {
	mu     sync.Mutex
	active map[string][]string
	err    error
	pings  atomic.Int32
}

func (f *fakeStore) Active(ctx context.Context, guild string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	return f.active[guild], nil
}

func (f *fakeStore) Ping(ctx context.Context) error {
	f.pings.Add(1)
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

func (f *fakeStore) set(active map[string][]string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.active, f.err = active, err
}

func TestMetricsActiveGames(t *testing.T) {
	st := &fakeStore{}
	st.set(map[string][]string{"g1": {"c1", "c2"}, "g2": {"c3"}, "g3": nil}, nil)
	m := NewMetrics(MetricsOptions{Store: st, Guilds: func() []string { return []string{"g1", "g2", "g3"} }})

	e := scrape(t, m)
	assert.Equal(t, "gauge", e.typ["dix_active_games"])
	assert.Equal(t, 3.0, e.samples["dix_active_games"])

	st.set(map[string][]string{"g1": {"c1"}}, nil)
	assert.Equal(t, 1.0, scrape(t, m).samples["dix_active_games"], "refreshed at scrape")

	st.set(nil, errors.New("store down"))
	e = scrape(t, m)
	assert.Equal(t, 1.0, e.samples["dix_active_games"], "a failed count keeps the last value")
	assert.Equal(t, 1.0, e.samples[`dix_store_errors_total{op="active"}`])
}

// sendingStore is a store that counts what it sends to Redis.
type sendingStore struct {
	fakeStore
	commands, trips uint64
}

func (s *sendingStore) Sent() (uint64, uint64) { return s.commands, s.trips }

func TestMetricsRedisSent(t *testing.T) {
	st := &sendingStore{commands: 7, trips: 5}
	e := scrape(t, NewMetrics(MetricsOptions{Store: st}))
	assert.Equal(t, "counter", e.typ["dix_redis_commands_sent_total"])
	assert.Equal(t, 7.0, e.samples["dix_redis_commands_sent_total"])
	assert.Equal(t, 5.0, e.samples["dix_redis_round_trips_total"])

	_, ok := scrape(t, NewMetrics(MetricsOptions{Store: &fakeStore{}})).samples["dix_redis_round_trips_total"]
	assert.False(t, ok, "a store that does not count exports nothing")
}

func TestHealthz(t *testing.T) {
	tests := []struct {
		name     string
		gateway  bool
		storeErr error
		want     int
		body     Health
	}{
		{"healthy", true, nil, http.StatusOK, Health{"ok", "ok"}},
		{"gateway down", false, nil, http.StatusServiceUnavailable, Health{"disconnected", "ok"}},
		{"store down", true, errors.New("dial tcp: refused"), http.StatusServiceUnavailable, Health{"ok", "unreachable"}},
		{"both down", false, errors.New("x"), http.StatusServiceUnavailable, Health{"disconnected", "unreachable"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := &fakeStore{}
			st.set(nil, tc.storeErr)
			h := Handler(HealthOptions{Gateway: func() bool { return tc.gateway }, Store: st}, NewMetrics(MetricsOptions{}))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
			assert.Equal(t, tc.want, rec.Code)
			assert.Equal(t, "application/json", rec.Header().Get("Content-Type"))
			var got Health
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &got))
			assert.Equal(t, tc.body, got)
			assert.Equal(t, int32(1), st.pings.Load())
		})
	}
}

func TestMetricsEndpoint(t *testing.T) {
	m := NewMetrics(MetricsOptions{})
	m.Interaction("select", "refused", time.Millisecond)
	h := Handler(HealthOptions{}, m)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	assert.True(t, strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain; version=0.0.4"))
	e := parseExposition(t, rec.Body.String())
	assert.Equal(t, 1.0, e.samples[`dix_interactions_total{kind="select",outcome="refused"}`])

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/metrics", nil))
	assert.Equal(t, http.StatusMethodNotAllowed, rec.Code)
}

// TestProfilesServedOnlyWhenAsked: the runtime profiles are served beside
// /healthz and /metrics by WithProfiles, and not by Handler alone.
func TestProfilesServedOnlyWhenAsked(t *testing.T) {
	plain := Handler(HealthOptions{Gateway: func() bool { return true }}, NewMetrics(MetricsOptions{}))
	get := func(h http.Handler, path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		return w
	}
	assert.Equal(t, http.StatusNotFound, get(plain, "/debug/pprof/").Code, "no profiles by default")
	with := WithProfiles(plain)
	w := get(with, "/debug/pprof/")
	assert.Equal(t, http.StatusOK, w.Code)
	assert.Contains(t, w.Body.String(), "goroutine")
	assert.Equal(t, http.StatusOK, get(with, "/debug/pprof/cmdline").Code)
	assert.Equal(t, http.StatusOK, get(with, "/metrics").Code, "the metrics still")
	assert.NotEqual(t, http.StatusNotFound, get(with, "/healthz").Code, "the health check still")
}
