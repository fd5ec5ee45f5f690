package qwixx_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/qwixx"
)

// playRandom plays g to its end with random legal decisions, seats in a
// random order, checking every step; it returns the moves in order.
func playRandom(t testing.TB, g *qwixx.Game, r *rand.Rand) []string {
	t.Helper()
	var log []string
	for !g.Over() {
		seats := g.ToDecide()
		seat := seats[r.IntN(len(seats))]
		l := g.LegalActions(seat)
		a := l[r.IntN(len(l))]
		prev := g.Clone()
		_, err := g.Apply(seat, a)
		require.NoError(t, err)
		require.NoError(t, qwixx.CheckStep(prev, g, seat, a))
		log = append(log, a.String())
	}
	return log
}

func TestRowPoints(t *testing.T) {
	want := []int{0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78}
	for n, w := range want {
		assert.Equal(t, w, qwixx.RowPoints(n), "%d marks", n)
	}
}

func TestSheetScoreRulebook70(t *testing.T) {
	sh, err := qwixx.ParseSheet("r2 r4 r5 r9 y3 y6 y7 g12 g10 g8 g7 g4 g2 gL b12 b11 b10 b9 b8 b6 b5 b4 P P")
	require.NoError(t, err)
	assert.Equal(t, 70, sh.Score())
	assert.Equal(t, "r2 r4 r5 r9 y3 y6 y7 g12 g10 g8 g7 g4 g2 gL b12 b11 b10 b9 b8 b6 b5 b4 P P", sh.String())
}

func TestParseSheetRefuses(t *testing.T) {
	for _, s := range []string{"r2 r2", "rL", "r2 r3 r4 r5 r12 rL", "r2 r3 r4 r5 r6 r12", "x3", "P P P P P", "r1", "gL g2"} {
		_, err := qwixx.ParseSheet(s)
		assert.ErrorIs(t, err, qwixx.ErrBadMove, s)
	}
}

func TestParseRoll(t *testing.T) {
	r, err := qwixx.ParseRoll("W3 W4 r5 y1 b2")
	require.NoError(t, err)
	assert.Equal(t, qwixx.Roll{3, 4, 5, 1, 0, 2}, r)
	assert.Equal(t, "W3 W4 r5 y1 b2", r.String())
	for _, s := range []string{"W3", "W3 W4 W5", "W3 W4 r7", "W3 W4 r1 r2", "W0 W1", "W3 W4 x1"} {
		_, err := qwixx.ParseRoll(s)
		assert.ErrorIs(t, err, qwixx.ErrBadRoll, s)
	}
}

// TestSameSeedSameGame is §9's last invariant: the same seed and the same
// decisions give the same game, byte for byte; another seed rolls other
// dice.
func TestSameSeedSameGame(t *testing.T) {
	for players := 1; players <= 5; players++ {
		o := qwixx.Options{Players: players, Solitaire: players == 1, Seed: 42, First: -1}
		a, err := qwixx.New(o)
		require.NoError(t, err)
		b, err := qwixx.New(o)
		require.NoError(t, err)
		la := playRandom(t, a, rand.New(rand.NewPCG(7, 7)))
		lb := playRandom(t, b, rand.New(rand.NewPCG(7, 7)))
		assert.Equal(t, la, lb)
		assert.Equal(t, a.AppendBinary(nil), b.AppendBinary(nil))
	}
	differ := 0
	for seed := range int64(20) {
		a, _ := qwixx.New(qwixx.Options{Players: 2, Seed: seed, First: 0})
		b, _ := qwixx.New(qwixx.Options{Players: 2, Seed: seed + 1000, First: 0})
		if a.Dice != b.Dice {
			differ++
		}
	}
	assert.Greater(t, differ, 15)
}

// TestLegalActionsAreExactlyTheAccepted compares LegalActions with what
// Legal accepts, over every decision a seat could send, on many positions.
func TestLegalActionsAreExactlyTheAccepted(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var all []qwixx.Action
	for _, k := range []qwixx.ActionKind{qwixx.ActWhite, qwixx.ActColour} {
		all = append(all, qwixx.Action{Kind: k, Pass: true})
		for _, c := range qwixx.Colors {
			for n := 2; n <= 12; n++ {
				all = append(all, qwixx.Action{Kind: k, Color: c, Number: n})
			}
		}
	}
	for game := range 15 {
		players := 1 + game%5
		g, err := qwixx.New(qwixx.Options{Players: players, Solitaire: players == 1, Seed: int64(game), First: -1})
		require.NoError(t, err)
		for !g.Over() {
			for seat := range players {
				var accepted []string
				for _, a := range all {
					if g.Legal(seat, a) == nil {
						accepted = append(accepted, a.String())
					}
				}
				var legal []string
				for _, a := range g.LegalActions(seat) {
					legal = append(legal, a.String())
				}
				assert.ElementsMatch(t, legal, accepted, "seat %d", seat)
				_, forced := g.ForcedAction(seat)
				assert.Equal(t, len(legal) == 1, forced)
			}
			seats := g.ToDecide()
			seat := seats[r.IntN(len(seats))]
			l := g.LegalActions(seat)
			_, err := g.Apply(seat, l[r.IntN(len(l))])
			require.NoError(t, err)
		}
	}
}

