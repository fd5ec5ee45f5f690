package bot

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/locales"
)

// settingsVersion is the version of channelSettings.
const settingsVersion = 1

// channelSettings are a channel's saved settings (/settings): what a start
// in the channel uses unless its command's options say otherwise. An empty
// field is not set: the bot's own default applies.
type channelSettings struct {
	V       int    `json:"v"`
	Lang    string `json:"l,omitempty"`   // en or fr; "": the server's or the player's language
	Pics    string `json:"pic,omitempty"` // picsOn or picsOff
	Pace    string `json:"p,omitempty"`   // DIX's pace (clock.Pace name)
	Variant string `json:"var,omitempty"` // variantStd or variantBust
	Diff    int    `json:"d,omitempty"`   // DIX's solo difficulty
	// Paces are the paces of the contract games, by game name.
	Paces map[string]string `json:"gp,omitempty"`
}

// The arguments of the settings components' custom ids: which setting the
// component changes.
const (
	setLang    = "lang"
	setPics    = "pics"
	setPace    = "pace"
	setVariant = "var"
	setDiff    = "diff"
	setGame    = "game"
	setReset   = "reset"
	langAuto   = "auto" // the language option that clears the setting
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
	if _, ok := clock.Find(b.paces, s.Pace); !ok {
		s.Pace = ""
	}
	if s.Variant != variantStd && s.Variant != variantBust {
		s.Variant = ""
	}
	if s.Diff < minDifficulty || s.Diff > maxDifficulty {
		s.Diff = 0
	}
	for game, pace := range s.Paces {
		if g, ok := b.games[game]; !ok || !hasPace(g, pace) {
			delete(s.Paces, game)
		}
	}
	return s
}

func hasPace(g *present.Game, name string) bool {
	return slices.ContainsFunc(g.Paces, func(p present.Pace) bool { return p.Name == name })
}

// loadSettings reads the channel's settings. A store without settings,
// none saved or unreadable ones give the zero settings; a store failure
// is returned (with the zero settings), for the caller to decide.
func (c *call) loadSettings() (channelSettings, error) {
	ss, ok := c.b.settingsStore()
	if !ok || c.i.GuildID == "" {
		return channelSettings{}, nil
	}
	ctx, cancel := c.storeCtx()
	defer cancel()
	raw, err := ss.Settings(ctx, c.i.GuildID, c.i.ChannelID)
	switch {
	case errors.Is(err, dixbot.ErrNotFound):
		return channelSettings{}, nil
	case err != nil:
		return channelSettings{}, c.storeErr("settings", err)
	}
	var s channelSettings
	if json.Unmarshal(raw, &s) != nil || s.V > settingsVersion {
		c.b.log.Warn("unreadable channel settings: defaults used", "channel", c.i.ChannelID)
		return channelSettings{}, nil
	}
	return c.b.clean(s), nil
}

// startSettings are the settings a start uses: those of the channel, or
// none when the store cannot be read (a start does not fail for them).
func (c *call) startSettings() channelSettings {
	s, err := c.loadSettings()
	if err != nil {
		c.b.log.Warn("channel settings not read: defaults used", "channel", c.i.ChannelID, "err", err)
	}
	return s
}

// The solo difficulties a server may set for DIX (SPEC §5), checked
// against DIX's rules by its table's tests.
const (
	minDifficulty     = 4
	maxDifficulty     = 10
	defaultDifficulty = 4 // the rulebook suggests starting at 4
)

// orSetting is the command's option when given, else the saved setting.
func orSetting(option, saved string) string {
	if option != "" {
		return option
	}
	return saved
}

// picturesOff reports whether the settings turn the pictures off.
func (s channelSettings) picturesOff() bool { return s.Pics == picsOff }

// bust reports whether the settings choose DIX's bust variant.
func (s channelSettings) bust() bool { return s.Variant == variantBust }

// any reports whether any setting is saved.
func (s channelSettings) any() bool {
	return s.Lang != "" || s.Pics != "" || s.Pace != "" || s.Variant != "" || s.Diff != 0 || len(s.Paces) > 0
}

