package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"
	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// answerApplied answers an interaction whose change the store applied
// already: a redelivery (a load balancer sending it to another replica
// when the first died handling it, a gateway resuming). The first delivery
// may have died before answering, and an interaction left unanswered shows
// "This interaction failed" though its click counted. So Discord is asked
// for the interaction's original response: when there is none (404:
// https://discord.com/developers/docs/interactions/receiving-and-responding#get-original-interaction-response),
// it is answered as the first answer would have been: a click on the
// game's current board shows the game as it stands, a click on any other
// public message is acknowledged (the outbox brings every message the
// change owed up to date), a private prompt and a command say it is done.
// When the first answer went out, nothing is sent: Discord refuses a
// second one.
func (c *call) answerApplied() {
	if c.responded || c.i.Token == "" {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, respondTimeout)
	_, err := c.d.Original(ctx, c.i)
	cancel()
	if !notFound(err) {
		if err != nil {
			c.b.log.Info("redelivered interaction: could not tell whether it was answered; left alone", "interaction", c.i.ID, "err", err)
		}
		return
	}
	if c.game != "" {
		c.contractAnswerApplied()
		return
	}
	done := locales.T(c.lang, "done_generic", nil)
	msg := c.i.Message
	switch {
	case c.i.Type != discordgo.InteractionMessageComponent || msg == nil:
		c.ephemeral(done, nil)
	case msg.Flags&discordgo.MessageFlagsEphemeral != 0:
		c.update(done, nil, nil)
	default:
		if r, m, err := c.tableQuiet(); err == nil && r.State != nil && r.State.Phase != dix.PhaseOver {
			if m.Board == msg.ID && !owesBoardChange(m.Outbox, msg.ID) {
				e, files := c.b.boardMessage(m.Lang, m, r.State, c.canAttach())
				c.shows = &shows{Seq: uint64(r.State.Seq)}
				c.update("", []*discordgo.MessageEmbed{e}, dixview.BoardButtons(m.view(m.Lang), r.State), files...)
				channel, seq := r.Channel, r.State.Seq
				c.then(func(ctx context.Context) { c.b.reshow(ctx, channel, seq) })
				return
			}
		}
		c.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	}
}
