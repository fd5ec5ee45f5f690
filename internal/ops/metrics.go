package ops

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DurationBuckets are the upper bounds, in seconds, of the
// dix_interaction_duration_seconds histogram. Discord wants the first answer
// within 3 s, so the buckets stop there (+Inf catches the rest).
var DurationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 2.5, 3}

// LatenessBuckets are the upper bounds, in seconds, of the
// dix_deadline_lateness_seconds histogram: how long after a player's time
// ran out the computer decided for them (the poll interval, 1 s by
// default, bounds it in normal operation).
var LatenessBuckets = []float64{0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 30}

// ActiveCounter reports how many games are active in a server; it is the
// subset of dixbot.Store that the active-games gauge needs.
type ActiveCounter interface {
	Active(ctx context.Context, guild string) ([]string, error)
}

// SentCounter is a store that counts what it sends to Redis
// (store.Redis): MetricsOptions.Store implementing it feeds the
// dix_redis_commands_sent_total and dix_redis_round_trips_total counters.
type SentCounter interface {
	Sent() (commands, roundTrips uint64)
}

// MetricsOptions configure NewMetrics. Every field is optional.
type MetricsOptions struct {
	// Store and Guilds feed the dix_active_games gauge: at scrape time, the
	// active channels of every guild Guilds returns are counted. Without
	// them the gauge is not exported.
	Store  ActiveCounter
	Guilds func() []string
	// ActiveTimeout bounds the store calls made while scraping (default 1 s).
	// When they fail or time out, the last value counted is exported.
	ActiveTimeout time.Duration
	Logger        *slog.Logger
}

type interactionKey struct{ kind, outcome string }

// Metrics counts what the bot does. It implements bot.Observer and serves
// the Prometheus text format. It is safe for concurrent use.
type Metrics struct {
	opts MetricsOptions

	mu           sync.Mutex
	interactions map[interactionKey]uint64
	buckets      []uint64 // per bucket, not cumulative; len(DurationBuckets)+1 with +Inf last
	durSum       float64
	durCount     uint64
	storeErrors  map[string]uint64
	redelivered  uint64
	late         []uint64 // per LatenessBuckets bucket, +Inf last
	lateSum      float64
	lateCount    uint64
	active       int  // last value counted
	activeKnown  bool // active has been counted at least once

	scrape sync.Mutex // one active-games count at a time
}

// NewMetrics returns empty metrics.
func NewMetrics(opts MetricsOptions) *Metrics {
	if opts.ActiveTimeout <= 0 {
		opts.ActiveTimeout = time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Metrics{
		opts:         opts,
		interactions: make(map[interactionKey]uint64),
		buckets:      make([]uint64, len(DurationBuckets)+1),
		storeErrors:  make(map[string]uint64),
		late:         make([]uint64, len(LatenessBuckets)+1),
	}
}

// Deadline records how late a decision out of time was taken.
func (m *Metrics) Deadline(late time.Duration) {
	sec := max(late.Seconds(), 0)
	i, _ := slices.BinarySearch(LatenessBuckets, sec)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.late[i]++
	m.lateSum += sec
	m.lateCount++
}

// Interaction records one handled interaction: its kind (command, button,
// select, modal), its outcome (ok, refused, stale, duplicate, error, panic) and how long
// the bot took to handle it.
func (m *Metrics) Interaction(kind, outcome string, d time.Duration) {
	sec := d.Seconds()
	i, _ := slices.BinarySearch(DurationBuckets, sec) // first bound ≥ sec; len = +Inf
	m.mu.Lock()
	defer m.mu.Unlock()
	m.interactions[interactionKey{kind, outcome}]++
	m.buckets[i]++
	m.durSum += sec
	m.durCount++
}

// StoreError records one failed store operation (op is e.g. "get", "update").
func (m *Metrics) StoreError(op string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.storeErrors[op]++
}

// Redelivered records one interaction delivered again by the gateway and
// ignored because this process had already handled it.
func (m *Metrics) Redelivered() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.redelivered++
}

// countActive refreshes the active-games gauge from the store. A failure
// keeps the previous value and counts a store error of op "active".
func (m *Metrics) countActive(ctx context.Context) {
	if m.opts.Store == nil || m.opts.Guilds == nil {
		return
	}
	m.scrape.Lock()
	defer m.scrape.Unlock()
	ctx, cancel := context.WithTimeout(ctx, m.opts.ActiveTimeout)
	defer cancel()
	n := 0
	for _, g := range m.opts.Guilds() {
		chans, err := m.opts.Store.Active(ctx, g)
		if err != nil {
			m.opts.Logger.Warn("counting active games", "guild", g, "err", err)
			m.StoreError("active")
			return
		}
		n += len(chans)
	}
	m.mu.Lock()
	m.active, m.activeKnown = n, true
	m.mu.Unlock()
}

