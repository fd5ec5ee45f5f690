package e2e

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	computer "github.com/dixgame/dixbot/computer/qwixx"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// qwixxGame is the channel's Qwixx game as its record holds it.
func (tb *table) qwixxGame() (*rules.Game, bool) {
	tb.t.Helper()
	rec := tb.record()
	require.Equal(tb.t, "qwixx", rec.Game)
	if rec.Finished || rec.Data == nil {
		return nil, rec.Finished
	}
	st, err := rules.Rules{}.Decode(rec.Data)
	require.NoError(tb.t, err)
	if st.Over() {
		// The game's last effect, after the answer, archives it.
		require.Eventually(tb.t, func() bool { return tb.record().Finished }, time.Minute, 20*time.Millisecond, "archived")
		return nil, true
	}
	return st.(rules.State).Game(), false
}

// qwixxRounds is how many rolls TestQwixxSimultaneousClicks plays:
// QWIXX_MEASURE set measures 200; the test suite plays 20.
func qwixxRounds() int {
	if os.Getenv("QWIXX_MEASURE") != "" {
		return 200
	}
	return 20
}

// TestQwixxSimultaneousClicks: five people click their white-sum decision
// on the same board at the same moment, roll after roll (games follow one
// another in the channel). Every click is answered with the board (none is
// refused or left unanswered), each decision is applied exactly once (the
// sheet gains that mark and no other), none is lost (nobody who clicked is
// still waited for). The answer latencies, as the stand-in sees them, are
// logged; no time is asserted. QWIXX_MEASURE=1 plays 200 rolls.
func TestQwixxSimultaneousClicks(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)
	tb := w.table(t, "en-US", "Ann", "Ben", "Cid", "Dee", "Eve")
	rounds := qwixxRounds()
	rng := rand.New(rand.NewPCG(27, 5))
	board := tb.openGame("qwixx")
	var latencies []time.Duration
	var spreads []time.Duration
	clicks, games, again := 0, 1, 0
	for round := 0; round < rounds; {
		g, over := tb.qwixxGame()
		if over {
			board = tb.openGame("qwixx")
			games++
			continue
		}
		if m, ok := tb.fake.Message(board.ID); ok {
			board = m
		}
		deciding := g.ToDecide()
		require.NotEmpty(t, deciding)
		if g.Phase == rules.PhaseColour {
			m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), g.Active, rng)
			require.NoError(t, err)
			board = tb.gameClick("qwixx", tb.users[g.Active], board, "mv", string(m))
			continue
		}
		// Every seat deciding clicks at once.
		type click struct {
			seat   int
			action rules.Action
			id     string
			sent   time.Time
			r      *fakediscord.Response
			err    error
			again  int // clicks made again on the redrawn board
		}
		cs := make([]*click, 0, len(deciding))
		for _, s := range deciding {
			m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), s, rng)
			require.NoError(t, err)
			a, err := rules.ParseMove(m)
			require.NoError(t, err)
			id, ok := gameButton("qwixx", board, "mv", string(m))
			require.True(t, ok, "no button %q on the board %q", m, board.Content)
			cs = append(cs, &click{seat: s, action: a, id: id})
		}
		before := slices.Clone(g.Sheets)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for _, c := range cs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
				defer cancel()
				c.sent = time.Now()
				ix, err := tb.fake.Click(ctx, tb.users[c.seat].ID, board.ID, c.id)
				// The board's buttons are drawn again after each decision:
				// a click landing just after another's edit finds its
				// button gone, and the person clicks the same move on the
				// board as it now stands.
				for again := 0; errors.Is(err, fakediscord.ErrUnknownComponent) && again < 5; again++ {
					m, _ := tb.fake.Message(board.ID)
					id, ok := gameButton("qwixx", m, "mv", c.action.String())
					if !ok {
						break
					}
					c.again++
					ix, err = tb.fake.Click(ctx, tb.users[c.seat].ID, board.ID, id)
				}
				if err != nil {
					c.err = err
					return
				}
				c.r, c.err = ix.Wait(ctx)
			}()
		}
		close(start)
		wg.Wait()
		first, last := cs[0].sent, cs[0].sent
		for _, c := range cs {
			require.NoError(t, c.err, "the click of seat %d (%s) was not answered", c.seat, c.action)
			require.False(t, c.r.Ephemeral(), "the click of seat %d (%s) was refused: %s", c.seat, c.action, describe(c.r))
			require.Contains(t, []int{fakediscord.CallbackUpdateMessage, fakediscord.CallbackDeferredUpdateMessage}, c.r.Type,
				"the click of seat %d is answered with the board: %s", c.seat, describe(c.r))
			latencies = append(latencies, c.r.Latency)
			again += c.again
			if c.sent.Before(first) {
				first = c.sent
			}
			if c.sent.After(last) {
				last = c.sent
			}
		}
		spreads = append(spreads, last.Sub(first))
		clicks += len(cs)

		// Applied: nobody who clicked is still waited for on this roll.
		var after *rules.Game
		err := waitUntil(waitCtx(t), tb.fake, func() bool {
			a, over := tb.qwixxGame()
			if over {
				rec := tb.record()
				st, err := rules.Rules{}.Decode(rec.Data)
				if err != nil {
					return false
				}
				after = st.(rules.State).Game()
				return true
			}
			if a.Turn != g.Turn || a.Phase != rules.PhaseWhite {
				after = a
				return true
			}
			for _, c := range cs {
				if a.Deciding(c.seat) {
					return false
				}
			}
			after = a
			return true
		})
		require.NoError(t, err, "a decision is lost: seats %v still waited for", deciding)
		// Exactly once: each sheet is the one before with that mark alone.
		for _, c := range cs {
			want := before[c.seat]
			if !c.action.Pass {
				want.Mark(c.action.Color, c.action.Number)
			}
			assert.Equal(t, want.Rows, after.Sheets[c.seat].Rows, "round %d: seat %d's sheet after %s", round, c.seat, c.action)
		}
		round++
	}
	slices.Sort(latencies)
	slices.Sort(spreads)
	pct := func(p float64) time.Duration { return latencies[min(len(latencies)-1, int(p*float64(len(latencies))))] }
	t.Logf("%d rolls in %d games, %d simultaneous clicks (%d per roll on average), all sent within %v of each other (slowest roll)",
		rounds, games, clicks, clicks/rounds, spreads[len(spreads)-1])
	t.Logf("%d clicks made again because another's decision had redrawn the board's buttons", again)
	t.Logf("answer latency through the stand-in: p50 %v, p90 %v, p99 %v, max %v", pct(0.50), pct(0.90), pct(0.99), latencies[len(latencies)-1])
	assert.Equal(t, rounds, len(spreads))
}

