package main

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHealthcheckFlag(t *testing.T) {
	var (
		mu     sync.Mutex
		status = http.StatusOK
		paths  []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.Path)
		code := status
		mu.Unlock()
		w.WriteHeader(code)
		_, _ = w.Write([]byte(`{"gateway":"ok","store":"ok"}` + "\n"))
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	_, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)

	// A closed port: nothing listens there.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := ln.Addr().String()
	require.NoError(t, ln.Close())

	tests := []struct {
		name     string
		env      []string
		status   int
		want     int
		contains string // in stdout+stderr
	}{
		{"healthy", []string{"HTTP_ADDR=" + addr}, http.StatusOK, exitOK, "healthy"},
		{"wildcard address", []string{"HTTP_ADDR=0.0.0.0:" + port}, http.StatusOK, exitOK, "healthy"},
		{"empty host", []string{"HTTP_ADDR=:" + port}, http.StatusOK, exitOK, "healthy"},
		{"unhealthy", []string{"HTTP_ADDR=" + addr}, http.StatusServiceUnavailable, exitFailed, "503"},
		{"unreachable", []string{"HTTP_ADDR=" + closed}, http.StatusOK, exitFailed, "unhealthy"},
		{"not set", nil, http.StatusOK, exitFailed, "HTTP_ADDR"},
		{"malformed", []string{"HTTP_ADDR=8080"}, http.StatusOK, exitFailed, "HTTP_ADDR"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			status = tc.status
			mu.Unlock()
			var stdout, stderr bytes.Buffer
			// The token is not needed (nor read) to check health.
			code := run([]string{"-healthcheck"}, tc.env, &stdout, &stderr)
			assert.Equal(t, tc.want, code, "stdout %q stderr %q", stdout.String(), stderr.String())
			assert.Contains(t, stdout.String()+stderr.String(), tc.contains)
		})
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Contains(t, paths, "GET /healthz")
	for _, p := range paths {
		assert.Equal(t, "GET /healthz", p)
	}
}
