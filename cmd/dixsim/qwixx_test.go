package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	computer "github.com/dixgame/dixbot/computer/qwixx"
	"github.com/dixgame/dixbot/engine/qwixx"
)

func TestRunSimQwixx(t *testing.T) {
	tests := []simCase{
		{"every level and simple, checked", []string{"-game", "qwixx", "-games", "4", "-players", "4", "-policy", "strong,normal,easy,simple", "-check"},
			[]string{"games:          4 (qwixx, 4 players, policies strong normal easy simple, seeds 1…4, checked)", "rolls/game:", "ended by locks:", "win rate:       p0 strong", "95% CI", "p3 simple", "by turn order:  wins 1st", " 4th ", "; p0 strong", "slowest decision: p0 strong"}},
		{"every player count", []string{"-game", "qwixx", "-games", "5", "-players", "2..5"}, []string{"2 players, policies simple normal", "5 players, policies simple normal simple normal simple"}},
		{"solitaire", []string{"-game", "qwixx", "-solitaire", "-games", "20", "-check"}, []string{"qwixx solitaire, policies strong", "average score:  strong", "min", "max"}},
		{"a scaled table", []string{"-game", "qwixx", "-games", "5", "-players", "2", "-policy", "table:0.3,normal"}, []string{"policies table:0.3 normal"}},
		{"a player that sees the next roll", []string{"-game", "qwixx", "-games", "2", "-players", "3", "-policy", "seer,normal", "-check"}, []string{"policies seer normal normal", "p0 seer"}},
	}
	simOutputs(t, tests)
}

// TestTallyByTurnOrder checks the wins counted by place in the turn
// order: each game's winners once each, at the place their seat held
// counted from the game's first active seat, and seat 0's games and wins
// by its own place.
func TestTallyByTurnOrder(t *testing.T) {
	const players, games = 3, 60
	pol, _, err := qwixxPolicies("normal", players)
	require.NoError(t, err)
	st := qwixxStats{
		scoreSum: make([]float64, players), scoreSq: make([]float64, players),
		wins: make([]int, players), penalties: make([]int, players),
		byTurn: make([]int, players), seat0Turn: make([][2]int, players),
	}
	var want [players]int
	firsts := map[int]bool{}
	for seed := range int64(games) {
		g, err := qwixx.New(qwixx.Options{Players: players, Seed: seed, First: -1})
		require.NoError(t, err)
		firsts[g.First] = true
		r := rand.New(rand.NewPCG(uint64(seed), 1))
		for !g.Over() {
			for _, seat := range g.ToDecide() {
				a, err := pol[seat](g, seat, r)
				require.NoError(t, err)
				_, err = g.Apply(seat, a)
				require.NoError(t, err)
			}
		}
		// The turn order from the first active seat: First, First+1, …
		order := []int{}
		for s := g.First; len(order) < players; s = (s + 1) % players {
			order = append(order, s)
		}
		for _, w := range g.Winners() {
			want[slices.Index(order, w)]++
		}
		st.tally(g)
	}
	assert.Len(t, firsts, players, "the first active seat is drawn")
	assert.Equal(t, want[:], st.byTurn)
	total := 0
	for s := range players {
		total += st.wins[s]
	}
	assert.Equal(t, total, want[0]+want[1]+want[2])
	g0, w0 := 0, 0
	for _, c := range st.seat0Turn {
		g0 += c[0]
		w0 += c[1]
	}
	assert.Equal(t, games, g0)
	assert.Equal(t, st.wins[0], w0)
	assert.Equal(t, "1st 2nd 3rd 4th 5th", strings.Join([]string{ordinal(1), ordinal(2), ordinal(3), ordinal(4), ordinal(5)}, " "))
}

func TestRunSimQwixxBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-game", "qwixx", "-players", "1", "-games", "1"},
		{"-game", "qwixx", "-players", "6", "-games", "1"},
		{"-game", "qwixx", "-policy", "clever", "-games", "1"},
		{"-game", "qwixx", "-policy", "table:x", "-games", "1"},
		{"-game", "chess", "-games", "1"},
		{"-solitaire", "-games", "1"},
	} {
		var out, errOut bytes.Buffer
		assert.ErrorIs(t, runSim(args, &out, &errOut), errUsage, "%v", args)
	}
}

// TestSimpleQwixxLeavesNoGap plays games with the simple policy on every
// seat and checks each of its marks is the box right after the row's last
// mark.
func TestSimpleQwixxLeavesNoGap(t *testing.T) {
	marks := 0
	for seed := range int64(20) {
		g, err := qwixx.New(qwixx.Options{Players: 3, Seed: seed, First: -1})
		require.NoError(t, err)
		for !g.Over() {
			for _, seat := range g.ToDecide() {
				a, err := simpleQwixx(g, seat, rand.New(rand.NewPCG(1, 1)))
				require.NoError(t, err)
				if !a.Pass {
					assert.Equal(t, g.Sheets[seat].Rows[a.Color].Right()+1, qwixx.Pos(a.Color, a.Number), "%s", a)
					marks++
				}
				_, err = g.Apply(seat, a)
				require.NoError(t, err)
			}
		}
	}
	assert.Greater(t, marks, 50)
}

