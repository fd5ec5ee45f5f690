package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	botdix "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	computer "github.com/dixgame/dixbot/computer/qwixx"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
)

// The click benchmarks: one click on a board, a decision, end to end
// through the table (decoding the interaction aside): the store's update
// on an in-memory store, the board drawn with its pictures and the
// answer, then the outbox's work after it, all recorded by the test kit's
// Discord (whose recording is counted too). A game over starts the next
// one in a new channel, outside the timing.

// benchHarness is a harness of one game whose bot draws pictures.
func benchHarness(b *testing.B, game present.Game) *harness {
	b.Helper()
	h := newHarnessOn(b, nil)
	var seed atomic.Int64 // each game its own deal: no board of an earlier game again
	bot, err := New(Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return seed.Add(1) }, Observer: h.Obs,
		Games: []present.Game{game}})
	require.NoError(b, err)
	bot.workBudget, bot.deferAfter = harnessBudget, harnessBudget
	h.b = bot
	return h
}

// BenchmarkClickQwixx is a click that marks or passes on a Qwixx board of
// three people, each decision the normal computer player's.
func BenchmarkClickQwixx(b *testing.B) {
	h := benchHarness(b, botqwixx.Game())
	users := []string{"u1", "u2", "u3"}
	games := 0
	open := func() *tabletest.Message {
		games++
		h.Channel = fmt.Sprintf("bench%d", games)
		return h.openGame("qwixx", users, nil)
	}
	board := open()
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		g, _, _ := h.qstate()
		if g == nil || g.Over() {
			board = open()
			g, _, _ = h.qstate()
		}
		seat := g.ToDecide()[0]
		m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rng)
		require.NoError(b, err)
		id := h.qmust(board, verbMove, string(m))
		b.StartTimer()
		board = h.ClickOn(users[seat], board, id).Shown(board)
	}
	b.ReportMetric(float64(games), "games")
}

// BenchmarkClickDix is a click on a DIX board of three people: a move of
// the board's own buttons (draw, stop, pass), chosen at random; a game
// whose next decision needs a prompt (a purchase, a bid) gives way to a
// new one.
func BenchmarkClickDix(b *testing.B) {
	h := benchHarness(b, botdix.Game())
	users := []string{"u1", "u2", "u3"}
	games := 0
	open := func() *tabletest.Message {
		games++
		h.Channel = fmt.Sprintf("bench%d", games)
		return h.openGame("dix", users, nil)
	}
	board := open()
	rng := rand.New(rand.NewPCG(3, 4))
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		var moves []string
		user := ""
		for {
			r, err := h.b.get(context.Background(), h.Channel)
			require.NoError(b, err)
			td, err := decodeTableData(r.Meta)
			require.NoError(b, err)
			moves = moves[:0]
			if !r.Finished && r.Data != nil {
				st, err := h.b.games["dix"].Rules.Decode(r.Data)
				require.NoError(b, err)
				if seats := st.ToDecide(); len(seats) > 0 && seats[0] < len(users) {
					user = users[seats[0]]
					for _, id := range tabletest.ComponentIDs(board.Components) {
						if p, err := parseID(id, gameVerbs); err == nil && p.Verb == verbMove {
							moves = append(moves, id)
						}
					}
				}
			}
			if len(moves) > 0 && td.Board == board.ID {
				break
			}
			board = open()
		}
		id := moves[rng.IntN(len(moves))]
		b.StartTimer()
		board = h.ClickOn(user, board, id).Shown(board)
	}
	b.ReportMetric(float64(games), "games")
}
