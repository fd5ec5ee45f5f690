// Package e2e runs the real program (internal/app: real discordgo, real bot,
// real stores) against the local Discord stand-in (internal/fakediscord) and
// a real Redis server (internal/redistest), and the built cmd/dixbot binary
// as a subprocess. It holds tests only.
//
// discordgo's API endpoints are process-wide variables: every bot run in
// this process talks to the stand-ins' shared front (sharedURL), which
// hands each request to the test's own stand-in, so the tests run in
// parallel, each with a stand-in, guilds and channels of its own.
package e2e

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}