func TestCloneSharesNothing(t *testing.T) {
	g, err := qwixx.New(qwixx.Options{Players: 3, Seed: 5, First: 0})
	require.NoError(t, err)
	before := g.AppendBinary(nil)
	c := g.Clone()
	playRandom(t, c, rand.New(rand.NewPCG(1, 1)))
	assert.Equal(t, before, g.AppendBinary(nil))
	var d qwixx.Game
	g.CloneInto(&d)
	assert.Equal(t, before, d.AppendBinary(nil))
	_, err = d.Apply(0, qwixx.Action{Kind: qwixx.ActWhite, Pass: true})
	require.NoError(t, err)
	assert.Equal(t, before, g.AppendBinary(nil))
}

// TestReseedHidesTheFuture: a reseeded clone keeps the current roll but
// rolls other dice next (Q11), and the real game's next roll is as before.
func TestReseedHidesTheFuture(t *testing.T) {
	nextRoll := func(g *qwixx.Game) qwixx.Roll {
		for g.Turn == 1 {
			seat := g.ToDecide()[0]
			_, err := g.Apply(seat, g.LegalActions(seat)[len(g.LegalActions(seat))-1])
			require.NoError(t, err)
		}
		return g.Dice
	}
	differ := 0
	for seed := range int64(20) {
		g, err := qwixx.New(qwixx.Options{Players: 2, Seed: seed, First: 0})
		require.NoError(t, err)
		c := g.Clone()
		c.Reseed(seed + 99)
		assert.Equal(t, g.Dice, c.Dice)
		if nextRoll(g.Clone()) != nextRoll(c) {
			differ++
		}
	}
	assert.Greater(t, differ, 15)
}

func TestSetRoll(t *testing.T) {
	g, err := qwixx.New(qwixx.Options{Players: 2, Seed: 1, First: 0})
	require.NoError(t, err)
	assert.ErrorIs(t, g.SetRoll(qwixx.Roll{3, 4, 0, 1, 1, 1}), qwixx.ErrBadRoll) // red in play
	assert.ErrorIs(t, g.SetRoll(qwixx.Roll{3, 7, 1, 1, 1, 1}), qwixx.ErrBadRoll)
	require.NoError(t, g.SetRoll(qwixx.Roll{3, 4, 1, 1, 1, 1}))
	assert.Equal(t, 7, g.Dice.WhiteSum())
	_, err = g.Apply(0, qwixx.Action{Kind: qwixx.ActWhite, Pass: true})
	require.NoError(t, err)
	assert.ErrorIs(t, g.SetRoll(qwixx.Roll{1, 1, 1, 1, 1, 1}), qwixx.ErrBadRoll)
}

// TestViewShowsEverythingButTheSeed (Q11): every sheet, the dice, the
// penalties and each seat's options; never the seed.
func TestViewShowsEverythingButTheSeed(t *testing.T) {
	g, err := qwixx.New(qwixx.Options{Players: 3, Seed: 123456789, First: 1})
	require.NoError(t, err)
	require.NoError(t, g.SetRoll(qwixx.Roll{2, 3, 4, 5, 6, 1}))
	_, err = g.Apply(0, qwixx.Action{Kind: qwixx.ActWhite, Color: qwixx.Red, Number: 5})
	require.NoError(t, err)
	st := qwixx.StateOf(g)
	pub := st.View(engine.Public).(qwixx.View)
	assert.Equal(t, -1, pub.Seat)
	assert.Empty(t, pub.Options)
	assert.Equal(t, []int{1, 2}, pub.ToDecide)
	assert.Equal(t, []int{5}, pub.Sheets[0].Rows[qwixx.Red].Marks)
	assert.Equal(t, "r5", pub.Sheets[0].Action1)
	assert.True(t, pub.Sheets[1].Deciding)
	assert.False(t, pub.Sheets[0].Deciding)
	assert.Equal(t, 5, pub.WhiteSum)
	v1 := st.View(1).(qwixx.View)
	assert.Equal(t, []string{"w r5", "w y5", "w g5", "w b5", "w -"}, v1.Options)
	assert.Empty(t, st.View(0).(qwixx.View).Options, "seat 0 decided")
	b, err := json.Marshal(pub)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "123456789")
	assert.NotContains(t, strings.ToLower(string(b)), "seed")
	assert.Contains(t, string(b), `"color":"r"`)
}

func TestEventsEncodeReadably(t *testing.T) {
	b, err := json.Marshal(qwixx.Event{Kind: qwixx.EvLocked, Seat: 2, Color: qwixx.Green, Seats: []int{2, 3}})
	require.NoError(t, err)
	assert.Contains(t, string(b), `"kind":"locked"`)
	assert.Contains(t, string(b), `"color":"g"`)
}

