// Package redistest gives tests a real Redis server.
//
// Start runs a private redis-server on a free 127.0.0.1 port in a temporary
// directory, with append-only persistence so that Stop and Restart keep the
// data (for fault tests), and stops it when the test ends; the server also
// listens on a Unix socket (SocketURL). Pause and Resume
// simulate a server that hangs without closing connections. When REDIS_URL is
// set, Start uses that server instead, and Stop, Restart, Pause and Resume
// skip the test.
// When redis-server is not installed the test is skipped, or fails when the
// CI environment variable is "true": CI must exercise the Redis paths.
//
// StartCluster runs a private Redis Cluster of three masters (three
// redis-server processes with cluster mode on, joined by redis-cli --cluster
// create), or uses REDIS_CLUSTER_URL when set; it needs redis-cli too.
//
// Tests sharing a server (REDIS_URL, REDIS_CLUSTER_URL) must isolate their
// keys, for example with a per-test key prefix; this package never flushes a
// database.
package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Server is one Redis server for a test. Its methods are safe for concurrent
// use.
type Server struct {
	t        testing.TB
	url      string
	external bool

	bin     string
	dir     string
	port    int
	busPort int    // cluster bus port of a cluster node, 0 for a plain server
	socket  string // the Unix socket a plain server also listens on

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
}

const (
	startTimeout = 15 * time.Second
	stopTimeout  = 15 * time.Second
)

// Start returns a running server for t: REDIS_URL when set, else a private
// redis-server. It skips t (fails it when CI=true) if redis-server is missing.
func Start(t testing.TB) *Server {
	t.Helper()
	if u := os.Getenv("REDIS_URL"); u != "" {
		return &Server{t: t, url: u, external: true}
	}
	return startLocal(t, lookPath(t, "redis-server", "REDIS_URL"), false)
}

// lookPath finds a program the tests need: it skips t when it is missing,
// or fails t when CI=true. env names the variable that avoids the need.
func lookPath(t testing.TB, prog, env string) string {
	t.Helper()
	bin, err := exec.LookPath(prog)
	if err != nil {
		msg := "redistest: " + prog + " not found in PATH (install it, e.g. apt-get install redis-server, or set " + env + ")"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "; CI=true requires it")
		}
		t.Skip(msg)
	}
	return bin
}

// startLocal starts a private redis-server, a cluster node when cluster is
// set.
func startLocal(t testing.TB, bin string, cluster bool) *Server {
	t.Helper()
	s := &Server{t: t, bin: bin, dir: t.TempDir()}
	if !cluster {
		// A socket's path has at most 107 bytes (sun_path, unix(7)), which
		// a test's temporary directory may pass: a short one of its own.
		sdir, err := os.MkdirTemp("", "rds")
		if err != nil {
			t.Fatalf("redistest: %v", err)
		}
		t.Cleanup(func() { _ = os.RemoveAll(sdir) })
		s.socket = filepath.Join(sdir, "redis.sock")
	}
	// Registered after TempDir, so it runs before the directory is removed.
	t.Cleanup(s.stop)
	// The free port is found by binding and closing it, so another process
	// may take it before redis-server binds it: then redis-server exits
	// with "Address already in use", and another port is tried.
	for attempt := 1; ; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatalf("redistest: no free port: %v", err)
		}
		s.port, s.url = port, fmt.Sprintf("redis://127.0.0.1:%d/0", port)
		if cluster {
			// The bus port is chosen too: the default, port+10000, may be
			// taken or beyond 65535.
			if s.busPort, err = freePort(); err != nil {
				t.Fatalf("redistest: no free port: %v", err)
			}
		}
		err = s.start()
		if err == nil {
			return s
		}
		if !errors.Is(err, errPortTaken) || attempt == 5 {
			t.Fatal(err)
		}
	}
}

// errPortTaken: redis-server could not bind its port.
var errPortTaken = errors.New("redistest: port taken")

// URL is the redis:// URL of the server.
func (s *Server) URL() string { return s.url }

// SocketURL is the unix:// URL of the server's Unix socket (database 0).
// It skips the test on a server of REDIS_URL or a cluster node.
func (s *Server) SocketURL() string {
	s.t.Helper()
	s.needLocal("SocketURL")
	if s.socket == "" {
		s.t.Skip("redistest: a cluster node listens on no Unix socket")
	}
	return "unix://" + s.socket + "?db=0"
}

// Addr is the server's host:port.
func (s *Server) Addr() string {
	if s.external {
		return strings.TrimPrefix(strings.TrimPrefix(s.url, "redis://"), "rediss://")
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
}

// Stop shuts the server down gracefully (its append-only file is flushed)
// and waits for it to exit. Connections are then refused until Restart.
func (s *Server) Stop() {
	s.t.Helper()
	s.needLocal("Stop")
	s.stop()
}

// Restart starts the server again on the same port with the same data
// directory and waits until it answers. Stopping it first is optional.
func (s *Server) Restart() {
	s.t.Helper()
	s.needLocal("Restart")
	s.stop()
	if err := s.start(); err != nil {
		s.t.Fatal(err)
	}
}

// Pause freezes the server (SIGSTOP): connections stay open but nothing is
// answered, as with a hung server or a network partition. Resume undoes it;
// a paused server is resumed when the test ends.
func (s *Server) Pause() {
	s.t.Helper()
	s.needLocal("Pause")
	s.signal(syscall.SIGSTOP)
}

// Resume continues a paused server (SIGCONT).
func (s *Server) Resume() {
	s.t.Helper()
	s.needLocal("Resume")
	s.signal(syscall.SIGCONT)
}

func (s *Server) signal(sig syscall.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		s.t.Fatalf("redistest: %v to a stopped server", sig)
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatalf("redistest: %v: %v", sig, err)
	}
}

