package e2e

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine"
	rules "github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// dixxitGame is the channel's Dixxit game as its record holds it; over
// once the game is over (and then archived).
func (tb *table) dixxitGame() (*rules.Game, bool) {
	tb.t.Helper()
	rec := tb.record()
	require.Equal(tb.t, "dixxit", rec.Game)
	if rec.Finished || rec.Data == nil {
		return nil, true
	}
	st, err := rules.Rules{}.Decode(rec.Data)
	require.NoError(tb.t, err)
	if st.Over() {
		// Over: the game is archived just after.
		require.NoError(tb.t, waitUntil(waitCtx(tb.t), tb.fake, func() bool { return tb.record().Finished }), "a game over is never archived")
		return nil, true
	}
	return st.(*rules.Game), false
}

// dixxitRaces is how many races TestDixxitRaceThroughTheStandIn runs:
// DIXXIT_MEASURE set measures 200; the test suite runs 6.
func dixxitRaces() int {
	if os.Getenv("DIXXIT_MEASURE") != "" {
		return 200
	}
	return 6
}

// raceClick is one guesser's click of a race.
type raceClick struct {
	seat   int
	square int
	sent   time.Time
	id     uint64 // the delivered interaction's snowflake id
	ix     *fakediscord.Interaction
	r      *fakediscord.Response
	err    error
}

