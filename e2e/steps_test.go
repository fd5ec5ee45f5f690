package e2e

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// TestRateLimitedStepPostsOneBoard: every fresh board the bot posts is
// followed by a 429 on the bot's next two requests (retiring the previous
// board through the interaction, then with the bot token). The board effect is tried again, and only its missing step is
// redone: each turn has exactly one board ever posted, and at the end no
// board but the last one kept its buttons.
func TestRateLimitedStepPostsOneBoard(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)
	fault := w.fake.RateLimitAfterBoards(1000, 2)
	tb := w.table(t, "en-US", "Alice", "Bob", "Chloe")
	tb.lobby("/dix start")
	for range 40 {
		if !tb.decide() {
			break
		}
	}
	require.Positive(t, fault.Count(), "the fault answered 429 after a board")

	// Every board the bot posted, by the title it was posted with (one
	// per turn), once the outbox is done.
	require.NoError(t, waitUntil(waitCtx(t), tb.fake, func() bool {
		live := liveBoards(tb.fake, tb.channel.ID, 0)
		return len(live) == 1 && len(decisionButtons(live[0], version(t, tb.record()))) > 0
	}), "one live board, for the game as it stands, once the retries are done")
	titles := map[string]int{}
	for _, m := range tb.fake.Transcript(tb.channel.ID) {
		first := firstVersion(m)
		if m.Ephemeral() || len(first.Embeds) == 0 || !hasGameButtons(first.Components) {
			continue
		}
		titles[first.Embeds[0].Title]++
	}
	require.NotEmpty(t, titles)
	for title, n := range titles {
		assert.Equal(t, 1, n, "boards posted for %q", title)
	}
	t.Logf("%d turns, one board each; %d requests answered 429 after a board", len(titles), fault.Count())
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
