package dix_test

import (
	"bytes"
	"flag"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/engine/enginetest"
)

// randomPlayer is dix.RandomPolicy as an engine.Player (decisions and
// timeouts alike), reaching the game only through the contract's State.
type randomPlayer struct{}

func (randomPlayer) Decide(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	st, ok := s.(dix.State)
	if !ok {
		return "", engine.ErrWrongGame
	}
	g := st.Game()
	c := g.Choices(seat)
	if len(c.Actions) == 0 {
		return "", engine.ErrNotYourTurn
	}
	return dix.FormatMove(dix.RandomPolicy(g, seat, &c, r)), nil
}

func (p randomPlayer) Timeout(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	return p.Decide(s, seat, r)
}

// contractSetups are solo games at three difficulties and games of 2–5
// players, each with and without the bust variant.
func contractSetups() []engine.Setup {
	var setups []engine.Setup
	for _, bust := range []string{"off", "on"} {
		for _, d := range []string{"4", "7", "10"} {
			setups = append(setups, engine.Setup{Players: 1, Seed: 100, First: -1, Options: map[string]string{dix.OptDifficulty: d, dix.OptBust: bust}})
		}
		for players := 2; players <= 5; players++ {
			setups = append(setups, engine.Setup{Players: players, Seed: 100, First: -1, Options: map[string]string{dix.OptBust: bust}})
		}
	}
	return setups
}

// contractSeeds is how many seeds TestContractConformance plays for each
// setup; a longer run: go test ./engine/dix/ -run Conformance -contract-seeds 100.
var contractSeeds = flag.Int("contract-seeds", 4, "games per setup in TestContractConformance")

func TestContractConformance(t *testing.T) {
	seeds := *contractSeeds
	if testing.Short() {
		seeds = 1
	}
	enginetest.Run(t, enginetest.Config{Game: dix.Rules{}, Setups: contractSetups(), Seeds: seeds, Player: randomPlayer{}})
}

// TestContractPlaysAsTheGame plays the same random actions on a Game
// directly and through the contract: same events, same bytes after every
// move.
func TestContractPlaysAsTheGame(t *testing.T) {
	for _, setup := range contractSetups() {
		st, err := dix.Rules{}.New(setup)
		require.NoError(t, err)
		opts := dix.Options{Players: setup.Players, Seed: setup.Seed, FirstPlayer: -1, BustVariant: setup.Options[dix.OptBust] == "on"}
		if setup.Players == 1 {
			opts.Difficulty, err = strconv.Atoi(setup.Options[dix.OptDifficulty])
			require.NoError(t, err)
		}
		g, err := dix.New(opts)
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(1, 2))
		for n := 0; g.Phase != dix.PhaseOver; n++ {
			require.Equal(t, mustMarshal(t, g), st.Encode(), "move %d", n)
			seat := g.ToAct()
			require.Equal(t, []int{seat}, st.ToDecide())
			c := g.Choices(seat)
			a := dix.RandomPolicy(g, seat, &c, r)
			m := dix.FormatMove(a)
			want, err := g.Apply(a)
			require.NoError(t, err)
			got, err := st.Apply(seat, m)
			require.NoError(t, err, "move %q", m)
			require.Len(t, got, len(want))
			for i := range want {
				assert.Equal(t, want[i], got[i])
			}
		}
		assert.True(t, st.Over())
		assert.Equal(t, mustMarshal(t, g), st.Encode())
	}
}