// TestCheckCatchesBrokenStates breaks one invariant at a time in a valid
// game and expects Check (and Decode) to refuse it.
func TestCheckCatchesBrokenStates(t *testing.T) {
	base := func() *qwixx.Game {
		g, err := qwixx.New(qwixx.Options{Players: 3, Seed: 2, First: 0})
		require.NoError(t, err)
		return g
	}
	tests := []struct {
		name   string
		break_ func(g *qwixx.Game)
	}{
		{"lock without the last number", func(g *qwixx.Game) { g.Sheets[1].Rows[qwixx.Red] = 1<<qwixx.LockPos | 0x1f }},
		{"last number without the lock", func(g *qwixx.Game) { g.Sheets[1].Rows[qwixx.Red] = 1<<qwixx.LastPos | 0x1f }},
		{"lock after four marks", func(g *qwixx.Game) {
			g.Sheets[1].Rows[qwixx.Red] = 1<<qwixx.LockPos | 1<<qwixx.LastPos | 0xf
			g.Locked[qwixx.Red] = true
			g.Dice[qwixx.DieRed] = 0
		}},
		{"locked row with its die rolled", func(g *qwixx.Game) {
			g.Sheets[1].Rows[qwixx.Red] = 1<<qwixx.LockPos | 1<<qwixx.LastPos | 0x1f
			g.Locked[qwixx.Red] = true
		}},
		{"removed die of an open row", func(g *qwixx.Game) { g.Dice[qwixx.DieBlue] = 0 }},
		{"a die showing 7", func(g *qwixx.Game) { g.Dice[qwixx.W1] = 7 }},
		{"five penalties", func(g *qwixx.Game) { g.Sheets[0].Penalties = 5 }},
		{"penalty of a seat never active", func(g *qwixx.Game) { g.Sheets[2].Penalties = 1 }},
		// §3: the active seat's penalty comes with its action 2, which
		// ends the roll: the roll under way has given it none yet.
		{"penalty on the roll under way", func(g *qwixx.Game) { g.Sheets[0].Penalties = 1 }},
		{"a penalty on every roll of the active seat", func(g *qwixx.Game) {
			g.Turn, g.Active = 7, 0
			g.Sheets[0].Penalties = 3
			g.Sheets[1].Penalties, g.Sheets[2].Penalties = 2, 2
		}},
		{"four penalties and the game goes on", func(g *qwixx.Game) { g.Turn = 10; g.Sheets[0].Penalties = 4 }},
		{"two rows locked and the game goes on", func(g *qwixx.Game) {
			for _, c := range []qwixx.Color{qwixx.Red, qwixx.Yellow} {
				g.Sheets[1].Rows[c] = 1<<qwixx.LockPos | 1<<qwixx.LastPos | 0x1f
				g.Locked[c] = true
				g.Dice[qwixx.DieOf(c)] = 0
			}
		}},
		{"over without a reason", func(g *qwixx.Game) { g.Phase = qwixx.PhaseOver }},
		{"wrong active seat", func(g *qwixx.Game) { g.Active = 1 }},
		{"colour phase with seats undecided", func(g *qwixx.Game) { g.Phase = qwixx.PhaseColour }},
		{"action 1 mark missing from the sheet", func(g *qwixx.Game) { g.Choices[0] = qwixx.ChoiceRed }},
		{"mark beyond the row", func(g *qwixx.Game) { g.Sheets[0].Rows[qwixx.Red] = 1 << 13 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := base()
			require.NoError(t, g.Check())
			tc.break_(g)
			assert.ErrorIs(t, g.Check(), qwixx.ErrInvariant)
			_, err := qwixx.Decode(g.AppendBinary(nil))
			assert.ErrorIs(t, err, qwixx.ErrCorrupt)
		})
	}
}

// TestPlaysEndWithinBounds plays many random games: each ends (§6) with
// scores as §7 computes them from the sheets, and decodes at every step.
func TestPlaysEndWithinBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for game := range 200 {
		players := 1 + game%5
		g, err := qwixx.New(qwixx.Options{Players: players, Solitaire: players == 1, Seed: int64(game), First: -1})
		require.NoError(t, err)
		playRandom(t, g, r)
		assert.True(t, g.LockCount() >= 2 || g.Sheets[g.Active].Penalties == 4)
		res := g.Results()
		for _, x := range res {
			assert.Equal(t, g.Sheets[x.Seat].Score(), x.Score)
		}
		back, err := qwixx.Decode(g.AppendBinary(nil))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(back.AppendBinary(nil), g.AppendBinary(nil)))
	}
}

// TestDecodeSchema1 reads a state written by schema 1 (no plan): the same
// game, written back in the current schema.
func TestDecodeSchema1(t *testing.T) {
	g, err := qwixx.New(qwixx.Options{Players: 3, Seed: 8, First: 1})
	require.NoError(t, err)
	playRandom(t, g, rand.New(rand.NewPCG(1, 1)))
	v2 := g.AppendBinary(nil)
	v1 := qwixx.EncodeSchema1(g) // schema 2 without the plan byte

	require.NotEqual(t, v2, v1)
	back, err := qwixx.Decode(v1)
	require.NoError(t, err)
	assert.Equal(t, v2, back.AppendBinary(nil))
}
