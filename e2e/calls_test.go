package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	w := newWorldWith(t, true, fakediscord.Options{DisableWeb: true, DisableRateLimits: os.Getenv("E2E_CALLS_REPORT") != ""})
	tb := w.table(t, "en-US", "Alice", "Bob", "Chloe")
	tb.lobby("/dix start")
	w.fake.ResetStats()

	turns, decisions := 1, 0
	active := tb.record().State.Active
	for tb.decide() {
		decisions++
		require.Less(t, decisions, 5000, "the game never ended")
		if rec := tb.record(); rec.State != nil && rec.State.Active != active {
			active = rec.State.Active
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
	assert.LessOrEqual(t, perTurn, 0.1, "bot-token requests per turn")
}

// TestFivePlayersFasterThanTheRateLimits plays a 5-player game (many
// auctions, each pinging the bidders) with every player clicking as fast as
// the program answers, far faster than people: the follow-ups exceed
// Discord's per-channel webhook limit and the bot-token messages its
// per-channel bucket, so Discord answers 429s. Yet every click is answered
// within Discord's 3 seconds (the stand-in refuses a later answer), no
// Discord work is lost (the game gets archived, which its last effect does;
// every turn's player is notified) and no notifying message is
// deleted.
func TestFivePlayersFasterThanTheRateLimits(t *testing.T) {
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
	assert.Positive(t, st.RateLimited, "the game met Discord's rate limits")
	assert.Less(t, tb.slowest, 3*time.Second)
	assert.GreaterOrEqual(t, p.messages, p.turns-1, "every turn's board notified its player")
	assert.Zero(t, p.deleted)
}
