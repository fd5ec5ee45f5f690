package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
)

// simCase is a run of the simulator and what its output must contain.
type simCase struct {
	name string
	args []string
	want []string
}

// simOutputs runs each case as a subtest: the run succeeds and its output
// contains every string of want.
func simOutputs(t *testing.T, tests []simCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			require.NoError(t, runSim(tc.args, &out, &errOut))
			for _, w := range tc.want {
				assert.Contains(t, out.String(), w)
			}
		})
	}
}

func TestSeatPolicies(t *testing.T) {
	assert.Equal(t, []string{"strong", "strong", "strong"}, seatPolicies("strong", 3, "random"))
	assert.Equal(t, []string{"easy", "normal", "normal"}, seatPolicies("easy, normal", 3, "random"))
	assert.Equal(t, []string{"simple", "random", "simple", "random"}, seatPolicies("mix", 4, "random"))
	assert.Equal(t, []string{"oracle", "normal", "simple"}, seatPolicies("oracle,mix", 3, "normal"), "mix by the seat's parity")
	assert.Equal(t, []string{"a"}, seatPolicies("a,b,c", 1, "random"))
}

func TestRunSim(t *testing.T) {
	tests := []simCase{
		{"four players checked", []string{"-games", "30", "-players", "4", "-seed", "7", "-check"}, []string{"games:          30 (4 players", "seeds 7…36", "checked", "games/second:", "turns/game:", "bust rate:", "average score:  p0", "p3"}},
		{"solo", []string{"-games", "20", "-players", "1", "-difficulty", "9", "-check"}, []string{"solo against ALIX, difficulty 9", "alix"}},
		{"five random players, bust variant", []string{"-games", "10", "-players", "5", "-policy", "random", "-variant", "-check"}, []string{"policies random random random random random", "bust variant", "p4"}},
		{"two simple players", []string{"-games", "10", "-players", "2", "-policy", "simple"}, []string{"policies simple simple"}},
		{"every player count", []string{"-games", "5", "-players", "1..5", "-check"}, []string{"solo against ALIX", "games:          5 (2 players", "3 players", "4 players", "5 players"}},
		{"a range of one", []string{"-games", "5", "-players", "3..3"}, []string{"3 players"}},
		{"solo analysed", []string{"-games", "5", "-players", "1", "-difficulty", "10", "-policy", "strong", "-analyse"}, []string{"per game:", "human", "alix", "wilds drawn on alix's turns", "when nobody could bid", "margin of seat 0", "win rate with k more points"}},
		{"four players analysed", []string{"-games", "5", "-players", "4", "-analyse"}, []string{"p3 random", "wilds drawn on p0 simple's turns"}},
	}
	simOutputs(t, tests)
}

func TestRunSimBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-players", "0", "-games", "1"},
		{"-players", "6", "-games", "1"},
		{"-players", "4..6", "-games", "1"},
		{"-players", "0..2", "-games", "1"},
		{"-players", "3..2", "-games", "1"},
		{"-players", "2..", "-games", "1"},
		{"-players", "x", "-games", "1"},
		{"-games", "0"},
		{"-policy", "clever", "-games", "1"},
		{"-players", "1", "-difficulty", "3", "-games", "1"},
		{"extra"},
	} {
		var out, errOut bytes.Buffer
		err := runSim(args, &out, &errOut)
		assert.ErrorIs(t, err, errUsage, "%v", args)
	}
	var out, errOut bytes.Buffer
	assert.Error(t, runSim([]string{"-nope"}, &out, &errOut))
}

// TestSimulateReportsViolation checks that a failed Check names the seed
// and the action.
func TestSimulateReportsViolation(t *testing.T) {
	calls := 0
	failing := func(g *dix.Game) error {
		calls++
		if calls == 5 {
			return dix.ErrInvariant
		}
		return g.Check()
	}
	pol, _, err := simPolicies("mix", 3)
	require.NoError(t, err)
	_, err = simulate(simConfig{games: 3, players: 3, seed: 40, check: true}, pol, failing)
	var v *simViolation
	require.True(t, errors.As(err, &v), "%v", err)
	assert.Equal(t, int64(40), v.seed)
	assert.Equal(t, 5, v.action)
	assert.ErrorIs(t, err, dix.ErrInvariant)
	assert.Contains(t, err.Error(), "seed 40, action 5 (p")

	// Without -check the check is never called.
	calls = 0
	_, err = simulate(simConfig{games: 2, players: 3, seed: 40}, pol, failing)
	require.NoError(t, err)
	assert.Zero(t, calls)
}

