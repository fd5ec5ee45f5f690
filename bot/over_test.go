package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// A private prompt kept open while its game ends is answered, on its next
// click, with the game's end and the link to its final scoreboard, and
// loses its buttons; a prompt of a game abandoned since gets the link to
// its last board.
func TestClickAfterTheEndLinksTheScoreboard(t *testing.T) {
	t.Parallel()
	for _, abandon := range []bool{false, true} {
		h := newDixHarness(t, 9, false)
		board := h.openGame("dix", []string{"u1", "u2"}, nil)
		require.NotNil(t, board)
		d := &dixDriver{h: h, users: []string{"u1", "u2"}, rng: rand.New(rand.NewPCG(9, 2)), seen: map[string]int{}, follow: true}
		var prompt *tabletest.Message
		var user string
		for i := 0; prompt == nil; i++ {
			require.Less(t, i, 300, "never a card to buy")
			g, td, _, _ := h.dixNow()
			if g.Phase != dix.PhaseBuy || len(g.Choices(g.ToAct()).Buyable) == 0 {
				require.True(t, d.decide())
				continue
			}
			user = d.users[g.ToAct()]
			now := h.Rec.Message(td.Board)
			prompt = h.ClickOn(user, now, h.dixMust(now, verbPrompt, "")).Shown(nil)
			require.NotNil(t, prompt)
		}
		if abandon {
			confirm := h.Run(h.GameCommandIx("dix", "u1", "abandon")).Shown(nil)
			require.NotNil(t, confirm)
			h.ClickOn("u1", confirm, h.dixMust(confirm, verbEnd, ""))
		} else {
			d.play(600)
		}
		_, td, _, over := h.dixNow()
		require.True(t, over, "the game is archived")
		sel := h.dixMust(prompt, verbSelect, "")
		res := h.ClickOn(user, prompt, sel, tabletest.SelectOptions(prompt, sel)[0])
		shown := res.Shown(prompt)
		require.NotNil(t, shown, res.Describe())
		key := "err_over_scores"
		if abandon {
			key = "err_over_abandoned"
		}
		assert.Equal(t, locales.T("en", key, map[string]any{"URL": messageURL(h.Guild, h.Channel, td.Board)}), shown.Content)
		assert.Empty(t, shown.Components, "the prompt loses its buttons")
	}
}