// WriteTo writes every metric in the Prometheus text exposition format
// (version 0.0.4), refreshing the active-games gauge first.
func (m *Metrics) WriteTo(ctx context.Context, w io.Writer) error {
	m.countActive(ctx)

	var b strings.Builder
	m.mu.Lock()
	b.WriteString("# HELP dix_interactions_total Interactions handled, by kind and outcome.\n")
	b.WriteString("# TYPE dix_interactions_total counter\n")
	keys := make([]interactionKey, 0, len(m.interactions))
	for k := range m.interactions {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b interactionKey) int {
		if c := strings.Compare(a.kind, b.kind); c != 0 {
			return c
		}
		return strings.Compare(a.outcome, b.outcome)
	})
	for _, k := range keys {
		fmt.Fprintf(&b, "dix_interactions_total{kind=%s,outcome=%s} %d\n",
			quote(k.kind), quote(k.outcome), m.interactions[k])
	}

	writeHistogram(&b, "dix_interaction_duration_seconds", "Time taken to handle an interaction.", DurationBuckets, m.buckets, m.durSum, m.durCount)

	b.WriteString("# HELP dix_store_errors_total Failed store operations, by operation.\n")
	b.WriteString("# TYPE dix_store_errors_total counter\n")
	ops := make([]string, 0, len(m.storeErrors))
	for op := range m.storeErrors {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	for _, op := range ops {
		fmt.Fprintf(&b, "dix_store_errors_total{op=%s} %d\n", quote(op), m.storeErrors[op])
	}

	b.WriteString("# HELP dix_interactions_redelivered_total Interactions delivered again by the gateway and ignored (already handled).\n")
	b.WriteString("# TYPE dix_interactions_redelivered_total counter\n")
	fmt.Fprintf(&b, "dix_interactions_redelivered_total %d\n", m.redelivered)

	writeHistogram(&b, "dix_deadline_lateness_seconds", "Time between a player's time running out and the computer deciding for them.",
		LatenessBuckets, m.late, m.lateSum, m.lateCount)

	if sc, ok := m.opts.Store.(SentCounter); ok {
		cmds, trips := sc.Sent()
		b.WriteString("# HELP dix_redis_commands_sent_total Commands the store sent to Redis (not those its scripts ran there).\n")
		b.WriteString("# TYPE dix_redis_commands_sent_total counter\n")
		fmt.Fprintf(&b, "dix_redis_commands_sent_total %d\n", cmds)
		b.WriteString("# HELP dix_redis_round_trips_total Round trips of the store to Redis (a pipeline is one).\n")
		b.WriteString("# TYPE dix_redis_round_trips_total counter\n")
		fmt.Fprintf(&b, "dix_redis_round_trips_total %d\n", trips)
	}

	if m.activeKnown {
		b.WriteString("# HELP dix_active_games Games in progress in the bot's servers.\n")
		b.WriteString("# TYPE dix_active_games gauge\n")
		fmt.Fprintf(&b, "dix_active_games %d\n", m.active)
	}
	m.mu.Unlock()

	_, err := io.WriteString(w, b.String())
	return err
}

// writeHistogram writes a histogram in the text format: counts holds one
// count per bucket of bounds (not cumulative), +Inf last.
func writeHistogram(b *strings.Builder, name, help string, bounds []float64, counts []uint64, sum float64, n uint64) {
	fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name)
	var cum uint64
	for i, le := range bounds {
		cum += counts[i]
		fmt.Fprintf(b, "%s_bucket{le=\"%s\"} %d\n", name, formatFloat(le), cum)
	}
	cum += counts[len(bounds)]
	fmt.Fprintf(b, "%s_bucket{le=\"+Inf\"} %d\n", name, cum)
	fmt.Fprintf(b, "%s_sum %s\n", name, formatFloat(sum))
	fmt.Fprintf(b, "%s_count %d\n", name, n)
}

// quote returns a label value in double quotes with the escapes the text
// format requires (backslash, double quote, newline).
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func formatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	case math.IsNaN(f):
		return "NaN"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
