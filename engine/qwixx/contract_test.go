package qwixx_test

import (
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/enginetest"
	"github.com/dixgame/dixbot/engine/qwixx"
)

// randomPlayer picks one of the legal decisions at random, reaching the
// game only through the contract's State.
type randomPlayer struct{}

func (randomPlayer) Decide(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	st, ok := s.(qwixx.State)
	if !ok {
		return "", engine.ErrWrongGame
	}
	g := st.Game()
	l := g.LegalActions(seat)
	if len(l) == 0 {
		return "", engine.ErrNotYourTurn
	}
	a := l[r.IntN(len(l))]
	if seat == g.Active && a.Kind == qwixx.ActWhite && r.IntN(3) == 0 {
		// Both decisions at once.
		plans := g.LegalPlans(a)
		a.Plan = plans[r.IntN(len(plans))].AsPlan()
	}
	return a.Move(), nil
}

func (p randomPlayer) Timeout(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	return p.Decide(s, seat, r)
}

func contractSetups() []engine.Setup {
	setups := []engine.Setup{{Players: 1, Seed: 100, First: -1, Options: map[string]string{qwixx.OptSolitaire: "1"}}}
	for players := 2; players <= 5; players++ {
		setups = append(setups, engine.Setup{Players: players, Seed: 100, First: -1})
	}
	return setups
}

// contractSeeds is how many seeds TestContractConformance plays for each
// setup; a longer run: go test ./engine/qwixx/ -run Conformance -contract-seeds 200.
var contractSeeds = flag.Int("contract-seeds", 4, "games per setup in TestContractConformance")

func TestContractConformance(t *testing.T) {
	seeds := *contractSeeds
	if testing.Short() {
		seeds = 1
	}
	enginetest.Run(t, enginetest.Config{Game: qwixx.Rules{}, Setups: contractSetups(), Seeds: seeds, Player: randomPlayer{}})
}

func TestContractNewOptions(t *testing.T) {
	tests := []struct {
		name  string
		setup engine.Setup
		ok    bool
	}{
		{"two players", engine.Setup{Players: 2, First: -1}, true},
		{"five players, seat 4 first", engine.Setup{Players: 5, First: 4}, true},
		{"solitaire", engine.Setup{Players: 1, First: -1, Options: map[string]string{qwixx.OptSolitaire: "1"}}, true},
		{"one player without solitaire", engine.Setup{Players: 1, First: -1}, false},
		{"solitaire with two", engine.Setup{Players: 2, First: -1, Options: map[string]string{qwixx.OptSolitaire: "1"}}, false},
		{"solitaire yes", engine.Setup{Players: 1, First: -1, Options: map[string]string{qwixx.OptSolitaire: "yes"}}, false},
		{"unknown option", engine.Setup{Players: 3, First: -1, Options: map[string]string{"speed": "1"}}, false},
		{"six players", engine.Setup{Players: 6, First: -1}, false},
		{"first out of range", engine.Setup{Players: 3, First: 3}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := qwixx.Rules{}.New(tc.setup)
			if tc.ok {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, engine.ErrBadOptions)
				assert.ErrorIs(t, err, qwixx.ErrBadOptions)
			}
		})
	}
	assert.Equal(t, "qwixx", qwixx.Rules{}.Name())
}

func TestMoveNotation(t *testing.T) {
	tests := []struct {
		move   engine.Move
		action qwixx.Action
	}{
		{"w r7", qwixx.Action{Kind: qwixx.ActWhite, Color: qwixx.Red, Number: 7}},
		{"w -", qwixx.Action{Kind: qwixx.ActWhite, Pass: true}},
		{"c b10", qwixx.Action{Kind: qwixx.ActColour, Color: qwixx.Blue, Number: 10}},
		{"c g2", qwixx.Action{Kind: qwixx.ActColour, Color: qwixx.Green, Number: 2}},
		{"c y12", qwixx.Action{Kind: qwixx.ActColour, Color: qwixx.Yellow, Number: 12}},
		{"c -", qwixx.Action{Kind: qwixx.ActColour, Pass: true}},
		{"w r7 c b10", qwixx.Action{Kind: qwixx.ActWhite, Color: qwixx.Red, Number: 7, Plan: qwixx.Plan{Set: true, Color: qwixx.Blue, Number: 10}}},
		{"w - c g2", qwixx.Action{Kind: qwixx.ActWhite, Pass: true, Plan: qwixx.Plan{Set: true, Color: qwixx.Green, Number: 2}}},
		{"w y4 c -", qwixx.Action{Kind: qwixx.ActWhite, Color: qwixx.Yellow, Number: 4, Plan: qwixx.Plan{Set: true, Pass: true}}},
	}
	for _, tc := range tests {
		t.Run(string(tc.move), func(t *testing.T) {
			assert.Equal(t, tc.move, tc.action.Move())
			a, err := qwixx.ParseMove(tc.move)
			require.NoError(t, err)
			assert.Equal(t, tc.action, a)
		})
	}
	for _, m := range []engine.Move{"", "w", "-", "w r", "w r1", "w r13", "w r07", "w x7", "x r7", "w r7 b3", "c", "w --", "w +7", "w r-2", "c r7 w r8", "w r7 c", "w r7 c b1", "w r7 w b10", "c - c -", "w r7 c b10 c -"} {
		t.Run("refuses "+string(m), func(t *testing.T) {
			_, err := qwixx.ParseMove(m)
			assert.ErrorIs(t, err, engine.ErrBadMove)
			assert.ErrorIs(t, err, qwixx.ErrBadMove)
		})
	}
}

