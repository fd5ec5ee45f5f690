package bot

import (
	"context"
	"errors"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// overText is the answer to a click on a message of a game that has ended
// since (a private prompt kept open, an old board): the game is over and
// here is its final scoreboard, or it was abandoned and here is its last
// board. ok is false when the channel's archive holds no such game (the
// click then gets the plain "no game here").
func (c *call) overText() (text string, ok bool) {
	if c.i.Message == nil {
		return "", false
	}
	base := c.ctx
	if base == nil {
		base = context.Background()
	}
	ctx, cancel := context.WithTimeout(base, c.b.timeout)
	defer cancel()
	r, err := c.b.store.Get(ctx, c.i.ChannelID)
	if err != nil || !r.Finished || r.State == nil {
		return "", false
	}
	m, err := decodeDixTable(r.Meta)
	if err != nil || m.olderThanTable(c.i.Message.ID) {
		return "", false // a message of an earlier game still
	}
	link := func(message string) map[string]any {
		return map[string]any{"URL": messageURL(r.Guild, r.Channel, message)}
	}
	switch {
	case r.State.Phase != dix.PhaseOver && m.Board != "":
		return locales.T(c.lang, "err_over_abandoned", link(m.Board)), true
	case r.State.Phase != dix.PhaseOver:
		return locales.T(c.lang, "err_over_abandoned_nolink", nil), true
	case m.Scores != "":
		return locales.T(c.lang, "err_over_scores", link(m.Scores)), true
	}
	return locales.T(c.lang, "err_game_over", nil), true
}

// answerOver answers a click on a message of a game that has ended since,
// when err says there is no game: a private prompt becomes the answer and
// loses its buttons, any other message gets it privately. It reports
// whether it answered.
func (c *call) answerOver(err error) bool {
	if !errors.Is(err, dixbot.ErrNotFound) || c.responded {
		return false
	}
	text, ok := c.overText()
	if !ok {
		return false
	}
	if c.fromPrompt() {
		c.update(text, nil, nil)
	} else {
		c.ephemeral(text, nil)
	}
	return true
}
