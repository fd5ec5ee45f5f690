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

// A board of an earlier game of the channel, posted again with /qwixx
// board and so never retired, keeps buttons that look like the new game's:
// a click on it changes nothing in the new game.
func TestQwixxOldBoardOfAnEarlierGame(t *testing.T) {
	w := newWorld(t, false)
	tb := w.table(t, "en-US", "Alice", "Bob")
	open := func() fakediscord.Message {
		r := tb.command(tb.users[0], "/qwixx start")
		require.NotNil(t, r.Message)
		board := tb.gameClick("qwixx", tb.users[1], *r.Message, "join", "")
		return tb.gameClick("qwixx", tb.users[0], board, "go", "")
	}
	open()
	r := tb.command(tb.users[0], "/qwixx board")
	require.NotNil(t, r.Message)
	require.False(t, r.Ephemeral())
	repost := *r.Message
	r = tb.command(tb.users[0], "/qwixx abandon")
	require.True(t, r.Ephemeral(), "the confirmation: %s", describe(r))
	require.NotNil(t, r.Message)
	yes, ok := gameButton("qwixx", *r.Message, "abyes", "")
	require.True(t, ok, "the confirmation's button: %s", describe(r))
	r = tb.click(tb.users[0], r.Message.ID, yes)
	require.NotNil(t, r.Message)
	assert.Equal(t, locales.T("en", "abandon_done", nil), r.Message.Content, "abandoned: %s", describe(r))
	open()
	before := tb.record()
	id, ok := gameButton("qwixx", repost, "mv", "w -")
	require.True(t, ok, "the repost keeps its buttons")
	r = tb.click(tb.users[1], repost.ID, id)
	assert.True(t, r.Ephemeral(), "refused: %s", describe(r))
	after := tb.record()
	assert.Equal(t, before.Data, after.Data, "the new game is unchanged")
}
