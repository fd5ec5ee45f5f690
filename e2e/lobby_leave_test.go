package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/browsertest"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// TestLobbyLeaveCommand: /qwixx leave in a lobby, on the stand-in, is
// answered privately, and the lobby's message then stops listing the
// person who left, as the other players see it in headless Chromium
// (written to DIX_SCREENSHOT_DIR when set).
func TestLobbyLeaveCommand(t *testing.T) {
	t.Parallel()
	w := newWorldWith(t, false, fakediscord.Options{}) // its web view on
	fake := w.fake
	tb := w.table(t, "en-US", "Alice", "Bruno", "Chloé")
	r := tb.command(tb.users[0], "/qwixx start")
	require.NotNil(t, r.Message, "the lobby: %s", describe(r))
	lobby := tb.gameClick("qwixx", tb.users[1], *r.Message, "join", "")
	lobby = tb.gameClick("qwixx", tb.users[2], lobby, "join", "")
	require.Contains(t, lobby.Content, "Bruno")

	r = tb.command(tb.users[1], "/qwixx leave")
	assert.True(t, r.Ephemeral(), "the leave is answered privately: %s", describe(r))
	var shown fakediscord.Message
	require.NoError(t, waitUntil(waitCtx(t), fake, func() bool {
		shown, _ = fake.Message(lobby.ID)
		return !strings.Contains(shown.Content, "Bruno")
	}), "the lobby still lists Bruno: %q", shown.Content)
	assert.Contains(t, shown.Content, "Chloé")
	assert.Len(t, seats(t, tb.record()), 2)

	ctx := browsertest.Start(t, 1280, 900, 120*time.Second)
	shootMessage(t, ctx, fake, tb.channel.ID, tb.users[2].ID, lobby.ID, `button.btn`, "lobby-after-leave")
}
