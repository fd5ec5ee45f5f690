// Package e2e runs the real program (internal/app: real discordgo, real bot,
// real stores) against the local Discord stand-in (internal/fakediscord) and
// a real Redis server (internal/redistest), and the built cmd/dixbot binary
// as a subprocess. It holds tests only.
//
// discordgo's API endpoints are process-wide variables, so these tests never
// run in parallel with each other.
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
