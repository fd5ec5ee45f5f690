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
		clickOnce(h, board, id, user, value, modal)
	})
}

// FuzzClickEveryGame is FuzzClick on a table that hosts the three games,
// on a game of the one pick names, on a message of the one where names:
// its board (0), the clicker's private prompt (1: Qwixx's marks, Dixxit's
// clue, its form and the clue said aloud) or a later public message that
// carries no button (2: a ping), where nothing a click does may change the
// game or the message; every game's ids go on the messages of another.
// The interactions' ids are snowflakes of the bot's clock, as Discord's.
func FuzzClickEveryGame(f *testing.F) {
	f.Add(uint8(1), uint8(0), "qwixx:mv:0:w r10", "u1", "", false)
	f.Add(uint8(1), uint8(0), "qwixx:mv:0:w -", "u2", "", false)
	f.Add(uint8(1), uint8(1), "qwixx:mv:0:c g7", "u2", "", false)
	f.Add(uint8(1), uint8(1), "qwixx:mv:0:w b10", "u3", "", false)
	f.Add(uint8(2), uint8(1), "dixxit:md:0:clue", "u2", "", false)
	f.Add(uint8(2), uint8(1), "dixxit:ms:0:clue", "u2", "a cat in the rain", true)
	f.Add(uint8(2), uint8(1), "dixxit:mv:0:aloud", "u2", "", false)
	f.Add(uint8(2), uint8(1), "dixxit:mv:0:aloud", "u1", "", false)
	f.Add(uint8(0), uint8(1), "dix:mv:1:d", "u1", "", false)
	f.Add(uint8(0), uint8(0), "qwixx:mv:0:w r10", "u1", "", false)
	f.Add(uint8(1), uint8(1), "dixxit:ms:0:clue", "u1", "x", true)
	f.Add(uint8(2), uint8(0), "table:set:0:lang", "u3", "fr", false)
	f.Add(uint8(1), uint8(2), "qwixx:mv:0:w r10", "u1", "", false)
	f.Add(uint8(0), uint8(2), "dix:log:0", "u2", "", false)
	f.Add(uint8(2), uint8(2), "dixxit:join:0", "u3", "", false)
	f.Fuzz(func(t *testing.T, pick, where uint8, id, user, value string, modal bool) {
		h := newEveryGameHarness(t)
		game := []string{"dix", "qwixx", "dixxit"}[int(pick)%3]
		target := h.openGame(game, []string{"u1", "u2", "u3"}, nil)
		require.NotNil(t, target)
		switch where % 3 {
		case 1:
			if pr, ok := gameFind(game, target, verbPrompt, ""); ok {
				if msg := h.dclick(user, target, pr).Shown(nil); msg != nil && len(msg.Components) > 0 {
					target = msg
				}
			}
		case 2:
			ping := &tabletest.Message{ID: "f999999", Content: "⏳ a ping"}
			before := snapshot(h)
			if modal { // a form said to come from the public ping
				i := h.Base(user, discordgo.InteractionModalSubmit)
				i.ID = h.snowflake()
				i.Data = discordgo.ModalSubmitInteractionData{CustomID: id, Components: []discordgo.MessageComponent{
					&discordgo.ActionsRow{Components: []discordgo.MessageComponent{&discordgo.TextInput{CustomID: modalText, Value: value}}}}}
				i.Message = &discordgo.Message{ID: ping.ID, ChannelID: h.Channel, Content: ping.Content}
				r := h.Run(i)
				require.NotEqual(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type, r.Describe())
			} else {
				clickOnce(h, ping, id, user, value, modal)
			}
			unchanged(h, before)
			assert.Nil(t, h.Rec.Message(ping.ID), "a message without the table's buttons is never edited")
			return
		}
		clickOnce(h, target, id, user, value, modal)
	})
}

// clickOnce clicks id on msg as user (with value, a menu's choice or,
// with modal, a form's text), in an interaction whose id is a snowflake
// of the bot's clock, and checks that it is answered once, does not
// panic, and changes nothing when refused.
func clickOnce(h *harness, msg *tabletest.Message, id, user, value string, modal bool) {
	t := h.T
	before := snapshot(h)
	var r result
	switch {
	case modal:
		r = h.dsubmit(user, msg, id, value)
	case value != "":
		i := h.ClickIx(user, msg, id, value)
		i.ID = h.snowflake()
		r = h.Run(i)
	default:
		r = h.dclick(user, msg, id)
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
}
