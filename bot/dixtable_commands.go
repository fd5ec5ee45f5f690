package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"

	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// command routes /dix <subcommand>.
func (b *Bot) command(c *call, d discordgo.ApplicationCommandInteractionData) error {
	if d.Name != en("cmd_name") || len(d.Options) != 1 || d.Options[0] == nil {
		return ErrBadInput
	}
	sub, opts := subcommand(d)
	switch b.cmdIDs[sub.Name] {
	case "start":
		// The channel's settings fill the options not given.
		s := c.startSettings()
		noPics, err := picturesOff(orSetting(stringOpt(opts, optPictures), s.Pics))
		if err != nil {
			return err
		}
		return c.cmdStart(orSetting(stringOpt(opts, optVariant), s.Variant), orSetting(stringOpt(opts, optLanguage), s.Lang),
			orSetting(stringOpt(opts, optPace), s.Pace), noPics)
	case "solo":
		s := c.startSettings()
		diff := defaultDifficulty
		if s.Diff != 0 {
			diff = s.Diff
		}
		if o, ok := opts[en("opt_"+optDifficulty+"_name")]; ok {
			v, ok := o.Value.(float64)
			if !ok || v < minDifficulty || v > maxDifficulty || v != float64(int(v)) {
				return refuse(ErrBadInput, "err_difficulty", map[string]any{"Min": minDifficulty, "Max": maxDifficulty})
			}
			diff = int(v)
		}
		noPics, err := picturesOff(orSetting(stringOpt(opts, optPictures), s.Pics))
		if err != nil {
			return err
		}
		return c.cmdSolo(diff, orSetting(stringOpt(opts, optLanguage), s.Lang), orSetting(stringOpt(opts, optPace), s.Pace), noPics)
	case "board":
		return c.cmdBoard()
	case "hand":
		return c.hand()
	case "hint":
		return c.hint()
	case "log":
		return c.gameLog(0)
	case "rules":
		c.ephemeral("", nil, dixview.RulesEmbed(c.lang))
		return nil
	case "leave":
		return c.cmdLeave()
	case "pause":
		return c.cmdPause(true)
	case "resume":
		return c.cmdPause(false)
	case "abandon":
		return c.cmdAbandon()
	}
	return ErrBadInput
}

func (c *call) cmdSolo(diff int, language, pace string, noPictures bool) error {
	if err := c.missingPermission(); err != nil {
		return err
	}
	pace, err := c.b.paceOf(pace)
	if err != nil {
		return err
	}
	g, err := dix.New(dix.Options{Players: 1, Difficulty: diff, Seed: c.b.seed(), FirstPlayer: 0})
	if err != nil {
		return err
	}
	lang := c.gameLanguage(language, true)
	m := &dixTable{Creator: c.user, Lang: lang, Solo: true, Diff: diff, Turn: 1, Origin: c.i.ID,
		Seats: []seat{{ID: c.user, Name: c.name}, {}}, Pace: pace, NoPictures: noPictures || c.b.noPictures}
	now := c.b.now()
	c.b.newClock(m, g, now)
	d := map[string]any{"Name": m.name(lang, 0), "Level": diff, "LevelName": locales.T(lang, "difficulty_"+itoa(diff), nil)}
	m.Log = []string{locales.T(lang, "log_solo_started", d)}
	m.TurnLog = append(m.TurnLog, m.Log...)
	rec := &dixbot.Record{Channel: c.i.ChannelID, Guild: c.i.GuildID, State: g}
	m.owe(rec, effect{Kind: effBoard}) // the player who asked sees it come
	m.setDue(rec, now)
	rec.Meta = m.encode()
	if err := c.create(rec); err != nil {
		return err
	}
	c.respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: locales.T(lang, "solo_started", d), AllowedMentions: noMentions()},
	})
	c.settle(rec)
	return nil
}

