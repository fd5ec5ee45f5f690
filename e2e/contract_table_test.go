package e2e

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	computer "github.com/dixgame/dixbot/computer/qwixx"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/locales"
)

// contractTable is the part of a contract game's table data this test
// reads.
type contractTable struct {
	Creator string `json:"c"`
	Board   string `json:"b"`
	Pace    string `json:"pc"`
	First   int    `json:"fs"`
	Starts  int    `json:"st"`
	Seats   []struct {
		User  string `json:"u"`
		Level string `json:"cpu"`
	} `json:"s"`
}

func (tb *table) contractTable() contractTable {
	tb.t.Helper()
	var ct contractTable
	require.NoError(tb.t, json.Unmarshal(tb.record().Meta, &ct))
	return ct
}

// A Qwixx game through the stand-in, on Redis, at the evening pace, played
// to its scoreboard; Rematch there opens one lobby with the same seats and
// pace, the clicker its creator; a second click is told where it is; the
// rematch starts with the next seat.
func TestQwixxRematch(t *testing.T) {
	t.Parallel()
	w := newWorld(t, true)
	tb := w.table(t, "en-US", "Alice", "Bob")
	r := tb.command(tb.users[0], "/qwixx start")
	require.NotNil(t, r.Message)
	board := *r.Message
	board = tb.gameClick("qwixx", tb.users[1], board, "join", "")
	board = tb.gameClick("qwixx", tb.users[0], board, "cpu", "strong")
	paceID, ok := gameButton("qwixx", board, "pace", "")
	require.True(t, ok, "the lobby's pace menu")
	r = tb.pick(tb.users[0], board.ID, paceID, "evening")
	require.False(t, r.Ephemeral(), "the pace chosen: %s", describe(r))
	board, _ = tb.fake.Message(board.ID)
	assert.Contains(t, board.Content, locales.T("en", "qwixx_pace_evening", nil))
	board = tb.gameClick("qwixx", tb.users[0], board, "go", "")
	first := tb.contractTable().First
	require.Positive(t, first)

	rng := rand.New(rand.NewPCG(7, 8))
	for step := 0; ; step++ {
		require.Less(t, step, 1000, "the game does not end")
		rec := tb.record()
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
		deciding := st.ToDecide()
		require.NotEmpty(t, deciding)
		seat := deciding[rng.IntN(len(deciding))]
		m, err := computer.Player{Level: computer.Normal}.Decide(st, seat, rand.New(rand.NewPCG(uint64(step), 3)))
		require.NoError(t, err)
		board = tb.gameClick("qwixx", tb.users[seat], board, "mv", string(m))
	}
	board, _ = tb.fake.Message(board.ID)
	again, ok := gameButton("qwixx", board, "again", "")
	require.True(t, ok, "the scoreboard's Rematch: %v", components(board))

	r = tb.click(tb.users[1], board.ID, again)
	require.NotNil(t, r.Message)
	require.False(t, r.Ephemeral(), "Rematch refused: %s", describe(r))
	lobby := *r.Message
	assert.NotEqual(t, board.ID, lobby.ID, "the rematch is a new message")
	assert.Contains(t, lobby.Content, "<@"+tb.users[0].ID+">", "the other person is called")
	ct := tb.contractTable()
	assert.Equal(t, tb.users[1].ID, ct.Creator)
	assert.Equal(t, "evening", ct.Pace)
	require.Len(t, ct.Seats, 3)
	assert.Equal(t, "strong", ct.Seats[2].Level)
	assert.Equal(t, first%3+1, ct.Starts)

	r = tb.click(tb.users[0], board.ID, again)
	require.True(t, r.Ephemeral(), "a second Rematch opens nothing: %s", describe(r))
	assert.Equal(t, locales.T("en", "table_err_rematch_lobby", map[string]any{"Name": "Bob"}), r.Message.Content)

	next := tb.gameClick("qwixx", tb.users[1], lobby, "go", "")
	assert.NotEmpty(t, components(next))
	assert.Equal(t, first%3+1, tb.contractTable().First, "the next seat starts")
}
