package dixtable

import (
	"context"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot/bot"
	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// answerApplied answers a redelivered click on a DIX game the store
// applied already and nobody answered (Call.answerApplied): a click on the
// game's current board shows the game as it stands, a click on any other
// public message is acknowledged (the outbox brings every message the
// change owed up to date), a private prompt and a command say it is done.
func answerApplied(c *bot.Call) {
	done := locales.T(c.Lang, "done_generic", nil)
	msg := c.I.Message
	switch {
	case c.I.Type != discordgo.InteractionMessageComponent || msg == nil:
		c.Ephemeral(done, nil)
	case msg.Flags&discordgo.MessageFlagsEphemeral != 0:
		c.Update(done, nil, nil)
	default:
		if r, m, err := tableQuiet(c); err == nil && dix.GameOf(r.State) != nil && dix.GameOf(r.State).Phase != dix.PhaseOver {
			if m.Board == msg.ID && !bot.OwesBoardChange(m.Outbox, msg.ID) {
				e, files := boardMessage(c.B, m.Lang, m, dix.GameOf(r.State), c.CanAttach())
				c.Shows = &bot.Shows{Seq: uint64(dix.GameOf(r.State).Seq)}
				c.Update("", []*discordgo.MessageEmbed{e}, dixview.BoardButtons(m.view(m.Lang), dix.GameOf(r.State)), files...)
				channel, seq := r.Channel, dix.GameOf(r.State).Seq
				c.Then(func(ctx context.Context) { reshow(c.B, ctx, channel, seq) })
				return
			}
		}
		c.Respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	}
}
