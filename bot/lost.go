package bot

import (
	"errors"
	"slices"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine/dix"
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
func (c *call) answerLost(err error) bool {
	ahead := errors.Is(err, ErrAhead)
	if c.responded || c.i.Message == nil || c.i.Type != discordgo.InteractionMessageComponent ||
		!ahead && !errors.Is(err, dixbot.ErrNotFound) {
		return false
	}
	key := "err_game_gone"
	if ahead {
		key = "err_game_restored"
		c.repost()
	} else if _, gerr := c.getQuiet(); !errors.Is(gerr, dixbot.ErrNotFound) {
		return false // a game is there after all (or the store cannot say)
	}
	c.b.log.Info("buttons of a game the store does not have retired", "interaction", c.i.ID, "channel", c.i.ChannelID,
		"message", c.i.Message.ID, "ahead", ahead)
	msg := c.i.Message
	c.shows = &shows{Retire: true}
	c.update(locales.T(c.lang, key, nil), msg.Embeds, nil)
	return true
}

// restoredEffects is how far the effects owed after a restored copy are
// numbered past its count.
const restoredEffects = 1 << 16

// repost owes a fresh board (or lobby) for the game as the store has it,
// unless its current board is newer than the message clicked (a message
// left from before a repair that was made already).
func (c *call) repost() {
	rec, err := c.changeTable(func(r *dixbot.Record, m *dixTable) error {
		if bt, ok := snowflakeTime(m.Board); ok {
			if ct, ok := snowflakeTime(c.i.Message.ID); ok && bt > ct {
				return errNothingToDo
			}
		}
		// The lost data may have numbered effects past this copy's count:
		// the new ones are numbered well past them, so that their nonces
		// never meet those of messages posted before the loss (Discord
		// would answer such a post with the old message).
		m.NextEffect += restoredEffects
		// What the copy still owed of its board (or lobby) is replaced by
		// the fresh one: posting both would show two boards at once.
		m.Outbox = slices.DeleteFunc(m.Outbox, func(e effect) bool {
			switch e.Kind {
			case effLobby, effBoard, effEdit, effAdopt:
				return true
			}
			return false
		})
		switch {
		case r.State == nil:
			m.owe(r, effect{Kind: effLobby, Msg: effLobbyAgain})
		case r.State.Phase == dix.PhaseOver:
			m.owe(r, effect{Kind: effResult}, effect{Kind: effScores}, effect{Kind: effFinish})
		default:
			m.owe(r, effect{Kind: effBoard})
		}
		return nil
	})
	if err != nil {
		if !errors.Is(err, errNothingToDo) {
			c.b.log.Warn("could not owe a fresh board", "interaction", c.i.ID, "channel", c.i.ChannelID, "err", err)
		}
		return
	}
	c.settle(rec)
}
