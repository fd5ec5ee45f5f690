package dixtable

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"

	"github.com/dixgame/dixbot/bot"
	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// command routes /dix <subcommand>.
func command(b *bot.Bot, c *bot.Call, d discordgo.ApplicationCommandInteractionData) error {
	if d.Name != bot.En("cmd_name") || len(d.Options) != 1 || d.Options[0] == nil {
		return bot.ErrBadInput
	}
	sub, opts := bot.Subcommand(d)
	switch b.CmdIDs[sub.Name] {
	case "start":
		// The channel's settings fill the options not given.
		s := c.StartSettings()
		noPics, err := bot.PicturesOff(bot.OrSetting(bot.StringOpt(opts, bot.OptPictures), s.Pics))
		if err != nil {
			return err
		}
		return cmdStart(c, bot.OrSetting(bot.StringOpt(opts, bot.OptVariant), s.Variant), bot.OrSetting(bot.StringOpt(opts, bot.OptLanguage), s.Lang),
			bot.OrSetting(bot.StringOpt(opts, bot.OptPace), s.Pace), noPics)
	case "solo":
		s := c.StartSettings()
		diff := bot.DefaultDifficulty
		if s.Diff != 0 {
			diff = s.Diff
		}
		if o, ok := opts[bot.En("opt_"+bot.OptDifficulty+"_name")]; ok {
			v, ok := o.Value.(float64)
			if !ok || v < bot.MinDifficulty || v > bot.MaxDifficulty || v != float64(int(v)) {
				return bot.Refuse(bot.ErrBadInput, "err_difficulty", map[string]any{"Min": bot.MinDifficulty, "Max": bot.MaxDifficulty})
			}
			diff = int(v)
		}
		noPics, err := bot.PicturesOff(bot.OrSetting(bot.StringOpt(opts, bot.OptPictures), s.Pics))
		if err != nil {
			return err
		}
		return cmdSolo(c, diff, bot.OrSetting(bot.StringOpt(opts, bot.OptLanguage), s.Lang), bot.OrSetting(bot.StringOpt(opts, bot.OptPace), s.Pace), noPics)
	case "board":
		return cmdBoard(c)
	case "hand":
		return hand(c)
	case "hint":
		return hint(c)
	case "log":
		return gameLog(c, 0)
	case "rules":
		c.Ephemeral("", nil, dixview.RulesEmbed(c.Lang))
		return nil
	case "leave":
		return cmdLeave(c)
	case "pause":
		return cmdPause(c, true)
	case "resume":
		return cmdPause(c, false)
	case "abandon":
		return cmdAbandon(c)
	}
	return bot.ErrBadInput
}

func cmdSolo(c *bot.Call, diff int, language, pace string, noPictures bool) error {
	if err := c.MissingPermission(); err != nil {
		return err
	}
	pace, err := c.B.PaceOf(pace)
	if err != nil {
		return err
	}
	g, err := dix.New(dix.Options{Players: 1, Difficulty: diff, Seed: c.B.Seed(), FirstPlayer: 0})
	if err != nil {
		return err
	}
	lang := c.GameLanguage(language, true)
	m := &dixTable{Creator: c.User, Lang: lang, Solo: true, Diff: diff, Turn: 1, Origin: c.I.ID,
		Seats: []seat{{ID: c.User, Name: c.Name}, {}}, Pace: pace, NoPictures: noPictures || c.B.NoPictures}
	now := c.B.Now()
	newClock(c.B, m, g, now)
	d := map[string]any{"Name": m.name(lang, 0), "Level": diff, "LevelName": locales.T(lang, "difficulty_"+bot.Itoa(diff), nil)}
	m.Log = []string{locales.T(lang, "log_solo_started", d)}
	m.TurnLog = append(m.TurnLog, m.Log...)
	rec := &dixbot.Record{Channel: c.I.ChannelID, Guild: c.I.GuildID, State: g}
	m.owe(rec, bot.Effect{Kind: bot.EffBoard}) // the player who asked sees it come
	m.setDue(rec, now)
	rec.Meta = m.Encode()
	if err := create(c, rec); err != nil {
		return err
	}
	c.Respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: locales.T(lang, "solo_started", d), AllowedMentions: bot.NoMentions()},
	})
	settle(c, rec)
	return nil
}

