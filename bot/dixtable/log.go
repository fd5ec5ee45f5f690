package dixtable

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
)

// gameLog answers /dix log privately with page page of the game's log
// (0: the most recent lines), with buttons to the older and newer pages.
// An archived game's log stays readable as long as its log record lives.
func gameLog(c *bot.Call, page int) error {
	r, m, err := table(c)
	if err != nil && !(errors.Is(err, dixbot.ErrNotFound) && m != nil && r.Finished) {
		return err
	}
	var l bot.GameLogRecord
	ctx, cancel := c.StoreCtx()
	lr, lerr := c.B.Store.Get(ctx, bot.LogChannel(c.I.ChannelID))
	cancel()
	switch {
	case lerr == nil:
		if json.Unmarshal(lr.Meta, &l) != nil || l.Origin != m.Origin {
			l = bot.GameLogRecord{}
		}
	case !errors.Is(lerr, dixbot.ErrNotFound):
		return c.StoreErr("get", lerr)
	}
	// The turn being played is not in the log record yet.
	lines := append(l.Lines, m.TurnLog...)
	text, comps := bot.LogView(c.Lang, lines, l.Cut, page)
	if c.I.Type == discordgo.InteractionMessageComponent {
		c.Update(text, nil, comps)
		return nil
	}
	c.Ephemeral(text, comps)
	return nil
}

// logPage turns the pages of /dix log.
func logPage(c *bot.Call, p bot.ParsedID) error {
	page, err := strconv.Atoi(p.Arg)
	if err != nil || page < 0 || strconv.Itoa(page) != p.Arg {
		return bot.ErrBadCustomID
	}
	return gameLog(c, page)
}
