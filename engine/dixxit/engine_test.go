package dixxit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/enginetest"
)

// randomPlayer plays any legal move, reading only its seat's view: a clue,
// sometimes said aloud or skipped; a finger on a free square, sometimes
// with a time earlier than the fingers down (X7); its Timeout is the X9
// move.
type randomPlayer struct{}

func (randomPlayer) Decide(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	g, ok := s.(*Game)
	if !ok {
		return "", engine.ErrWrongGame
	}
	v := g.ViewOf(seat)
	if !slices.Contains(v.Deciding, seat) {
		return "", engine.ErrNotYourTurn
	}
	if v.Phase == "clue" {
		switch r.IntN(10) {
		case 0:
			return "aloud", nil
		case 1:
			return "skip", nil
		}
		return ClueMove(fmt.Sprintf("word %d", r.IntN(100))), nil
	}
	var free []int
	for sq := 1; sq <= Squares; sq++ {
		if !slices.ContainsFunc(v.Fingers, func(f FingerView) bool { return f.Square == sq }) {
			free = append(free, sq)
		}
	}
	sq := free[r.IntN(len(free))]
	switch r.IntN(3) {
	case 0:
		return engine.Move(fmt.Sprintf("f %d", sq)), nil
	case 1:
		return FingerMoveOn(sq, 0, v.Turn), nil
	}
	return FingerMove(sq, 0), nil // time 0: earlier than every finger, so never refused
}

func (randomPlayer) Timeout(s engine.State, seat int, _ *rand.Rand) (engine.Move, error) {
	g, ok := s.(*Game)
	if !ok {
		return "", engine.ErrWrongGame
	}
	switch {
	case !g.deciding(seat):
		return "", engine.ErrNotYourTurn
	case g.phase == PhaseClue:
		return "skip", nil
	}
	return "out", nil
}

// TestContract plays whole games of every player count through the
// engine contract's conformance test.
func TestContract(t *testing.T) {
	var setups []engine.Setup
	for n := MinPlayers; n <= MaxPlayers; n++ {
		setups = append(setups, engine.Setup{Players: n, Seed: int64(100 * n), First: -1})
	}
	enginetest.Run(t, enginetest.Config{Game: Rules{}, Setups: setups, Seeds: 3, Player: randomPlayer{}})
}

func TestNewRefusesBadSetups(t *testing.T) {
	for _, s := range []engine.Setup{
		{Players: 2, First: -1}, {Players: 7, First: -1}, {Players: 4, First: 4}, {Players: 4, First: -2},
		{Players: 4, First: 0, Options: map[string]string{"cards": "10"}},
	} {
		_, err := Rules{}.New(s)
		assert.ErrorIs(t, err, engine.ErrBadOptions, "%+v", s)
		assert.ErrorIs(t, err, ErrBadOptions, "%+v", s)
	}
	assert.Equal(t, "dixxit", Rules{}.Name())
}

// TestSetup checks §2 and X1, X2: the set-aside count and the draw pile
// per player count, one face of every card drawn from the seed (both faces
// used across cards), a first player drawn from the seed when asked.
func TestSetup(t *testing.T) {
	for n, pile := range map[int]int{3: 41, 4: 51, 5: 61, 6: 71} {
		st, err := Rules{}.New(engine.Setup{Players: n, Seed: 7, First: 0})
		require.NoError(t, err)
		g := st.(*Game)
		assert.Equal(t, 71-pile, len(g.aside), "set aside with %d players", n)
		assert.Equal(t, pile, len(g.pile)+Squares, "draw pile with %d players (grid included)", n)
		require.NoError(t, g.Check())
		faces := [2]int{}
		for _, c := range slices.Concat(g.pile, g.aside, g.grid[:]) {
			faces[c.Face()]++
		}
		assert.Positive(t, faces[0], "X1: face a used")
		assert.Positive(t, faces[1], "X1: face b used")
	}
	// X1, X2: the seed decides the faces, the deal and the first player.
	firsts := map[int]bool{}
	deals := map[string]bool{}
	for seed := range int64(40) {
		st, err := Rules{}.New(engine.Setup{Players: 5, Seed: seed, First: -1})
		require.NoError(t, err)
		g := st.(*Game)
		firsts[g.active] = true
		deals[fmt.Sprint(g.grid)] = true
		again, err := Rules{}.New(engine.Setup{Players: 5, Seed: seed, First: -1})
		require.NoError(t, err)
		assert.Equal(t, g.Encode(), again.Encode(), "same seed, same game")
	}
	assert.Len(t, firsts, 5, "X2: every seat may start")
	assert.Len(t, deals, 40, "every seed deals another grid")
}