// cmdBoard posts the board again at the bottom of the channel; the old one
// loses its buttons.
func (c *call) cmdBoard() error {
	r, m, err := c.table()
	if errors.Is(err, dixbot.ErrNotFound) && m != nil && r.Finished && r.State != nil {
		// The game is over and archived: its final scoreboard, in the
		// answer itself, for everyone in the channel.
		e, files := c.b.scoresMessage(m.Lang, m, r.State, c.canAttach())
		var comps []discordgo.MessageComponent
		if r.State.Phase == dix.PhaseOver {
			comps = rematchRow(m.Lang)
		}
		c.respond(&discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{
				Content: locales.T(m.Lang, "board_archived", nil), Embeds: []*discordgo.MessageEmbed{e},
				Components: comps, AllowedMentions: noMentions(), Files: files,
			},
		})
		return nil
	}
	if err != nil {
		return err
	}
	return c.postAgain("")
}

// postAgain posts the channel's board (or lobby) again at the bottom of
// the channel, the old one losing its buttons, and answers privately that
// it does so, after intro when there is one.
func (c *call) postAgain(intro string) error {
	key := "board_reposted"
	rec, err := c.changeTable(func(r *dixbot.Record, m *dixTable) error {
		switch {
		case r.State == nil:
			// Also the way back for a lobby whose message was lost: the
			// lobby owed in case it was is replaced by this one.
			m.Outbox = slices.DeleteFunc(m.Outbox, func(e effect) bool { return e.Kind == effLobby })
			m.owe(r, effect{Kind: effLobby, Msg: effLobbyAgain})
			key = "lobby_reposted"
		case r.State.Phase == dix.PhaseOver:
			m.owe(r, effect{Kind: effResult}, effect{Kind: effScores}, effect{Kind: effFinish})
		default:
			m.owe(r, effect{Kind: effBoard}) // retires the old one
		}
		return nil
	})
	if err != nil {
		return err
	}
	text := locales.T(c.lang, key, nil)
	if intro != "" {
		text = intro
	}
	c.ephemeral(text, nil)
	c.settle(rec)
	return nil
}

func (c *call) cmdStart(variant, language, pace string, noPictures bool) error {
	if err := c.missingPermission(); err != nil {
		return err
	}
	if variant != "" && variant != variantStd && variant != variantBust {
		return ErrBadInput
	}
	pace, err := c.b.paceOf(pace)
	if err != nil {
		return err
	}
	m := &dixTable{Creator: c.user, Lang: c.gameLanguage(language, false), Bust: variant == variantBust,
		Seats: []seat{{ID: c.user, Name: c.name}}, Lobby: 1, Origin: c.i.ID, Pace: pace, NoPictures: noPictures || c.b.noPictures}
	rec := &dixbot.Record{Channel: c.i.ChannelID, Guild: c.i.GuildID}
	c.oweLobby(rec, m)
	rec.Meta = m.encode()
	if err := c.create(rec); err != nil {
		var ue *userError
		if errors.Is(err, dixbot.ErrExists) && !errors.As(err, &ue) {
			// A game whose board (or lobby) message is not known: it is
			// posted again, so that the answer leads somewhere.
			return c.postAgain(locales.T(c.lang, "err_game_exists_lobby", nil))
		}
		return err
	}
	c.answerLobby(rec, m, "", nil)
	return nil
}

// mayAbandon: the creator, the last person still playing, or a member who
// may manage the channel.
func (c *call) mayAbandon(m *dixTable) bool {
	return c.manages(m.Creator) || m.lastPlaying(c.user)
}

func (c *call) cmdAbandon() error {
	r, m, err := c.table()
	if err != nil {
		return err
	}
	if !c.mayAbandon(m) {
		return ErrNoPermission
	}
	c.ephemeral(locales.T(c.lang, "abandon_confirm", nil), []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		button(c.lang, "btn_abandon_yes", nil, discordgo.DangerButton, abandonYesID(r, m)),
		button(c.lang, "btn_abandon_no", nil, discordgo.SecondaryButton, customID(verbAbandonNo, 0)),
	}}})
	return nil
}

