package dixxit

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/engine/enginetest"
)

// synthetic returns keywords for every face: five English words drawn from
// a vocabulary where a few words are common and most rare (as on real
// pictures: "animal" on many, "bat" on one), the French ones their
// translations ("w12" is "mot12", with an accent to fold away).
func synthetic(card, face int) (en, fr []string) {
	r := rand.New(rand.NewPCG(uint64(card), uint64(face)))
	for len(en) < 5 {
		var w int
		if r.IntN(3) == 0 {
			w = r.IntN(12) // common
		} else {
			w = 12 + r.IntN(400) // rare
		}
		k := fmt.Sprintf("w%d", w)
		if !slices.Contains(en, k) {
			en = append(en, k)
			fr = append(fr, fmt.Sprintf("mót%d", w))
		}
	}
	return en, fr
}

func newGame(t *testing.T, players int, seed int64) *dixxit.Game {
	t.Helper()
	s, err := dixxit.Rules{}.New(engine.Setup{Players: players, Seed: seed, First: 0})
	require.NoError(t, err)
	return s.(*dixxit.Game)
}

// TestContract plays whole games with computer seats through the engine
// contract's conformance test.
func TestContract(t *testing.T) {
	var setups []engine.Setup
	for n := dixxit.MinPlayers; n <= dixxit.MaxPlayers; n++ {
		setups = append(setups, engine.Setup{Players: n, Seed: int64(n), First: -1})
	}
	enginetest.Run(t, enginetest.Config{Game: dixxit.Rules{}, Setups: setups, Seeds: 2,
		Player: NewPlayer(synthetic, nil, "fr")})
}

func TestErrors(t *testing.T) {
	g := newGame(t, 4, 1)
	p := NewPlayer(synthetic, nil, "en")
	r := rand.New(rand.NewPCG(1, 2))
	_, err := p.Decide(g, 1, r)
	assert.ErrorIs(t, err, engine.ErrNotYourTurn)
	_, err = p.Timeout(g, 2, r)
	assert.ErrorIs(t, err, engine.ErrNotYourTurn)
	_, err = p.Decide(nil, 0, r)
	assert.ErrorIs(t, err, engine.ErrWrongGame)
}

// TestTimeouts checks X9: the active player skips, a guesser is out.
func TestTimeouts(t *testing.T) {
	g := newGame(t, 4, 1)
	p := NewPlayer(synthetic, nil, "en")
	r := rand.New(rand.NewPCG(1, 2))
	m, err := p.Timeout(g, 0, r)
	require.NoError(t, err)
	assert.Equal(t, engine.Move("skip"), m)
	_, err = g.Apply(0, "clue x")
	require.NoError(t, err)
	for _, s := range []int{1, 2, 3} {
		m, err := p.Timeout(g, s, r)
		require.NoError(t, err)
		assert.Equal(t, engine.Move("out"), m)
	}
}

