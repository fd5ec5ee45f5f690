package e2e

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	computer "github.com/dixgame/dixbot/computer/qwixx"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// A game of Qwixx through the stand-in, in English on Redis and in
// French on the embedded store: two people and two computer seats, from /qwixx start to the
// final scoreboard, every decision a click on the public board.
func TestQwixxFullGame(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang, guild, line string
		names             []string
		redis             bool // the embedded store otherwise
	}{
		{"en", "en-US", "/qwixx start", []string{"Alice", "Bob"}, true},
		{"fr", "fr", "/qwixx start language:fr", []string{"Amélie/fr", "Bruno/fr"}, false},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			w := newWorld(t, tc.redis)
			tb := w.table(t, tc.guild, tc.names...)
			r := tb.command(tb.users[0], tc.line)
			require.NotNil(t, r.Message)
			require.False(t, r.Ephemeral(), "the lobby: %s", describe(r))
			board := *r.Message
			board = tb.gameClick("qwixx", tb.users[1], board, "join", "")
			board = tb.gameClick("qwixx", tb.users[0], board, "cpu", "easy")
			board = tb.gameClick("qwixx", tb.users[0], board, "cpu", "strong")
			board = tb.gameClick("qwixx", tb.users[0], board, "go", "")
			require.NotEmpty(t, board.Embeds, "the board's picture")
			rng := rand.New(rand.NewPCG(5, 6))
			for step := 0; ; step++ {
				require.Less(t, step, 1000, "the game does not end")
				rec := tb.record()
				require.Equal(t, "qwixx", rec.Game)
				if rec.Finished {
					break
				}
				st, err := rules.Rules{}.Decode(rec.Data)
				require.NoError(t, err)
				if st.Over() {
					// The game's last effect, after the answer, archives it.
					require.Eventually(t, func() bool { return tb.record().Finished }, time.Minute, 20*time.Millisecond, "archived")
					break
				}
				g := st.(rules.State).Game()
				deciding := g.ToDecide()
				require.NotEmpty(t, deciding)
				seat := deciding[rng.IntN(len(deciding))]
				require.Less(t, seat, 2, "a computer seat is waited for")
				m, err := computer.Player{Level: computer.Normal}.Decide(st, seat, rand.New(rand.NewPCG(uint64(step), 2)))
				require.NoError(t, err)
				board = tb.gameClick("qwixx", tb.users[seat], board, "mv", string(m))
			}
			assert.Contains(t, board.Content, locales.T(tc.lang, "qwixx_over_title", nil))
			if cs := components(board); assert.Len(t, cs, 1, "the scoreboard has only Rematch") {
				assert.Equal(t, "qwixx:again:0", cs[0].CustomID)
			}
			assert.NotEmpty(t, board.Embeds, "the scoreboard's picture")
			for _, n := range tc.names {
				name, _, _ := strings.Cut(n, "/")
				assert.Contains(t, board.Content, name)
			}
			assert.NotContains(t, board.Content, "⟦")

			// The second player, never at the board before the first roll,
			// was pinged once; the ping says so once they decided.
			settled, pings := 0, 0
			for _, m := range tb.fake.Transcript(tb.channel.ID) {
				switch {
				case strings.HasPrefix(m.Content, "✅"):
					settled++
				case strings.HasPrefix(m.Content, "🔔"):
					pings++
				}
			}
			assert.GreaterOrEqual(t, settled, 1, "a settled ping")
			assert.LessOrEqual(t, pings, 1, "pings left unsettled")
		})
	}
}

