package bot

import (
	"context"
	"errors"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/locales"
)

// answerOver answers a click on a message of a game that has
// ended since (a private prompt kept open, an old board), when err says
// the channel has no game: the game is over and here is its final
// scoreboard, or it was abandoned and here is its last board. A private
// prompt becomes the answer and loses its buttons; any other message
// gets it privately. It reports whether it answered.
func (c *Call) answerOver(err error) bool {
	if !errors.Is(err, dixbot.ErrNotFound) || c.Responded || c.I.Message == nil || c.I.Type != discordgo.InteractionMessageComponent {
		return false
	}
	text, ok := c.overText()
	if !ok {
		return false
	}
	c.sayOver(text)
	return true
}

// overText is the answer to a click on a message of the game the
// channel's archive holds, if the message is of that game (not of an
// earlier one): over, with its final scoreboard (the board, drawn as the
// scoreboard in place), or abandoned, with its last board.
func (c *Call) overText() (string, bool) {
	base := c.ctx
	if base == nil {
		base = context.Background()
	}
	ctx, cancel := context.WithTimeout(base, c.B.timeout)
	defer cancel()
	r, err := c.B.get(ctx, c.I.ChannelID) // converted, if archived before the upgrade
	if err != nil || !r.Finished || r.Data == nil {
		return "", false
	}
	g, ok := c.B.games[r.Game]
	if !ok {
		return "", false
	}
	td, err := decodeTableData(r.Meta)
	if err != nil || td.Board == "" || olderThanBoard(c.I.Message, td.began()) {
		return "", false
	}
	st, err := g.Rules.Decode(r.Data)
	if err != nil {
		return "", false
	}
	link := map[string]any{"URL": messageURL(r.Guild, r.Channel, td.Board)}
	if !st.Over() {
		return locales.T(c.Lang, "err_over_abandoned", link), true
	}
	return locales.T(c.Lang, "err_over_scores", link), true
}