// TestTargetsUniform checks X3: each turn's target is uniform among the
// nine squares and independent of the turn before, from the seed alone.
func TestTargetsUniform(t *testing.T) {
	var count [Squares]int
	var pairs [Squares][Squares]int
	const n = 90000
	prev := targetOf(3, 0)
	for turn := uint64(1); turn <= n; turn++ {
		tg := targetOf(3, turn)
		count[tg]++
		pairs[prev][tg]++
		prev = tg
	}
	for sq, c := range count {
		assert.InDelta(t, n/Squares, c, 500, "square %d drawn %d times", sq+1, c)
	}
	same := 0
	for sq := range Squares {
		same += pairs[sq][sq]
	}
	assert.InDelta(t, n/Squares, same, 500, "a target repeats the one before %d times", same)
	assert.Equal(t, targetOf(3, 17), targetOf(3, 17))
}

// twoTargets returns two copies of a fresh game of players that differ
// only in the target of the turn.
func twoTargets(t *testing.T, players int, seed int64, a, b int) (*Game, *Game) {
	t.Helper()
	st, err := Rules{}.New(engine.Setup{Players: players, Seed: seed, First: 0})
	require.NoError(t, err)
	x := st.(*Game)
	y, err := decode(x.Encode())
	require.NoError(t, err)
	x.target, y.target = a-1, b-1
	return x, y
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// TestTargetNeverLeaks checks X11: with the same position and two targets,
// the public view, every guesser's view and the events are the same bytes
// until the turn is scored; only the active player's view differs.
func TestTargetNeverLeaks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		a, b  int // the two targets
		moves []engine.Move
		seats []int
	}{
		{"clue then wrong fingers", 2, 8, []engine.Move{"clue moon", "f 4 300", "f 5 100"}, []int{0, 1, 2}},
		{"aloud, a finger lifted, one out", 1, 9, []engine.Move{"aloud", "f 3 300", "f 3 100", "out"}, []int{0, 1, 2, 3}},
		{"taken square", 7, 6, []engine.Move{"clue sea", "f 2", "f 2"}, []int{0, 1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, y := twoTargets(t, 5, 11, tc.a, tc.b)
			same := func(step string) {
				t.Helper()
				assert.Equal(t, jsonOf(t, x.View(engine.Public)), jsonOf(t, y.View(engine.Public)), "%s: public view", step)
				for s := 1; s < x.players; s++ {
					assert.Equal(t, jsonOf(t, x.View(s)), jsonOf(t, y.View(s)), "%s: view of guesser %d", step, s)
				}
				assert.NotEqual(t, jsonOf(t, x.View(0)), jsonOf(t, y.View(0)), "%s: the active player sees the target", step)
			}
			same("before the clue")
			for i, m := range tc.moves {
				seat := tc.seats[i]
				ex, errx := x.Apply(seat, m)
				ey, erry := y.Apply(seat, m)
				assert.Equal(t, fmt.Sprint(errx), fmt.Sprint(erry), "move %q: error", m)
				assert.Equal(t, jsonOf(t, ex), jsonOf(t, ey), "move %q: events", m)
				same(fmt.Sprintf("after %q", m))
			}
			require.Equal(t, PhaseGuess, x.phase)
		})
	}
}