func TestRunOptimumBadUsage(t *testing.T) {
	for _, args := range [][]string{{"-fit", "0"}, {"-games", "-1"}, {"extra"}} {
		var out, errOut bytes.Buffer
		assert.ErrorIs(t, runOptimum(args, &out, &errOut), errUsage, "%v", args)
	}
}

// TestCompactSourceRoundTrips checks the written table is Go source that
// holds the table's numbers.
func TestCompactSourceRoundTrips(t *testing.T) {
	src := string(compactSource(computer.SolitaireTable(), 3000, 1_000_001, 2.32))
	assert.Contains(t, src, "package qwixx")
	assert.Contains(t, src, "var compactTable = Compact{")
	assert.Contains(t, src, "`dixsim optimum -fit 3000 -seed 1 -out computer/qwixx/compact_table.go`")
	assert.Contains(t, src, fmt.Sprintf("%.3f", computer.SolitaireTable()[0][0][1]))
}

func TestRunWinFitBadUsage(t *testing.T) {
	for _, args := range [][]string{{"-players", "1"}, {"-players", "6"}, {"-players", "3,x"}, {"-games", "0"}, {"extra"}} {
		var out, errOut bytes.Buffer
		assert.ErrorIs(t, runWinFit(args, &out, &errOut), errUsage, "%v", args)
	}
}

// TestRunWinFitWritesTheModels: the written source declares a model for
// each table size fitted.
func TestRunWinFitWritesTheModels(t *testing.T) {
	var out, errOut bytes.Buffer
	require.NoError(t, runWinFit([]string{"-players", "3", "-games", "2", "-seed", "77"}, &out, &errOut))
	src := out.String()
	assert.Contains(t, src, "// Code generated by `dixsim winfit -players 3 -games 2 -seed 77")
	assert.Contains(t, src, "var winModels = [6]*winModel{")
	assert.Contains(t, src, "\n\t3: {")
	assert.NotContains(t, src, "\n\t4: {")
}

func TestRunNetFitBadUsage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "net.bin")
	for _, args := range [][]string{{}, {"-players", "1", "-out", out}, {"-games", "0", "-out", out}, {"-hidden", "0", "-out", out}, {"-out", out, "extra"}} {
		var stdout, errOut bytes.Buffer
		assert.Error(t, runNetFit(args, &stdout, &errOut), "%v", args)
	}
	var stdout, errOut bytes.Buffer
	assert.Error(t, runNetFit([]string{"-from", filepath.Join(t.TempDir(), "none.bin"), "-out", out}, &stdout, &errOut), "a network to start from that is not there")
}

// TestRunNetFitWritesANetwork: netfit writes a network that decodes, and
// goes on training from one it wrote.
func TestRunNetFitWritesANetwork(t *testing.T) {
	dir := t.TempDir()
	first, next := filepath.Join(dir, "a.bin"), filepath.Join(dir, "b.bin")
	var out, errOut bytes.Buffer
	require.NoError(t, runNetFit([]string{"-games", "20", "-hidden", "8", "-every", "10", "-out", first}, &out, &errOut))
	assert.Contains(t, out.String(), "10 games: seat 0 finishes first in ")
	assert.Contains(t, out.String(), "20 games trained in ")
	require.NoError(t, runNetFit([]string{"-games", "5", "-hidden", "8", "-from", first, "-out", next}, &out, &errOut))
	for _, f := range []string{first, next} {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		_, err = computer.DecodeValueNet(bytes.NewReader(b))
		assert.NoError(t, err, f)
	}
	assert.Error(t, runNetFit([]string{"-games", "5", "-hidden", "16", "-from", first, "-out", next}, &out, &errOut), "hidden units unlike the network's")
}

// TestRunNetPlay: netplay measures each network on the same games, the
// same figure for the same file; bad usage and a file that is not a
// network are refused.
func TestRunNetPlay(t *testing.T) {
	dir := t.TempDir()
	net, junk := filepath.Join(dir, "a.bin"), filepath.Join(dir, "junk.bin")
	var out, errOut bytes.Buffer
	require.NoError(t, runNetFit([]string{"-games", "20", "-hidden", "8", "-out", net}, &out, &errOut))
	require.NoError(t, os.WriteFile(junk, []byte("not a network"), 0o644))
	out.Reset()
	require.NoError(t, runNetPlay([]string{"-games", "50", "-seed", "3", net, net}, &out, &errOut))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 2)
	assert.Contains(t, lines[0], " of 50 games")
	assert.Equal(t, lines[0], lines[1], "the same network on the same seeds")
	for _, args := range [][]string{{}, {"-games", "0", net}, {filepath.Join(dir, "none.bin")}, {junk}} {
		assert.Error(t, runNetPlay(args, &out, &errOut), "%v", args)
	}
}