func TestMoveNotation(t *testing.T) {
	g1, b3 := dix.Card{Kind: dix.KindNumber, Color: dix.Green, Value: 1}, dix.Card{Kind: dix.KindNumber, Color: dix.Blue, Value: 3}
	tests := []struct {
		move   engine.Move
		action dix.Action
	}{
		{"draw", dix.Action{Kind: dix.ActDraw}},
		{"stop", dix.Action{Kind: dix.ActStop}},
		{"numbers", dix.Action{Kind: dix.ActTakeNumbers}},
		{"money", dix.Action{Kind: dix.ActTakeMoney}},
		{"end", dix.Action{Kind: dix.ActEndTurn}},
		{"consolation", dix.Action{Kind: dix.ActConsolation}},
		{"bustbuy", dix.Action{Kind: dix.ActBustBuy}},
		{"pass", dix.Action{Kind: dix.ActPass}},
		{"bid 12", dix.Action{Kind: dix.ActBid, Amount: 12}},
		{"buy g7", dix.Action{Kind: dix.ActBuy, Card: dix.Card{Kind: dix.KindNumber, Color: dix.Green, Value: 7}}},
		{"buy o4 m2 c1 g1 b3", dix.Action{Kind: dix.ActBuy, Card: dix.Card{Kind: dix.KindNumber, Color: dix.Orange, Value: 4},
			Payment: dix.Payment{Money: 2, Consolation: 1, Cards: []dix.Card{g1, b3}}}},
		{"pay m5", dix.Action{Kind: dix.ActPay, Payment: dix.Payment{Money: 5}}},
		{"pay", dix.Action{Kind: dix.ActPay}},
	}
	for _, tc := range tests {
		t.Run(string(tc.move), func(t *testing.T) {
			tc.action.Player = 2
			assert.Equal(t, tc.move, dix.FormatMove(tc.action))
			a, err := dix.ParseMove(2, tc.move)
			require.NoError(t, err)
			assert.Equal(t, tc.action, a)
		})
	}
}

func TestParseMoveRefuses(t *testing.T) {
	for _, m := range []engine.Move{"", " ", "dance", "draw 2", "bid", "bid x", "bid -1", "bid 1 2", "buy", "buy z9", "buy g7 m0", "buy g7 mx", "pay q1", "pay m", engine.Move(bytes.Repeat([]byte("pay m1 "), 100))} {
		t.Run(string(m), func(t *testing.T) {
			_, err := dix.ParseMove(0, m)
			assert.ErrorIs(t, err, engine.ErrBadMove)
		})
	}
}

func TestContractErrors(t *testing.T) {
	st, err := dix.Rules{}.New(engine.Setup{Players: 2, Seed: 5, First: 0})
	require.NoError(t, err)
	enginetest.Refuses(t, st, []enginetest.Refusal{
		{Name: "not understood", Seat: 0, Move: "dance", Want: []error{engine.ErrBadMove, dix.ErrUnknownAction}},
		{Name: "not this seat", Seat: 1, Move: "draw", Want: []error{engine.ErrNotYourTurn, dix.ErrNotYourTurn}},
		{Name: "no such seat", Seat: 7, Move: "draw", Want: []error{engine.ErrNotYourTurn, dix.ErrUnknownPlayer}},
		{Name: "stop before drawing", Seat: 0, Move: "stop", Want: []error{engine.ErrIllegalMove, dix.ErrMustDraw}},
		{Name: "wrong phase", Seat: 0, Move: "bid 3", Want: []error{engine.ErrIllegalMove, dix.ErrWrongPhase}},
	})
}

func TestContractNewOptions(t *testing.T) {
	tests := []struct {
		name  string
		setup engine.Setup
		ok    bool
	}{
		{"two players", engine.Setup{Players: 2, First: -1}, true},
		{"solo", engine.Setup{Players: 1, First: -1, Options: map[string]string{dix.OptDifficulty: "6"}}, true},
		{"solo without difficulty", engine.Setup{Players: 1, First: -1}, false},
		{"bust variant", engine.Setup{Players: 3, First: -1, Options: map[string]string{dix.OptBust: "on"}}, true},
		{"bust yes", engine.Setup{Players: 3, First: -1, Options: map[string]string{dix.OptBust: "yes"}}, false},
		{"unknown option", engine.Setup{Players: 3, First: -1, Options: map[string]string{"speed": "1"}}, false},
		{"six players", engine.Setup{Players: 6, First: -1}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := dix.Rules{}.New(tc.setup)
			if tc.ok {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, engine.ErrBadOptions)
			}
		})
	}
}