// TestDeckOrderNeverShows checks that no view shows the draw pile's order
// or the cards set aside: two games that differ only there have the same
// views.
func TestDeckOrderNeverShows(t *testing.T) {
	st, err := Rules{}.New(engine.Setup{Players: 4, Seed: 5, First: 1})
	require.NoError(t, err)
	x := st.(*Game)
	y, err := decode(x.Encode())
	require.NoError(t, err)
	slices.Reverse(y.pile)
	y.aside[0], y.pile[3] = y.pile[3], y.aside[0]
	require.NoError(t, y.Check())
	for s := engine.Public; s < 4; s++ {
		assert.Equal(t, jsonOf(t, x.View(s)), jsonOf(t, y.View(s)), "view of %d", s)
	}
}

// TestLateEarlierFinger checks X7's consistency: the same fingers applied
// in every order give the same turn.
func TestLateEarlierFinger(t *testing.T) {
	moves := []struct {
		seat int
		m    engine.Move
	}{{1, "f 4 300"}, {2, "f 4 100"}, {3, "f 6 200"}, {4, "f 7 400"}}
	var want string
	perm := []int{0, 1, 2, 3}
	for n := 0; n < 24; n++ {
		st, err := Rules{}.New(engine.Setup{Players: 5, Seed: 1, First: 0})
		require.NoError(t, err)
		g := st.(*Game)
		g.target = 8
		_, err = g.Apply(0, "clue x")
		require.NoError(t, err)
		var applied []int
		for progress := true; progress; {
			progress = false
			for _, i := range perm {
				if slices.Contains(applied, i) {
					continue
				}
				if _, err := g.Apply(moves[i].seat, moves[i].m); err == nil {
					applied = append(applied, i)
					progress = true
				} else {
					require.ErrorIs(t, err, ErrSquareTaken)
				}
			}
		}
		require.Equal(t, PhaseGuess, g.phase)
		// Seat 1's square was taken by the earlier finger: it still must
		// guess and the turn is open.
		v := g.ViewOf(engine.Public)
		v.Seq = 0 // a lifted finger is one more move
		got := jsonOf(t, v)
		if want == "" {
			want = got
		}
		assert.Equal(t, want, got, "order %v", perm)
		assert.Equal(t, []int{1}, g.ToDecide())
		nextPerm(perm)
	}
}

// nextPerm steps p to its next permutation (wrapping around).
func nextPerm(p []int) {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		slices.Reverse(p)
		return
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
}

func TestParseMove(t *testing.T) {
	for _, tc := range []struct {
		m    engine.Move
		want Parsed
		err  error
	}{
		{"clue  la mer ", Parsed{Kind: MoveClue, Clue: "la mer"}, nil},
		{"aloud", Parsed{Kind: MoveAloud}, nil},
		{"skip", Parsed{Kind: MoveSkip}, nil},
		{"out", Parsed{Kind: MoveOut}, nil},
		{"f 9", Parsed{Kind: MoveFinger, Square: 9}, nil},
		{"f 1 18446744073709551615", Parsed{Kind: MoveFinger, Square: 1, At: 1<<64 - 1, Timed: true}, nil},
		{"f 0", Parsed{}, ErrBadSquare},
		{"f 10", Parsed{}, ErrBadSquare},
		{"f 01", Parsed{}, ErrBadSquare},
		{"f 3 -1", Parsed{}, ErrBadMove},
		{"f 3 1 2", Parsed{Kind: MoveFinger, Square: 3, At: 1, Timed: true, Turn: 2, OnTurn: true}, nil},
		{"f 3 1 2 4", Parsed{}, ErrBadMove},
		{"f 3 1 x", Parsed{}, ErrBadMove},
		{"f", Parsed{}, ErrBadSquare},
		{"out now", Parsed{}, ErrBadMove},
		{"aloud ", Parsed{}, ErrBadMove},
		{"clue", Parsed{}, ErrBadClue},
		{"clue \x00", Parsed{}, ErrBadClue},
		{"clue \xff", Parsed{}, ErrBadMove},
		{"", Parsed{}, ErrBadMove},
	} {
		got, err := ParseMove(tc.m)
		if tc.err != nil {
			assert.ErrorIs(t, err, tc.err, "%q", tc.m)
			assert.ErrorIs(t, err, engine.ErrBadMove, "%q", tc.m)
			continue
		}
		require.NoError(t, err, "%q", tc.m)
		assert.Equal(t, tc.want, got, "%q", tc.m)
	}
}

