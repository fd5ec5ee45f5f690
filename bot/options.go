package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/locales"
)

// A game's own options (present.Option): the start command offers them,
// the lobby shows them and lets the creator change them, the server's
// settings keep each game's defaults under the game's name, and the table
// passes them to the game when it starts (engine.Setup.Options).

// checkOptions refuses a game whose options Discord could not offer or
// the table could not keep: a name that is not lowercase letters, twice
// the same name, no values, a default that is not one of the values, more
// values in all than the lobby's menu holds.
func checkOptions(g *present.Game) error {
	seen := map[string]bool{}
	values := 0
	for _, o := range g.Options {
		values += len(o.Values)
		if values > present.MaxOptions {
			return fmt.Errorf("bot: game %q: more option values than a menu holds", g.Rules.Name())
		}
		switch {
		case o.Name == "" || strings.Trim(o.Name, "abcdefghijklmnopqrstuvwxyz") != "" || seen[o.Name] || tableOption(o.Name):
			return fmt.Errorf("bot: game %q: option name %q", g.Rules.Name(), o.Name)
		case len(o.Values) == 0 || !o.Allows(o.Default):
			return fmt.Errorf("bot: game %q: option %q: values or default", g.Rules.Name(), o.Name)
		}
		for _, v := range o.Values {
			if v == "" || strings.ContainsAny(v, "=/:") {
				return fmt.Errorf("bot: game %q: option %q: value %q", g.Rules.Name(), o.Name, v)
			}
		}
		seen[o.Name] = true
	}
	return nil
}

// tableOption reports whether name is an option the table's start
// command has already, which a game's own option may not take.
func tableOption(name string) bool {
	for _, id := range []string{optLanguage, optPictures, optPace} {
		if name == En("opt_"+id+"_name") {
			return true
		}
	}
	return false
}

// optionName is the name of game's option o in lang.
func optionName(lang, game string, o present.Option) string {
	if key := game + "_opt_" + o.Name; locales.Has(lang, key) {
		return locales.T(lang, key, nil)
	}
	return o.Name
}

// optionValue is the name of the value v of game's option o in lang.
func optionValue(lang, game string, o present.Option, v string) string {
	if o.Label != nil {
		return o.Label(lang, v)
	}
	if key := game + "_opt_" + o.Name + "_" + v; locales.Has(lang, key) {
		return locales.T(lang, key, nil)
	}
	return v
}

// startOptions are the start command's options of g's own options: one
// string option each, its values as choices.
func startOptions(g *present.Game) []*discordgo.ApplicationCommandOption {
	game := g.Rules.Name()
	var out []*discordgo.ApplicationCommandOption
	for _, o := range g.Options {
		opt := &discordgo.ApplicationCommandOption{
			Type: discordgo.ApplicationCommandOptionString, Name: o.Name,
			Description:              present.Truncate(optionName(locales.English, game, o), present.MaxChoiceName),
			DescriptionLocalizations: map[discordgo.Locale]string{discordgo.French: present.Truncate(optionName(locales.French, game, o), present.MaxChoiceName)},
		}
		for _, v := range o.Values {
			opt.Choices = append(opt.Choices, &discordgo.ApplicationCommandOptionChoice{
				Name:              present.Truncate(optionValue(locales.English, game, o, v), present.MaxChoiceName),
				NameLocalizations: map[discordgo.Locale]string{discordgo.French: present.Truncate(optionValue(locales.French, game, o, v), present.MaxChoiceName)},
				Value:             v,
			})
		}
		out = append(out, opt)
	}
	return out
}

// chosenOptions are the values of g's options a start uses: the command's
// when given, else the channel's saved ones, else the game's defaults. A
// value the option does not allow is refused.
func chosenOptions(g *present.Game, opts map[string]*discordgo.ApplicationCommandInteractionDataOption, saved map[string]string) (map[string]string, error) {
	chosen := map[string]string{}
	for _, o := range g.Options {
		v := saved[o.Name]
		if given, ok := opts[o.Name]; ok {
			s, _ := given.Value.(string)
			if !o.Allows(s) {
				return nil, Refuse(ErrBadInput, "table_err_option", map[string]any{"Option": optionName(locales.English, g.Rules.Name(), o)})
			}
			v = s
		}
		if v != "" {
			chosen[o.Name] = v
		}
	}
	return g.OptionValues(chosen), nil
}

// shownOptions are g's options a table of seats seats shows: a solo
// option only to a table of one seat.
func shownOptions(g *present.Game, seats int) []present.Option {
	var out []present.Option
	for _, o := range g.Options {
		if !o.Solo || seats == 1 {
			out = append(out, o)
		}
	}
	return out
}

// optionsLine is the lobby's line of the game's options as td holds them
// ("" for a game without options).
func optionsLine(g *present.Game, td *tableData) string {
	vals := g.OptionValues(td.Opts)
	var parts []string
	for _, o := range shownOptions(g, len(td.Seats)) {
		parts = append(parts, locales.T(td.Lang, "table_option", map[string]any{
			"Option": optionName(td.Lang, g.Rules.Name(), o), "Value": optionValue(td.Lang, g.Rules.Name(), o, vals[o.Name])}))
	}
	return strings.Join(parts, locales.T(td.Lang, "table_option_sep", nil))
}