// TestAbsent checks X10 for an absent person: the computer gives the
// active player's clue (the one it would give as a computer seat), a
// guesser is out; a seat with nothing to decide is refused.
func TestAbsent(t *testing.T) {
	g := newGame(t, 4, 1)
	p := NewPlayer(synthetic, nil, "en")
	m, err := engine.AbsentMove(p, g, 0, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	want, err := p.Decide(g, 0, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	assert.Equal(t, want, m)
	assert.True(t, strings.HasPrefix(string(m), "clue "), "%q", m)
	_, err = g.Apply(0, m)
	require.NoError(t, err)
	for _, s := range []int{1, 2, 3} {
		m, err := p.Absent(g, s, rand.New(rand.NewPCG(1, 2)))
		require.NoError(t, err)
		assert.Equal(t, engine.Move("out"), m)
	}
	_, err = p.Absent(g, 0, rand.New(rand.NewPCG(1, 2)))
	assert.ErrorIs(t, err, engine.ErrNotYourTurn)
	_, err = p.Absent(nil, 0, rand.New(rand.NewPCG(1, 2)))
	assert.ErrorIs(t, err, engine.ErrWrongGame)
}

// TestGuessersNeverReadTheTarget plays the same positions with two
// targets: every guesser's decision is the same.
func TestGuessersNeverReadTheTarget(t *testing.T) {
	p := NewPlayer(synthetic, nil, "en")
	for seed := range int64(30) {
		x := newGame(t, 5, seed)
		y := newGame(t, 5, seed)
		clue := p.Clue(x.ViewOf(0), rand.New(rand.NewPCG(9, 9)))
		require.NotEmpty(t, clue)
		for _, g := range []*dixxit.Game{x, y} {
			_, err := g.Apply(0, dixxit.ClueMove(clue))
			require.NoError(t, err)
		}
		// y's target moves to another square: only the state knows.
		y = withTarget(t, y, x.ViewOf(0).Secret.Target%9+1)
		require.NotEqual(t, x.ViewOf(0).Secret.Target, y.ViewOf(0).Secret.Target)
		require.Equal(t, x.ViewOf(1), y.ViewOf(1))
		for s := 1; s < 5; s++ {
			a, err := p.Decide(x, s, rand.New(rand.NewPCG(uint64(seed), uint64(s))))
			require.NoError(t, err)
			b, err := p.Decide(y, s, rand.New(rand.NewPCG(uint64(seed), uint64(s))))
			require.NoError(t, err)
			assert.Equal(t, a, b)
		}
	}
}

// withTarget returns g with the turn's target on square sq (1–9), by
// rewriting its target byte in the serialised form (engine/dixxit's
// codec.go: version, players, first, seed, seq, turn, active, phase,
// target).
func withTarget(t *testing.T, g *dixxit.Game, sq int) *dixxit.Game {
	t.Helper()
	b := g.Encode()
	i := 3 // version, players, first
	for _, signed := range []bool{true, false, false} {
		var n int
		if signed {
			_, n = binary.Varint(b[i:])
		} else {
			_, n = binary.Uvarint(b[i:])
		}
		require.Positive(t, n)
		i += n
	}
	i += 2 // active, phase
	b[i] = byte(sq - 1)
	s, err := dixxit.Rules{}.Decode(b)
	require.NoError(t, err)
	return s.(*dixxit.Game)
}

// grid builds a guesser's view of a grid whose nine pictures (cards 0–8,
// face a) have the keywords kws (English; French the first one with "fr-"
// before it), and the Keywords function that tells them and those of the
// pictures off the grid (cards 9 on).
func grid(kws [9][]string, off ...[]string) (dixxit.View, Keywords) {
	var v dixxit.View
	for sq := range kws {
		v.Grid[sq] = dixxit.CardOf(sq, 0).String()
	}
	v.Fingers = []dixxit.FingerView{}
	return v, func(card, face int) (en, fr []string) {
		switch {
		case face != 0 || card < 0:
			return nil, nil
		case card < 9:
			return kws[card], []string{"fr-" + kws[card][0]}
		case card-9 < len(off):
			return off[card-9], nil
		}
		return nil, nil
	}
}

func TestGuessRanksByTheClue(t *testing.T) {
	kws := [9][]string{{"bat", "night", "cave"}, {"sun", "summer", "hot"}, {"moon", "night", "sky"},
		{"ship", "sea", "sailing boat"}, {"cat", "pet"}, {"boat", "river"}, {"tree", "forest"},
		{"owl", "night", "bird"}, {"été", "plage"}}
	v, kw := grid(kws)
	p := NewPlayer(kw, nil, "en")
	r := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		clue string
		want []int
	}{
		{"sailing boat", []int{4}}, // the whole phrase beats the word "boat" alone
		{"Night", []int{1, 3, 8}},  // case ignored; three pictures say it
		{"ete", []int{9}},          // accents ignored, French keywords count
		{"forests", []int{7}},      // a word of the same stem
		{"zebra", []int{1, 2, 3, 4, 5, 6, 7, 8, 9}},
	} {
		v.Clue = tc.clue
		seen := map[int]bool{}
		for range 60 {
			seen[p.Guess(v, r)] = true
		}
		var got []int
		for sq := range seen {
			got = append(got, sq)
		}
		slices.Sort(got)
		assert.Equal(t, tc.want, got, "clue %q", tc.clue)
	}
	// A square with a finger down is never picked again.
	v.Clue = "night"
	v.Fingers = []dixxit.FingerView{{Seat: 1, Square: 1}, {Seat: 2, Square: 3}}
	assert.Equal(t, 8, p.Guess(v, r))
	// Said aloud: the computer cannot hear it.
	v.Clue, v.Aloud, v.Fingers = "", true, nil
	seen := map[int]bool{}
	for range 200 {
		seen[p.Guess(v, r)] = true
	}
	assert.Len(t, seen, 9)
}

// TestGuessReadsSynonyms checks that a clue matching a picture's synonyms
// (in either language) ranks it above pictures it does not match, and
// below a picture whose keyword it is; a synonym that is also one of the
// picture's keywords counts once, as the keyword.
func TestGuessReadsSynonyms(t *testing.T) {
	kws := [9][]string{{"bat", "night", "cave"}, {"crow", "bird", "omen"}, {"sun", "summer"},
		{"cloud", "rain"}, {"cat", "pet"}, {"tree", "forest"}, {"ship", "sea"}, {"owl", "bird"}, {"dark", "night"}}
	syns := [9][]string{{"spooky", "gloomy", "sombre nuit"}, {"sinister", "gloomy"}, {"sunshine", "heat"},
		{"gloomy weather", "drizzle"}, {"kitten", "kitty"}, {"woods", "oak"}, {"sailing", "boat"}, {"wise", "hoot"}, {"dark", "gloom"}}
	v, kw := grid(kws)
	syn := func(card, face int) (en, fr []string) {
		if face != 0 || card < 0 || card >= 9 {
			return nil, nil
		}
		return syns[card][:len(syns[card])-1], syns[card][len(syns[card])-1:]
	}
	p := NewPlayer(kw, syn, "en")
	for _, tc := range []struct {
		clue string
		want []int
	}{
		{"spooky", []int{1}},         // a synonym, on one picture only
		{"Sombre nuit", []int{1}},    // a French synonym, accents and case aside
		{"gloomy", []int{1, 2}},      // two pictures have it as a synonym; the third only in a phrase
		{"gloomy weather", []int{4}}, // the whole phrase beats one of its words
		{"kittens", []int{5}},        // a synonym of the same stem
		{"dark", []int{9}},           // a keyword, and a synonym of no other picture
		{"sailing boat", []int{7}},   // two synonym words of one picture
		{"bird", []int{2, 8}},        // keywords only, as before
	} {
		v.Clue = tc.clue
		assert.ElementsMatch(t, tc.want, p.bestSquares(v), "clue %q", tc.clue)
	}
	// A keyword counts twice as much as a synonym.
	k0 := p.model().faces[dixxit.CardOf(0, 0)]
	cl := p.model().prepare("gloomy")
	assert.Equal(t, 6, match(cl, k0), "a synonym equal to the clue: 4 for the phrase, 2 for the word")
	cl = p.model().prepare("night")
	assert.Equal(t, 12, match(cl, k0), "a keyword equal to the clue: twice as much")
	// "dark" is a keyword and a synonym of the last picture: it counts once.
	k8 := p.model().faces[dixxit.CardOf(8, 0)]
	assert.Equal(t, 12, match(p.model().prepare("dark"), k8))
	// Without synonyms the same player reads none.
	v.Clue = "spooky"
	assert.Len(t, NewPlayer(kw, nil, "en").bestSquares(v), 9)
}

// TestClueIsAmbiguous checks the clue-giver: it prefers a clue that the
// target and two other pictures match equally (a first finger on the
// target one time in three) to one only the target matches, whether the
// clue is a keyword of the target or a word the target is associated with
// through other pictures of the deck.
func TestClueIsAmbiguous(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	kws := [9][]string{
		{"labyrinth", "maze", "intersection", "lost"}, // the target
		{"road", "intersection", "car"},
		{"cross", "intersection", "church"},
		{"a"}, {"b"}, {"c"}, {"d"}, {"e"}, {"f"},
	}
	v, kw := grid(kws)
	v.Secret = &dixxit.Secret{Target: 1, Card: v.Grid[0]}
	p := NewPlayer(kw, nil, "en")
	for range 20 {
		assert.Equal(t, "intersection", p.Clue(v, r), "shared with two others")
	}
	// Nothing shared on the grid, but two pictures off the grid carry
	// "feather" and share a keyword each with the target and two others.
	kws = [9][]string{{"owl", "bird"}, {"moon", "sky"}, {"star", "sky"}, {"a"}, {"b"}, {"c"}, {"d"}, {"e"}, {"f"}}
	v, kw = grid(kws, []string{"feather", "bird"}, []string{"feather", "sky"})
	v.Secret = &dixxit.Secret{Target: 1, Card: v.Grid[0]}
	p = NewPlayer(kw, nil, "en")
	for range 20 {
		assert.Equal(t, "feather", p.Clue(v, r), "associated with the target and two others")
	}
	// Nothing shared, nothing associated: one of the target's keywords
	// (obvious, but never one that does not match it).
	v, kw = grid(kws)
	v.Secret = &dixxit.Secret{Target: 1, Card: v.Grid[0]}
	p = NewPlayer(kw, nil, "en")
	assert.Contains(t, []string{"owl", "bird"}, p.Clue(v, r))
}

// TestDecideIsDeterministic: the same state and the same random source
// give the same move.
func TestDecideIsDeterministic(t *testing.T) {
	p := NewPlayer(synthetic, nil, "en")
	g := newGame(t, 4, 8)
	a, err := p.Decide(g, 0, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	b, err := p.Decide(g, 0, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

// TestBeatsRandom simulates turns with synthetic keywords: computer
// guessers find a computer clue's target on the first finger far more
// often than guessers at random (about one in nine). The measure on the
// deck's own keywords is TestClueQualityOnTheDeck.
func TestBeatsRandom(t *testing.T) {
	p := NewPlayer(synthetic, nil, "en")
	st, err := Simulate(p, 4, 1, 400, false)
	require.NoError(t, err)
	rnd, err := Simulate(p, 4, 1, 400, true)
	require.NoError(t, err)
	t.Logf("first finger on the target: computer %.1f%%, random %.1f%%", 100*st.FirstRate(), 100*rnd.FirstRate())
	assert.InDelta(t, 1.0/9, rnd.FirstRate(), 0.05)
	assert.Greater(t, st.FirstRate(), 2*rnd.FirstRate())
}