func (s *Server) needLocal(what string) {
	s.t.Helper()
	if s.external {
		s.t.Skipf("redistest: %s needs a private redis-server, not REDIS_URL", what)
	}
}

func (s *Server) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return nil
	}
	logPath := filepath.Join(s.dir, "redis.log")
	args := []string{
		"--port", strconv.Itoa(s.port),
		"--bind", "127.0.0.1",
		"--protected-mode", "yes",
		"--dir", s.dir,
		"--appendonly", "yes",
		"--appendfsync", "everysec",
		"--save", "",
		"--daemonize", "no",
		"--logfile", logPath,
	}
	if s.socket != "" {
		args = append(args, "--unixsocket", s.socket, "--unixsocketperm", "700")
	}
	if s.busPort != 0 {
		// nodes.conf, in the node's own directory, keeps its identity and
		// the cluster layout across Restart.
		args = append(args,
			"--cluster-enabled", "yes",
			"--cluster-port", strconv.Itoa(s.busPort),
			"--cluster-config-file", "nodes.conf",
			// Short while the cluster forms (faster gossip); StartCluster
			// then sets it to clusterNodeTimeout.
			"--cluster-node-timeout", "1000",
		)
	}
	cmd := exec.Command(s.bin, args...)
	// Own process group: a signal to the test's group does not reach it
	// before Stop does, and it never outlives the test by accident.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("redistest: start %s: %w", s.bin, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	deadline := time.Now().Add(startTimeout)
	for {
		// The server answering must be this one: another process's server
		// may hold the port (and this one then exits).
		pid, err := serverPID(s.Addr())
		if err == nil && pid == cmd.Process.Pid {
			// INFO answers while the server still loads its data, when
			// every other command gets -LOADING: ready once loaded.
			if err = loaded(s.Addr()); err == nil {
				break
			}
		} else if err == nil {
			err = fmt.Errorf("the server on %s is process %d, not %d", s.Addr(), pid, cmd.Process.Pid)
		}
		select {
		case <-done:
			log := tail(logPath)
			if strings.Contains(log, "Address already in use") {
				return fmt.Errorf("%w: %s: %v", errPortTaken, s.Addr(), err)
			}
			return fmt.Errorf("redistest: redis-server exited at start: %v\n%s", err, log)
		default:
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-done
			return fmt.Errorf("redistest: redis-server not ready after %v: %v\n%s", startTimeout, err, tail(logPath))
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.cmd, s.done = cmd, done
	return nil
}

func (s *Server) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	// SIGTERM: redis-server flushes the append-only file and exits (SIGCONT
	// first in case it is paused).
	_ = s.cmd.Process.Signal(syscall.SIGCONT)
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(stopTimeout):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	s.cmd, s.done = nil, nil
}

// serverPID asks the server on addr for its process id (INFO server,
// which the server answers while it loads too); an error answer is an
// error.
func serverPID(addr string) (int, error) {
	v, ok, err := infoField(addr, "process_id", "INFO", "server")
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, errors.New("redistest: no process_id in INFO server")
	}
	return strconv.Atoi(v)
}

// loaded reports, as an error, a server on addr still loading its data
// ("loading:1" in INFO persistence,
// https://redis.io/docs/latest/commands/info/).
func loaded(addr string) error {
	v, ok, err := infoField(addr, "loading", "INFO", "persistence")
	switch {
	case err != nil:
		return err
	case !ok:
		return errors.New("redistest: no loading in INFO persistence")
	case v != "0":
		return errors.New("redistest: the server is loading its data")
	}
	return nil
}

// infoField sends cmd, a command answering "field:value" lines (INFO,
// CLUSTER INFO), to the server on addr and returns the value of field.
func infoField(addr, field string, cmd ...string) (value string, found bool, err error) {
	body, err := bulkCommand(addr, cmd...)
	if err != nil {
		return "", false, err
	}
	for _, l := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), field+":"); ok {
			return v, true, nil
		}
	}
	return "", false, nil
}

// bulkCommand sends one command to the server on addr and returns its bulk
// or simple string reply; any other reply is an error.
func bulkCommand(addr string, args ...string) (string, error) {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	var req strings.Builder
	fmt.Fprintf(&req, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&req, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := io.WriteString(c, req.String()); err != nil {
		return "", err
	}
	r := bufio.NewReader(c)
	line, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimSpace(line)
	if simple, ok := strings.CutPrefix(line, "+"); ok {
		return simple, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(line, "$"))
	if !strings.HasPrefix(line, "$") || err != nil || n < 0 {
		return "", fmt.Errorf("redistest: %s answered %s", args[0], line)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return "", err
	}
	return string(body), nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}
