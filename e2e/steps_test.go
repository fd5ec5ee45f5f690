package e2e

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// TestRateLimitedStepPostsOneBoard: the shared table keeps one board,
// edited in place, and posts it again only on /dix board, after which
// the previous board is retired by an effect of the outbox. Every
// /dix board here is followed by 429s on the bot's next edits (through
// an interaction, then with the bot token): the retirement is tried
// again, and only that step is redone. Each board was posted once (the
// first, and one per /dix board), and at the end no board but the last
// one kept its buttons, for the game as it stands.
func TestRateLimitedStepPostsOneBoard(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)
	tb := w.table(t, "en-US", "Alice", "Bob", "Chloe")
	tb.lobby("/dix start")
	again := 0
	for i := range 40 {
		if i%8 == 3 {
			w.fake.RateLimitNext("PATCH /webhooks/{id}/{token}/messages/{id}", 2, 300*time.Millisecond)
			w.fake.RateLimitNext("PATCH /channels/{id}/messages/{id}", 2, 300*time.Millisecond)
			r := tb.command(tb.users[i%len(tb.users)], "/dix board")
			require.False(t, r.Ephemeral(), "the board posted again: %s", describe(r))
			again++
		}
		if !tb.decide() {
			break
		}
	}
	limited := 0
	for _, route := range []string{"PATCH /webhooks/{id}/{token}/messages/{id}", "PATCH /channels/{id}/messages/{id}"} {
		limited += w.fake.Stats().Routes[route].RateLimited
	}
	require.Positive(t, limited, "edits answered 429")

	require.NoError(t, waitUntil(waitCtx(t), tb.fake, func() bool {
		live := liveBoards(tb.fake, tb.channel.ID, 0)
		return len(live) == 1 && len(decisionButtons(live[0], version(t, tb.record()))) > 0
	}), "one live board, for the game as it stands, once the retries are done")
	posted := 0
	for _, m := range tb.fake.Transcript(tb.channel.ID) {
		if first := firstVersion(m); !m.Ephemeral() && len(first.Embeds) > 0 && hasGameButtons(first.Components) {
			posted++
		}
	}
	// The lobby became the first board (posted without game buttons).
	assert.Equal(t, again, posted, "boards posted with game buttons: one per /dix board")
	t.Logf("%d boards posted again; %d edits answered 429", again, limited)
}

// firstVersion is m as it was first posted.
func firstVersion(m fakediscord.Message) fakediscord.Message {
	if len(m.History) == 0 {
		return m
	}
	h := m.History[0]
	m.Content, m.Embeds, m.Components = h.Content, h.Embeds, h.Components
	return m
}

// hasGameButtons reports whether rows carry a game decision button.
func hasGameButtons(rows []fakediscord.Component) bool {
	for _, c := range components(fakediscord.Message{Components: rows}) {
		if id, ok := parseCustomID(c.CustomID); ok && slices.Contains(gameVerbs, id.verb) {
			return true
		}
	}
	return false
}
