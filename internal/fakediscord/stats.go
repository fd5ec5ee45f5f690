package fakediscord

import (
	"net/http"
	"sort"
)

// Stats counts the REST requests the bot made, by token class and route.
// Bot-token requests count against Discord's global limit; requests made
// with an interaction's token (callback, follow-ups, @original) do not.
type Stats struct {
	// BotToken counts requests authorised with "Bot <token>".
	BotToken int `json:"bot_token"`
	// InteractionToken counts requests on the interaction endpoints.
	InteractionToken int `json:"interaction_token"`
	// RateLimited counts 429 answers (all scopes, 30046 included).
	RateLimited int `json:"rate_limited"`
	// Routes has one entry per route template, e.g.
	// "POST /channels/{id}/messages".
	Routes map[string]RouteStats `json:"routes"`
	// HTTPDeliveries counts interactions delivered to an interactions
	// endpoint (answered with any HTTP status); HTTPFailovers the
	// deliveries sent to the next endpoint after a connection failure.
	HTTPDeliveries int `json:"http_deliveries"`
	HTTPFailovers  int `json:"http_failovers"`
	// Uploads counts the files stored from files[n] parts, UploadedBytes
	// their bytes.
	Uploads       int   `json:"uploads"`
	UploadedBytes int64 `json:"uploaded_bytes"`
	// Overtaken counts the requests refused for naming a file another
	// request had replaced since (attachLocked): refused, not breaches.
	Overtaken int `json:"overtaken"`
}

// RouteStats counts one route template's requests.
type RouteStats struct {
	Class       string `json:"class"` // "bot" or "interaction"
	Requests    int    `json:"requests"`
	RateLimited int    `json:"rate_limited"`
	Errors      int    `json:"errors"` // other refused requests (4xx)
}

// RouteNames returns the route templates in s, sorted.
func (st Stats) RouteNames() []string {
	out := make([]string, 0, len(st.Routes))
	for k := range st.Routes {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// countLocked records one request.
func (s *Server) countLocked(template string, interaction bool, status int) {
	if s.stats.Routes == nil {
		s.stats.Routes = map[string]RouteStats{}
	}
	rs := s.stats.Routes[template]
	rs.Class = "bot"
	if interaction {
		rs.Class = "interaction"
		s.stats.InteractionToken++
	} else {
		s.stats.BotToken++
	}
	rs.Requests++
	switch {
	case status == http.StatusTooManyRequests:
		rs.RateLimited++
		s.stats.RateLimited++
	case status >= 400:
		rs.Errors++
	}
	s.stats.Routes[template] = rs
}

// Stats returns the request counters since the start or the last ResetStats.
// The same figures are served as JSON at GET /_test/stats.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.stats
	out.HTTPDeliveries, out.HTTPFailovers = s.httpIx.delivered, s.httpIx.failovers
	out.Routes = make(map[string]RouteStats, len(s.stats.Routes))
	for k, v := range s.stats.Routes {
		out.Routes[k] = v
	}
	return out
}

// ResetStats zeroes the request counters (also DELETE /_test/stats).
func (s *Server) ResetStats() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats = Stats{}
	s.httpIx.delivered, s.httpIx.failovers = 0, 0
}

func (s *Server) statsRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /_test/stats", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, s.Stats())
	})
	mux.HandleFunc("DELETE /_test/stats", func(w http.ResponseWriter, _ *http.Request) {
		s.ResetStats()
		w.WriteHeader(http.StatusNoContent)
	})
}
