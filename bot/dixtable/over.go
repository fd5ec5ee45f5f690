package dixtable

import (
	"context"
	"errors"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// overText is the answer to a click on a message of a game that has ended
// since (a private prompt kept open, an old board): the game is over and
// here is its final scoreboard, or it was abandoned and here is its last
// board. ok is false when the channel's archive holds no such game (the
// click then gets the plain "no game here").
func overText(c *bot.Call) (text string, ok bool) {
	if c.I.Message == nil {
		return "", false
	}
	base := c.Ctx
	if base == nil {
		base = context.Background()
	}
	ctx, cancel := context.WithTimeout(base, c.B.Timeout)
	defer cancel()
	r, err := c.B.Store.Get(ctx, c.I.ChannelID)
	if err != nil || !r.Finished || dix.GameOf(r.State) == nil {
		return "", false
	}
	m, err := decodeDixTable(r.Meta)
	if err != nil || m.olderThanTable(c.I.Message.ID) {
		return "", false // a message of an earlier game still
	}
	link := func(message string) map[string]any {
		return map[string]any{"URL": bot.MessageURL(r.Guild, r.Channel, message)}
	}
	switch {
	case dix.GameOf(r.State).Phase != dix.PhaseOver && m.Board != "":
		return locales.T(c.Lang, "err_over_abandoned", link(m.Board)), true
	case dix.GameOf(r.State).Phase != dix.PhaseOver:
		return locales.T(c.Lang, "err_over_abandoned_nolink", nil), true
	case m.Scores != "":
		return locales.T(c.Lang, "err_over_scores", link(m.Scores)), true
	}
	return locales.T(c.Lang, "err_game_over", nil), true
}

// answerOver answers a click on a message of a game that has ended since,
// when err says there is no game: a private prompt becomes the answer and
// loses its buttons, any other message gets it privately. It reports
// whether it answered.
func answerOver(c *bot.Call, err error) bool {
	if !errors.Is(err, dixbot.ErrNotFound) || c.Responded {
		return false
	}
	text, ok := overText(c)
	if !ok {
		return false
	}
	if c.FromPrompt() {
		c.Update(text, nil, nil)
	} else {
		c.Ephemeral(text, nil)
	}
	return true
}
