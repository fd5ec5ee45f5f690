package dixtable

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
)

// FuzzParseID: parseID never panics, and what it accepts is what customID
// builds.
func FuzzParseID(f *testing.F) {
	for _, s := range []string{"dix:draw:3", "dix:bidn:12:7", "dix:bsel:4:g", "dix::", "dix:draw:-1", "dix:draw:03", "dix:hand:0", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := bot.ParseID(s)
		if err != nil {
			return
		}
		var args []string
		if p.Arg != "" {
			args = append(args, p.Arg)
		}
		back := bot.CustomID(p.Verb, p.Version, args...)
		assert.Equal(t, s, back, "only the canonical form is accepted")
		q, err := bot.ParseID(back)
		require.NoError(t, err)
		assert.Equal(t, p, q)
	})
}

// FuzzClick: any component click or modal submission on a live game is
// answered exactly once, never panics, and a refused one changes nothing.
func FuzzClick(f *testing.F) {
	f.Add("dix:draw:0", "u1", "", false)
	f.Add("dix:bidn:1:3", "u2", "", false)
	f.Add("dix:bmod:1:g3", "u2", "12", true)
	f.Add("dix:bsel:0", "u1", "g3", false)
	f.Add("dix:amod:1", "u2", "abc", true)
	f.Add("dix:pko:1:w.3.0.ff", "u2", "", false)
	f.Add("dix:pkc:0:g3.0.0.0.1", "u1", "27", false)
	f.Fuzz(func(t *testing.T, id, user, value string, modal bool) {
		h := newHarness(t)
		seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
		board := h.Board()
		before := snap(h)
		var r result
		if modal {
			r = h.Submit(user, board, id, map[string]string{fieldAmount: value})
		} else if value != "" {
			r = h.ClickOn(user, board, id, value)
		} else {
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
