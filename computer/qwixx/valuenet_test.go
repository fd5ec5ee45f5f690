package qwixx

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/qwixx"
)

// TestValueNetShipped: the network shipped decodes, at three seats only,
// with the inputs of three seats; no other table size has one.
func TestValueNetShipped(t *testing.T) {
	for n := range qwixx.MaxPlayers + 1 {
		net := valueNetOf(n)
		if n != 3 {
			assert.Nil(t, net, "%d seats", n)
			continue
		}
		require.NotNil(t, net)
		assert.Equal(t, 3, net.players)
		assert.Len(t, net.w1, netInputs(3)*net.hidden)
	}
	assert.Nil(t, valueNetOf(-1))
	assert.Nil(t, valueNetOf(qwixx.MaxPlayers+1))
}

// TestValueNetEncodeDecode: a network written by Encode reads back the
// same; anything else is refused.
func TestValueNetEncodeDecode(t *testing.T) {
	net := valueNetOf(3)
	var b bytes.Buffer
	require.NoError(t, net.Encode(&b))
	assert.Equal(t, valueNet3, b.Bytes(), "the shipped file is the network's encoding")
	back, err := DecodeValueNet(bytes.NewReader(b.Bytes()))
	require.NoError(t, err)
	assert.Equal(t, net, back)

	enc := b.Bytes()
	for name, bad := range map[string][]byte{
		"empty":       nil,
		"magic":       append([]byte("QXVM"), enc[4:]...),
		"truncated":   enc[:len(enc)-1],
		"header only": enc[:16],
		"seats":       append(append([]byte{}, enc[:4]...), append([]byte{6, 0, 0, 0}, enc[8:]...)...),
		"inputs":      append(append([]byte{}, enc[:8]...), append([]byte{1, 0, 0, 0}, enc[12:]...)...),
		"hidden":      append(append([]byte{}, enc[:12]...), append([]byte{0, 0, 0, 0}, enc[16:]...)...),
	} {
		_, err := DecodeValueNet(bytes.NewReader(bad))
		assert.ErrorIs(t, err, errBadNet, name)
	}
}

// TestNetRollTakesTheBest: on a roll of the seat's own, netRoll takes a
// decision worth as much as the best of every white and colour sum open
// to it, and leaves the others' play to their rule.
func TestNetRollTakesTheBest(t *testing.T) {
	net := valueNetOf(3)
	for seed := range int64(20) {
		g := midGame(t, 3, 500+seed, 6)
		sg := newSimGame(g, 0, g.Sheets)
		sg.active = 2 // the next roll is the seat's
		sg.next(rand.New(rand.NewPCG(uint64(seed), 0)))
		best := math.Inf(-1)
		for w := -1; w < 4; w++ {
			var choice [qwixx.MaxPlayers]int
			for s := 1; s < 3; s++ {
				choice[s] = sg.white(s)
			}
			choice[0] = w
			if w >= 0 && !markTab[sg.seats[0].p.Rows[w]][sg.wpos[w]].ok {
				continue
			}
			s1 := sg
			if s1.whiteAction(&choice) {
				best = max(best, s1.won())
				continue
			}
			for c := -1; c < 4; c++ {
				positions := []int{0}
				if c >= 0 {
					positions = s1.cpos[c][:]
				}
				for _, pos := range positions {
					if c >= 0 && (pos > lastPos || !markTab[s1.seats[0].p.Rows[c]][pos].ok) {
						continue
					}
					s2 := s1
					if s2.colourAction(c, pos, w >= 0) {
						best = max(best, s2.won())
					} else {
						best = max(best, net.chance(&s2))
					}
				}
			}
		}
		played := sg
		ended, v := played.netRoll(net)
		assert.InDelta(t, best, v, 1e-12, "seed %d", seed)
		if !ended {
			assert.InDelta(t, v, net.chance(&played), 1e-12, "seed %d: the state it left is the one it valued", seed)
		}
	}
}

