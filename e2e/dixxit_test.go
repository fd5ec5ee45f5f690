package e2e

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	rules "github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// dixxitShows waits until the message shows a Dixxit button of verb (and
// argument): a decision taken in a private prompt edits the board after
// its answer.
func (tb *table) dixxitShows(msgID, verb, arg string) fakediscord.Message {
	tb.t.Helper()
	for end := time.Now().Add(waitTimeout); ; time.Sleep(20 * time.Millisecond) {
		m, ok := tb.fake.Message(msgID)
		require.True(tb.t, ok)
		if _, ok := gameButton("dixxit", m, verb, arg); ok || time.Now().After(end) {
			return m
		}
	}
}

// dixxitShowsID waits until the message shows the button of custom id id.
func (tb *table) dixxitShowsID(msgID, id string) fakediscord.Message {
	tb.t.Helper()
	for end := time.Now().Add(waitTimeout); ; time.Sleep(20 * time.Millisecond) {
		m, ok := tb.fake.Message(msgID)
		require.True(tb.t, ok)
		for _, c := range components(m) {
			if c.CustomID == id {
				return m
			}
		}
		require.False(tb.t, time.Now().After(end), "no button %s on %q", id, m.Content)
	}
}

// A game of Dixxit through the stand-in, in English on Redis and in
// French on the embedded store: three people and one computer seat, from /dixxit start to the
// final scoreboard; each clue through the clue-giver's private prompt and
// its form, each finger a click on the public board's squares (the
// stand-in's interaction ids are snowflakes, the fingers' times).
func TestDixxitFullGame(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang, guild, line string
		names             []string
		redis             bool // the embedded store otherwise
	}{
		{"en", "en-US", "/dixxit start", []string{"Alice", "Bob", "Chloe"}, true},
		{"fr", "fr", "/dixxit start language:fr", []string{"Amélie/fr", "Bruno/fr", "Céline/fr"}, false},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			w := newWorld(t, tc.redis)
			tb := w.table(t, tc.guild, tc.names...)
			r := tb.command(tb.users[0], tc.line)
			require.NotNil(t, r.Message)
			require.False(t, r.Ephemeral(), "the lobby: %s", describe(r))
			board := *r.Message
			board = tb.gameClick("dixxit", tb.users[1], board, "join", "")
			board = tb.gameClick("dixxit", tb.users[2], board, "join", "")
			board = tb.gameClick("dixxit", tb.users[0], board, "cpu", "normal")
			// The live pace: the computer guesser's reaction time is a
			// person's, seconds, not the evening pace's minutes.
			paceID, ok := gameButton("dixxit", board, "pace", "")
			require.True(t, ok, "the lobby's pace menu")
			r = tb.pick(tb.users[0], board.ID, paceID, "live")
			require.False(t, r.Ephemeral(), "the pace chosen: %s", describe(r))
			board, _ = tb.fake.Message(board.ID)
			board = tb.gameClick("dixxit", tb.users[0], board, "go", "")
			require.NotEmpty(t, board.Embeds, "the grid picture")
			rng := rand.New(rand.NewPCG(7, 8))
			clues := 0
			for step := 0; ; step++ {
				require.Less(t, step, 1000, "the game does not end")
				rec := tb.record()
				require.Equal(t, "dixxit", rec.Game)
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
				g := st.(*rules.Game)
				v := g.ViewOf(engine.Public)
				if g.Phase() == rules.PhaseClue {
					u := tb.users[g.Active()]
					// The board of this turn: a clue given in the private
					// prompt edits the board after its answer, and the
					// computer's finger may already have scored that turn;
					// the board of the turn before says another gives the
					// clue, and its button is answered as outdated.
					pr := "dixxit:pr:" + strconv.FormatUint(g.Seq(), 10)
					board = tb.dixxitShowsID(board.ID, pr)
					prompt := tb.click(u, board.ID, pr)
					require.True(t, prompt.Ephemeral(), "the private prompt: %s", describe(prompt))
					require.NotEmpty(t, prompt.Message.Embeds, "the grid with the target framed: type %d %s", prompt.Type, describe(prompt))
					md, ok := gameButton("dixxit", *prompt.Message, "md", "clue")
					require.True(t, ok, "no Give a clue button on the prompt")
					ix := tb.openForm(u, prompt.Message.ID, md)
					done := tb.submit(u, ix, map[string]string{"text": "clue " + strconv.Itoa(step)})
					require.NotNil(t, done.Message)
					assert.Equal(t, locales.T(tc.lang, "table_prompt_done", nil), done.Message.Content)
					clues++
				} else {
					deciding := g.ToDecide()
					require.NotEmpty(t, deciding)
					// People race; the computer seat (3) guesses once its
					// reaction time is over, by itself.
					var people []int
					for _, seat := range deciding {
						if seat < 3 {
							people = append(people, seat)
						}
					}
					if len(people) == 0 {
						seq := g.Seq()
						require.Eventually(t, func() bool { return tb.record().Version > rec.Version }, waitTimeout, 50*time.Millisecond,
							"the computer guesser of state %d never fingers", seq)
						continue
					}
					seat := people[rng.IntN(len(people))]
					held := map[int]bool{}
					for _, f := range v.Fingers {
						held[f.Square] = true
					}
					var free []int
					for sq := 1; sq <= rules.Squares; sq++ {
						if !held[sq] && v.Grid[sq-1] != "" {
							free = append(free, sq)
						}
					}
					sq := free[rng.IntN(len(free))]
					// The board may still show the move before (a computer's
					// finger is the table's due work, which edits the board
					// after its write).
					finger := "f " + strconv.Itoa(sq) + " " + strconv.FormatUint(v.Turn, 10)
					board = tb.dixxitShows(board.ID, "mv", finger)
					board = tb.gameClick("dixxit", tb.users[seat], board, "mv", finger)
				}
				board, _ = tb.fake.Message(board.ID)
			}
			board, _ = tb.fake.Message(board.ID)
			assert.Positive(t, clues)
			assert.Contains(t, board.Content, locales.T(tc.lang, "dixxit_over_title", nil))
			if cs := components(board); assert.Len(t, cs, 1, "the scoreboard has only Rematch") {
				assert.Equal(t, "dixxit:again:0", cs[0].CustomID)
			}
			assert.NotEmpty(t, board.Embeds, "the scoreboard's picture")
			for _, n := range tc.names {
				name, _, _ := strings.Cut(n, "/")
				assert.Contains(t, board.Content, name)
			}
			assert.NotContains(t, board.Content, "⟦")
		})
	}
}
