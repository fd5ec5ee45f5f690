package qwixx_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/enginetest"
	"github.com/dixgame/dixbot/engine/qwixx/scenario"
)

// TestScenarios runs every scenario file of testdata/scenarios: the
// rulebook's examples and the rulings Q1–Q12.
func TestScenarios(t *testing.T) {
	enginetest.Scenarios(t, "qwixx", func(t *testing.T, f *os.File) int {
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
		"q01-", "q02-", "q03-", "q04-", "q05-", "q06-", "q07-", "q08-", "q09-", "q10-", "q11-", "q12-",
		"rulebook-scoring-70", "rulebook-max-emma-white-and-blue", "rulebook-laura-locks-green",
		"rulebook-three-rows-locked", "rulebook-left-to-right",
		// What the issue names beside the rulings.
		"q04-two-rows-locked-in-action1", "q08-end-after-action1-no-penalty", "q02-action2-right-of-action1",
		"q05-removed-die-unusable", "q09-fourth-penalty", "q07-others-keep-their-marks",
		"solitaire", "forced-pass", "non-active-never-penalised",
	}
	enginetest.ScenariosCover(t, "qwixx", want)
}
