package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/locales"
)

// TestStatsCommandsThroughTheStandIn: on both stores, /stats, /leaderboard
// and /forget-me through the stand-in, typed as English and French users
// type them; a server's stats are never shown in another.
func TestStatsCommandsThroughTheStandIn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		redis bool
	}{{"redis", true}, {"embedded", false}} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, tc.redis)
			tb := w.table(t, "en-US", "Alice", "Bob/fr", "Chloe")
			alice, bob := tb.users[0], tb.users[1]
			st, ok := w.store().(dixbot.Stats)
			require.True(t, ok, "the store keeps stats")
			for i, ranks := range [][2]int{{1, 2}, {1, 2}, {2, 1}} {
				_, err := st.RecordResult(context.Background(), &dixbot.Result{Guild: tb.guild.ID, Game: "dix",
					ID: tb.channel.ID + ":" + string(rune('a'+i)), At: time.Now(), Seats: []dixbot.ResultSeat{
						{User: alice.ID, Name: "Alice", Score: 40 - ranks[0], Rank: ranks[0]},
						{User: bob.ID, Name: "Bob", Score: 40 - ranks[1], Rank: ranks[1]},
						{Level: "strong", Score: 20, Rank: 3},
					}})
				require.NoError(t, err)
			}
			embed := func(line string, u int) (string, bool) {
				t.Helper()
				r := tb.command(tb.users[u], line)
				require.NotNil(t, r.Message, line)
				if len(r.Message.Embeds) == 0 {
					return r.Message.Content, r.Ephemeral()
				}
				return r.Message.Embeds[0].Title + "\n" + r.Message.Embeds[0].Description, r.Ephemeral()
			}

			txt, private := embed("/stats", 0)
			assert.True(t, private, "/stats is private")
			assert.Contains(t, txt, "Alice on this server")
			assert.Contains(t, txt, "**DIX**: 3 games, 2 wins (67 %)")
			txt, private = embed("/stats membre:Alice jeu:DIX", 1)
			assert.True(t, private)
			assert.Contains(t, txt, "Alice sur ce serveur")
			assert.Contains(t, txt, "3 parties, 2 victoires (67 %), score moyen 38,7")

			txt, private = embed("/leaderboard game:DIX", 2)
			assert.False(t, private, "/leaderboard is public")
			assert.Contains(t, txt, "**1.** Alice")
			assert.Contains(t, txt, "**2.** Bob")
			_, private = embed("/classement jeu:Qwixx", 1)
			assert.False(t, private)

			// Another server: nothing of this one.
			other := w.table(t, "fr", "Dan/fr")
			require.NoError(t, w.fake.AddMember(other.guild.ID, alice.ID, 0))
			r := other.command(alice, "/stats")
			assert.Equal(t, locales.T("en", "stats_none", map[string]any{"Name": "Alice"}), r.Message.Content)
			r = other.command(other.users[0], "/classement jeu:DIX")
			require.NotEmpty(t, r.Message.Embeds)
			assert.NotContains(t, r.Message.Embeds[0].Description, "Alice")

			// /forget-me, confirmed, in French.
			r = tb.command(bob, "/oublie-moi")
			require.True(t, r.Ephemeral())
			assert.Equal(t, locales.T("fr", "forget_confirm", nil), r.Message.Content)
			r = tb.click(bob, r.Message.ID, "table:fgyes:0")
			require.NotNil(t, r.Message)
			assert.Equal(t, locales.T("fr", "forget_done", nil), r.Message.Content)
			r = tb.command(bob, "/stats")
			assert.Equal(t, locales.T("fr", "stats_none", map[string]any{"Name": "Bob"}), r.Message.Content)
			txt, _ = embed("/leaderboard game:DIX", 2)
			assert.False(t, strings.Contains(txt, "Bob"), "Bob is off the leaderboard: %s", txt)
			txt, _ = embed("/stats", 0)
			assert.Contains(t, txt, "3 games", "Alice keeps hers")
		})
	}
}
