package bot

import (
	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/locales"
)

// Option and choice values (identifiers, not shown to users).
const (
	optLanguage = "language"
	optPictures = "pictures"
	optPace     = "pace"
	picsOn      = "on"
	picsOff     = "off"
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

func languageOption() *discordgo.ApplicationCommandOption {
	o := Option(optLanguage, discordgo.ApplicationCommandOptionString)
	o.Choices = []*discordgo.ApplicationCommandOptionChoice{
		Choice("language_name_en", locales.English),
		Choice("language_name_fr", locales.French),
	}
	return o
}

// Command is a command's definition as it is registered (Bot.Register):
// discordgo's, with the contexts it is offered in.
type Command struct {
	*discordgo.ApplicationCommand
	Contexts []InteractionContext `json:"contexts"`
}

// InteractionContext is where a command may be used
// (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-context-types).
type InteractionContext int

// ContextGuild is a server's channels.
const ContextGuild InteractionContext = 0

// Commands returns the localised definitions of the server's /settings,
// the command of every game (Options.Games) and the statistics' commands,
// each offered in servers only: contexts [GUILD], which replaces the
// deprecated dm_permission
// (https://discord.com/developers/docs/interactions/application-commands#application-command-object).
func (b *Bot) Commands() []Command {
	var cmds []Command
	for _, c := range append(append([]*discordgo.ApplicationCommand{settingsCommand()}, b.gameCommands()...), b.statsCommands()...) {
		cmds = append(cmds, Command{ApplicationCommand: c, Contexts: []InteractionContext{ContextGuild}})
	}
	return cmds
}

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

func stringOpt(opts map[string]*discordgo.ApplicationCommandInteractionDataOption, id string) string {
	if o, ok := opts[En("opt_"+id+"_name")]; ok {
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
func (c *Call) gameLanguage(option string, solo bool) string {
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
