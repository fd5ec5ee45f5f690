package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"
)

// healthTimeout bounds one health check, well inside the default timeout of
// a container HEALTHCHECK (30 s).
const healthTimeout = 5 * time.Second

// checkHealth implements -healthcheck: it asks the running bot's
// /healthz at HTTP_ADDR and returns exitOK when it answers 200, else
// exitFailed (not set, unreachable, unhealthy). The image is distroless,
// without curl or a shell, so the binary checks itself:
//
//	HEALTHCHECK CMD ["/dixbot", "-healthcheck"]
func checkHealth(environ []string, stdout, stderr io.Writer) int {
	addr := env.ToMap(environ)["HTTP_ADDR"]
	if strings.TrimSpace(addr) == "" {
		fmt.Fprintln(stderr, "dixbot: -healthcheck needs HTTP_ADDR, the address the bot serves /healthz on (e.g. HTTP_ADDR=0.0.0.0:8080)")
		return exitFailed
	}
	url, err := healthURL(addr)
	if err != nil {
		fmt.Fprintf(stderr, "dixbot: HTTP_ADDR %q: %v\n", addr, err)
		return exitFailed
	}
	client := &http.Client{Timeout: healthTimeout}
	resp, err := client.Get(url)
	if err != nil {
		fmt.Fprintf(stderr, "dixbot: unhealthy: %v\n", err)
		return exitFailed
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "dixbot: unhealthy: %s %s\n", resp.Status, strings.TrimSpace(string(body)))
		return exitFailed
	}
	fmt.Fprintf(stdout, "healthy: %s\n", strings.TrimSpace(string(body)))
	return exitOK
}

// healthURL is the /healthz URL of a listener bound to addr: a wildcard or
// empty host (0.0.0.0:8080, [::]:8080, :8080) is reached on the loopback.
func healthURL(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}