// TestSimulateDeterministic: the same seeds give the same statistics.
func TestSimulateDeterministic(t *testing.T) {
	pol, _, err := simPolicies("mix", 4)
	require.NoError(t, err)
	cfg := simConfig{games: 20, players: 4, seed: 3}
	a, err := simulate(cfg, pol, nil)
	require.NoError(t, err)
	b, err := simulate(cfg, pol, nil)
	require.NoError(t, err)
	a.elapsed, b.elapsed = 0, 0
	assert.Equal(t, a, b)
	assert.Equal(t, 20, a.games)
	assert.Positive(t, a.turns)
}

func TestRunReplay(t *testing.T) {
	dir := filepath.Join("..", "..", "engine", "dix", "testdata", "scenarios")
	var out bytes.Buffer
	require.NoError(t, runReplay([]string{filepath.Join(dir, "r08-final-buy-order.dix")}, &out))
	var v dix.View
	require.NoError(t, json.Unmarshal(out.Bytes(), &v))
	assert.Equal(t, "over", v.Phase)
	assert.Equal(t, []string{"o5", "g2", "g3"}, v.Seats[2].Collection)
	assert.Len(t, v.Results, 3)

	// Every scenario replays.
	files, err := filepath.Glob(filepath.Join(dir, "*.dix"))
	require.NoError(t, err)
	for _, f := range files {
		out.Reset()
		assert.NoError(t, runReplay([]string{f}, &out), f)
	}
}

func TestRunReplayFailures(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.dix")
	require.NoError(t, os.WriteFile(bad, []byte("players 2\ndeck g1 g2\nrest none\np0 draw\n\np0 draw\np0 draw\n"), 0o600))
	var out bytes.Buffer
	err := runReplay([]string{bad}, &out)
	require.Error(t, err)
	assert.ErrorIs(t, err, dix.ErrDeckEmpty)
	assert.Contains(t, err.Error(), "line 7")
	assert.Empty(t, out.String())

	wrong := filepath.Join(dir, "wrong.dix")
	require.NoError(t, os.WriteFile(wrong, []byte("players 2\nexpect money p0 4\n"), 0o600))
	err = runReplay([]string{wrong}, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 2")

	assert.Error(t, runReplay([]string{filepath.Join(dir, "missing.dix")}, &out))
	assert.ErrorIs(t, runReplay(nil, &out), errUsage)
}

func TestRun(t *testing.T) {
	dir := filepath.Join("..", "..", "engine", "dix", "testdata", "scenarios")
	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string
		stderr string
	}{
		{"no subcommand", nil, "", 2, "", "usage"},
		{"unknown subcommand", []string{"play"}, "", 2, "", "usage"},
		{"score", []string{"score"}, "b1 b2 b3\n", 0, `"total":3`, ""},
		{"sim", []string{"sim", "-games", "2", "-players", "3", "-check"}, "", 0, "games/second", ""},
		{"sim bad usage", []string{"sim", "-players", "9"}, "", 2, "", "bad"},
		{"replay", []string{"replay", filepath.Join(dir, "r07-last-card-wild.dix")}, "", 0, `"phase": "over"`, ""},
		{"replay missing", []string{"replay", filepath.Join(dir, "nope.dix")}, "", 1, "", "nope.dix"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(tc.args, strings.NewReader(tc.stdin), &out, &errOut)
			assert.Equal(t, tc.code, code, "stderr: %s", errOut.String())
			assert.Contains(t, out.String(), tc.stdout)
			assert.Contains(t, errOut.String(), tc.stderr)
		})
	}
}

// TestAnalysisBoostedWins checks the win rates with more points at the end:
// with none added it is the win rate of the same games, and each point
// added wins at least the games the previous count did.
func TestAnalysisBoostedWins(t *testing.T) {
	pol, _, err := simPolicies("simple", 1)
	require.NoError(t, err)
	st, err := simulate(simConfig{games: 60, players: 1, difficulty: 10, seed: 3, analyse: true}, pol, (*dix.Game).Check)
	require.NoError(t, err)
	b := st.analysis.boosted
	assert.Equal(t, st.wins[0], b[0])
	for k := 1; k < len(b); k++ {
		assert.GreaterOrEqual(t, b[k], b[k-1], "+%d", k)
	}
	assert.Greater(t, b[len(b)-1], b[0], "60 games where three more points win none more")
}
