package bot

import (
	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/locales"
)

// The subcommands of /dix, by handler id. Their names and descriptions are
// in the locale files under "cmd_<id>_name" and "cmd_<id>_desc".
var subcommands = []string{"start", "solo", "board", "hand", "hint", "log", "rules", "leave", "pause", "resume", "abandon"}

// Option and choice values (identifiers, not shown to users).
const (
	optVariant    = "variant"
	optLanguage   = "language"
	optDifficulty = "difficulty"
	optPace       = "pace"
	optPictures   = "pictures"
	picsOn        = "on"
	picsOff       = "off"
	variantStd    = "standard"
	variantBust   = "bust"
)

func localized(key string) *map[discordgo.Locale]string {
	return &map[discordgo.Locale]string{discordgo.French: locales.T(locales.French, key, nil)}
}

func en(key string) string { return locales.T(locales.English, key, nil) }

// option builds a command option whose name and description are localised.
func option(id string, typ discordgo.ApplicationCommandOptionType) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{
		Type:                     typ,
		Name:                     en("opt_" + id + "_name"),
		NameLocalizations:        *localized("opt_" + id + "_name"),
		Description:              en("opt_" + id + "_desc"),
		DescriptionLocalizations: *localized("opt_" + id + "_desc"),
	}
}

func choice(key string, value any) *discordgo.ApplicationCommandOptionChoice {
	return &discordgo.ApplicationCommandOptionChoice{Name: en(key), NameLocalizations: *localized(key), Value: value}
}

func languageOption() *discordgo.ApplicationCommandOption {
	o := option(optLanguage, discordgo.ApplicationCommandOptionString)
	o.Choices = []*discordgo.ApplicationCommandOptionChoice{
		choice("language_name_en", locales.English),
		choice("language_name_fr", locales.French),
	}
	return o
}

// paceOption offers the bot's paces, each with its durations.
func (b *Bot) paceOption() *discordgo.ApplicationCommandOption {
	o := option(optPace, discordgo.ApplicationCommandOptionString)
	for _, p := range b.paces {
		o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{
			Name:              truncate(present.PaceText(locales.English, p), 100),
			NameLocalizations: map[discordgo.Locale]string{discordgo.French: truncate(present.PaceText(locales.French, p), 100)},
			Value:             p.Name,
		})
	}
	return o
}

// Commands returns the localised definition of /dix (dixCommand), the
// server's /settings, the command of every contract game (Options.Games)
// and the statistics' commands.
func (b *Bot) Commands() []*discordgo.ApplicationCommand {
	return append([]*discordgo.ApplicationCommand{b.dixCommand(), settingsCommand()}, append(b.contractCommands(), b.statsCommands()...)...)
}

// guildOnly are the contexts of every command: servers only, contexts
// [GUILD], which replaces the deprecated dm_permission
// (https://discord.com/developers/docs/interactions/application-commands#application-command-object).
var guildOnly = []discordgo.InteractionContextType{discordgo.InteractionContextGuild}

// subcommand is the subcommand of a command of one (d.Options has one
// entry) and its options by name.
func subcommand(d discordgo.ApplicationCommandInteractionData) (*discordgo.ApplicationCommandInteractionDataOption, map[string]*discordgo.ApplicationCommandInteractionDataOption) {
	sub := d.Options[0]
	opts := map[string]*discordgo.ApplicationCommandInteractionDataOption{}
	for _, o := range sub.Options {
		opts[o.Name] = o
	}
	return sub, opts
}

func stringOpt(opts map[string]*discordgo.ApplicationCommandInteractionDataOption, id string) string {
	if o, ok := opts[en("opt_"+id+"_name")]; ok {
		if s, ok := o.Value.(string); ok {
			return s
		}
	}
	return ""
}

// gameLanguage is the game's language:
//   - the language: option, if given;
//   - in a solo game, the player's own language;
//   - the server's preferred locale when it is a supported one other than
//     en-US (a server that is not a Community server always reports en-US,
//     so en-US says nothing);
//   - the language of the player who starts the game;
//   - DIX_LANGUAGE (Options.DefaultLanguage).
func (c *call) gameLanguage(option string, solo bool) string {
	if locales.Supported(option) {
		return option
	}
	user := locales.For(string(c.i.Locale))
	if solo && user != "" {
		return user
	}
	if c.i.GuildLocale != nil && *c.i.GuildLocale != discordgo.EnglishUS {
		if l := locales.For(string(*c.i.GuildLocale)); l != "" {
			return l
		}
	}
	if user != "" {
		return user
	}
	return c.b.lang
}

// paceOf checks the pace: option (empty: the default pace).
func (b *Bot) paceOf(option string) (string, error) {
	if option == "" {
		return clock.DefaultPace, nil
	}
	if _, ok := clock.Find(b.paces, option); !ok {
		return "", ErrBadInput
	}
	return option, nil
}

// lobbyGrace is how long the process that answered /dix start has to
// record the lobby message before any process posts the lobby itself: the
// answer may be deferred and come up to workBudget late.
const lobbyGrace = workBudget + outboxGrace