// TestQwixxPingsPerRoll plays 4-person Qwixx games by clicks and counts
// the notifications: at most one per player per roll on average (the
// table pings everyone who must decide in one message, leaving out the
// clicker and anyone who clicked in the last minute), and no notifying
// message is ever deleted.
func TestQwixxPingsPerRoll(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)
	players, notified, rolls, deleted := 0, 0, 0, 0
	for k, names := range [][]string{{"Ann", "Ben", "Cid", "Dee"}, {"Eva", "Fay", "Gus", "Hal"}} {
		tb := w.table(t, "en-US", names...)
		rng := rand.New(rand.NewPCG(uint64(k), 4))
		board := tb.openGame("qwixx")
		for step := 0; ; step++ {
			require.Less(t, step, 1000, "the game does not end")
			g, over := tb.qwixxGame()
			if over {
				break
			}
			if m, ok := tb.fake.Message(board.ID); ok {
				board = m
			}
			deciding := g.ToDecide()
			require.NotEmpty(t, deciding)
			seat := deciding[rng.IntN(len(deciding))]
			m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rng)
			require.NoError(t, err)
			board = tb.gameClick("qwixx", tb.users[seat], board, "mv", string(m))
		}
		rec := tb.record()
		st, err := rules.Rules{}.Decode(rec.Data)
		require.NoError(t, err)
		g := st.(rules.State).Game()
		n := 0
		for _, m := range tb.fake.Transcript(tb.channel.ID) {
			if m.Ephemeral() || len(m.Pinged) == 0 {
				continue
			}
			n += len(m.Pinged)
			if m.Deleted {
				deleted++
			}
			assert.False(t, strings.Contains(m.Content, "⟦"), m.Content)
		}
		t.Logf("%v: %d rolls, %d notifications (%.3f per player per roll)", names, g.Turn, n, float64(n)/float64(len(names)*g.Turn))
		players += len(names) * g.Turn
		notified += n
		rolls += g.Turn
	}
	perPlayerRoll := float64(notified) / float64(players)
	t.Logf("all games: %d rolls, %d notifications, %.3f per player per roll", rolls, notified, perPlayerRoll)
	assert.Zero(t, deleted, "a notifying message was deleted")
	assert.LessOrEqual(t, perPlayerRoll, 1.0, "notifications per player per roll")
}
