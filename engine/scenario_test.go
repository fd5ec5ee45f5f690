package engine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScenarios runs every scenario file of testdata/scenarios: the rulebook
// examples and the rulings R1–R14.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.dix"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".dix"), func(t *testing.T) {
			f, err := os.Open(file)
			require.NoError(t, err)
			defer f.Close()
			res, err := RunScenario(f)
			require.NoError(t, err)
			require.NotNil(t, res.Game)
			assert.NoError(t, res.Game.Check())
			assert.Positive(t, res.Expects, "a scenario must check something")
		})
	}
}

// TestScenariosCoverRulings makes sure every ruling and rulebook example
// has a scenario.
func TestScenariosCoverRulings(t *testing.T) {
	want := []string{
		"r01-", "r02-", "r03-", "r04-", "r05-", "r06-", "r07-", "r08-", "r09-", "r10-", "r11-", "r12-", "r13-", "r14-",
		"rulebook-bust-a-3-4-7-2", "rulebook-bust-b-3-4-7-2", "rulebook-leo-purchase", "rulebook-scoring-24",
		// Rules the rulings do not name: 3.1 limits, 3.3 token at 10 money,
		// the variant, ALIX's first bid and her stop at the difficulty (§5),
		// the solo market.
		"bust-limits", "bust-consolation-at-limit", "variant-bust-others-gain", "solo-variant-alix-bust",
		"solo-alix-bids-human-capacity", "solo-alix-stops-at-difficulty", "solo-market-as-usual",
	}
	files, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.dix"))
	require.NoError(t, err)
	for _, w := range want {
		found := false
		for _, f := range files {
			found = found || strings.HasPrefix(filepath.Base(f), w)
		}
		assert.True(t, found, "no scenario for %s", w)
	}
}

func TestScenarioFailures(t *testing.T) {
	tests := []struct {
		name   string
		script string
		line   int
		is     error
	}{
		{"illegal action", "players 2\ndeck g1 g2\nrest none\np0 stop\n", 4, ErrMustDraw},
		{"expectation not met", "players 2\nexpect money p0 5\nexpect money p1 4\n", 3, errExpect},
		{"expected error not raised", "players 2\nexpect error ErrMustDraw p0 draw\n", 2, errExpect},
		{"wrong error", "players 2\nexpect error ErrDeckEmpty p0 stop\n", 2, errExpect},
		{"unknown line", "players 2\nfrobnicate\n", 2, nil},
		{"bad options", "players 9\nexpect deck 1\n", 2, ErrBadOptions},
		{"bad card", "deck g0\n", 1, ErrBadCard},
		{"card not in deck", "players 2\ndeck g9 g9\nexpect deck 91\n", 3, nil},
		{"event absent", "players 2\np0 draw\nexpect event bust\n", 3, errExpect},
		{"bad seat", "players 2\nq0 draw\n", 2, nil},
		{"bad payment", "players 2\nmarket g1\np0 buy g1 pay lots\n", 3, nil},
		{"unknown error name", "players 2\nexpect error ErrNope p0 draw\n", 2, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := RunScenario(strings.NewReader(tc.script))
			require.Error(t, err)
			var se *ScenarioError
			require.True(t, errors.As(err, &se), "%v", err)
			assert.Equal(t, tc.line, se.Line, "%v", err)
			if tc.is != nil {
				assert.ErrorIs(t, err, tc.is)
			}
			assert.Contains(t, err.Error(), "line ")
		})
	}
}

func TestFormatActionRoundTrip(t *testing.T) {
	s := &scenario{g: scenarioGame(t, "players 3\ndeck g1\nrest none\n")}
	for _, line := range []string{
		"p0 draw", "p1 stop", "p2 numbers", "p0 money", "p1 end", "p0 consolation", "p0 bustbuy",
		"p2 bid 7", "p1 pass", "p0 buy g3 pay money 2 cards g1 b1", "p0 buy p9 pay consolation 3",
		"p1 pay money 1 consolation 1 cards o4", "p1 pay nothing",
	} {
		a, err := s.action(strings.Fields(line))
		require.NoError(t, err, line)
		assert.Equal(t, line, FormatAction(a))
	}
}