// optionsMenu is the lobby's menu of the game's options: one entry per
// value of every option shown, the chosen ones marked; nil for a game
// without options.
func optionsMenu(g *present.Game, td *tableData) discordgo.MessageComponent {
	shown := shownOptions(g, len(td.Seats))
	if len(shown) == 0 {
		return nil
	}
	vals := g.OptionValues(td.Opts)
	game := g.Rules.Name()
	var opts []discordgo.SelectMenuOption
	for _, o := range shown {
		for _, v := range o.Values {
			opts = append(opts, discordgo.SelectMenuOption{
				Label: present.Truncate(optionName(td.Lang, game, o)+locales.T(td.Lang, "settings_game_sep", nil)+optionValue(td.Lang, game, o, v), present.MaxOptionLabel),
				Value: o.Name + "=" + v, Default: vals[o.Name] == v,
			})
		}
	}
	return discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
		CustomID: buttonID(game, verbOpt, uint64(td.Lobby), ""), Options: opts, MaxValues: 1,
		Placeholder: locales.T(td.Lang, "table_option_placeholder", nil),
	}}}
}

// chooseOption sets the table's option to the menu's value
// "<name>=<value>": the creator's choice alone, among the option's values.
func chooseOption(g *present.Game, td *tableData, user, value string) error {
	if user != td.Creator {
		return ErrNotCreator
	}
	name, v, _ := strings.Cut(value, "=")
	o, ok := g.Option(name)
	if !ok || !o.Allows(v) {
		return ErrBadCustomID
	}
	if td.Opts == nil {
		td.Opts = map[string]string{}
	}
	td.Opts[name] = v
	return nil
}

// errNoOptions is a settings value for a game without that option.
var errNoOptions = errors.New("bot: no such option")

// setGameOption sets game's option in s from the settings menu's value
// "<game>/<name>=<value>".
func (b *Bot) setGameOption(s *channelSettings, value string) error {
	game, rest, ok := strings.Cut(value, "/")
	g, known := b.games[game]
	name, v, _ := strings.Cut(rest, "=")
	if !ok || !known {
		return errNoOptions
	}
	if o, ok := g.Option(name); !ok || !o.Allows(v) {
		return errNoOptions
	}
	if s.Opts == nil {
		s.Opts = map[string]map[string]string{}
	}
	if s.Opts[game] == nil {
		s.Opts[game] = map[string]string{}
	}
	s.Opts[game][name] = v
	return nil
}

// cleanOptions drops the saved options of games no longer hosted and the
// values their options no longer allow.
func (b *Bot) cleanOptions(s *channelSettings) {
	for game, opts := range s.Opts {
		g, ok := b.games[game]
		for name, v := range opts {
			if !ok {
				delete(opts, name)
				continue
			}
			if o, has := g.Option(name); !has || !o.Allows(v) {
				delete(opts, name)
			}
		}
		if len(opts) == 0 {
			delete(s.Opts, game)
		}
	}
}

// optionGames are the hosted games with options, by name.
func (b *Bot) optionGames() []string {
	var out []string
	for _, name := range b.gameNames() {
		if len(b.games[name].Options) > 0 {
			out = append(out, name)
		}
	}
	return out
}

// optionSettings are the settings message's lines of the games' options,
// one per game, and its menu of them, one for every game, at page (nil:
// no game has options).
func (b *Bot) optionSettings(lang string, s channelSettings, page int) ([]string, discordgo.MessageComponent) {
	var lines []string
	var opts []discordgo.SelectMenuOption
	for _, game := range b.optionGames() {
		g := b.games[game]
		title := locales.T(lang, game+"_title", nil)
		vals := g.OptionValues(s.Opts[game])
		var parts []string
		for _, o := range g.Options {
			parts = append(parts, locales.T(lang, "table_option", map[string]any{"Option": optionName(lang, game, o),
				"Value": optionValue(lang, game, o, vals[o.Name])}))
			for _, v := range o.Values {
				opts = append(opts, discordgo.SelectMenuOption{
					Label: present.Truncate(title+locales.T(lang, "settings_game_sep", nil)+optionName(lang, game, o)+
						locales.T(lang, "settings_game_sep", nil)+optionValue(lang, game, o, v), present.MaxOptionLabel),
					Value: game + "/" + o.Name + "=" + v, Default: vals[o.Name] == v,
				})
			}
		}
		lines = append(lines, locales.T(lang, "settings_line_options", map[string]any{"Game": title,
			"Options": strings.Join(parts, locales.T(lang, "table_option_sep", nil))}))
	}
	if len(opts) == 0 {
		return lines, nil
	}
	return lines, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
		CustomID: tableID(verbSettings, setOption), Options: pagedOptions(lang, opts, page), MaxValues: 1,
		Placeholder: locales.T(lang, "settings_select_options", nil),
	}}}
}
