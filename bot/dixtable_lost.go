package bot

import (
	"errors"
	"slices"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine/dix"
)

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
