package fakediscord

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// capturedRequest is one captured request, written as <seq>-<method>-<path>.json.
type capturedRequest struct {
	Seq    int64           `json:"seq"`
	Time   string          `json:"time"`
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Query  string          `json:"query,omitempty"`
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body,omitempty"`
	Raw    string          `json:"raw,omitempty"`
}

// capture writes a request the bot sent to Options.CaptureDir. The
// Authorization header is never written.
func (s *Server) capture(r *http.Request, body []byte, status int) {
	dir := s.opts.CaptureDir
	if dir == "" {
		return
	}
	seq := atomic.AddInt64(&s.captureSeq, 1)
	c := capturedRequest{Seq: seq, Time: time.Now().UTC().Format(time.RFC3339Nano), Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Status: status}
	if len(body) > 0 {
		if json.Valid(body) {
			c.Body = body
		} else {
			c.Raw = string(body)
		}
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return
	}
	name := fmt.Sprintf("%06d-%s-%s.json", seq, r.Method, sanitize(r.URL.Path))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		s.log.Warn("capture", "err", err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), append(b, '\n'), 0o644); err != nil {
		s.log.Warn("capture", "err", err)
	}
}

// sanitize turns a path into a short file-name fragment; interaction
// tokens are shortened.
func sanitize(p string) string {
	parts := strings.Split(strings.Trim(strings.TrimPrefix(p, "/api/"), "/"), "/")
	for i, part := range parts {
		if len(part) > 24 {
			parts[i] = part[:8]
		}
	}
	return fileSafe(strings.Join(parts, "_"))
}

// fileSafe keeps letters, digits, '_' and '-' and caps the length.
func fileSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '-'
	}, s)
	if len(s) > 120 {
		s = s[:120]
	}
	return s
}
