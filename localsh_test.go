package dixbot_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// freeLoopback returns a 127.0.0.1 address nothing listens on.
func freeLoopback(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// localRun is scripts/local.sh running.
type localRun struct {
	cmd                *exec.Cmd
	done               chan error // its exit, once it ends
	banner             string     // its last line before it waits for the bot
	fakeAddr, httpAddr string
}

// startLocal runs scripts/local.sh with its temporary directory in tmp
// until it says it runs, at two addresses from addr (freeLoopback). Those
// are found free by binding and closing them, so another process may
// take one before the script's servers bind it (after a build): the
// script then stops saying the address is in use, and other addresses
// are tried.
func startLocal(t *testing.T, tmp string, addr func(*testing.T) string) *localRun {
	t.Helper()
	for attempt := 1; ; attempt++ {
		l := &localRun{fakeAddr: addr(t), httpAddr: addr(t), done: make(chan error, 1)}
		l.cmd = exec.Command("bash", "scripts/local.sh")
		l.cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "FAKEDISCORD_ADDR="+l.fakeAddr, "HTTP_ADDR="+l.httpAddr)
		l.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		out, err := l.cmd.StdoutPipe()
		require.NoError(t, err)
		// Read once the script has ended: Wait returns after the last
		// of its output was copied here.
		var stderr bytes.Buffer
		l.cmd.Stderr = io.MultiWriter(os.Stderr, &stderr)
		require.NoError(t, l.cmd.Start())
		pid := l.cmd.Process.Pid
		t.Cleanup(func() { _ = syscall.Kill(-pid, syscall.SIGKILL) })
		running := make(chan struct{})
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				if strings.Contains(sc.Text(), "Ctrl-C stops everything") {
					l.banner = sc.Text()
					close(running) // its last line before it waits for the bot
				}
			}
			l.done <- l.cmd.Wait()
		}()
		select {
		case <-running:
			return l
		case err := <-l.done:
			if attempt < 3 && strings.Contains(stderr.String(), "already in use") {
				continue
			}
			t.Fatalf("local.sh stopped before it ran: %v", err)
		case <-time.After(5 * time.Minute):
			t.Fatal("local.sh did not start within 5 minutes")
		}
	}
}

// Ctrl-C stops scripts/local.sh with nothing left behind: the terminal
// sends SIGINT to the whole process group (the script, the stand-in and
// the bot at once), and the script's temporary directory is removed and
// both servers are gone.
func TestLocalScriptCleansUpOnCtrlC(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the stand-in and the bot")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	tmp := t.TempDir()
	l := startLocal(t, tmp, freeLoopback)
	cmd, done, fakeAddr, httpAddr := l.cmd, l.done, l.fakeAddr, l.httpAddr
	for _, start := range []string{"/dix start", "/qwixx start", "/dixxit start"} {
		assert.Contains(t, l.banner, start, "the banner names every game")
	}
	entries, err := os.ReadDir(tmp)
	require.NoError(t, err)
	require.Len(t, entries, 1, "the script's temporary directory")
	// Ctrl-C while the script waits for the bot, as when people play: the
	// kernel shows the script blocked in wait4 (do_wait).
	wchan := fmt.Sprintf("/proc/%d/wchan", cmd.Process.Pid)
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(wchan)
		return err == nil && string(b) == "do_wait"
	}, time.Minute, 10*time.Millisecond, "the script waits for the bot")

	// Ctrl-C reaches the bot too, which may stop before the shell reacts
	// (a busy machine): have it stop first, so that the script's clean-up
	// finds it gone, then the shell's own Ctrl-C.
	bot := childNamed(t, cmd.Process.Pid, "dixbot")
	require.NoError(t, syscall.Kill(bot, syscall.SIGINT))
	require.Eventually(t, func() bool {
		_, err := os.Stat(fmt.Sprintf("/proc/%d", bot))
		return os.IsNotExist(err)
	}, time.Minute, 10*time.Millisecond, "the bot stopped")
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) // the script may have ended already
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("local.sh still running a minute after Ctrl-C")
	}
	entries, err = os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, entries, "the temporary directory is removed")
	for _, a := range []string{fakeAddr, httpAddr} {
		c, err := net.DialTimeout("tcp", a, time.Second)
		if err == nil {
			c.Close()
		}
		assert.Error(t, err, "nothing listens on %s any more", a)
	}
}

// TestLocalScriptTriesOtherPorts: when the stand-in's port is taken
// before the script binds it, the script says so and the test runs it
// again at other ports.
func TestLocalScriptTriesOtherPorts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the stand-in and the bot")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	var given []string
	addr := func(t *testing.T) string {
		a := freeLoopback(t)
		if len(given) == 0 {
			a = taken.Addr().String()
		}
		given = append(given, a)
		return a
	}
	l := startLocal(t, t.TempDir(), addr)
	assert.Len(t, given, 4, "two addresses a try, two tries")
	assert.NotEqual(t, taken.Addr().String(), l.fakeAddr)
	require.NoError(t, syscall.Kill(-l.cmd.Process.Pid, syscall.SIGINT))
	select {
	case <-l.done:
	case <-time.After(time.Minute):
		t.Fatal("local.sh still running a minute after Ctrl-C")
	}
}

// childNamed returns the pid of the child of pid whose command line names
// name.
func childNamed(t *testing.T, pid int, name string) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	require.NoError(t, err)
	for _, f := range strings.Fields(string(b)) {
		var child int
		_, err := fmt.Sscan(f, &child)
		require.NoError(t, err)
		if line, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", child)); err == nil && strings.Contains(string(line), name) {
			return child
		}
	}
	t.Fatalf("no child of %d runs %s", pid, name)
	return 0
}
