package bot

import (
	"context"
	"net/http"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/locales"
)

// answerApplied answers an interaction whose change the store applied
// already: a redelivery (a load balancer sending it to another replica
// when the first died handling it, a gateway resuming). The first delivery
// may have died before answering, and an interaction left unanswered shows
// "This interaction failed" though its click counted. So Discord is asked
// for the interaction's original response: when there is none (404:
// https://discord.com/developers/docs/interactions/receiving-and-responding#get-original-interaction-response),
// it is answered as the first answer would have been, by the game's
// table (answerAppliedGame). When the
// first answer went out, nothing is sent: Discord refuses a second one.
func (c *Call) answerApplied() {
	if c.Responded || c.I.Token == "" {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, respondTimeout)
	_, err := c.D.Original(ctx, c.I)
	cancel()
	if !NotFound(err) {
		if err != nil {
			c.B.log.Info("redelivered interaction: could not tell whether it was answered; left alone", "interaction", c.I.ID, "err", err)
		}
		return
	}
	if c.Game != "" {
		c.answerAppliedGame()
	}
}

// NotFound reports whether Discord answered err with 404.
func NotFound(err error) bool {
	status, _ := Refusal(err)
	return status == http.StatusNotFound
}

// answerAppliedGame is answerApplied for a game: a click on
// the game's board shows the game as it stands, any other public message
// is acknowledged, a private prompt and a command say it is done. The
// effects still owed are then done through this interaction; the first
// delivery may have done some of them in part.
func (c *Call) answerAppliedGame() {
	done := locales.T(c.Lang, "done_generic", nil)
	ctx, cancel := c.storeCtx()
	r, err := c.B.get(ctx, c.I.ChannelID)
	cancel()
	var td *tableData
	if err == nil && !r.Finished && r.Game == c.Game {
		td, _ = decodeTableData(r.Meta)
	}
	msg := c.I.Message
	switch {
	case c.I.Type != discordgo.InteractionMessageComponent || msg == nil:
		c.Ephemeral(done, nil)
	case msg.Flags&discordgo.MessageFlagsEphemeral != 0:
		c.Update(done, nil, nil)
	case td != nil && r.Data != nil && msg.ID == td.Board:
		if g, ok := c.B.games[c.Game]; ok {
			if err := c.showBoard(g, r, td); err == nil {
				break
			}
		}
		fallthrough
	default:
		c.Respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	}
	if td != nil && len(td.Outbox) > 0 {
		tried := td.NextEffect
		c.Then(func(ctx context.Context) {
			if err := c.B.runEffects(ctx, c.B.apiFor(ctx), r, c.Via(), tried); err != nil {
				c.B.log.Warn("effects left for later", "channel", r.Channel, "err", err)
			}
		})
	}
}
