package bot

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	botdix "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
)

// A move the game refuses (a click out of turn) and a command of another
// game in a busy channel are refusals: said privately and counted as
// such, not as the bot's errors.
func TestSharedTableRefusalsAreCountedAsRefused(t *testing.T) {
	t.Parallel()
	h := newDixHarnessOn(t, nil, botdix.Game(), 3, false)
	b, err := New(Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 3 }, Observer: h.Obs, NoPictures: true,
		Games: []present.Game{botdix.Game(), botqwixx.Game()}})
	require.NoError(t, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	h.b = b
	board := h.openGame("dix", []string{"u1", "u2"}, nil)
	g, td, _, _ := h.dixNow()
	waiting := td.Seats[1-g.ToAct()].User
	draw := h.dixMust(board, verbMove, "draw")

	r := h.ClickOn(waiting, board, draw)
	assert.NotEmpty(t, r.EphemeralText(), "told privately")
	r = h.Run(h.GameCommandIx("qwixx", "u1", "start"))
	assert.NotEmpty(t, r.EphemeralText(), "told privately")
	h.Obs.Mu.Lock()
	defer h.Obs.Mu.Unlock()
	assert.Zero(t, h.Obs.Outcomes["button/error"]+h.Obs.Outcomes["command/error"], "no error: %v", h.Obs.Outcomes)
	assert.Equal(t, 1, h.Obs.Outcomes["button/refused"], "%v", h.Obs.Outcomes)
	assert.Equal(t, 1, h.Obs.Outcomes["command/refused"], "%v", h.Obs.Outcomes)
}