// abandonYesID is the custom id of the button that confirms abandoning
// the table of r: it carries the record's version when the prompt was made
// and the table's origin, so that only a prompt /dix abandon made for this
// table ends it.
func abandonYesID(r *dixbot.Record, m *dixTable) string {
	if m.Origin == "" {
		return customID(verbAbandonYes, uint32(r.Version))
	}
	return customID(verbAbandonYes, uint32(r.Version), m.Origin)
}

// abandonYes ends the table once its creator (or a channel manager)
// confirms. The button must come from a prompt made for this table: one of
// an earlier table, or without a version, is outdated; a version the table
// has not reached was never drawn.
func (c *call) abandonYes(p parsedID) error {
	r, m, err := c.table()
	if err != nil {
		return err
	}
	switch {
	case p.version == 0 || p.arg != m.Origin || (c.i.Message != nil && m.olderThanTable(c.i.Message.ID)):
		return ErrStale
	case uint64(p.version) > r.Version:
		return fmt.Errorf("%w: version %d is newer than the record's %d", ErrBadCustomID, p.version, r.Version)
	}
	if !c.mayAbandon(m) {
		return ErrNoPermission
	}
	if r.State == nil {
		err := c.remove()
		if err != nil && !errors.Is(err, dixbot.ErrNotFound) {
			return err
		}
		c.updateOrReply(locales.T(c.lang, "abandon_done", nil), nil)
		// The lobby is gone with its record: its buttons go too.
		lobby := &executor{b: c.b, rec: r, m: m}
		c.then(func(ctx context.Context) {
			lobby.d = c.b.apiFor(ctx)
			if err := lobby.retire(ctx, m.Board, nil); err != nil {
				c.b.log.Warn("could not retire the lobby", "channel", r.Channel, "err", err)
			}
		})
		return nil
	}
	// One public notice: the board says who abandoned the game. The
	// archive comes last, with the other effects, so a crash in between
	// leaves them owed rather than lost.
	rec, err := c.changeTable(func(r *dixbot.Record, m *dixTable) error {
		m.dropHeld() // a board still missing has nothing left to show
		m.owe(r, effect{Kind: effEnded, Text: escape(c.name)}, effect{Kind: effFinish})
		return nil
	})
	if err != nil {
		return err
	}
	c.updateOrReply(locales.T(c.lang, "abandon_done", nil), nil)
	c.settle(rec)
	return nil
}

func (c *call) abandonNo(parsedID) error {
	c.updateOrReply(locales.T(c.lang, "abandon_kept", nil), nil)
	return nil
}

// dixCommand is the localised definition of /dix and its subcommands.
func (b *Bot) dixCommand() *discordgo.ApplicationCommand {
	var subs []*discordgo.ApplicationCommandOption
	for _, id := range subcommands {
		sub := &discordgo.ApplicationCommandOption{
			Type:                     discordgo.ApplicationCommandOptionSubCommand,
			Name:                     en("cmd_" + id + "_name"),
			NameLocalizations:        *localized("cmd_" + id + "_name"),
			Description:              en("cmd_" + id + "_desc"),
			DescriptionLocalizations: *localized("cmd_" + id + "_desc"),
		}
		switch id {
		case "start":
			v := option(optVariant, discordgo.ApplicationCommandOptionString)
			v.Choices = []*discordgo.ApplicationCommandOptionChoice{
				choice("variant_standard", variantStd),
				choice("variant_bust", variantBust),
			}
			sub.Options = []*discordgo.ApplicationCommandOption{v, languageOption(), b.paceOption(), picturesOption()}
		case "solo":
			d := option(optDifficulty, discordgo.ApplicationCommandOptionInteger)
			lo := float64(minDifficulty)
			d.MinValue = &lo
			d.MaxValue = maxDifficulty
			sub.Options = []*discordgo.ApplicationCommandOption{d, languageOption(), b.paceOption(), picturesOption()}
		}
		subs = append(subs, sub)
	}
	return &discordgo.ApplicationCommand{
		Name:                     en("cmd_name"),
		NameLocalizations:        localized("cmd_name"),
		Description:              en("cmd_desc"),
		DescriptionLocalizations: localized("cmd_desc"),
		Contexts:                 &guildOnly,
		Options:                  subs,
	}
}