// mayConfigure: the creator of the channel's latest game (active or
// archived), or a member who may manage the channel. The member's
// permissions in an interaction are their total permissions in its
// channel, overwrites included
// (https://discord.com/developers/docs/resources/guild#guild-member-object).
func (c *call) mayConfigure() (bool, error) {
	if c.i.Member != nil && c.i.Member.Permissions&(discordgo.PermissionManageChannels|discordgo.PermissionAdministrator) != 0 {
		return true, nil
	}
	if c.user == "" {
		return false, nil
	}
	ctx, cancel := c.storeCtx()
	defer cancel()
	r, err := c.b.store.Get(ctx, c.i.ChannelID)
	switch {
	case errors.Is(err, dixbot.ErrNotFound):
		return false, nil
	case errors.Is(err, dixbot.ErrCorrupt), errors.Is(err, dixbot.ErrSchemaTooNew):
		return false, nil // no creator to read: managers only
	case err != nil:
		return false, c.storeErr("get", err)
	}
	// DIX's table data and a contract game's table data both keep the creator
	// under "c".
	var v struct {
		Creator string `json:"c"`
	}
	return json.Unmarshal(r.Meta, &v) == nil && v.Creator == c.user, nil
}

// checkConfigure refuses a person who may not change the settings.
func (c *call) checkConfigure() error {
	if c.i.GuildID == "" {
		return ErrNoChannel
	}
	if _, ok := c.b.settingsStore(); !ok {
		return refuse(ErrBadInput, "settings_err_unsupported", nil)
	}
	ok, err := c.mayConfigure()
	if err != nil {
		return err
	}
	if !ok {
		return refuse(ErrNoPermission, "settings_err_permission", nil)
	}
	return nil
}

// settingsCommand returns the definition of /settings.
func settingsCommand() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:                     en("settings_cmd_name"),
		NameLocalizations:        localized("settings_cmd_name"),
		Description:              en("settings_cmd_desc"),
		DescriptionLocalizations: localized("settings_cmd_desc"),
		Contexts:                 &guildOnly,
	}
}

// cmdSettings answers /settings privately with the channel's settings
// and the menus that change them.
func (c *call) cmdSettings() error {
	if err := c.checkConfigure(); err != nil {
		return err
	}
	s, err := c.loadSettings()
	if err != nil {
		return err
	}
	text, comps := c.b.settingsView(c.lang, s, "")
	c.ephemeral(text, comps)
	return nil
}

// settingsChange applies a click on the settings message: the setting
// p.arg takes the value chosen (a menu) or the other value (a button).
func (c *call) settingsChange(p parsedID) error {
	if err := c.checkConfigure(); err != nil {
		return err
	}
	s, err := c.loadSettings()
	if err != nil {
		return err
	}
	value := ""
	if vs := c.values(); len(vs) == 1 {
		value = vs[0]
	} else if len(vs) > 1 {
		return refuse(ErrBadInput, "settings_err_value", nil)
	}
	bad := refuse(ErrBadInput, "settings_err_value", nil)
	switch p.arg {
	case setLang:
		switch {
		case value == langAuto:
			s.Lang = ""
		case locales.Supported(value):
			s.Lang = value
		default:
			return bad
		}
	case setPace:
		if _, ok := clock.Find(c.b.paces, value); !ok {
			return bad
		}
		s.Pace = value
	case setDiff:
		n, err := strconv.Atoi(value)
		if err != nil || n < minDifficulty || n > maxDifficulty || strconv.Itoa(n) != value {
			return bad
		}
		s.Diff = n
	case setGame:
		game, pace, ok := strings.Cut(value, "/")
		g, known := c.b.games[game]
		if !ok || !known || !hasPace(g, pace) {
			return bad
		}
		if s.Paces == nil {
			s.Paces = map[string]string{}
		}
		s.Paces[game] = pace
	case setPics:
		if value != "" {
			return bad
		}
		if s.picturesOff() {
			s.Pics = picsOn
		} else {
			s.Pics = picsOff
		}
	case setVariant:
		if value != "" {
			return bad
		}
		if s.bust() {
			s.Variant = variantStd
		} else {
			s.Variant = variantBust
		}
	case setReset:
		if value != "" {
			return bad
		}
		s = channelSettings{}
	default:
		return ErrBadCustomID
	}
	s.V = settingsVersion
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	ss, _ := c.b.settingsStore()
	err = c.retry("save settings", func(ctx context.Context) error { return ss.SaveSettings(ctx, c.i.GuildID, c.i.ChannelID, raw) })
	if err != nil {
		return err
	}
	text, comps := c.b.settingsView(c.lang, s, locales.T(c.lang, "settings_saved", nil))
	if c.i.Message != nil {
		c.update(text, nil, comps)
	} else {
		c.ephemeral(text, comps)
	}
	return nil
}

// paceLabel is the name of a contract game's pace in lang (its identifier
// when the game gives it no name).
func paceLabel(lang, game, pace string) string {
	if key := game + "_pace_" + pace; locales.Has(lang, key) {
		return locales.T(lang, key, nil)
	}
	return pace
}

