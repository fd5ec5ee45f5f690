// Package browsertest starts headless Chromium for the project's browser
// tests (the stand-in's web view). It is for tests only and imports nothing
// of the project.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// minTimeout is the least time a browser is given.
const minTimeout = 8 * time.Minute

// Start finds Debian's chromium and returns a chromedp context for a fresh
// headless browser with a window of width × height, cancelled after timeout
// (at least minTimeout: the deadline guards against a hung browser, and the
// tests run side by side on a busy machine) and at the end of the test. Without chromium the test is skipped, except
// under CI=true where it fails: CI must run the browser tests.
func Start(t *testing.T, width, height int, timeout time.Duration) context.Context {
	t.Helper()
	bin := chromium(t)
	// The flags keep Chromium off the network (this machine has none) and
	// working as root in a container.
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	ctx, cancel := context.WithTimeout(bctx, max(timeout, minTimeout))
	t.Cleanup(func() {
		cancel()
		cancelBrowser()
		cancelAlloc()
	})
	return ctx
}

// chromium returns the path of a Chromium binary, or skips (fails under
// CI=true) the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found (install Debian's chromium package)")
	}
	t.Skip("chromium not found; install Debian's chromium package to run the browser test")
	return ""
}
