package bot

import (
	"context"
	"net/http"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/locales"
)

// owesBoardChange reports whether effs still owe a change that replaces or
// retires the board message (a fresh board, the turn's summary): showing
// the game on it now could race with that change.
func owesBoardChange(effs []effect, board string) bool {
	for _, e := range effs {
		switch e.Kind {
		case effBoard, effBoarded, effAdopt, effScores, effEnded, effFinish:
			return true
		case effRetire:
			if e.Msg == board {
				return true
			}
		}
	}
	return false
}

// notFound reports whether Discord answered err with 404.
func notFound(err error) bool {
	status, _ := refusal(err)
	return status == http.StatusNotFound
}

// contractAnswerApplied is answerApplied for a contract game: a click on
// the game's board shows the game as it stands, any other public message
// is acknowledged, a private prompt and a command say it is done. The
// effects still owed are then done through this interaction; the first
// delivery may have done some of them in part.
func (c *call) contractAnswerApplied() {
	done := locales.T(c.lang, "done_generic", nil)
	ctx, cancel := c.storeCtx()
	r, err := c.b.store.Get(ctx, c.i.ChannelID)
	cancel()
	var td *tableData
	if err == nil && !r.Finished && r.Game == c.game {
		td, _ = decodeTableData(r.Meta)
	}
	msg := c.i.Message
	switch {
	case c.i.Type != discordgo.InteractionMessageComponent || msg == nil:
		c.ephemeral(done, nil)
	case msg.Flags&discordgo.MessageFlagsEphemeral != 0:
		c.update(done, nil, nil)
	case td != nil && r.Data != nil && msg.ID == td.Board:
		if g, ok := c.b.games[c.game]; ok {
			if err := c.showContractBoard(g, r, td); err == nil {
				break
			}
		}
		fallthrough
	default:
		c.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	}
	if td != nil && len(td.Outbox) > 0 {
		tried := td.NextEffect
		c.then(func(ctx context.Context) {
			if err := c.b.contractOutbox(ctx, c.b.apiFor(ctx), r, c.via(), tried); err != nil {
				c.b.log.Warn("effects left for later", "channel", r.Channel, "err", err)
			}
		})
	}
}
