package bot

import (
	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/locales"
)

// The subcommands of /dix, by handler id. Their names and descriptions are
// in the locale files under "cmd_<id>_name" and "cmd_<id>_desc".
var Subcommands = []string{"start", "solo", "board", "hand", "hint", "log", "rules", "leave", "pause", "resume", "abandon"}

// Option and choice values (identifiers, not shown to users).
const (
	OptVariant    = "variant"
	OptLanguage   = "language"
	OptDifficulty = "difficulty"
	OptPace       = "pace"
	OptPictures   = "pictures"
	PicsOn        = "on"
	PicsOff       = "off"
	VariantStd    = "standard"
	VariantBust   = "bust"
)

func Localized(key string) *map[discordgo.Locale]string {
	return &map[discordgo.Locale]string{discordgo.French: locales.T(locales.French, key, nil)}
}

func En(key string) string { return locales.T(locales.English, key, nil) }

// Option builds a command option whose name and description are localised.
func Option(id string, typ discordgo.ApplicationCommandOptionType) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{
		Type:                     typ,
		Name:                     En("opt_" + id + "_name"),
		NameLocalizations:        *Localized("opt_" + id + "_name"),
		Description:              En("opt_" + id + "_desc"),
		DescriptionLocalizations: *Localized("opt_" + id + "_desc"),
	}
}

func Choice(key string, value any) *discordgo.ApplicationCommandOptionChoice {
	return &discordgo.ApplicationCommandOptionChoice{Name: En(key), NameLocalizations: *Localized(key), Value: value}
}

func LanguageOption() *discordgo.ApplicationCommandOption {
	o := Option(OptLanguage, discordgo.ApplicationCommandOptionString)
	o.Choices = []*discordgo.ApplicationCommandOptionChoice{
		Choice("language_name_en", locales.English),
		Choice("language_name_fr", locales.French),
	}
	return o
}

// PaceOption offers the bot's paces, each with its durations.
func (b *Bot) PaceOption() *discordgo.ApplicationCommandOption {
	o := Option(OptPace, discordgo.ApplicationCommandOptionString)
	for _, p := range b.Paces {
		o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{
			Name:              Truncate(present.PaceText(locales.English, p), 100),
			NameLocalizations: map[discordgo.Locale]string{discordgo.French: Truncate(present.PaceText(locales.French, p), 100)},
			Value:             p.Name,
		})
	}
	return o
}

// Commands returns the localised definition of the hosted own table's
// command (/dix, Host), the server's /settings, the command of every
// contract game (Options.Games) and the statistics' commands.
func (b *Bot) Commands() []*discordgo.ApplicationCommand {
	var cmds []*discordgo.ApplicationCommand
	if c := own.Command(b); c != nil {
		cmds = append(cmds, c)
	}
	return append(append(cmds, settingsCommand()), append(b.contractCommands(), b.statsCommands()...)...)
}

// GuildOnly are the contexts of every command: servers only, contexts
// [GUILD], which replaces the deprecated dm_permission
// (https://discord.com/developers/docs/interactions/application-commands#application-command-object).
var GuildOnly = []discordgo.InteractionContextType{discordgo.InteractionContextGuild}

// Subcommand is the subcommand of a command of one (d.Options has one
// entry) and its options by name.
func Subcommand(d discordgo.ApplicationCommandInteractionData) (*discordgo.ApplicationCommandInteractionDataOption, map[string]*discordgo.ApplicationCommandInteractionDataOption) {
	sub := d.Options[0]
	opts := map[string]*discordgo.ApplicationCommandInteractionDataOption{}
	for _, o := range sub.Options {
		opts[o.Name] = o
	}
	return sub, opts
}

func StringOpt(opts map[string]*discordgo.ApplicationCommandInteractionDataOption, id string) string {
	if o, ok := opts[En("opt_"+id+"_name")]; ok {
		if s, ok := o.Value.(string); ok {
			return s
		}
	}
	return ""
}

// GameLanguage is the game's language:
//   - the language: option, if given;
//   - in a solo game, the player's own language;
//   - the server's preferred locale when it is a supported one other than
//     en-US (a server that is not a Community server always reports en-US,
//     so en-US says nothing);
//   - the language of the player who starts the game;
//   - DIX_LANGUAGE (Options.DefaultLanguage).
func (c *Call) GameLanguage(option string, solo bool) string {
	if locales.Supported(option) {
		return option
	}
	user := locales.For(string(c.I.Locale))
	if solo && user != "" {
		return user
	}
	if c.I.GuildLocale != nil && *c.I.GuildLocale != discordgo.EnglishUS {
		if l := locales.For(string(*c.I.GuildLocale)); l != "" {
			return l
		}
	}
	if user != "" {
		return user
	}
	return c.B.lang
}

// PaceOf checks the pace: option (empty: the default pace).
func (b *Bot) PaceOf(option string) (string, error) {
	if option == "" {
		return clock.DefaultPace, nil
	}
	if _, ok := clock.Find(b.Paces, option); !ok {
		return "", ErrBadInput
	}
	return option, nil
}

// LobbyGrace is how long the process that answered /dix start has to
// record the lobby message before any process posts the lobby itself: the
// answer may be deferred and come up to workBudget late.
const LobbyGrace = workBudget + OutboxGrace
