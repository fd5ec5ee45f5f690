package bot

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/locales"
)

// settingsVersion is the version of channelSettings.
const settingsVersion = 1

// channelSettings are a channel's saved settings (/settings): what a start
// in the channel uses unless its command's options say otherwise. An empty
// field is not set: the bot's own default applies.
type channelSettings struct {
	V    int    `json:"v"`
	Lang string `json:"l,omitempty"`   // en or fr; "": the server's or the player's language
	Pics string `json:"pic,omitempty"` // picsOn or picsOff
	// Paces are the paces of the games, by game name.
	Paces map[string]string `json:"gp,omitempty"`
	// Opts are the values of the games' own options (present.Option), by
	// game name then option name.
	Opts map[string]map[string]string `json:"go,omitempty"`
	// Old are the settings kept for the game a table of its own hosted
	// before the shared table (present.OldSettings): read, never written,
	// they are moved under that game's name when read (upgradeSettings).
	OldPace    string `json:"p,omitempty"`
	OldVariant string `json:"var,omitempty"`
	OldDiff    int    `json:"d,omitempty"`
}

// The arguments of the settings components' custom ids: which setting the
// component changes.
const (
	setLang   = "lang"
	setPics   = "pics"
	setGame   = "game"
	setOption = "opt"
	setReset  = "reset"
	langAuto  = "auto" // the language option that clears the setting

	// The menus and button of DIX's settings on its own table's
	// settings message, answered as outdated.
	setOldPace    = "pace"
	setOldVariant = "var"
	setOldDiff    = "diff"
)

// settingsStore is the bot's store when it keeps channel settings.
func (b *Bot) settingsStore() (dixbot.SettingsStore, bool) {
	ss, ok := b.store.(dixbot.SettingsStore)
	return ss, ok
}

// clean drops the values the bot no longer offers (a pace removed from
// DIX_PACES, a game no longer hosted), so that a start never refuses
// saved settings.
func (b *Bot) clean(s channelSettings) channelSettings {
	if !locales.Supported(s.Lang) {
		s.Lang = ""
	}
	if s.Pics != picsOn && s.Pics != picsOff {
		s.Pics = ""
	}
	b.upgradeSettings(&s)
	for game, pace := range s.Paces {
		if g, ok := b.games[game]; !ok || !hasPace(g, pace) {
			delete(s.Paces, game)
		}
	}
	b.cleanOptions(&s)
	return s
}

// upgradeSettings moves the settings kept for a game by the table that
// hosted it before the shared table (the Old fields) under that game's
// name, where the game reads them (present.Game.UpgradeSettings): a value
// the channel set since in the shared table's settings stays.
func (b *Bot) upgradeSettings(s *channelSettings) {
	if s.OldPace == "" && s.OldVariant == "" && s.OldDiff == 0 {
		return
	}
	old := present.OldSettings{Pace: s.OldPace, Variant: s.OldVariant, Difficulty: s.OldDiff}
	s.OldPace, s.OldVariant, s.OldDiff = "", "", 0
	for _, name := range b.gameNames() {
		g := b.games[name]
		if g.UpgradeSettings == nil {
			continue
		}
		pace, opts := g.UpgradeSettings(old)
		if pace != "" && s.Paces[name] == "" {
			if s.Paces == nil {
				s.Paces = map[string]string{}
			}
			s.Paces[name] = pace
		}
		for k, v := range opts {
			if _, set := s.Opts[name][k]; set {
				continue
			}
			if s.Opts == nil {
				s.Opts = map[string]map[string]string{}
			}
			if s.Opts[name] == nil {
				s.Opts[name] = map[string]string{}
			}
			s.Opts[name][k] = v
		}
	}
}

func hasPace(g *present.Game, name string) bool {
	return slices.ContainsFunc(g.Paces, func(p present.Pace) bool { return p.Name == name })
}

