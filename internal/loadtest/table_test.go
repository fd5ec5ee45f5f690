package loadtest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// post posts a message with one row of buttons to channel as the bot,
// through the stand-in's REST API.
func post(t *testing.T, fake *fakediscord.Server, channel, content string, ids ...string) fakediscord.Message {
	t.Helper()
	var buttons []map[string]any
	for _, id := range ids {
		buttons = append(buttons, map[string]any{"type": 2, "style": buttonPrimary, "label": id, "custom_id": id})
	}
	body := map[string]any{"content": content}
	if len(buttons) > 0 {
		body["components"] = []map[string]any{{"type": 1, "components": buttons}}
	}
	b, err := json.Marshal(body)
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, fake.URL()+"api/v10/channels/"+channel+"/messages", bytes.NewReader(b))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot "+fake.Token())
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var m fakediscord.Message
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
	return m
}

// The players follow the board wherever the bot shows it: a board posted
// again further down the channel replaces the one known, whatever came
// between; of two boards the one of the newest state is the board (an
// older one left live is not); the final scoreboard ends the game; the
// messages before the game's lobby are an earlier game's.
func TestPlayersFollowTheNewestBoard(t *testing.T) {
	t.Parallel()
	fake, err := fakediscord.New(fakediscord.Options{DisableWeb: true, DisableRateLimits: true})
	require.NoError(t, err)
	defer fake.Close()
	g := fake.AddGuild(fakediscord.GuildSpec{Name: "load"})
	ch, err := fake.AddChannel(g.ID, "qwixx")
	require.NoError(t, err)
	tb := &table{fake: fake, channel: ch.ID, game: newQwixxMarkers("en", []string{"p1", "p2"})}

	post(t, fake, ch.ID, "an earlier game's board", "qwixx:mv:90:w -")
	lobby := post(t, fake, ch.ID, "lobby", "qwixx:mv:3:w -")
	tb.since = lobby.ID
	v, ok := tb.board(lobby.ID)
	require.True(t, ok)
	assert.Equal(t, lobby.ID, v.msg.ID, "the lobby became the board")
	assert.Equal(t, uint64(3), v.version)

	post(t, fake, ch.ID, "p1, your turn")
	again := post(t, fake, ch.ID, "the board posted again", "qwixx:mv:5:w -", "qwixx:mv:5:c -")
	post(t, fake, ch.ID, "p2, your turn")
	v, ok = tb.board(lobby.ID)
	require.True(t, ok)
	assert.Equal(t, again.ID, v.msg.ID, "the board posted again")
	assert.Equal(t, uint64(5), v.version)

	post(t, fake, ch.ID, "a board of a state before, left live", "qwixx:mv:4:w -")
	v, ok = tb.board(again.ID)
	require.True(t, ok)
	assert.Equal(t, again.ID, v.msg.ID, "the newest state's board")

	for range recentMessages {
		post(t, fake, ch.ID, "a line")
	}
	v, ok = tb.board(again.ID)
	require.True(t, ok)
	assert.Equal(t, again.ID, v.msg.ID, "the board further up the channel")

	post(t, fake, ch.ID, locales.T("en", "qwixx_over_title", nil)+"\n1. p1", "qwixx:again:0")
	v, ok = tb.board(again.ID)
	require.True(t, ok)
	assert.True(t, v.over, "the scoreboard")

	_, ok = tb.board("99999999999999999999")
	assert.False(t, ok, "no board of that id, none newer")
}
