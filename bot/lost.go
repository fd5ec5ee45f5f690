package bot

import (
	"errors"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/locales"
)

// A store that lost its data (Redis restarted empty, or from an older
// snapshot) leaves messages whose buttons the stored game no longer
// matches: a board of a game the store has no record of, or one that shows
// a later state than the stored one (ErrAhead). The first click on such a
// message answers what happened and retires its buttons, in the answer
// itself (UPDATE_MESSAGE, type 7: the message keeps its text, without
// components); a game restored from an older copy gets a fresh board (or
// lobby) so that it goes on from where the store has it.

// answerLost answers a click on such a message, when err says so. It
// reports whether it answered.
func (c *Call) answerLost(err error) bool {
	ahead := errors.Is(err, ErrAhead)
	if c.Responded || c.I.Message == nil || c.I.Type != discordgo.InteractionMessageComponent ||
		!ahead && !errors.Is(err, dixbot.ErrNotFound) || !clickedOnMessage(c.I) {
		return false // a custom id the message does not carry is forged: refused as such
	}
	key := "err_game_gone"
	if ahead {
		key = "err_game_restored"
	} else if _, gerr := c.getQuiet(); !errors.Is(gerr, dixbot.ErrNotFound) {
		return false // a game is there after all (or the store cannot say)
	}
	c.B.log.Info("buttons of a game the store does not have retired", "interaction", c.I.ID, "channel", c.I.ChannelID,
		"message", c.I.Message.ID, "ahead", ahead)
	msg := c.I.Message
	c.Shows = &shows{Retire: true}
	c.Update(locales.T(c.Lang, key, nil), msg.Embeds, nil)
	return true
}