// loadSettings reads the channel's settings. A store without settings,
// none saved or unreadable ones give the zero settings; a store failure
// is returned (with the zero settings), for the caller to decide.
func (c *Call) loadSettings() (channelSettings, error) {
	ss, ok := c.B.settingsStore()
	if !ok || c.I.GuildID == "" {
		return channelSettings{}, nil
	}
	ctx, cancel := c.storeCtx()
	defer cancel()
	raw, err := ss.Settings(ctx, c.I.GuildID, c.I.ChannelID)
	switch {
	case errors.Is(err, dixbot.ErrNotFound):
		return channelSettings{}, nil
	case err != nil:
		return channelSettings{}, c.storeErr("settings", err)
	}
	var s channelSettings
	if json.Unmarshal(raw, &s) != nil || s.V > settingsVersion {
		c.B.log.Warn("unreadable channel settings: defaults used", "channel", c.I.ChannelID)
		return channelSettings{}, nil
	}
	return c.B.clean(s), nil
}

// startSettings are the settings a start uses: those of the channel, or
// none when the store cannot be read (a start does not fail for them).
func (c *Call) startSettings() channelSettings {
	s, err := c.loadSettings()
	if err != nil {
		c.B.log.Warn("channel settings not read: defaults used", "channel", c.I.ChannelID, "err", err)
	}
	return s
}

// orSetting is the command's option when given, else the saved setting.
func orSetting(option, saved string) string {
	if option != "" {
		return option
	}
	return saved
}

// picturesOff reports whether the settings turn the pictures off.
func (s channelSettings) picturesOff() bool { return s.Pics == picsOff }

// mayConfigure: the creator of the channel's latest game (active or
// archived), or a member who may manage the channel. The member's
// permissions in an interaction are their total permissions in its
// channel, overwrites included
// (https://discord.com/developers/docs/resources/guild#guild-member-object).
func (c *Call) mayConfigure() (bool, error) {
	if c.I.Member != nil && c.I.Member.Permissions&(discordgo.PermissionManageChannels|discordgo.PermissionAdministrator) != 0 {
		return true, nil
	}
	if c.User == "" {
		return false, nil
	}
	ctx, cancel := c.storeCtx()
	defer cancel()
	r, err := c.B.get(ctx, c.I.ChannelID)
	switch {
	case errors.Is(err, dixbot.ErrNotFound):
		return false, nil
	case errors.Is(err, dixbot.ErrCorrupt), errors.Is(err, dixbot.ErrSchemaTooNew):
		return false, nil // no creator to read: managers only
	case err != nil:
		return false, c.storeErr("get", err)
	}
	// The table data keeps the creator under "c", as the table of DIX kept
	// before the shared table did.
	var v struct {
		Creator string `json:"c"`
	}
	return json.Unmarshal(r.Meta, &v) == nil && v.Creator == c.User, nil
}

// checkConfigure refuses a person who may not change the settings.
func (c *Call) checkConfigure() error {
	if c.I.GuildID == "" {
		return ErrNoChannel
	}
	if _, ok := c.B.settingsStore(); !ok {
		return Refuse(ErrBadInput, "settings_err_unsupported", nil)
	}
	ok, err := c.mayConfigure()
	if err != nil {
		return err
	}
	if !ok {
		return Refuse(ErrNoPermission, "settings_err_permission", nil)
	}
	return nil
}

// settingsCommand returns the definition of /settings.
func settingsCommand() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:                     En("settings_cmd_name"),
		NameLocalizations:        Localized("settings_cmd_name"),
		Description:              En("settings_cmd_desc"),
		DescriptionLocalizations: Localized("settings_cmd_desc"),
	}
}

// cmdSettings answers /settings privately with the channel's settings
// and the menus that change them.
func (c *Call) cmdSettings() error {
	if err := c.checkConfigure(); err != nil {
		return err
	}
	s, err := c.loadSettings()
	if err != nil {
		return err
	}
	text, comps := c.B.settingsView(c.Lang, s, "", menuAt{})
	c.Ephemeral(text, comps)
	return nil
}