func TestContractDecodeErrors(t *testing.T) {
	st, err := qwixx.Rules{}.New(engine.Setup{Players: 3, Seed: 1, First: -1})
	require.NoError(t, err)
	data := st.Encode()
	_, err = qwixx.Rules{}.Decode(append([]byte{qwixx.SchemaVersion + 1}, data[1:]...))
	assert.ErrorIs(t, err, engine.ErrSchemaTooNew)
	assert.ErrorIs(t, err, qwixx.ErrSchemaTooNew)
	for _, bad := range [][]byte{nil, {}, {0}, data[:len(data)-1], append(append([]byte(nil), data...), 0)} {
		_, err = qwixx.Rules{}.Decode(bad)
		assert.ErrorIs(t, err, engine.ErrCorrupt)
	}
	back, err := qwixx.Rules{}.Decode(data)
	require.NoError(t, err)
	assert.Equal(t, data, back.Encode())
}

// TestContractErrorsChangeNothing sends refused moves and checks the
// sentinels and that the bytes stay the same.
func TestContractErrorsChangeNothing(t *testing.T) {
	g, err := qwixx.New(qwixx.Options{Players: 2, Seed: 3, First: 0})
	require.NoError(t, err)
	require.NoError(t, g.SetRoll(qwixx.Roll{3, 4, 5, 1, 6, 2}))
	st := qwixx.StateOf(g)
	enginetest.Refuses(t, st, []enginetest.Refusal{
		{Name: "not understood", Seat: 0, Move: "dance", Want: []error{engine.ErrBadMove, qwixx.ErrBadMove}},
		{Name: "no such seat", Seat: 7, Move: "w r7", Want: []error{engine.ErrNotYourTurn, qwixx.ErrNotYourTurn}},
		{Name: "colour sum in action 1", Seat: 0, Move: "c r8", Want: []error{engine.ErrIllegalMove, qwixx.ErrWrongAction}},
		{Name: "not the white sum", Seat: 1, Move: "w r8", Want: []error{engine.ErrIllegalMove, qwixx.ErrWrongSum}},
	})
}

// FuzzContractApply sends any text as a move, at any point of a game: it
// never panics; a refusal wraps one of the contract's sentinels and changes
// nothing; an accepted move keeps the invariants.
func FuzzContractApply(f *testing.F) {
	for _, m := range []string{"w r7", "w -", "c b10", "c -", "w g2", "c y12", "w", "r7", "w r7 c b10", "w - c -"} {
		f.Add(uint64(1), uint8(4), m)
	}
	f.Fuzz(func(t *testing.T, seed uint64, moves uint8, m string) {
		players := 1 + int(seed%5)
		st, err := qwixx.Rules{}.New(engine.Setup{Players: players, Seed: int64(seed), First: -1,
			Options: map[string]string{qwixx.OptSolitaire: map[bool]string{true: "1", false: "0"}[players == 1]}})
		require.NoError(t, err)
		g := st.(qwixx.State).Game()
		r := rand.New(rand.NewPCG(seed, 3))
		for range int(moves) % 80 {
			if g.Over() {
				break
			}
			seats := g.ToDecide()
			seat := seats[r.IntN(len(seats))]
			l := g.LegalActions(seat)
			_, err := g.Apply(seat, l[r.IntN(len(l))])
			require.NoError(t, err)
		}
		if a, err := qwixx.ParseMove(engine.Move(m)); err == nil {
			back, err := qwixx.ParseMove(a.Move())
			require.NoError(t, err)
			assert.Equal(t, a, back)
		}
		before := st.Encode()
		for seat := -1; seat <= players; seat++ {
			prev := g.Clone()
			_, err := st.Apply(seat, engine.Move(m))
			if err != nil {
				assert.True(t, enginetest.Refused(err), "move %q: %v", m, err)
				require.Equal(t, before, st.Encode())
				continue
			}
			a, _ := qwixx.ParseMove(engine.Move(m))
			require.NoError(t, qwixx.CheckStep(prev, g, seat, a))
			before = st.Encode()
		}
	})
}
