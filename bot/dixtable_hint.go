package bot

import dixview "github.com/dixgame/dixbot/bot/dix"

// hint answers /dix hint, privately, to the player who must decide now:
// the exact odds of the next draw, what one more draw is worth, what the
// strong computer player would do and why, and for a purchase what each
// card would do to the score.
func (c *call) hint() error {
	g, m, s, err := c.mySeat()
	if err != nil {
		return err
	}
	if actor := g.ToAct(); actor != s {
		return refuse(ErrNotYourTurn, "err_not_your_turn", map[string]any{"Name": m.name(c.lang, actor)})
	}
	c.ephemeral("", nil, dixview.HintEmbed(c.lang, g, s))
	return nil
}