// settingsChange applies a click on the settings message: the setting
// p.arg takes the value chosen (a menu) or the other value (a button).
func (c *Call) settingsChange(arg string) error {
	if err := c.checkConfigure(); err != nil {
		return err
	}
	s, err := c.loadSettings()
	if err != nil {
		return err
	}
	value := ""
	if vs := c.Values(); len(vs) == 1 {
		value = vs[0]
	} else if len(vs) > 1 {
		return Refuse(ErrBadInput, "settings_err_value", nil)
	}
	bad := Refuse(ErrBadInput, "settings_err_value", nil)
	if p, ok := menuPage(value); ok && (arg == setGame || arg == setOption) {
		// A page of a long menu: shown, nothing saved.
		text, comps := c.B.settingsView(c.Lang, s, "", menuAt{arg, p})
		c.updateOrReply(text, comps)
		return nil
	}
	switch arg {
	case setLang:
		switch {
		case value == langAuto:
			s.Lang = ""
		case locales.Supported(value):
			s.Lang = value
		default:
			return bad
		}
	case setGame:
		game, pace, ok := strings.Cut(value, "/")
		g, known := c.B.games[game]
		if !ok || !known || !hasPace(g, pace) {
			return bad
		}
		if s.Paces == nil {
			s.Paces = map[string]string{}
		}
		s.Paces[game] = pace
	case setOption:
		if c.B.setGameOption(&s, value) != nil {
			return bad
		}
	case setPics:
		if value != "" {
			return bad
		}
		if s.picturesOff() {
			s.Pics = picsOn
		} else {
			s.Pics = picsOff
		}
	case setReset:
		if value != "" {
			return bad
		}
		s = channelSettings{}
	case setOldPace, setOldVariant, setOldDiff:
		return ErrStale // a menu of the settings as an older table showed them
	default:
		return ErrBadCustomID
	}
	s.V = settingsVersion
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	ss, _ := c.B.settingsStore()
	err = c.Retry("save settings", func(ctx context.Context) error { return ss.SaveSettings(ctx, c.I.GuildID, c.I.ChannelID, raw) })
	if err != nil {
		return err
	}
	text, comps := c.B.settingsView(c.Lang, s, locales.T(c.Lang, "settings_saved", nil), menuAt{})
	c.updateOrReply(text, comps)
	return nil
}

// paceLabel is the name of a game's pace p in lang: its bank
// and increment for a pace of time banks, else the game's name of it (its
// identifier when the game gives it none).
func paceLabel(lang, game string, p present.Pace) string {
	if p.Banked() {
		return present.PaceText(lang, p.Bank)
	}
	if key := game + "_pace_" + p.Name; locales.Has(lang, key) {
		return locales.T(lang, key, nil)
	}
	return p.Name
}

