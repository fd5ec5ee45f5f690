package store

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine/dix"
)

// playedGame deals a 5-player game and plays it with the engine's
// SimplePolicy until done says stop or the game is over.
func playedGame(done func(*dix.Game) bool) (*dix.Game, error) {
	g, err := dix.New(dix.Options{Players: 5, Seed: 1, FirstPlayer: -1})
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(1, 2))
	var c dix.Choices
	for g.Phase != dix.PhaseOver && !done(g) {
		seat := g.ToAct()
		c = g.Choices(seat)
		if _, err := g.Apply(dix.SimplePolicy(g, seat, &c, r)); err != nil {
			return nil, err
		}
	}
	if _, err := g.MarshalBinary(); err != nil {
		return nil, err
	}
	return g, nil
}

// halfDealt stops a game when half of its deck is drawn: mid-game.
func halfDealt(g *dix.Game) bool { return len(g.Deck) <= dix.DeckSize(5)/2 }

// midGame returns a 5-player game in the middle, or skips the test while
// the engine cannot play or serialise.
func midGame(t testing.TB) *dix.Game {
	t.Helper()
	g, err := playedGame(halfDealt)
	if err != nil {
		t.Skipf("engine cannot play a game yet: %v", err)
	}
	return g
}

func stateBytes(t testing.TB, g *dix.Game) []byte {
	t.Helper()
	b, err := g.MarshalBinary()
	require.NoError(t, err)
	return b
}

func testRealGames(t *testing.T, e env) {
	g := midGame(t)
	s := e.open(Options{})
	r := &dixbot.Record{Channel: "c1", Guild: "g", Meta: []byte("0"), State: g}
	require.NoError(t, s.Create(ctxb, r))
	got := get(t, s, "c1")
	require.NotNil(t, dix.GameOf(got.State))
	assert.Equal(t, stateBytes(t, g), stateBytes(t, dix.GameOf(got.State)))

	// Play through the store.
	seq := dix.GameOf(got.State).Seq
	got, err := s.Update(ctxb, "c1", "click", func(r *dixbot.Record) error {
		_, err := dix.GameOf(r.State).Apply(dix.Action{Kind: dix.ActDraw, Player: dix.GameOf(r.State).ToAct()})
		return err
	})
	if err != nil {
		t.Skipf("engine Apply: %v", err)
	}
	assert.Greater(t, dix.GameOf(got.State).Seq, seq)
	stored := get(t, s, "c1")
	assert.Equal(t, stateBytes(t, dix.GameOf(got.State)), stateBytes(t, dix.GameOf(stored.State)))

	require.NoError(t, s.Finish(ctxb, "c1"))
	archived := get(t, s, "c1")
	assert.True(t, archived.Finished)
	assert.Equal(t, stateBytes(t, dix.GameOf(got.State)), stateBytes(t, dix.GameOf(archived.State)))

	// The engine's own checks reach the caller as the store's errors: a
	// state from a newer engine (its first byte is the engine schema) and a
	// damaged state inside an intact envelope.
	valid, err := encode(&dixbot.Record{Channel: "c2", State: g}, 1, false, e.now())
	require.NoError(t, err)
	stateAt := len(valid) - crcSize - len(stateBytes(t, g))
	newer := append([]byte(nil), valid...)
	newer[stateAt] = dix.SchemaVersion + 1
	damaged := append([]byte(nil), valid...)
	for i := stateAt + 8; i < len(damaged)-crcSize; i++ {
		damaged[i] = 0xff
	}
	for _, tc := range []struct {
		name string
		b    []byte
		want error
	}{
		{"newer engine state", reseal(newer), dixbot.ErrSchemaTooNew},
		{"damaged state", reseal(damaged), dixbot.ErrCorrupt},
	} {
		putRaw(t, s, "c2", false, tc.b)
		_, err := s.Get(ctxb, "c2")
		assert.ErrorIs(t, err, tc.want, tc.name)
		_, err = s.Update(ctxb, "c2", "", func(*dixbot.Record) error { return nil })
		assert.ErrorIs(t, err, tc.want, tc.name)
	}
}

func TestBytesPerGame(t *testing.T) {
	midGame(t)
	stages := []struct {
		name string
		done func(*dix.Game) bool
	}{
		{"dealt", func(*dix.Game) bool { return true }},
		{"mid-game", halfDealt},
		{"over", func(*dix.Game) bool { return false }},
	}
	for _, st := range stages {
		g, err := playedGame(st.done)
		require.NoError(t, err)
		rec := &dixbot.Record{Channel: "123456789012345678", Guild: "123456789012345678",
			Meta: make([]byte, 200), State: g}
		b, err := encode(rec, 42, false, ctxTime)
		require.NoError(t, err)
		t.Logf("5-player game %s (%d actions): state %d bytes, envelope with 200 bytes of meta %d bytes",
			st.name, g.Seq, len(stateBytes(t, g)), len(b))
		got, err := decode(rec.Channel, b)
		require.NoError(t, err)
		assert.Equal(t, stateBytes(t, g), stateBytes(t, dix.GameOf(got.State)))
	}
}
