package ops

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/pprof"
	"time"
)

// Pinger reports whether the store is reachable; dixbot.Store implements it.
type Pinger interface {
	Ping(ctx context.Context) error
}

// HealthOptions configure the /healthz check.
type HealthOptions struct {
	// Gateway reports whether the Discord gateway is connected.
	Gateway func() bool
	// Store is pinged on every check.
	Store Pinger
	// Timeout bounds the store ping (default 1 s).
	Timeout time.Duration
}

// Health is the JSON body of /healthz: "ok" or a short reason per component.
type Health struct {
	Gateway string `json:"gateway"`
	Store   string `json:"store"`
}

// OK reports whether every component is healthy.
func (h Health) OK() bool { return h.Gateway == "ok" && h.Store == "ok" }

// Check runs the health checks once.
func Check(ctx context.Context, opts HealthOptions) Health {
	h := Health{Gateway: "ok", Store: "ok"}
	if opts.Gateway == nil || !opts.Gateway() {
		h.Gateway = "disconnected"
	}
	if opts.Timeout <= 0 {
		opts.Timeout = time.Second
	}
	if opts.Store == nil {
		h.Store = "none"
	} else {
		ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
		if err := opts.Store.Ping(ctx); err != nil {
			h.Store = "unreachable"
		}
	}
	return h
}

// Handler serves GET /healthz (200 when healthy, 503 otherwise, with a Health
// body) and GET /metrics (Prometheus text format). The store error behind an
// unhealthy store is not shown: it may name hosts; it is in the logs.
func Handler(health HealthOptions, m *Metrics) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		h := Check(r.Context(), health)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		if !h.OK() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		_ = json.NewEncoder(w).Encode(h)
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		_ = m.WriteTo(r.Context(), w)
	})
	return mux
}

// WithProfiles is h that also serves Go's runtime profiles under
// /debug/pprof/ (CPU, heap, goroutines, traces: net/http/pprof).
func WithProfiles(h http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", h)
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
