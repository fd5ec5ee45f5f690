package dixtable

import (
	"errors"
	"slices"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
)

// repost owes a fresh board (or lobby) for the game as the store has it,
// unless its current board is newer than the message clicked (a message
// left from before a repair that was made already).
func repost(c *bot.Call) {
	rec, err := changeTable(c, func(r *dixbot.Record, m *dixTable) error {
		if bt, ok := snowflakeTime(m.Board); ok {
			if ct, ok := snowflakeTime(c.I.Message.ID); ok && bt > ct {
				return bot.ErrNothingToDo
			}
		}
		// The lost data may have numbered effects past this copy's count:
		// the new ones are numbered well past them, so that their nonces
		// never meet those of messages posted before the loss (Discord
		// would answer such a post with the old message).
		m.NextEffect += bot.RestoredEffects
		// What the copy still owed of its board (or lobby) is replaced by
		// the fresh one: posting both would show two boards at once.
		m.Outbox = slices.DeleteFunc(m.Outbox, func(e bot.Effect) bool {
			switch e.Kind {
			case bot.EffLobby, bot.EffBoard, bot.EffEdit, bot.EffAdopt:
				return true
			}
			return false
		})
		switch {
		case dix.GameOf(r.State) == nil:
			m.owe(r, bot.Effect{Kind: bot.EffLobby, Msg: bot.EffLobbyAgain})
		case dix.GameOf(r.State).Phase == dix.PhaseOver:
			m.owe(r, bot.Effect{Kind: bot.EffResult}, bot.Effect{Kind: bot.EffScores}, bot.Effect{Kind: bot.EffFinish})
		default:
			m.owe(r, bot.Effect{Kind: bot.EffBoard})
		}
		return nil
	})
	if err != nil {
		if !errors.Is(err, bot.ErrNothingToDo) {
			c.B.Log.Warn("could not owe a fresh board", "interaction", c.I.ID, "channel", c.I.ChannelID, "err", err)
		}
		return
	}
	settle(c, rec)
}
