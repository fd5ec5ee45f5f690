package dix_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix/scenario"
	"github.com/dixgame/dixbot/engine/enginetest"
)

// TestScenarios runs every scenario file of testdata/scenarios: the rulebook
// examples and the rulings R1–R14.
func TestScenarios(t *testing.T) {
	enginetest.Scenarios(t, "dix", func(t *testing.T, f *os.File) int {
		res, err := scenario.Run(f)
		require.NoError(t, err)
		require.NotNil(t, res.Game)
		assert.NoError(t, res.Game.Check())
		return res.Expects
	})
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
	enginetest.ScenariosCover(t, "dix", want)
}
