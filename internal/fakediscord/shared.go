package fakediscord

import (
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
)

// A process has one set of discordgo endpoints (package variables), so two
// bots in one process must talk to one base URL. The shared front is that
// URL: one listener per process that hands each request of Discord's API to
// the server it belongs to, so that servers with options, faults and guilds
// of their own can serve bots running side by side in one test process.
//
// A request belongs to the server whose bot token it carries; a request
// without one (an interaction's callback, a webhook call with the
// interaction's token, which Discord authenticates by that token alone)
// belongs to the server that issued the interaction. Any other request is
// refused as Discord refuses a request without a valid token.
type sharedFront struct {
	once    sync.Once
	baseURL string
	err     error

	mu      sync.Mutex
	servers []*Server
}

var front sharedFront

// SharedURL returns the process's shared base URL of Discord's API, which
// serves this server's requests as URL does, and registers the server
// there until it is closed. Bots in one process that each talk to a server
// of their own give SharedURL, not URL, as their API base: discordgo's
// endpoints are process-wide. Only the API is served there; the web view,
// the gateway and attachments stay at URL. Safe for concurrent use.
func (s *Server) SharedURL() (string, error) {
	front.once.Do(front.start)
	if front.err != nil {
		return "", front.err
	}
	front.mu.Lock()
	defer front.mu.Unlock()
	for _, o := range front.servers {
		if o != s && o.opts.Token == s.opts.Token {
			return "", errSharedToken
		}
	}
	if !s.shared {
		s.shared = true
		front.servers = append(front.servers, s)
	}
	return front.baseURL, nil
}

var errSharedToken = sharedError("fakediscord: two servers on the shared front have the same bot token")

type sharedError string

func (e sharedError) Error() string { return string(e) }

func (f *sharedFront) start() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.err = err
		return
	}
	f.baseURL = "http://" + ln.Addr().String() + "/"
	srv := &http.Server{Handler: http.HandlerFunc(f.serve)}
	go func() { _ = srv.Serve(ln) }()
}

// forget removes a closed server.
func (f *sharedFront) forget(s *Server) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, o := range f.servers {
		if o == s {
			f.servers = append(f.servers[:i], f.servers[i+1:]...)
			return
		}
	}
}

func (f *sharedFront) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	var owner *Server
	for _, s := range f.servers {
		if s.owns(r) {
			owner = s
			break
		}
	}
	f.mu.Unlock()
	if owner == nil {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"message": "401: Unauthorized", "code": 0})
		return
	}
	target, _ := url.Parse(owner.baseURL)
	proxy := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.SetURL(target)
		pr.Out.Host = pr.In.Host
	}}
	proxy.ServeHTTP(w, r)
}

// owns reports whether r belongs to s on the shared front: it carries s's
// bot token, or no token and the token of an interaction s issued.
func (s *Server) owns(r *http.Request) bool {
	if auth := r.Header.Get("Authorization"); auth != "" {
		return auth == "Bot "+s.opts.Token
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	// api/v9/interactions/{id}/{token}/callback, api/v9/webhooks/{app}/{token}/…
	if len(parts) < 5 || parts[0] != "api" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch parts[2] {
	case "interactions":
		return s.ixByID[parts[3]] != nil
	case "webhooks":
		return parts[3] == s.opts.ApplicationID
	}
	return false
}