// cmdBoard posts the board again at the bottom of the channel; the old one
// loses its buttons.
func cmdBoard(c *bot.Call) error {
	r, m, err := table(c)
	if errors.Is(err, dixbot.ErrNotFound) && m != nil && r.Finished && dix.GameOf(r.State) != nil {
		// The game is over and archived: its final scoreboard, in the
		// answer itself, for everyone in the channel.
		e, files := scoresMessage(c.B, m.Lang, m, dix.GameOf(r.State), c.CanAttach())
		var comps []discordgo.MessageComponent
		if dix.GameOf(r.State).Phase == dix.PhaseOver {
			comps = rematchRow(m.Lang)
		}
		c.Respond(&discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{
				Content: locales.T(m.Lang, "board_archived", nil), Embeds: []*discordgo.MessageEmbed{e},
				Components: comps, AllowedMentions: bot.NoMentions(), Files: files,
			},
		})
		return nil
	}
	if err != nil {
		return err
	}
	return postAgain(c, "")
}

// postAgain posts the channel's board (or lobby) again at the bottom of
// the channel, the old one losing its buttons, and answers privately that
// it does so, after intro when there is one.
func postAgain(c *bot.Call, intro string) error {
	key := "board_reposted"
	rec, err := changeTable(c, func(r *dixbot.Record, m *dixTable) error {
		switch {
		case dix.GameOf(r.State) == nil:
			// Also the way back for a lobby whose message was lost: the
			// lobby owed in case it was is replaced by this one.
			m.Outbox = slices.DeleteFunc(m.Outbox, func(e bot.Effect) bool { return e.Kind == bot.EffLobby })
			m.owe(r, bot.Effect{Kind: bot.EffLobby, Msg: bot.EffLobbyAgain})
			key = "lobby_reposted"
		case dix.GameOf(r.State).Phase == dix.PhaseOver:
			m.owe(r, bot.Effect{Kind: bot.EffResult}, bot.Effect{Kind: bot.EffScores}, bot.Effect{Kind: bot.EffFinish})
		default:
			m.owe(r, bot.Effect{Kind: bot.EffBoard}) // retires the old one
		}
		return nil
	})
	if err != nil {
		return err
	}
	text := locales.T(c.Lang, key, nil)
	if intro != "" {
		text = intro
	}
	c.Ephemeral(text, nil)
	settle(c, rec)
	return nil
}

func cmdStart(c *bot.Call, variant, language, pace string, noPictures bool) error {
	if err := c.MissingPermission(); err != nil {
		return err
	}
	if variant != "" && variant != bot.VariantStd && variant != bot.VariantBust {
		return bot.ErrBadInput
	}
	pace, err := c.B.PaceOf(pace)
	if err != nil {
		return err
	}
	m := &dixTable{Creator: c.User, Lang: c.GameLanguage(language, false), Bust: variant == bot.VariantBust,
		Seats: []seat{{ID: c.User, Name: c.Name}}, Lobby: 1, Origin: c.I.ID, Pace: pace, NoPictures: noPictures || c.B.NoPictures}
	rec := &dixbot.Record{Channel: c.I.ChannelID, Guild: c.I.GuildID}
	oweLobby(c, rec, m)
	rec.Meta = m.Encode()
	if err := create(c, rec); err != nil {
		var ue *bot.UserError
		if errors.Is(err, dixbot.ErrExists) && !errors.As(err, &ue) {
			// A game whose board (or lobby) message is not known: it is
			// posted again, so that the answer leads somewhere.
			return postAgain(c, locales.T(c.Lang, "err_game_exists_lobby", nil))
		}
		return err
	}
	answerLobby(c, rec, m, "", nil)
	return nil
}

// mayAbandon: the creator, the last person still playing, or a member who
// may manage the channel.
func mayAbandon(c *bot.Call, m *dixTable) bool {
	return c.Manages(m.Creator) || m.lastPlaying(c.User)
}

func cmdAbandon(c *bot.Call) error {
	r, m, err := table(c)
	if err != nil {
		return err
	}
	if !mayAbandon(c, m) {
		return bot.ErrNoPermission
	}
	c.Ephemeral(locales.T(c.Lang, "abandon_confirm", nil), []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		bot.Button(c.Lang, "btn_abandon_yes", nil, discordgo.DangerButton, abandonYesID(r, m)),
		bot.Button(c.Lang, "btn_abandon_no", nil, discordgo.SecondaryButton, bot.CustomID(verbAbandonNo, 0)),
	}}})
	return nil
}

