package qwixx_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	computer "github.com/dixgame/dixbot/computer/qwixx"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/enginetest"
	"github.com/dixgame/dixbot/engine/qwixx"
)

// randomPosition plays a game of players seats with random legal
// decisions for a random number of decisions (0–120) and returns it, not
// over.
func randomPosition(t testing.TB, r *rand.Rand, players int, seed int64) *qwixx.Game {
	t.Helper()
	for {
		g, err := qwixx.New(qwixx.Options{Players: players, Seed: seed, First: -1, Solitaire: players == 1})
		require.NoError(t, err)
		steps := r.IntN(121)
		for range steps {
			if g.Over() {
				break
			}
			seats := g.ToDecide()
			seat := seats[r.IntN(len(seats))]
			acts := g.LegalActions(seat)
			// Lean towards marking, so that late positions come up.
			a := acts[r.IntN(len(acts))]
			if len(acts) > 1 && r.IntN(4) > 0 {
				a = acts[r.IntN(len(acts)-1)]
			}
			_, err := g.Apply(seat, a)
			require.NoError(t, err)
		}
		if !g.Over() {
			return g
		}
		seed += 1000
	}
}

// TestDecisionsLegalOnRandomPositions asks every level (and Timeout) for
// every deciding seat on random positions of 1–5 sheets.
func TestDecisionsLegalOnRandomPositions(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 1))
	for i := range 300 {
		players := 1 + i%5
		g := randomPosition(t, r, players, int64(i))
		for _, seat := range g.ToDecide() {
			for _, l := range computer.Levels {
				a, err := computer.Decide(g, seat, l, r)
				require.NoError(t, err)
				assert.NoError(t, g.Legal(seat, a), "%s seat %d: %s", l, seat, a)
			}
			a, err := computer.Timeout(g, seat, r)
			require.NoError(t, err)
			assert.NoError(t, g.Legal(seat, a), "timeout seat %d: %s", seat, a)
			if g.Phase == qwixx.PhaseWhite {
				assert.True(t, a.Pass, "a white sum timeout is a pass")
			}
		}
	}
}

func TestPlayerConformance(t *testing.T) {
	setups := []engine.Setup{{Players: 1, Seed: 5, First: -1, Options: map[string]string{qwixx.OptSolitaire: "1"}}}
	for players := 2; players <= 5; players++ {
		setups = append(setups, engine.Setup{Players: players, Seed: 5, First: -1})
	}
	for _, l := range computer.Levels {
		t.Run(l.String(), func(t *testing.T) {
			enginetest.Run(t, enginetest.Config{Game: qwixx.Rules{}, Setups: setups, Seeds: 1, Player: computer.Player{Level: l}})
		})
	}
}

// play plays a whole game with every seat at level l and returns its
// final sheets.
func play(t *testing.T, players int, seed int64, l computer.Level, r *rand.Rand) []qwixx.Sheet {
	t.Helper()
	g, err := qwixx.New(qwixx.Options{Players: players, Seed: seed, First: -1})
	require.NoError(t, err)
	for !g.Over() {
		for _, seat := range g.ToDecide() {
			a, err := computer.Decide(g, seat, l, r)
			require.NoError(t, err)
			_, err = g.Apply(seat, a)
			require.NoError(t, err)
		}
	}
	return g.Sheets
}

func TestDeterministicForASeed(t *testing.T) {
	for _, l := range computer.Levels {
		a := play(t, 4, 9, l, rand.New(rand.NewPCG(1, 2)))
		b := play(t, 4, 9, l, rand.New(rand.NewPCG(1, 2)))
		assert.Equal(t, a, b, "%s", l)
	}
}

// TestDecisionsIgnoreHiddenInformation checks that a decision does not
// change with the game's future rolls (Q11: a clone reseeded rolls other
// dice from the next roll on) nor with what another seat already decided
// in the same action 1 (decisions are simultaneous).
func TestDecisionsIgnoreHiddenInformation(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	withDecided := 0
	for i := range 200 {
		g := randomPosition(t, r, 2+i%4, int64(i))
		other := g.Clone()
		other.Reseed(int64(i) + 99991)
		var decided *qwixx.Game
		seats := g.ToDecide()
		if g.Phase == qwixx.PhaseWhite && len(seats) > 2 {
			decided = g.Clone()
			last := seats[len(seats)-1]
			acts := decided.LegalActions(last)
			_, err := decided.Apply(last, acts[0])
			require.NoError(t, err)
			seats = seats[:len(seats)-1]
			withDecided++
		}
		for _, seat := range seats {
			for _, l := range computer.Levels {
				seed := r.Uint64()
				want, err := computer.Decide(g, seat, l, rand.New(rand.NewPCG(seed, 0)))
				require.NoError(t, err)
				got, err := computer.Decide(other, seat, l, rand.New(rand.NewPCG(seed, 0)))
				require.NoError(t, err)
				assert.Equal(t, want, got, "%s: future rolls", l)
				if decided != nil {
					got, err := computer.Decide(decided, seat, l, rand.New(rand.NewPCG(seed, 0)))
					require.NoError(t, err)
					assert.Equal(t, want, got, "%s: another seat's decision", l)
				}
			}
		}
	}
	assert.Greater(t, withDecided, 20, "positions where another seat decided first")
}