// TestDixxitRaceThroughTheStandIn: five guessers click at the same moment
// through the stand-in, race after race (X7). Each turn has two races:
// all five on one wrong square, then the four left each on a square of
// their own. Every click is answered; the square of the first race holds
// exactly one finger, the one of the earliest click by its snowflake id,
// the others told privately who was there first; the fingers of the
// second race stand in the order of their clicks' snowflake ids, one per
// square. The answer latencies, as the stand-in sees them, are logged; no
// time is asserted. DIXXIT_MEASURE=1 runs 200 races.
func TestDixxitRaceThroughTheStandIn(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)
	tb := w.table(t, "en-US", "Ann", "Ben", "Cid", "Dee", "Eve", "Fay")
	races := dixxitRaces()
	rng := rand.New(rand.NewPCG(28, 7))
	board := tb.openGame("dixxit")
	var latencies, spreads []time.Duration
	games, clicks, refused, deferred := 1, 0, 0, 0
	taken := locales.T("en", "dixxit_err_taken", map[string]any{"Name": "\x00"})
	takenPrefix, _, _ := strings.Cut(taken, "\x00")
	for race := 0; race < races; {
		g, over := tb.dixxitGame()
		if over {
			board = tb.openGame("dixxit")
			games++
			continue
		}
		v := g.ViewOf(engine.Public)
		seq := strconv.FormatUint(g.Seq(), 10)
		if g.Phase() == rules.PhaseClue {
			// The clue, said aloud from the private prompt.
			u := tb.users[g.Active()]
			board = tb.dixxitShowsID(board.ID, "dixxit:pr:"+seq)
			prompt := tb.click(u, board.ID, "dixxit:pr:"+seq)
			require.True(t, prompt.Ephemeral(), "the private prompt: %s", describe(prompt))
			id, ok := gameButton("dixxit", *prompt.Message, "mv", "aloud")
			require.True(t, ok, "no Said aloud on the prompt")
			tb.click(u, prompt.Message.ID, id)
			continue
		}
		target := g.ViewOf(g.Active()).Secret.Target
		free := map[int]bool{}
		for sq := 1; sq <= rules.Squares; sq++ {
			free[sq] = v.Grid[sq-1] != ""
		}
		for _, f := range v.Fingers {
			free[f.Square] = false
		}
		var wrong []int
		for sq := 1; sq <= rules.Squares; sq++ {
			if free[sq] && sq != target {
				wrong = append(wrong, sq)
			}
		}
		rng.Shuffle(len(wrong), func(i, j int) { wrong[i], wrong[j] = wrong[j], wrong[i] })
		deciding := g.ToDecide()
		cs := make([]*raceClick, len(deciding))
		same := len(v.Fingers) == 0 // the first race of the turn: all on one square
		for i, s := range deciding {
			cs[i] = &raceClick{seat: s, square: wrong[0]}
			if !same {
				cs[i].square = wrong[i]
			}
		}
		turn := strconv.FormatUint(v.Turn, 10)
		// The board as it stands: this turn's squares, each finger down
		// drawn as held (the square buttons keep their ids through the
		// race, so the ids alone do not tell a newer drawing).
		board = tb.dixxitRaceBoard(board.ID, turn, v.Fingers, openSince(t, tb.record(), deciding))
		ids := map[int]string{}
		for _, c := range cs {
			id, ok := gameButton("dixxit", board, "mv", "f "+strconv.Itoa(c.square)+" "+turn)
			require.True(t, ok, "no square %d on %q", c.square, board.Content)
			ids[c.square] = id
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		for _, c := range cs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
				defer cancel()
				move := "f " + strconv.Itoa(c.square) + " " + turn
				c.sent = time.Now()
				ix, err := tb.fake.Click(ctx, tb.users[c.seat].ID, board.ID, ids[c.square])
				// Another's finger redraws the board's buttons: a click
				// landing just after finds its button gone, and the
				// guesser clicks the same square on the board as it
				// stands (a later click, by its snowflake).
				for again := 0; errors.Is(err, fakediscord.ErrUnknownComponent) && again < 20; again++ {
					m, _ := tb.fake.Message(board.ID)
					id, ok := gameButton("dixxit", m, "mv", move)
					if !ok {
						time.Sleep(5 * time.Millisecond)
						continue
					}
					ix, err = tb.fake.Click(ctx, tb.users[c.seat].ID, board.ID, id)
				}
				if err != nil {
					c.err = err
					return
				}
				c.ix = ix
				c.id, c.err = strconv.ParseUint(ix.ID, 10, 64)
				if c.err == nil {
					c.r, c.err = ix.Wait(ctx)
				}
			}()
		}
		close(start)
		wg.Wait()
		first, last := cs[0].sent, cs[0].sent
		for _, c := range cs {
			require.NoError(t, c.err, "race %d: the click of seat %d was not answered", race, c.seat)
			latencies = append(latencies, c.r.Latency)
			if c.r.Type == fakediscord.CallbackDeferredUpdateMessage {
				// A busy machine: the answer it stands for.
				deferred++
				c.r = tb.dixxitFinal(c.ix, c.r, g.Seq())
			}
			if c.sent.Before(first) {
				first = c.sent
			}
			if c.sent.After(last) {
				last = c.sent
			}
			if c.r.Ephemeral() {
				// Refused: only a square already taken, in the first race.
				require.True(t, same, "race %d: seat %d refused: %s", race, c.seat, describe(c.r))
				require.NotNil(t, c.r.Message)
				assert.Contains(t, c.r.Message.Content, takenPrefix, "race %d: seat %d", race, c.seat)
				refused++
			} else {
				require.Contains(t, []int{fakediscord.CallbackUpdateMessage, fakediscord.CallbackDeferredUpdateMessage}, c.r.Type,
					"race %d: the click of seat %d is answered with the board: %s", race, c.seat, describe(c.r))
			}
		}
		spreads = append(spreads, last.Sub(first))
		clicks += len(cs)
		byID := slices.Clone(cs)
		slices.SortFunc(byID, func(a, b *raceClick) int { return cmp.Compare(a.id, b.id) })

		// The game after the race: every answer is given once the click
		// is applied.
		after, over := tb.dixxitGame()
		var fingers []rules.FingerView
		switch {
		case !over && !after.Over() && after.ViewOf(engine.Public).Turn == v.Turn:
			fingers = after.ViewOf(engine.Public).Fingers
		default:
			// The turn was scored (the last one ends the game, which
			// may not be archived yet): its fingers are the turn kept.
			rec := tb.record()
			st, err := rules.Rules{}.Decode(rec.Data)
			require.NoError(t, err)
			l := st.(*rules.Game).ViewOf(engine.Public).Last
			require.NotNil(t, l, "race %d: the turn scored", race)
			require.Equal(t, v.Turn, l.Turn)
			fingers = l.Fingers
			// Last lists them by square: put them in time order again,
			// the fingers down before the race first.
			slices.SortStableFunc(fingers, func(a, b rules.FingerView) int {
				return cmp.Compare(orderOf(v.Fingers, byID, a.Seat), orderOf(v.Fingers, byID, b.Seat))
			})
		}
		perSquare := map[int]int{}
		for _, f := range fingers {
			perSquare[f.Square]++
		}
		for sq, n := range perSquare {
			assert.Equal(t, 1, n, "race %d: square %d holds %d fingers", race, sq, n)
		}
		if same {
			require.Len(t, fingers, 1, "race %d: one finger on square %d", race, wrong[0])
			assert.Equal(t, rules.FingerView{Seat: byID[0].seat, Square: wrong[0]}, fingers[0],
				"race %d: the square goes to the earliest click by its snowflake", race)
		} else {
			require.Len(t, fingers, len(v.Fingers)+len(cs), "race %d: every finger down", race)
			for i, c := range byID {
				assert.Equal(t, rules.FingerView{Seat: c.seat, Square: c.square}, fingers[len(v.Fingers)+i],
					"race %d: finger %d in snowflake order", race, i)
			}
		}
		race++
	}
	slices.Sort(latencies)
	slices.Sort(spreads)
	pct := func(p float64) time.Duration { return latencies[min(len(latencies)-1, int(p*float64(len(latencies))))] }
	t.Logf("%d races in %d games, %d clicks (%d refused: a square already taken), all of a race sent within %v of each other (slowest race; median %v)",
		races, games, clicks, refused, spreads[len(spreads)-1], spreads[len(spreads)/2])
	t.Logf("%d answers deferred", deferred)
	t.Logf("answer latency through the stand-in: p50 %v, p90 %v, p99 %v, max %v", pct(0.50), pct(0.90), pct(0.99), latencies[len(latencies)-1])
}

