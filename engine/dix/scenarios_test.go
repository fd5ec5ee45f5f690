package dix_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix/scenario"
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
			res, err := scenario.Run(f)
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
