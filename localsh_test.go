package dixbot_test

import (
	"bufio"
	"fmt"
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
	fakeAddr, httpAddr := freeLoopback(t), freeLoopback(t)
	cmd := exec.Command("bash", "scripts/local.sh")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "FAKEDISCORD_ADDR="+fakeAddr, "HTTP_ADDR="+httpAddr)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	})

	running := make(chan struct{})
	var banner string // its last line, read once running is closed
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Ctrl-C stops everything") {
				banner = sc.Text()
				close(running) // its last line before it waits for the bot
			}
		}
		done <- cmd.Wait()
	}()
	select {
	case <-running:
		for _, start := range []string{"/dix start", "/qwixx start", "/dixxit start"} {
			assert.Contains(t, banner, start, "the banner names every game")
		}
	case err := <-done:
		t.Fatalf("local.sh stopped before it ran: %v", err)
	case <-time.After(5 * time.Minute):
		t.Fatal("local.sh did not start within 5 minutes")
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