// pacedGames are the hosted contract games that offer paces, by name.
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

// settingsView is the settings message in lang, after note when there is
// one, with the menus and buttons that change each setting.
func (b *Bot) settingsView(lang string, s channelSettings, note string) (string, []discordgo.MessageComponent) {
	t := func(key string, d map[string]any) string { return locales.T(lang, key, d) }
	language := t("settings_language_auto", nil)
	if s.Lang != "" {
		language = t("language_name_"+s.Lang, nil)
	}
	pics := t("pictures_on", nil)
	if s.picturesOff() {
		pics = t("pictures_off", nil)
	}
	variant := t("variant_standard", nil)
	if s.bust() {
		variant = t("variant_bust", nil)
	}
	pace := orSetting(s.Pace, clock.DefaultPace)
	diff := s.Diff
	if diff == 0 {
		diff = defaultDifficulty
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
		t("settings_line_dix", map[string]any{"Pace": t("pace_"+pace, nil), "Variant": variant, "Level": diff,
			"LevelName": t("difficulty_"+itoa(diff), nil)}),
	)
	games := b.pacedGames()
	for _, game := range games {
		lines = append(lines, t("settings_line_game", map[string]any{"Game": t(game+"_title", nil),
			"Pace": paceLabel(lang, game, b.gamePace(s, game))}))
	}

	menu := func(arg, placeholder string, opts []discordgo.SelectMenuOption) discordgo.MessageComponent {
		return discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			CustomID: customID(verbSettings, 0, arg), Placeholder: t(placeholder, nil), Options: opts,
		}}}
	}
	langs := []discordgo.SelectMenuOption{{Label: t("settings_language_auto", nil), Value: langAuto, Default: s.Lang == ""}}
	for _, l := range []string{locales.English, locales.French} {
		langs = append(langs, discordgo.SelectMenuOption{Label: t("language_name_"+l, nil), Value: l, Default: s.Lang == l})
	}
	var paces []discordgo.SelectMenuOption
	for _, p := range b.paces {
		paces = append(paces, discordgo.SelectMenuOption{Label: truncate(t("pace_"+p.Name, nil), 100),
			Description: truncate(present.PaceText(lang, p), 100), Value: p.Name, Default: p.Name == pace})
	}
	var diffs []discordgo.SelectMenuOption
	for d := minDifficulty; d <= maxDifficulty; d++ {
		diffs = append(diffs, discordgo.SelectMenuOption{Label: itoa(d), Description: truncate(t("difficulty_"+itoa(d), nil), 100),
			Value: itoa(d), Default: d == diff})
	}
	rows := []discordgo.MessageComponent{
		menu(setLang, "settings_select_language", langs),
		menu(setPace, "settings_select_pace", paces),
		menu(setDiff, "settings_select_difficulty", diffs),
	}
	var gamePaces []discordgo.SelectMenuOption
	for _, game := range games {
		for _, p := range b.games[game].Paces {
			// A select menu holds 25 options at most
			// (https://discord.com/developers/docs/components/reference#string-select).
			if len(gamePaces) == 25 {
				break
			}
			gamePaces = append(gamePaces, discordgo.SelectMenuOption{
				Label: truncate(t(game+"_title", nil)+t("settings_game_sep", nil)+paceLabel(lang, game, p.Name), 100),
				Value: game + "/" + p.Name, Default: p.Name == b.gamePace(s, game),
			})
		}
	}
	if len(gamePaces) > 0 {
		rows = append(rows, menu(setGame, "settings_select_game_pace", gamePaces))
	}
	picsKey, variantKey := "settings_btn_pictures_off", "settings_btn_bust"
	if s.picturesOff() {
		picsKey = "settings_btn_pictures_on"
	}
	if s.bust() {
		variantKey = "settings_btn_standard"
	}
	rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		button(lang, picsKey, nil, discordgo.SecondaryButton, customID(verbSettings, 0, setPics)),
		button(lang, variantKey, nil, discordgo.SecondaryButton, customID(verbSettings, 0, setVariant)),
		button(lang, "settings_btn_reset", nil, discordgo.DangerButton, customID(verbSettings, 0, setReset)),
	}})
	return truncate(strings.Join(lines, "\n"), 2000), rows
}

// tableOptions is the line of a contract game's lobby that says the
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
	d["Pace"] = paceLabel(td.Lang, g.Rules.Name(), g.PaceOf(td.Pace).Name)
	return locales.T(td.Lang, "table_lobby_options_pace", d)
}
