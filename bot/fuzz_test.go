package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/tabletest"
)

// FuzzClick: any component click or form submission on a live game is
// answered exactly once, never panics, and a refused one changes nothing.
// The corpus is DIX's on the shared table: its moves, prompt, steps, menu
// and form, and ids of its own table.
func FuzzClick(f *testing.F) {
	f.Add("dix:mv:1:d", "u1", "", false)
	f.Add("dix:pr:1", "u2", "", false)
	f.Add("dix:st:1:b g3", "u1", "", false)
	f.Add("dix:st:1:p w.99.0.0", "u1", "", false)
	f.Add("dix:sel:1", "u1", "mv:d", false)
	f.Add("dix:ms:1:bid", "u2", "12", true)
	f.Add("dix:kick:1:0", "u2", "", false)
	f.Add("dix:draw:1", "u1", "", false)
	f.Add("dix:bidn:1:3", "u2", "", false)
	f.Add("table:set:0:lang", "u1", "fr", false)
	f.Fuzz(func(t *testing.T, id, user, value string, modal bool) {
		h := newDixHarness(t, 4, false)
		board := h.openGame("dix", []string{"u1", "u2"}, nil)
		require.NotNil(t, board)
		before := snapshot(h)
		var r result
		switch {
		case modal:
			r = h.Submit(user, board, id, map[string]string{modalText: value})
		case value != "":
			r = h.ClickOn(user, board, id, value)
		default:
			r = h.ClickOn(user, board, id)
		}
		answers := 0
		for _, c := range r.Calls {
			if c.Op == "respond" {
				answers++
			}
		}
		require.Equal(t, 1, answers)
		assert.Zero(t, h.Obs.Outcomes["button/panic"]+h.Obs.Outcomes["select/panic"]+h.Obs.Outcomes["modal/panic"])
		resp := r.Response()
		if resp.Type == discordgo.InteractionResponseChannelMessageWithSource && resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 &&
			len(resp.Data.Embeds) == 0 && len(tabletest.ComponentIDs(resp.Data.Components)) <= 1 {
			unchanged(h, before) // an error message: nothing changed
		}
	})
}
