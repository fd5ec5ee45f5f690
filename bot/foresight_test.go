package bot

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	botdix "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	qcomputer "github.com/dixgame/dixbot/computer/qwixx"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dix"
	qrules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
)

// watchedPlayer is a computer player that counts its decisions taken
// inside a store update of ws and outside any.
type watchedPlayer struct {
	engine.Player
	ws              *tabletest.WatchedStore
	inside, outside *atomic.Int32
}

func (p watchedPlayer) count() {
	if p.ws.Inside.Load() > 0 {
		p.inside.Add(1)
	} else {
		p.outside.Add(1)
	}
}

func (p watchedPlayer) Decide(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	p.count()
	return p.Player.Decide(s, seat, r)
}

func (p watchedPlayer) Timeout(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	p.count()
	return p.Player.Timeout(s, seat, r)
}

// watchGame sets game's foresight and counts its computer players'
// decisions (watchedPlayer) on the in-memory store it returns: in, taken
// inside one of its updates, out, outside any.
func watchGame(game *present.Game, foresight bool) (ws *tabletest.WatchedStore, in, out *atomic.Int32) {
	ws = &tabletest.WatchedStore{Store: tabletest.NewMemStore()}
	in, out = new(atomic.Int32), new(atomic.Int32)
	game.Foresight = foresight
	player := game.Player
	game.Player = func(level, lang string) engine.Player {
		return watchedPlayer{Player: player(level, lang), ws: ws, inside: in, outside: out}
	}
	return ws, in, out
}

// checkForesight plays a game of newGame twice, by play, with foresight
// and without: with it, no computer decision is taken inside a store
// update, without it some are, and the game ends the same either way.
// play calls opened, opens the table on h (the lobby's Start foresees
// the first turns), plays to the end and returns the state's bytes.
func checkForesight(t *testing.T, newGame func() present.Game, play func(h *harness, opened func()) []byte) {
	t.Helper()
	run := func(foresight bool) (data []byte, inside, outside int) {
		game := newGame()
		require.True(t, game.Foresight, "the game's computer is foreseen")
		ws, in, out := watchGame(&game, foresight)
		h := newDixHarnessOn(t, ws, game, 9, false)
		data = play(h, func() { in.Store(0); out.Store(0) })
		return data, int(in.Load()), int(out.Load())
	}
	with, in, out := run(true)
	assert.Zero(t, in, "no computer decision inside a store update")
	assert.Positive(t, out, "the computer seats played")
	without, in, _ := run(false)
	assert.Positive(t, in, "without foresight the computer decides inside the update")
	assert.Equal(t, without, with, "the same game either way")
}

// A game of DIX on the shared table of one person and two computer seats:
// the computer's turns a person's move leads to are decided before the
// move's store update, not inside it (where their thinking would eat the
// store's deadline), and the game plays to its end exactly as when they
// are decided inside it (a game without foresight).
func TestDixSharedComputerTurnsDecidedOutsideTheStoreUpdate(t *testing.T) {
	t.Parallel()
	checkForesight(t, botdix.Game, func(h *harness, opened func()) []byte {
		opened()
		h.openGame("dix", []string{"u1"}, nil, "strong", "normal")
		g, _, _, _ := h.dixNow()
		require.Len(t, g.Players, 3)
		d := &dixDriver{h: h, users: []string{"u1"}, rng: rand.New(rand.NewPCG(9, 3)), mirror: g, seen: map[string]int{}, follow: true}
		d.play(600)
		g, _, data, over := h.dixNow()
		require.True(t, over || g.Phase == dix.PhaseOver, "the game ended")
		return data
	})
}

// A game of Qwixx of one person and two computer seats, one of which
// draws at random (easy): every computer decision a person's move leads
// to is taken before the move's store update, and the game plays to its
// end exactly as without foresight.
func TestQwixxComputerTurnsDecidedOutsideTheStoreUpdate(t *testing.T) {
	t.Parallel()
	checkForesight(t, botqwixx.Game, func(h *harness, opened func()) []byte {
		opened()
		board := h.openGame("qwixx", []string{"u1"}, nil, "normal", "easy")
		rng := rand.New(rand.NewPCG(9, 4))
		for range 1000 {
			g, td, _ := h.qstate()
			require.NotNil(t, g)
			if g.Over() {
				break
			}
			seat := td.seatOf("u1")
			require.Contains(t, g.ToDecide(), seat, "the computer seats decided: the person's turn")
			m, err := qcomputer.Player{Level: qcomputer.Normal}.Decide(qrules.StateOf(g), seat, rng)
			require.NoError(t, err)
			board = h.ClickOn("u1", board, h.qmust(board, verbMove, string(m))).Shown(board)
		}
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		g, _, _ := h.qstate()
		require.True(t, g.Over(), "the game ended")
		return r.Data
	})
}

// mayPlayComputer, read from the JSON without decoding it, holds for
// every table whose computer decides for a seat, and not for a table of
// people all present, whatever their names.
func TestMayPlayComputerFromTheJSON(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		seats []tableSeat
	}{
		{"people", []tableSeat{{User: "u1", Name: "Ann"}, {User: "u2", Name: "Bob"}}},
		{"names like the keys", []tableSeat{{User: "u1", Name: `"cpu":"`}, {User: "u2", Name: `"aw":true`}}},
		{"a computer seat", []tableSeat{{User: "u1", Name: "Ann"}, {Name: "Robot 1", Level: "strong"}}},
		{"an absent person", []tableSeat{{User: "u1", Name: "Ann"}, {User: "u2", Name: "Bob", Away: true}}},
	} {
		td := &tableData{V: tableDataVersion, Seats: c.seats}
		assert.Equal(t, td.playsComputer(), mayPlayComputer(td.Encode()), c.name)
	}
}
