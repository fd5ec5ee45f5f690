package bot

import (
	"context"
	"errors"
	"slices"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// startSolo starts a table of the caller alone at once, for a game of
// one seat (/<game> solo): no lobby, the answer is the first board. lang,
// noPics, pace and options are the start's (openLobby).
func (c *Call) startSolo(g *present.Game, lang string, noPics bool, pace string, options map[string]string) error {
	if err := c.missingPermission(); err != nil {
		return err
	}
	if lang == "" {
		lang = c.gameLanguage("", true)
	}
	if !locales.Supported(lang) {
		return ErrBadInput
	}
	td := &tableData{V: tableDataVersion, Creator: c.User, Lang: lang, NoPics: noPics || c.B.noPictures,
		Seats: []tableSeat{{User: c.User, Name: c.Name}}, Pace: pace, Opts: options, Opened: c.I.ID, Origin: c.I.ID}
	rec := &dixbot.Record{Channel: c.I.ChannelID, Guild: c.I.GuildID, Game: g.Rules.Name()}
	st, err := c.B.startTable(g, rec, td, c.B.now())
	if err != nil {
		return err
	}
	rec.Meta = td.Encode()
	err = c.Retry("create", func(ctx context.Context) error { return c.B.store.Create(ctx, rec) })
	if errors.Is(err, dixbot.ErrExists) && c.finishOver() {
		err = c.Retry("create", func(ctx context.Context) error { return c.B.store.Create(ctx, rec) })
	}
	if errors.Is(err, dixbot.ErrExists) {
		old, otd, ost := c.landed(g)
		if old == nil {
			return c.busyChannel()
		}
		rec, td, st = old, otd, ost // a try that looked failed landed
	} else if err != nil {
		return err
	}
	c.respondFirstBoard(g, rec, td, st)
	return nil
}

// respondFirstBoard answers with the first board of the new table r, a
// new message of the channel: a solo start's, or a rematch's that needs
// no lobby.
func (c *Call) respondFirstBoard(g *present.Game, r *dixbot.Record, td *tableData, st engine.State) {
	pb := c.B.boardAt(g, c.I.ChannelID, td, st, "")
	c.Respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: pb.Content, Embeds: pb.Embeds, Files: pb.Files,
			Components: tableComponents(g, st, td, pb), AllowedMentions: noMentions()},
	})
	c.B.wakeAt(r.Due)
	c.keepLog(r, td)
	c.rememberBoard(g)
}

// showView shows the step view of the caller's private prompt, to
// the caller alone (present.Game.Views): a seated person's, whoever is to
// decide.
func (c *Call) showView(g *present.Game, view string) error {
	pr, ok := g.Presenter.(present.Prompter)
	if !ok || !slices.Contains(g.Views, view) {
		return ErrBadInput
	}
	td, seat, st, err := c.mySeat(g)
	if err != nil {
		return err
	}
	prompt, err := c.B.promptStep(pr, td, c.Lang, st, seat, view)
	if err != nil {
		return err
	}
	if err := prompt.Check(); err != nil {
		return err
	}
	prompt = c.B.promptPictured(td, prompt)
	c.ephemeralFiles(prompt.Content, promptComponents(g.Rules.Name(), st.Seq(), prompt), prompt.Files, prompt.Embeds...)
	return nil
}

// landed is the channel's table of g that this interaction created (a try
// that looked failed, or a delivery seen again), with its game, if any.
func (c *Call) landed(g *present.Game) (*dixbot.Record, *tableData, engine.State) {
	old, err := c.getQuietAny()
	if err != nil || old.Game != g.Rules.Name() || old.Finished || old.Data == nil {
		return nil, nil, nil
	}
	td, err := decodeTableData(old.Meta)
	if err != nil || td.Origin != c.I.ID {
		return nil, nil, nil
	}
	st, err := g.Rules.Decode(old.Data)
	if err != nil {
		return nil, nil, nil
	}
	return old, td, st
}
