package dixtable

import (
	"github.com/dixgame/dixbot/bot"
	dixview "github.com/dixgame/dixbot/bot/dix"
)

// hint answers /dix hint, privately, to the player who must decide now:
// the exact odds of the next draw, what one more draw is worth, what the
// strong computer player would do and why, and for a purchase what each
// card would do to the score.
func hint(c *bot.Call) error {
	g, m, s, err := mySeat(c)
	if err != nil {
		return err
	}
	if actor := g.ToAct(); actor != s {
		return bot.Refuse(bot.ErrNotYourTurn, "err_not_your_turn", map[string]any{"Name": m.name(c.Lang, actor)})
	}
	c.Ephemeral("", nil, dixview.HintEmbed(c.Lang, g, s))
	return nil
}
