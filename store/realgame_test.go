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
	r := &dixbot.Record{Channel: "c1", Guild: "g", Meta: []byte("0"), Game: "dix", Data: stateBytes(t, g)}
	require.NoError(t, s.Create(ctxb, r))
	got := get(t, s, "c1")
	assert.Equal(t, "dix", got.Game)
	assert.Equal(t, stateBytes(t, g), got.Data)

	// Play through the store: the game reads and writes its own bytes.
	seq := g.Seq
	got, err := s.Update(ctxb, "c1", "click", func(r *dixbot.Record) error {
		st, err := dix.Rules{}.Decode(r.Data)
		if err != nil {
			return err
		}
		g := st.(dix.State).Game()
		if _, err := g.Apply(dix.Action{Kind: dix.ActDraw, Player: g.ToAct()}); err != nil {
			return err
		}
		r.Data = stateBytes(t, g)
		return nil
	})
	if err != nil {
		t.Skipf("engine Apply: %v", err)
	}
	st, err := dix.Rules{}.Decode(got.Data)
	require.NoError(t, err)
	assert.Greater(t, st.Seq(), uint64(seq))
	stored := get(t, s, "c1")
	assert.Equal(t, got.Data, stored.Data)

	require.NoError(t, s.Finish(ctxb, "c1"))
	archived := get(t, s, "c1")
	assert.True(t, archived.Finished)
	assert.Equal(t, got.Data, archived.Data)
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
			Meta: make([]byte, 200), Game: "dix", Data: stateBytes(t, g)}
		b, err := encode(rec, 42, false, ctxTime)
		require.NoError(t, err)
		t.Logf("5-player game %s (%d actions): state %d bytes, envelope with 200 bytes of meta %d bytes",
			st.name, g.Seq, len(stateBytes(t, g)), len(b))
		got, err := decode(rec.Channel, b)
		require.NoError(t, err)
		assert.Equal(t, stateBytes(t, g), got.Data)
	}
}