// pacedGames are the hosted games that offer paces, by name.
func (b *Bot) pacedGames() []string {
	var out []string
	for name, g := range b.games {
		if len(g.Paces) > 0 {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// gamePace is the pace a new table of game uses under s: the saved one,
// else the game's default (its first).
func (b *Bot) gamePace(s channelSettings, game string) string {
	if p := s.Paces[game]; p != "" {
		return p
	}
	if g, ok := b.games[game]; ok && len(g.Paces) > 0 {
		return g.Paces[0].Name
	}
	return ""
}

// menuAt is the page a long menu of a message shows (menus.go): the menu's
// custom id argument and the page; the zero value shows every menu's first.
type menuAt struct {
	menu string
	page int
}

// of is the page the menu arg shows.
func (m menuAt) of(arg string) int {
	if m.menu == arg {
		return m.page
	}
	return 0
}

// settingsView is the settings message in lang, after note when there is
// one, with the menus and buttons that change each setting; at says the
// page of a menu too long for one.
func (b *Bot) settingsView(lang string, s channelSettings, note string, at menuAt) (string, []discordgo.MessageComponent) {
	t := func(key string, d map[string]any) string { return locales.T(lang, key, d) }
	language := t("settings_language_auto", nil)
	if s.Lang != "" {
		language = t("language_name_"+s.Lang, nil)
	}
	pics := t("pictures_on", nil)
	if s.picturesOff() {
		pics = t("pictures_off", nil)
	}
	var lines []string
	if note != "" {
		lines = append(lines, note)
	}
	lines = append(lines,
		t("settings_title", nil),
		t("settings_intro", nil),
		t("settings_line_language", map[string]any{"Value": language}),
		t("settings_line_pictures", map[string]any{"Value": pics}),
	)
	games := b.pacedGames()
	for _, game := range games {
		lines = append(lines, t("settings_line_game", map[string]any{"Game": t(game+"_title", nil),
			"Pace": paceLabel(lang, game, b.games[game].PaceOf(b.gamePace(s, game)))}))
	}
	optLines, optMenu := b.optionSettings(lang, s, at.of(setOption))
	lines = append(lines, optLines...)

	menu := func(arg, placeholder string, opts []discordgo.SelectMenuOption) discordgo.MessageComponent {
		return discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			CustomID: tableID(verbSettings, arg), Placeholder: t(placeholder, nil), Options: opts,
		}}}
	}
	langs := []discordgo.SelectMenuOption{{Label: t("settings_language_auto", nil), Value: langAuto, Default: s.Lang == ""}}
	for _, l := range []string{locales.English, locales.French} {
		langs = append(langs, discordgo.SelectMenuOption{Label: t("language_name_"+l, nil), Value: l, Default: s.Lang == l})
	}
	rows := []discordgo.MessageComponent{menu(setLang, "settings_select_language", langs)}
	var gamePaces []discordgo.SelectMenuOption
	for _, game := range games {
		for _, p := range b.games[game].Paces {
			gamePaces = append(gamePaces, discordgo.SelectMenuOption{
				Label: present.Truncate(t(game+"_title", nil)+t("settings_game_sep", nil)+paceLabel(lang, game, p), present.MaxOptionLabel),
				Value: game + "/" + p.Name, Default: p.Name == b.gamePace(s, game),
			})
		}
	}
	if len(gamePaces) > 0 {
		rows = append(rows, menu(setGame, "settings_select_game_pace", pagedOptions(lang, gamePaces, at.of(setGame))))
	}
	picsKey := "settings_btn_pictures_off"
	if s.picturesOff() {
		picsKey = "settings_btn_pictures_on"
	}
	if optMenu != nil {
		rows = append(rows, optMenu)
	}
	rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		Button(lang, picsKey, nil, discordgo.SecondaryButton, tableID(verbSettings, setPics)),
		Button(lang, "settings_btn_reset", nil, discordgo.DangerButton, tableID(verbSettings, setReset)),
	}})
	return present.Truncate(strings.Join(lines, "\n"), present.MaxContent), rows
}

// tableOptions is the line of a game's lobby that says the
// table's language, pace and pictures (from the command's options or the
// channel's settings).
func tableOptions(g *present.Game, td *tableData) string {
	pics := locales.T(td.Lang, "pictures_on", nil)
	if td.NoPics {
		pics = locales.T(td.Lang, "pictures_off", nil)
	}
	d := map[string]any{"Language": locales.T(td.Lang, "language_name_"+td.Lang, nil), "Pictures": pics}
	if len(g.Paces) == 0 {
		return locales.T(td.Lang, "table_lobby_options", d)
	}
	d["Pace"] = paceLabel(td.Lang, g.Rules.Name(), g.PaceOf(td.Pace))
	return locales.T(td.Lang, "table_lobby_options_pace", d)
}
