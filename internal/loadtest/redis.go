package loadtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisServer is a private redis-server for one run, configured as the
// production container runs it (docker-compose.yml: append-only file,
// fsync every second, the default snapshots).
type redisServer struct {
	cmd    *exec.Cmd
	url    string
	exited chan struct{}
}

// startRedis starts redis-server on a free port with its files in dir;
// with socket its url is that of a Unix socket in dir it listens on too.
func startRedis(ctx context.Context, dir string, socket bool) (*redisServer, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, fmt.Errorf("loadtest: redis-server not found (install it, e.g. apt-get install redis-server, or give a Redis URL): %w", err)
	}
	// A port found free may be taken before redis-server binds it: then it
	// exits, and another port is tried.
	for attempt := 1; ; attempt++ {
		s, err := tryRedis(ctx, bin, dir, socket)
		if err == nil || attempt == 5 {
			return s, err
		}
	}
}

// maxSocketPath is the longest path of a Unix socket: sun_path holds 108
// bytes with the terminating zero (unix(7)).
const maxSocketPath = 107

func tryRedis(ctx context.Context, bin, dir string, socket bool) (*redisServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("loadtest: no free port: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	log, err := os.Create(filepath.Join(dir, "redis.log"))
	if err != nil {
		return nil, fmt.Errorf("loadtest: %w", err)
	}
	defer log.Close()
	args := []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", dir,
		"--appendonly", "yes", "--appendfsync", "everysec"}
	url := fmt.Sprintf("redis://127.0.0.1:%d/0", port)
	if socket {
		sock, err := filepath.Abs(filepath.Join(dir, "redis.sock"))
		if err != nil {
			return nil, fmt.Errorf("loadtest: %w", err)
		}
		if len(sock) > maxSocketPath {
			return nil, fmt.Errorf("loadtest: the socket's path %s is longer than a Unix socket's %d bytes: choose a shorter directory", sock, maxSocketPath)
		}
		args = append(args, "--unixsocket", sock, "--unixsocketperm", "700")
		url = "unix://" + sock + "?db=0"
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("loadtest: starting redis-server: %w", err)
	}
	s := &redisServer{cmd: cmd, url: url, exited: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(s.exited)
	}()
	opt, _ := redis.ParseURL(s.url)
	c := redis.NewClient(opt)
	defer c.Close()
	deadline := time.Now().Add(15 * time.Second)
	for {
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		err := c.Ping(pctx).Err()
		cancel()
		if err == nil {
			return s, nil
		}
		select {
		case <-s.exited:
			b, _ := os.ReadFile(filepath.Join(dir, "redis.log"))
			return nil, fmt.Errorf("loadtest: redis-server exited: %s", lastLine(string(b)))
		case <-ctx.Done():
			s.stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, errors.New("loadtest: redis-server does not answer")
		}
	}
}

// stop shuts the server down and waits for it.
func (s *redisServer) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(15 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// redisReading is what Redis says of itself (INFO).
type redisReading struct {
	commands int64         // total_commands_processed
	cpu      time.Duration // used_cpu_user + used_cpu_sys (its main thread and children)
	memory   int64         // used_memory, bytes
	peak     int64         // used_memory_peak, bytes
}

// readRedis reads INFO from the server at url.
func readRedis(ctx context.Context, url string) (redisReading, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return redisReading{}, fmt.Errorf("loadtest: %w", err)
	}
	c := redis.NewClient(opt)
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	info, err := c.Info(ctx, "stats", "cpu", "memory").Result()
	if err != nil {
		return redisReading{}, fmt.Errorf("loadtest: redis INFO: %w", err)
	}
	fields := map[string]string{}
	for _, line := range strings.Split(info, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
			fields[k] = v
		}
	}
	num := func(k string) float64 {
		f, _ := strconv.ParseFloat(fields[k], 64)
		return f
	}
	return redisReading{
		commands: int64(num("total_commands_processed")),
		cpu:      time.Duration((num("used_cpu_user") + num("used_cpu_sys")) * float64(time.Second)),
		memory:   int64(num("used_memory")),
		peak:     int64(num("used_memory_peak")),
	}, nil
}