// TestOptionsRankTheStrongChoice checks the hint: one value per legal
// decision, and the strong level's choice marked among them: where it
// played decisions out (with others at the table), the one Chosen, which
// near the end won most often and before it is the best by points unless
// it won more; otherwise, alone, the best by points.
func TestOptionsRankTheStrongChoice(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	weighed := 0
	for i := range 200 {
		g := randomPosition(t, r, 1+i%5, int64(i))
		seat := g.ToDecide()[0]
		opts := computer.Options(g, seat)
		legal := g.LegalActions(seat)
		require.Len(t, opts, len(legal))
		best, chosen, mostWon := opts[0], computer.Option{Win: -1}, computer.Option{Win: -1}
		for k, o := range opts {
			assert.Equal(t, legal[k], o.Action)
			if o.Points > best.Points {
				best = o
			}
			if o.Chosen {
				assert.GreaterOrEqual(t, o.Win, 0.0, "only a weighed decision is chosen")
				chosen = o
			}
			if o.Win > mostWon.Win {
				mostWon = o
			}
		}
		if mostWon.Win >= 0 {
			weighed++
			require.GreaterOrEqual(t, chosen.Win, 0.0, "one of the decisions weighed is chosen")
			if computer.EndNear(g) {
				assert.Equal(t, mostWon.Win, chosen.Win, "near the end, the one that won most")
			} else if chosen.Action != best.Action {
				assert.Greater(t, chosen.Win, best.Win, "before, the best by points unless another won more")
			}
			best = chosen
		} else {
			assert.Less(t, chosen.Win, 0.0, "nothing chosen when nothing was weighed")
		}
		a, err := computer.Decide(g, seat, computer.Strong, r)
		require.NoError(t, err)
		assert.Equal(t, best.Action, a)
	}
	assert.Greater(t, weighed, 20)
}

func TestWrongGameAndNotDeciding(t *testing.T) {
	st, err := qwixx.Rules{}.New(engine.Setup{Players: 3, Seed: 2, First: 0})
	require.NoError(t, err)
	g := st.(qwixx.State).Game()
	_, err = g.Apply(1, qwixx.Action{Kind: qwixx.ActWhite, Pass: true})
	require.NoError(t, err)
	p := computer.Player{Level: computer.Strong}
	_, err = p.Decide(st, 1, rand.New(rand.NewPCG(1, 1)))
	assert.ErrorIs(t, err, engine.ErrNotYourTurn, "seat 1 already decided (Q12)")
	_, err = p.Timeout(st, 7, rand.New(rand.NewPCG(1, 1)))
	assert.ErrorIs(t, err, engine.ErrNotYourTurn)
	_, err = p.Decide(notQwixx{st}, 0, rand.New(rand.NewPCG(1, 1)))
	assert.ErrorIs(t, err, engine.ErrWrongGame)
	m, err := p.Decide(st, 0, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	a, err := qwixx.ParseMove(m)
	require.NoError(t, err)
	assert.NoError(t, g.Legal(0, a))
	l, err := computer.ParseLevel("Strong")
	require.NoError(t, err)
	assert.Equal(t, computer.Strong, l)
	_, err = computer.ParseLevel("clever")
	assert.ErrorIs(t, err, computer.ErrLevel)
}

// notQwixx is a state of some other game.
type notQwixx struct{ engine.State }

// TestStrongReadsTheTablesPenalties checks that the strong level values a
// sheet with the penalties of the most penalised seat (any seat's fourth
// ends the game, §6) and its own when they are more.
func TestStrongReadsTheTablesPenalties(t *testing.T) {
	g, err := qwixx.New(qwixx.Options{Players: 3, Seed: 1, First: 0})
	require.NoError(t, err)
	empty := computer.Position{}
	calm := computer.TableFuture(g, 0, 1)(empty)
	g.Sheets[2].Penalties = 3
	tense := computer.TableFuture(g, 0, 1)(empty)
	assert.Less(t, tense, calm, "the game may end on seat 2's next penalty")
	assert.InDelta(t, computer.TableFuture(g, 1, 1)(computer.Position{Penalties: 3}), tense, 1e-9)
	assert.InDelta(t, calm, computer.TableFuture(g, 2, 1)(empty), 1e-9, "for seat 2 the others have none: the sheet given says its own")
	assert.InDelta(t, 0.25*tense, computer.TableFuture(g, 0, 0.25)(empty), 1e-9)
	assert.Zero(t, computer.TableFuture(g, 0, 1)(computer.Position{Penalties: 4}))
}

// TestPlanIsTheStrongTurn checks the active seat's plan: its white sum is
// the strong decision, its value that decision's in Options, and once
// every other seat passed its colour sum is legal and is the strong
// decision.
func TestPlanIsTheStrongTurn(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	plans := 0
	for i := range 300 {
		g := randomPosition(t, r, 1+i%5, int64(i))
		for _, seat := range g.ToDecide() {
			white, colour, points, ok := computer.Plan(g, seat)
			if seat != g.Active || g.Phase != qwixx.PhaseWhite {
				assert.False(t, ok)
				continue
			}
			require.True(t, ok)
			plans++
			want, err := computer.Decide(g, seat, computer.Strong, r)
			require.NoError(t, err)
			assert.Equal(t, want, white)
			for _, o := range computer.Options(g, seat) {
				if o.Action == white {
					assert.InDelta(t, o.Points, points, 1e-9)
				}
			}
			if len(g.ToDecide()) < g.Players {
				continue // another seat decided: the plan does not know how
			}
			h := g.Clone()
			for _, s := range h.ToDecide() {
				a := qwixx.Action{Kind: qwixx.ActWhite, Pass: true}
				if s == seat {
					a = white
				}
				_, err := h.Apply(s, a)
				require.NoError(t, err)
			}
			if h.Over() {
				continue
			}
			require.NoError(t, h.Legal(seat, colour), "%s then %s", white, colour)
			next, err := computer.Decide(h, seat, computer.Strong, r)
			require.NoError(t, err)
			assert.Equal(t, next, colour)
		}
	}
	assert.Greater(t, plans, 20)
}