func TestCards(t *testing.T) {
	for n := range Cards {
		for face := range 2 {
			c := CardOf(n, face)
			back, err := ParseCard(c.String())
			require.NoError(t, err)
			assert.Equal(t, c, back)
			assert.Equal(t, n, c.Number())
			assert.Equal(t, face, c.Face())
		}
	}
	assert.Equal(t, "c017a", CardOf(17, 0).String())
	for _, bad := range []string{"", "c", "ca", "c0", "c71a", "c071a", "c017c", "x017a", "c1x7a"} {
		_, err := ParseCard(bad)
		assert.Error(t, err, bad)
	}
}

func TestTakenErrorNamesTheHolder(t *testing.T) {
	x, _ := twoTargets(t, 3, 2, 9, 9)
	_, err := x.Apply(0, "clue x")
	require.NoError(t, err)
	_, err = x.Apply(2, "f 5")
	require.NoError(t, err)
	_, err = x.Apply(1, "f 5")
	var te *TakenError
	require.True(t, errors.As(err, &te))
	assert.Equal(t, TakenError{Square: 5, Holder: 2}, *te)
	assert.ErrorIs(t, err, engine.ErrIllegalMove)
}

// TestReplayIsByteForByte checks §6: the same seed and the same decisions
// give the same game, byte for byte, after every move.
func TestReplayIsByteForByte(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		setup := engine.Setup{Players: players, Seed: int64(40 + players), First: -1}
		st, err := Rules{}.New(setup)
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(uint64(players), 3))
		type decision struct {
			seat int
			m    engine.Move
		}
		var log []decision
		var states [][]byte
		for !st.Over() {
			seats := st.ToDecide()
			seat := seats[r.IntN(len(seats))]
			m, err := randomPlayer{}.Decide(st, seat, r)
			require.NoError(t, err)
			_, err = st.Apply(seat, m)
			require.NoError(t, err)
			log = append(log, decision{seat, m})
			states = append(states, st.Encode())
		}
		require.Greater(t, len(log), 30, "a whole game")
		again, err := Rules{}.New(setup)
		require.NoError(t, err)
		for i, d := range log {
			_, err := again.Apply(d.seat, d.m)
			require.NoError(t, err)
			require.Equal(t, states[i], again.Encode(), "%d players, move %d", players, i+1)
		}
	}
}

// TestRaceOrderIsTimeOrder checks X7 on 200 races: five guessers click
// within the same 10 ms, often on the same squares, and the table applies
// the clicks in a random order. Every race ends as if the clicks had been
// applied in the order of their times (the snowflake ids: millisecond in
// the high bits), with one finger per square.
func TestRaceOrderIsTimeOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 7))
	const epoch = 1732500000000
	for race := range 200 {
		type click struct {
			seat int
			m    engine.Move
			at   uint64
		}
		var clicks []click
		for seat := 1; seat <= 5; seat++ {
			at := uint64(epoch+r.IntN(10))<<22 | uint64(r.IntN(1<<22))
			clicks = append(clicks, click{seat, FingerMoveOn(1+r.IntN(4), at, 1), at})
		}
		play := func(order []click) *Game {
			st, err := Rules{}.New(engine.Setup{Players: 6, Seed: int64(race), First: 0})
			require.NoError(t, err)
			g := st.(*Game)
			g.target = 8 // never clicked: the race runs to its end
			_, err = g.Apply(0, "clue x")
			require.NoError(t, err)
			for _, c := range order {
				if _, err := g.Apply(c.seat, c.m); err != nil {
					require.ErrorIs(t, err, ErrSquareTaken)
				}
				require.NoError(t, g.Check())
			}
			return g
		}
		byTime := slices.Clone(clicks)
		slices.SortFunc(byTime, func(a, b click) int { return cmpUint(a.at, b.at) })
		want := play(byTime)
		shuffled := slices.Clone(clicks)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got := play(shuffled)
		require.Equal(t, fingersOf(want), fingersOf(got), "race %d", race)
		for i := 1; i < len(got.fingers); i++ {
			require.Less(t, got.fingers[i-1].at, got.fingers[i].at, "race %d: fingers in time order", race)
		}
	}
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func fingersOf(g *Game) string {
	return fmt.Sprint(g.fingers, g.ToDecide())
}