func TestContractPublicViewHidesTheDeck(t *testing.T) {
	st, err := dix.Rules{}.New(engine.Setup{Players: 3, Seed: 9, First: -1})
	require.NoError(t, err)
	g := st.(dix.State).Game()
	assert.Equal(t, "view.Deck", enginetest.Leak(g.View()), "the full view shows the deck")
	for _, seat := range []int{engine.Public, 0, 1, 2} {
		assert.Equal(t, "", enginetest.Leak(st.View(seat)))
		assert.Equal(t, len(g.Deck), st.View(seat).(dix.View).DeckCount)
	}
}

func TestContractForced(t *testing.T) {
	tests := []struct {
		name   string
		script string
		seat   int
		want   engine.Move // "": nothing forced
	}{
		{"a draw to decide", "players 2\n", 0, ""},
		{"pay with the only tokens", "players 2\nmoney p0 3\ndeck g# g1 g2\np0 draw\np1 pass\np0 bid 3\n", 0, "pay m3"},
		{"pay with tokens or a consolation token", "players 2\nmoney p0 3\nconsolation p0 1\ndeck g# g1 g2\np0 draw\np1 pass\np0 bid 3\n", 0, ""},
		{"pass an auction one cannot afford", "players 2\nmoney p1 0\ndeck g# g1 g2\np0 draw\n", 1, "pass"},
		{"another seat's decision", "players 2\nmoney p1 0\ndeck g# g1 g2\np0 draw\n", 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := dix.StateOf(scenarioGame(t, tc.script))
			m, ok := st.Forced(tc.seat)
			assert.Equal(t, tc.want, m)
			assert.Equal(t, tc.want != "", ok)
			if ok {
				_, err := st.Apply(tc.seat, m)
				assert.NoError(t, err)
			}
		})
	}
}

func TestContractDecodeErrors(t *testing.T) {
	st, err := dix.Rules{}.New(engine.Setup{Players: 2, Seed: 1, First: -1})
	require.NoError(t, err)
	data := st.Encode()
	_, err = dix.Rules{}.Decode(append([]byte{dix.SchemaVersion + 1}, data[1:]...))
	assert.ErrorIs(t, err, engine.ErrSchemaTooNew)
	assert.ErrorIs(t, err, dix.ErrSchemaTooNew)
	_, err = dix.Rules{}.Decode(data[:len(data)-2])
	assert.ErrorIs(t, err, engine.ErrCorrupt)
	assert.ErrorIs(t, err, dix.ErrCorrupt)
	back, err := dix.Rules{}.Decode(data)
	require.NoError(t, err)
	assert.Equal(t, data, back.Encode())
}

// FuzzContractApply sends any text as a move, at any point of a game: it
// never panics; a refusal wraps one of the contract's sentinels and changes
// nothing; an accepted move keeps the invariants. A move that parses reads
// back the same from FormatMove.
func FuzzContractApply(f *testing.F) {
	for _, m := range []string{"draw", "stop", "bid 3", "buy g7 m2 c1 g1", "pay m5", "pass", "end", "numbers", "money", "m1", "buy **"} {
		f.Add(uint64(1), uint8(4), m)
	}
	f.Fuzz(func(t *testing.T, seed uint64, moves uint8, m string) {
		st, err := dix.Rules{}.New(engine.Setup{Players: 2 + int(seed%4), Seed: int64(seed), First: -1})
		require.NoError(t, err)
		g := st.(dix.State).Game()
		r := rand.New(rand.NewPCG(seed, 3))
		for range int(moves) % 60 {
			if g.Phase == dix.PhaseOver {
				break
			}
			c := g.Choices(g.ToAct())
			_, err := g.Apply(dix.RandomPolicy(g, g.ToAct(), &c, r))
			require.NoError(t, err)
		}
		if a, err := dix.ParseMove(1, engine.Move(m)); err == nil {
			back, err := dix.ParseMove(1, dix.FormatMove(a))
			require.NoError(t, err)
			assert.Equal(t, a, back)
		}
		before := st.Encode()
		for seat := range len(g.Players) {
			_, err := st.Apply(seat, engine.Move(m))
			if err != nil {
				assert.True(t, enginetest.Refused(err), "move %q: %v", m, err)
				require.Equal(t, before, st.Encode())
				continue
			}
			require.NoError(t, st.Check())
			before = st.Encode()
		}
	})
}