// dixxitRaceBoard waits until the board shows turn's square buttons with
// every finger of fingers drawn as held (a grey button), and returns it.
func (tb *table) dixxitRaceBoard(msgID, turn string, fingers []rules.FingerView, since uint64) fakediscord.Message {
	tb.t.Helper()
	var m fakediscord.Message
	err := waitUntil(waitCtx(tb.t), tb.fake, func() bool {
		var ok bool
		if m, ok = tb.fake.Message(msgID); !ok {
			return false
		}
		style := map[string]int{}
		for _, c := range components(m) {
			if p := strings.SplitN(c.CustomID, ":", 4); len(p) == 4 && p[0] == "dixxit" && p[1] == "mv" {
				if n, err := strconv.ParseUint(p[2], 10, 64); err != nil || n < since {
					return false // drawn before a lifted finger's guesser decided again
				}
				style[p[3]] = c.Style
			}
		}
		if len(style) == 0 {
			return false
		}
		for _, f := range fingers {
			if style["f "+strconv.Itoa(f.Square)+" "+turn] != int(discordgo.SecondaryButton) {
				return false
			}
		}
		for arg := range style {
			if !strings.HasSuffix(arg, " "+turn) {
				return false
			}
		}
		return true
	})
	require.NoError(tb.t, err, "the board of turn %s never showed its fingers", turn)
	return m
}

// openSince is the latest state version at which the decision of one of
// seats opened, as the table data of rec has it: a board drawn before it
// shows one of them as done (a finger since lifted, X7), and that
// guesser's click on it is outdated.
func openSince(t *testing.T, rec *dixbot.Record, seats []int) uint64 {
	t.Helper()
	var td struct {
		Open []uint64 `json:"op"`
	}
	require.NoError(t, json.Unmarshal(rec.Meta, &td))
	var n uint64
	for _, s := range seats {
		if s < len(td.Open) {
			n = max(n, td.Open[s])
		}
	}
	return n
}

// dixxitFinal is the answer a deferred click r of ix on a board of
// version v stands for: its private follow-up (a refusal), or the board
// once the game is past v (the click's own edit is left out when the
// board already shows a newer state).
func (tb *table) dixxitFinal(ix *fakediscord.Interaction, r *fakediscord.Response, v uint64) *fakediscord.Response {
	tb.t.Helper()
	var out *fakediscord.Response
	err := waitUntil(waitCtx(tb.t), tb.fake, func() bool {
		if f := ix.Followups(); len(f) > 0 {
			out = &fakediscord.Response{Type: fakediscord.CallbackChannelMessage, At: r.At, Latency: r.Latency, Message: &f[0]}
			return true
		}
		cur, ok := ix.Response()
		if !ok || cur.Message == nil || cur.Message.EditedTimestamp.Before(r.At.Add(-r.Latency)) {
			return false
		}
		if g, over := tb.dixxitGame(); over || g.Seq() > v {
			out = &fakediscord.Response{Type: fakediscord.CallbackUpdateMessage, At: r.At, Latency: r.Latency, Message: cur.Message}
		}
		return out != nil
	})
	require.NoError(tb.t, err, "the deferred answer never came: %s", describe(r))
	return out
}

// orderOf is the place of seat's finger in time order: the fingers down
// before the race first, then the race's clicks by snowflake id.
func orderOf(before []rules.FingerView, byID []*raceClick, seat int) int {
	for i, f := range before {
		if f.Seat == seat {
			return i
		}
	}
	for i, c := range byID {
		if c.seat == seat {
			return len(before) + i
		}
	}
	return len(before) + len(byID)
}