// /qwixx board posts the board again at the bottom of the channel, and
// that message is the board from then on, as with /dix board: the old
// one loses its buttons, the game goes on on the new one, and none of it
// takes a request with the bot token.
func TestQwixxBoardPostedAgain(t *testing.T) {
	t.Parallel()
	w := newWorldWith(t, false, fakediscord.Options{DisableWeb: true})
	tb := w.table(t, "en-US", "Alice", "Bob")
	old := tb.openGame("qwixx")
	w.fake.ResetStats()
	r := tb.command(tb.users[1], "/qwixx board")
	require.NotNil(t, r.Message)
	require.False(t, r.Ephemeral(), "the board, for everyone: %s", describe(r))
	repost := *r.Message
	require.NotEqual(t, old.ID, repost.ID)
	require.Eventually(t, func() bool {
		m, ok := tb.fake.Message(old.ID)
		return ok && len(components(m)) == 0
	}, time.Minute, 20*time.Millisecond, "the old board loses its buttons")
	td := tb.contractTable()
	assert.Equal(t, repost.ID, td.Board, "the repost is the board")

	before := tb.record()
	st, err := rules.Rules{}.Decode(before.Data)
	require.NoError(t, err)
	g := st.(rules.State).Game()
	seat := g.ToDecide()[0]
	m, err := computer.Player{Level: computer.Normal}.Decide(st, seat, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	board := tb.gameClick("qwixx", tb.users[seat], repost, "mv", string(m))
	assert.Equal(t, repost.ID, board.ID, "the click is answered on the new board")
	assert.Greater(t, tb.record().Version, before.Version, "the game goes on")
	assert.Zero(t, w.fake.Stats().BotToken, "bot-token requests")
}

// A game that moves on while the answer of /qwixx board is on its way
// (a click on the old board, taken first) is shown on the new board once
// it is the board; a game abandoned meanwhile leaves the message posted
// again without buttons.
func TestQwixxBoardPostedAgainWhileTheGameMoves(t *testing.T) {
	t.Parallel()
	w := newWorldWith(t, false, fakediscord.Options{DisableWeb: true})
	tb := w.table(t, "en-US", "Alice", "Bob")
	old := tb.openGame("qwixx")

	// Bob's /qwixx board is answered while Alice decides on the old board.
	hold := w.fake.HoldCallbacks(tb.users[1].ID)
	t.Cleanup(hold.Release)
	ix, err := w.fake.RunCommand(waitCtx(t), tb.users[1].ID, tb.channel.ID, "/qwixx board")
	require.NoError(t, err)
	select {
	case <-hold.Arrived():
	case <-time.After(waitTimeout):
		t.Fatal("no answer to /qwixx board")
	}
	st, err := rules.Rules{}.Decode(tb.record().Data)
	require.NoError(t, err)
	m, err := computer.Player{Level: computer.Normal}.Decide(st, 0, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	tb.gameClick("qwixx", tb.users[0], old, "mv", string(m))
	moved := tb.record()
	hold.Release()
	r, err := ix.Wait(waitCtx(t))
	require.NoError(t, err)
	require.NotNil(t, r.Message)
	repost := r.Message.ID
	require.Eventually(t, func() bool {
		o, ok := tb.fake.Message(old.ID)
		return ok && len(components(o)) == 0 && tb.contractTable().Board == repost
	}, time.Minute, 20*time.Millisecond, "the new message is the board, the old one has no buttons")
	// Alice's decision is shown on it: her seat is no longer to decide.
	tb.qwixxBoardAsItStands(repost)
	assert.Equal(t, moved.Data, tb.record().Data, "nobody else decided")

	// Bob's /qwixx board is answered while Alice abandons the game.
	hold = w.fake.HoldCallbacks(tb.users[1].ID)
	t.Cleanup(hold.Release)
	ix, err = w.fake.RunCommand(waitCtx(t), tb.users[1].ID, tb.channel.ID, "/qwixx board")
	require.NoError(t, err)
	select {
	case <-hold.Arrived():
	case <-time.After(waitTimeout):
		t.Fatal("no answer to /qwixx board")
	}
	a := tb.command(tb.users[0], "/qwixx abandon")
	require.NotNil(t, a.Message)
	yes, ok := gameButton("qwixx", *a.Message, "abyes", "")
	require.True(t, ok, describe(a))
	tb.click(tb.users[0], a.Message.ID, yes)
	require.Eventually(t, func() bool { return tb.record().Finished }, time.Minute, 20*time.Millisecond, "abandoned")
	hold.Release()
	r, err = ix.Wait(waitCtx(t))
	require.NoError(t, err)
	require.NotNil(t, r.Message)
	late := r.Message.ID
	require.Eventually(t, func() bool {
		n, ok := tb.fake.Message(late)
		return ok && len(components(n)) == 0
	}, time.Minute, 20*time.Millisecond, "the board posted again of the ended game has no buttons")
}

// /qwixx board in a lobby posts the lobby again at the bottom of the
// channel; the old one loses its buttons, and the game is joined and
// started on the new one, with no request made with the bot token.
func TestQwixxLobbyPostedAgain(t *testing.T) {
	t.Parallel()
	w := newWorldWith(t, false, fakediscord.Options{DisableWeb: true})
	tb := w.table(t, "en-US", "Alice", "Bob")
	r := tb.command(tb.users[0], "/qwixx start")
	require.NotNil(t, r.Message)
	old := *r.Message
	w.fake.ResetStats()
	r = tb.command(tb.users[1], "/qwixx board")
	require.NotNil(t, r.Message)
	require.False(t, r.Ephemeral(), describe(r))
	lobby := *r.Message
	require.Eventually(t, func() bool {
		m, ok := tb.fake.Message(old.ID)
		return ok && len(components(m)) == 0
	}, time.Minute, 20*time.Millisecond, "the old lobby loses its buttons")
	lobby = tb.gameClick("qwixx", tb.users[1], lobby, "join", "")
	board := tb.gameClick("qwixx", tb.users[0], lobby, "go", "")
	assert.Equal(t, board.ID, tb.contractTable().Board, "the game starts on the new lobby")
	assert.Zero(t, w.fake.Stats().BotToken, "bot-token requests")
}
