package bot

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"
)

// gameLog answers /dix log privately with page page of the game's log
// (0: the most recent lines), with buttons to the older and newer pages.
// An archived game's log stays readable as long as its log record lives.
func (c *call) gameLog(page int) error {
	r, m, err := c.table()
	if err != nil && !(errors.Is(err, dixbot.ErrNotFound) && m != nil && r.Finished) {
		return err
	}
	var l gameLogRecord
	ctx, cancel := c.storeCtx()
	lr, lerr := c.b.store.Get(ctx, logChannel(c.i.ChannelID))
	cancel()
	switch {
	case lerr == nil:
		if json.Unmarshal(lr.Meta, &l) != nil || l.Origin != m.Origin {
			l = gameLogRecord{}
		}
	case !errors.Is(lerr, dixbot.ErrNotFound):
		return c.storeErr("get", lerr)
	}
	// The turn being played is not in the log record yet.
	lines := append(l.Lines, m.TurnLog...)
	text, comps := logView(c.lang, lines, l.Cut, page)
	if c.i.Type == discordgo.InteractionMessageComponent {
		c.update(text, nil, comps)
		return nil
	}
	c.ephemeral(text, comps)
	return nil
}

// logPage turns the pages of /dix log.
func (c *call) logPage(p parsedID) error {
	page, err := strconv.Atoi(p.arg)
	if err != nil || page < 0 || strconv.Itoa(page) != p.arg {
		return ErrBadCustomID
	}
	return c.gameLog(page)
}