// TestSearchPutsTheNetworksBestFirst: at three seats the search's first
// candidate, the one others must beat, is the decision the network rates
// highest.
func TestSearchPutsTheNetworksBestFirst(t *testing.T) {
	net := valueNetOf(3)
	checked := 0
	for seed := range int64(30) {
		g := midGame(t, 3, 700+seed, 5)
		for _, seat := range g.ToDecide() {
			opts := appendOptions(nil, g, seat, strongFuture(g, seat))
			res, ok := search(g, seat, opts)
			if !ok {
				continue
			}
			var buf [qwixx.MaxPlayers]qwixx.Sheet
			pre := publicSheets(g, buf[:])
			best := math.Inf(-1)
			for _, o := range opts {
				best = max(best, net.after(g, seat, pre, o.Action))
			}
			assert.InDelta(t, best, net.after(g, seat, pre, res.cands[0]), 1e-12, "seed %d seat %d", seed, seat)
			checked++
		}
	}
	assert.Greater(t, checked, 10)
}

// TestFitValueNet: training is a function of its settings, learns (a
// network of 3,000 games wins more than one of 20), and refuses
// settings it cannot train.
func TestFitValueNet(t *testing.T) {
	f := NetFit{Players: 3, Games: 3000, Hidden: 16, Seed: 5, Rate: 0.02, Decay: 300000, Lambda: 0.7}
	calls := 0
	a, err := FitValueNet(f, 1000, func(games int, _ *ValueNet) { calls++; assert.Equal(t, 1000*calls, games) })
	require.NoError(t, err)
	assert.Equal(t, 3, calls)
	b, err := FitValueNet(f, 0, nil)
	require.NoError(t, err)
	assert.Equal(t, a, b, "the same settings, the same network")

	f.From = a
	f.Games = 10
	c, err := FitValueNet(f, 0, nil)
	require.NoError(t, err)
	assert.NotEqual(t, a.w1, c.w1, "training goes on from the network given")
	assert.Equal(t, netInputs(3)*16, len(a.w1))

	short := NetFit{Players: 3, Games: 20, Hidden: 16, Seed: 5, Rate: 0.02, Decay: 300000, Lambda: 0.7}
	s, err := FitValueNet(short, 0, nil)
	require.NoError(t, err)
	assert.Greater(t, PlayByNet(a, 1000, 11), PlayByNet(s, 1000, 11)+0.05)

	for _, bad := range []NetFit{
		{Players: 1, Games: 1, Hidden: 1}, {Players: 6, Games: 1, Hidden: 1}, {Players: 3, Games: 0, Hidden: 1},
		{Players: 3, Games: 1, Hidden: 0}, {Players: 3, Games: 1, Hidden: netMaxHidden + 1},
		{Players: 4, Games: 1, Hidden: 16, From: a},
	} {
		_, err := FitValueNet(bad, 0, nil)
		assert.Error(t, err, "%+v", bad)
	}
}

// TestShippedNetBeatsTheTable: the shipped network, deciding one roll at
// a time, finishes first against two normal players clearly more often
// than the seat's rollout table does on the same dice.
func TestShippedNetBeatsTheTable(t *testing.T) {
	const games, seed = 2000, 12
	r := rand.New(rand.NewPCG(seed, 1)) // as PlayByNet
	table := 0.0
	for range games {
		sg := newNetGame(3, r)
		for range maxRolls {
			sg.next(r)
			if sg.turn() {
				break
			}
		}
		table += sg.won()
	}
	table /= games
	net := PlayByNet(valueNetOf(3), games, seed)
	t.Logf("the network wins %.1f%%, the table %.1f%%", 100*net, 100*table)
	assert.Greater(t, net, table+0.04)
}

// BenchmarkValueNetChance reads the shipped network's chance at 64
// positions of three-seat games, as a rollout does where it stops.
func BenchmarkValueNetChance(b *testing.B) {
	net := valueNetOf(3)
	var sgs []simGame
	for seed := range int64(64) {
		g := midGame(b, 3, 900+seed, 4+int(seed%12))
		sgs = append(sgs, newSimGame(g, 0, g.Sheets))
	}
	sum, i := 0.0, 0
	for b.Loop() {
		sum += net.chance(&sgs[i%len(sgs)])
		i++
	}
	if sum <= 0 {
		b.Fatal("no chance read")
	}
}
