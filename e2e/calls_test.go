package e2e

import (
	"encoding/json"
	"fmt"
	"github.com/dixgame/dixbot/internal/redistest"
	"log/slog"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	qcomputer "github.com/dixgame/dixbot/computer/qwixx"
	"github.com/dixgame/dixbot/engine"
	xrules "github.com/dixgame/dixbot/engine/dixxit"
	qrules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// thinkTime is how long a player of a test takes per decision, on the
// stand-in's clock.
const thinkTime = 3 * time.Second

// TestBotTokenCallsPerTurn plays a 3-player game under Discord's rate
// limits, every player taking thinkTime per decision (the stand-in's clock,
// on which Discord's rate-limit windows and the 15-minute life of an
// interaction token are counted, moves on by that much), and counts the
// requests the bot
// makes with its bot token: those count against the global limit of 50 per
// second for the whole bot, while the answers to clicks and their
// follow-ups, made with each interaction's own token, do not
// (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit,
// https://discord.com/developers/docs/interactions/receiving-and-responding#endpoints).
func TestBotTokenCallsPerTurn(t *testing.T) {
	t.Parallel()
	w, logs := loggedWorld(t, fakediscord.Options{DisableWeb: true, DisableRateLimits: os.Getenv("E2E_CALLS_REPORT") != ""})
	tb := w.table(t, "en-US", "Alice", "Bob", "Chloe")
	tb.lobby("/dix start")
	w.fake.ResetStats()

	turns, decisions := 1, 0
	active := dixOf(tb.record()).Active
	for tb.decide() {
		decisions++
		require.Less(t, decisions, 5000, "the game never ended")
		if rec := tb.record(); dixOf(rec) != nil && dixOf(rec).Active != active {
			active = dixOf(rec).Active
			turns++
		}
	}
	tb.checkScoreboard([]string{"Alice", "Bob", "Chloe"})

	st := w.fake.Stats()
	var b strings.Builder
	for _, r := range st.RouteNames() {
		fmt.Fprintf(&b, "  %-50s %-11s %5d (429: %d)\n", r, st.Routes[r].Class, st.Routes[r].Requests, st.Routes[r].RateLimited)
	}
	perTurn := float64(st.BotToken) / float64(turns)
	t.Logf("%d turns, %d decisions: %d bot-token requests (%.2f per turn), %d with interaction tokens, %d answered 429\n%s",
		turns, decisions, st.BotToken, perTurn, st.InteractionToken, st.RateLimited, b.String())
	if os.Getenv("E2E_CALLS_REPORT") != "" {
		return // measuring only
	}
	assert.LessOrEqual(t, float64(st.BotToken), 0.1*float64(turns)+float64(takenOver(t, logs)), "bot-token requests per turn")
}

// loggedWorld is newWorldWith on Redis, its program logging to the
// buffer it returns.
func loggedWorld(t *testing.T, opts fakediscord.Options) (*world, *syncBuffer) {
	t.Helper()
	fake := fakediscord.Start(t, opts)
	t.Cleanup(func() { noViolations(t, fake) })
	w := &world{fake: fake, redis: redistest.Start(t)}
	w.cfg = baseConfig(t, fake, w.redis.URL())
	logs := new(syncBuffer)
	w.bot = startAppLogging(t, w.cfg, slog.New(slog.NewTextHandler(logs, nil)))
	return w, logs
}

// takenOver is how many bot-token requests the program's logs allow: a
// change whose process has not done its effects within the grace, or
// could not finish them (a busy machine: Discord's answer came after the
// call's deadline), leaves them to the due work, which posts with the bot
// token, a few requests each (reading the channel for a ping an earlier
// try may have posted, posting, editing).
func takenOver(t *testing.T, logs *syncBuffer) int {
	t.Helper()
	n := strings.Count(logs.String(), "effects left to the process that took them over") +
		strings.Count(logs.String(), "effects left for later")
	t.Logf("%d batches of effects left to the due work", n)
	return 4 * n
}

// TestFivePlayersFasterThanTheRateLimits plays a 5-player game (many
// auctions) with every player clicking as fast as the program answers,
// far faster than people, and Discord's rate limits on: every click is
// answered within Discord's 3 seconds (the stand-in refuses a later
// answer), no Discord work is lost (the game gets archived, which its
// last effect does) and no notifying message is deleted. (People who
// click this fast are at the board: the table pings nobody but at the
// end, so the 429s the stand-in answers, if any, are the follow-ups'.)
func TestFivePlayersFasterThanTheRateLimits(t *testing.T) {
	t.Parallel()
	w := newWorldWith(t, true, fakediscord.Options{DisableWeb: true})
	names := []string{"Ann", "Ben", "Cat", "Dov", "Eli"}
	tb := w.table(t, "en-US", names...)
	tb.think = 0
	tb.lobby("/dix start")
	tb.playToEnd()
	tb.checkScoreboard(names)

	// The game's last effect archives it, and effects are done in order,
	// none skipped while Discord can still take it: archived, all is done.
	require.Eventually(t, func() bool { return tb.record().Finished }, time.Minute, 50*time.Millisecond,
		"the Discord work of the game was all done")
	st := w.fake.Stats()
	p := tb.countPings()
	t.Logf("%d turns, slowest answer %v, %d answers 429, %d bot-token and %d interaction requests, %d notifying messages (%d deleted)",
		p.turns, tb.slowest, st.RateLimited, st.BotToken, st.InteractionToken, p.messages, p.deleted)
	assert.Less(t, tb.slowest, 3*time.Second)
	assert.Positive(t, p.messages, "the end of the game notified the players")
	assert.Zero(t, p.deleted)
}

// TestQwixxBotTokenCallsPerTurn plays a 4-player Qwixx game at a human
// pace (thinkTime per decision on the stand-in's clock) and counts the
// requests made with the bot token per roll: every decision a click on
// the public board (its answer updates the board in place; a ping is a
// follow-up of the click), or, with "prompt", the active player's white
// sum taken in the private "My turn…" prompt, whose own token cannot edit
// the public board: that board is edited through the token of the last
// click on it (see editVia, bot/outbox_requests.go). Neither needs the bot token.
func TestQwixxBotTokenCallsPerTurn(t *testing.T) {
	t.Parallel()
	report := os.Getenv("E2E_CALLS_REPORT") != ""
	for _, mode := range []string{"board", "prompt"} {
		t.Run(mode, func(t *testing.T) {
			w, logs := loggedWorld(t, fakediscord.Options{DisableWeb: true, DisableRateLimits: report})
			names := []string{"Alice", "Bob", "Chloe", "Dan"}
			tb := w.table(t, "en-US", names...)
			r := tb.command(tb.users[0], "/qwixx start")
			require.NotNil(t, r.Message)
			board := *r.Message
			for _, u := range tb.users[1:] {
				board = tb.gameClick("qwixx", u, board, "join", "")
			}
			board = tb.gameClick("qwixx", tb.users[0], board, "go", "")
			w.fake.ResetStats()
			rng := rand.New(rand.NewPCG(3, 4))
			decisions, prompts := 0, 0
			var turns uint64
			for step := 0; ; step++ {
				require.Less(t, step, 5000, "the game does not end")
				rec := tb.record()
				if rec.Finished {
					break
				}
				st, err := qrules.Rules{}.Decode(rec.Data)
				require.NoError(t, err)
				if st.Over() {
					require.Eventually(t, func() bool { return tb.record().Finished }, time.Minute, 20*time.Millisecond, "archived")
					break
				}
				g := st.(qrules.State).Game()
				turns = uint64(g.Turn)
				deciding := g.ToDecide()
				seat := deciding[rng.IntN(len(deciding))]
				m, err := qcomputer.Player{Level: qcomputer.Normal}.Decide(st, seat, rand.New(rand.NewPCG(uint64(step), 2)))
				require.NoError(t, err)
				decisions++
				if mode == "prompt" && g.Phase == qrules.PhaseWhite && seat == g.Active {
					id, ok := gameButton("qwixx", board, "pr", "")
					require.True(t, ok, "no My turn button on %q", board.Content)
					p := tb.click(tb.users[seat], board.ID, id)
					require.True(t, p.Ephemeral() && p.Message != nil, "the prompt: %s", describe(p))
					white, colour, _, ok := qcomputer.Plan(g, seat)
					require.True(t, ok)
					white.Plan = qrules.Plan{Set: true, Pass: colour.Pass, Color: colour.Color, Number: colour.Number}
					tb.pickPlan(tb.users[seat], *p.Message, "mv:"+white.String())
					prompts++
				} else {
					board = tb.gameClick("qwixx", tb.users[seat], board, "mv", string(m))
				}
				tb.fake.Advance(tb.think)
				board = tb.qwixxBoardAsItStands(board.ID)
			}
			st := w.fake.Stats()
			var b strings.Builder
			for _, r := range st.RouteNames() {
				fmt.Fprintf(&b, "  %-50s %-11s %5d (429: %d)\n", r, st.Routes[r].Class, st.Routes[r].Requests, st.Routes[r].RateLimited)
			}
			perTurn := float64(st.BotToken) / float64(max(turns, 1))
			t.Logf("%s: %d rolls, %d decisions (%d in the prompt): %d bot-token requests (%.2f per roll), %d with interaction tokens, %d answered 429\n%s",
				mode, turns, decisions, prompts, st.BotToken, perTurn, st.InteractionToken, st.RateLimited, b.String())
			if report {
				return
			}
			assert.LessOrEqual(t, st.BotToken, takenOver(t, logs), "bot-token requests at human pace")
		})
	}
}

// qwixxBoardAsItStands waits until the Qwixx board message shows the game
// as it stands (its sheet lines mark the seats deciding and its buttons
// carry the version their decisions opened at; an edit owed after a
// decision taken elsewhere lands after that decision's answer) and
// returns it.
func (tb *table) qwixxBoardAsItStands(id string) fakediscord.Message {
	tb.t.Helper()
	var board fakediscord.Message
	require.Eventually(tb.t, func() bool {
		rec := tb.record()
		m, ok := tb.fake.Message(id)
		if !ok {
			return false
		}
		board = m
		if rec.Finished || rec.Data == nil {
			return true
		}
		st, err := qrules.Rules{}.Decode(rec.Data)
		if err != nil || st.Over() {
			return err == nil
		}
		var meta struct {
			Open  []uint64 `json:"op"`
			Seats []struct {
				Name string `json:"n"`
			} `json:"s"`
		}
		if json.Unmarshal(rec.Meta, &meta) != nil {
			return false
		}
		g := st.(qrules.State).Game()
		v := st.Seq()
		if deciding := g.ToDecide(); len(deciding) > 0 {
			v = 0
			for _, s := range deciding {
				if s < len(meta.Open) {
					v = max(v, meta.Open[s])
				}
			}
		}
		for s, seat := range meta.Seats {
			marked := strings.Contains(m.Content, "▶ "+seat.Name+":")
			if marked != g.Deciding(s) {
				return false
			}
		}
		want := fmt.Sprintf("qwixx:mv:%d:", v)
		for _, c := range components(m) {
			if strings.HasPrefix(c.CustomID, want) {
				return true
			}
		}
		return false
	}, time.Minute, 10*time.Millisecond, "the board shows the game as it stands")
	return board
}

// TestDixxitBotTokenCallsPerTurn plays a 4-person Dixxit game at a human
// pace and counts the requests made with the bot token per turn: each
// clue given in the clue-giver's private prompt and its form (whose tokens
// cannot edit the public board: the board is edited through the token of
// the last click on it), each finger a click on the board's squares.
func TestDixxitBotTokenCallsPerTurn(t *testing.T) {
	t.Parallel()
	report := os.Getenv("E2E_CALLS_REPORT") != ""
	w, logs := loggedWorld(t, fakediscord.Options{DisableWeb: true, DisableRateLimits: report})
	names := []string{"Alice", "Bob", "Chloe", "Dan"}
	tb := w.table(t, "en-US", names...)
	r := tb.command(tb.users[0], "/dixxit start")
	require.NotNil(t, r.Message)
	board := *r.Message
	for _, u := range tb.users[1:] {
		board = tb.gameClick("dixxit", u, board, "join", "")
	}
	board = tb.gameClick("dixxit", tb.users[0], board, "go", "")
	w.fake.ResetStats()
	rng := rand.New(rand.NewPCG(7, 9))
	var turns uint64
	decisions := 0
	for step := 0; ; step++ {
		require.Less(t, step, 2000, "the game does not end")
		rec := tb.record()
		if rec.Finished {
			break
		}
		st, err := xrules.Rules{}.Decode(rec.Data)
		require.NoError(t, err)
		if st.Over() {
			require.Eventually(t, func() bool { return tb.record().Finished }, time.Minute, 20*time.Millisecond, "archived")
			break
		}
		g := st.(*xrules.Game)
		v := g.ViewOf(engine.Public)
		turns = v.Turn
		decisions++
		if g.Phase() == xrules.PhaseClue {
			u := tb.users[g.Active()]
			pr := "dixxit:pr:" + strconv.FormatUint(g.Seq(), 10)
			board = tb.dixxitShowsID(board.ID, pr)
			prompt := tb.click(u, board.ID, pr)
			require.True(t, prompt.Ephemeral(), "the private prompt: %s", describe(prompt))
			md, ok := gameButton("dixxit", *prompt.Message, "md", "clue")
			require.True(t, ok, "no Give a clue button on the prompt")
			ix := tb.openForm(u, prompt.Message.ID, md)
			tb.submit(u, ix, map[string]string{"text": "clue " + strconv.Itoa(step)})
		} else {
			deciding := g.ToDecide()
			require.NotEmpty(t, deciding)
			seat := deciding[rng.IntN(len(deciding))]
			held := map[int]bool{}
			for _, f := range v.Fingers {
				held[f.Square] = true
			}
			var free []int
			for sq := 1; sq <= xrules.Squares; sq++ {
				if !held[sq] && v.Grid[sq-1] != "" {
					free = append(free, sq)
				}
			}
			sq := free[rng.IntN(len(free))]
			board = tb.dixxitShows(board.ID, "mv", "")
			board = tb.gameClick("dixxit", tb.users[seat], board, "mv", "f "+strconv.Itoa(sq)+" "+strconv.FormatUint(v.Turn, 10))
		}
		tb.fake.Advance(tb.think)
		board, _ = tb.fake.Message(board.ID)
	}
	st := w.fake.Stats()
	var b strings.Builder
	for _, r := range st.RouteNames() {
		fmt.Fprintf(&b, "  %-50s %-11s %5d (429: %d)\n", r, st.Routes[r].Class, st.Routes[r].Requests, st.Routes[r].RateLimited)
	}
	t.Logf("%d turns, %d decisions: %d bot-token requests (%.2f per turn), %d with interaction tokens, %d answered 429\n%s",
		turns, decisions, st.BotToken, float64(st.BotToken)/float64(max(turns, 1)), st.InteractionToken, st.RateLimited, b.String())
	if report {
		return
	}
	assert.LessOrEqual(t, st.BotToken, takenOver(t, logs), "bot-token requests at human pace")
}

// pickPlan chooses value in a Qwixx prompt's menu, going through the
// prompt's steps (values "st:…", which show the next step in place) until
// a step offers it.
func (tb *table) pickPlan(user fakediscord.User, prompt fakediscord.Message, value string) {
	tb.t.Helper()
	sel, ok := gameButton("qwixx", prompt, "sel", "")
	require.True(tb.t, ok, "no menu in the prompt")
	var steps []string
	for _, c := range components(prompt) {
		if c.CustomID != sel {
			continue
		}
		for _, o := range c.Options {
			if o.Value == value {
				tb.pick(user, prompt.ID, sel, value)
				return
			}
			if strings.HasPrefix(o.Value, "st:") {
				steps = append(steps, o.Value)
			}
		}
	}
	for _, st := range steps {
		r := tb.pick(user, prompt.ID, sel, st)
		require.NotNil(tb.t, r.Message, "step %s", st)
		sel2, ok := gameButton("qwixx", *r.Message, "sel", "")
		if !ok {
			continue
		}
		for _, c := range components(*r.Message) {
			if c.CustomID != sel2 {
				continue
			}
			for _, o := range c.Options {
				if o.Value == value {
					tb.pick(user, r.Message.ID, sel2, value)
					return
				}
			}
		}
	}
	tb.t.Fatalf("no step of the prompt offers %s", value)
}