// abandonYesID is the custom id of the button that confirms abandoning
// the table of r: it carries the record's version when the prompt was made
// and the table's origin, so that only a prompt /dix abandon made for this
// table ends it.
func abandonYesID(r *dixbot.Record, m *dixTable) string {
	if m.Origin == "" {
		return bot.CustomID(verbAbandonYes, uint32(r.Version))
	}
	return bot.CustomID(verbAbandonYes, uint32(r.Version), m.Origin)
}

// abandonYes ends the table once its creator (or a channel manager)
// confirms. The button must come from a prompt made for this table: one of
// an earlier table, or without a version, is outdated; a version the table
// has not reached was never drawn.
func abandonYes(c *bot.Call, p bot.ParsedID) error {
	r, m, err := table(c)
	if err != nil {
		return err
	}
	switch {
	case p.Version == 0 || p.Arg != m.Origin || (c.I.Message != nil && m.olderThanTable(c.I.Message.ID)):
		return bot.ErrStale
	case uint64(p.Version) > r.Version:
		return fmt.Errorf("%w: version %d is newer than the record's %d", bot.ErrBadCustomID, p.Version, r.Version)
	}
	if !mayAbandon(c, m) {
		return bot.ErrNoPermission
	}
	if dix.GameOf(r.State) == nil {
		err := c.Remove()
		if err != nil && !errors.Is(err, dixbot.ErrNotFound) {
			return err
		}
		c.UpdateOrReply(locales.T(c.Lang, "abandon_done", nil), nil)
		// The lobby is gone with its record: its buttons go too.
		lobby := &executor{b: c.B, rec: r, m: m}
		c.Then(func(ctx context.Context) {
			lobby.d = c.B.ApiFor(ctx)
			if err := lobby.retire(ctx, m.Board, nil); err != nil {
				c.B.Log.Warn("could not retire the lobby", "channel", r.Channel, "err", err)
			}
		})
		return nil
	}
	// One public notice: the board says who abandoned the game. The
	// archive comes last, with the other effects, so a crash in between
	// leaves them owed rather than lost.
	rec, err := changeTable(c, func(r *dixbot.Record, m *dixTable) error {
		m.dropHeld() // a board still missing has nothing left to show
		m.owe(r, bot.Effect{Kind: bot.EffEnded, Text: bot.Escape(c.Name)}, bot.Effect{Kind: bot.EffFinish})
		return nil
	})
	if err != nil {
		return err
	}
	c.UpdateOrReply(locales.T(c.Lang, "abandon_done", nil), nil)
	settle(c, rec)
	return nil
}

func abandonNo(c *bot.Call, _ bot.ParsedID) error {
	c.UpdateOrReply(locales.T(c.Lang, "abandon_kept", nil), nil)
	return nil
}

// dixCommand is the localised definition of /dix and its subcommands.
func dixCommand(b *bot.Bot) *discordgo.ApplicationCommand {
	var subs []*discordgo.ApplicationCommandOption
	for _, id := range bot.Subcommands {
		sub := &discordgo.ApplicationCommandOption{
			Type:                     discordgo.ApplicationCommandOptionSubCommand,
			Name:                     bot.En("cmd_" + id + "_name"),
			NameLocalizations:        *bot.Localized("cmd_" + id + "_name"),
			Description:              bot.En("cmd_" + id + "_desc"),
			DescriptionLocalizations: *bot.Localized("cmd_" + id + "_desc"),
		}
		switch id {
		case "start":
			v := bot.Option(bot.OptVariant, discordgo.ApplicationCommandOptionString)
			v.Choices = []*discordgo.ApplicationCommandOptionChoice{
				bot.Choice("variant_standard", bot.VariantStd),
				bot.Choice("variant_bust", bot.VariantBust),
			}
			sub.Options = []*discordgo.ApplicationCommandOption{v, bot.LanguageOption(), b.PaceOption(), bot.PicturesOption()}
		case "solo":
			d := bot.Option(bot.OptDifficulty, discordgo.ApplicationCommandOptionInteger)
			lo := float64(bot.MinDifficulty)
			d.MinValue = &lo
			d.MaxValue = bot.MaxDifficulty
			sub.Options = []*discordgo.ApplicationCommandOption{d, bot.LanguageOption(), b.PaceOption(), bot.PicturesOption()}
		}
		subs = append(subs, sub)
	}
	return &discordgo.ApplicationCommand{
		Name:                     bot.En("cmd_name"),
		NameLocalizations:        bot.Localized("cmd_name"),
		Description:              bot.En("cmd_desc"),
		DescriptionLocalizations: bot.Localized("cmd_desc"),
		Contexts:                 &bot.GuildOnly,
		Options:                  subs,
	}
}