// The latest turn scored shows in every view once it is scored, as it
// stood then: its grid before the refill, the fingers that counted (not
// one placed after the find), the square found or none, and the target;
// a turn skipped (X9) leaves none.
func TestLastTurnScored(t *testing.T) {
	x, _ := twoTargets(t, 4, 3, 5, 5)
	grid := x.ViewOf(engine.Public).Grid
	assert.Nil(t, x.ViewOf(engine.Public).Last, "nothing scored yet")
	for _, m := range []struct {
		seat int
		m    engine.Move
	}{{0, "clue moon"}, {1, "f 2 100"}, {3, "f 7 300"}, {2, "f 5 200"}} {
		_, err := x.Apply(m.seat, m.m)
		require.NoError(t, err)
	}
	v := x.ViewOf(engine.Public)
	want := &Scored{Turn: 1, Active: 0, Grid: grid, Fingers: []FingerView{{Seat: 1, Square: 2}, {Seat: 2, Square: 5}},
		Found: 5, Target: 5}
	assert.Equal(t, want, v.Last)
	assert.Equal(t, want, x.ViewOf(1).Last, "the same in every view")
	assert.NotEqual(t, grid, v.Grid, "refilled")

	// Not found: seat 1 is now active; the target is shown.
	grid = v.Grid
	x.target = 8
	for _, m := range []struct {
		seat int
		m    engine.Move
	}{{1, "aloud"}, {2, "f 1 10"}, {3, "out"}, {0, "f 3 20"}} {
		_, err := x.Apply(m.seat, m.m)
		require.NoError(t, err)
	}
	v = x.ViewOf(engine.Public)
	assert.Equal(t, &Scored{Turn: 2, Active: 1, Grid: grid, Fingers: []FingerView{{Seat: 2, Square: 1}, {Seat: 0, Square: 3}}, Found: 0, Target: 9}, v.Last)

	// A skipped turn leaves none, and the codec keeps it all.
	y, err := decode(x.Encode())
	require.NoError(t, err)
	assert.Equal(t, jsonOf(t, x.View(engine.Public)), jsonOf(t, y.View(engine.Public)))
	_, err = x.Apply(2, "skip")
	require.NoError(t, err)
	assert.Nil(t, x.ViewOf(engine.Public).Last)
}

// A record of SchemaVersion 1 (no turn scored in it) still decodes, to the
// same game.
func TestDecodesSchemaVersion1(t *testing.T) {
	x, _ := twoTargets(t, 5, 9, 3, 3)
	_, err := x.Apply(x.active, "clue sun")
	require.NoError(t, err)
	v2 := x.Encode()
	require.Equal(t, byte(2), v2[0])
	require.Equal(t, byte(0), v2[len(v2)-1], "no turn scored")
	v1 := append([]byte{1}, v2[1:len(v2)-1]...)
	y, err := decode(v1)
	require.NoError(t, err)
	assert.Equal(t, v2, y.Encode())
	_, err = decode(append(slices.Clone(v1), 0))
	assert.ErrorIs(t, err, ErrCorrupt, "version 1 has nothing after the fingers")
	bad := slices.Clone(v2)
	bad[len(bad)-1] = 2
	_, err = decode(bad)
	assert.ErrorIs(t, err, ErrCorrupt, "a turn scored is marked 0 or 1")
}
