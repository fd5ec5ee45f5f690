package bot

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	botdix "github.com/dixgame/dixbot/bot/dix"
	botdixxit "github.com/dixgame/dixbot/bot/dixxit"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
	"github.com/dixgame/dixbot/store"
)

// qwixxPaced is Qwixx offering two paces, for the settings of a game's
// pace.
func qwixxPaced() present.Game {
	g := botqwixx.Game()
	g.Paces = []present.Pace{
		{Name: "quick", Clock: func(engine.State, int) time.Duration { return time.Minute }},
		{Name: "slow", Clock: func(engine.State, int) time.Duration { return time.Hour }},
	}
	return g
}

// newSettingsHarness is a harness on the embedded store, which keeps
// settings, whose bot hosts DIX and a paced Qwixx.
func newSettingsHarness(t *testing.T) (*harness, *store.File) {
	t.Helper()
	fs, err := store.OpenFile(filepath.Join(t.TempDir(), "db"), store.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { fs.Close() })
	h := newHarnessOn(t, fs)
	restart(h)
	return h, fs
}

// restart replaces the harness's bot with a new one on the same store, as
// another process.
func restart(h *harness) {
	h.T.Helper()
	b, err := New(Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 7 }, Observer: h.Obs,
		Games: []present.Game{botdix.Game(), qwixxPaced()}})
	require.NoError(h.T, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	h.b = b
}

// settingsCmd runs /settings.
func settingsCmd(h *harness, user string) result {
	h.T.Helper()
	i := h.Base(user, discordgo.InteractionApplicationCommand)
	i.Data = discordgo.ApplicationCommandInteractionData{Name: En("settings_cmd_name")}
	return h.Run(i)
}

// savedSettings reads the channel's settings from the store.
func savedSettings(h *harness) (channelSettings, bool) {
	h.T.Helper()
	raw, err := h.Db.(dixbot.SettingsStore).Settings(context.Background(), h.Guild, h.Channel)
	if err != nil {
		require.ErrorIs(h.T, err, dixbot.ErrNotFound)
		return channelSettings{}, false
	}
	var s channelSettings
	require.NoError(h.T, json.Unmarshal(raw, &s))
	return s, true
}

// setID is the custom id of the settings component of setting arg.
func setID(arg string) string { return tableID(verbSettings, arg) }

// defaults returns the values of msg's select menu id marked as chosen.
func defaults(t *testing.T, msg *tabletest.Message, id string) []string {
	var out []string
	for _, o := range selectMenu(t, msg, id).Options {
		if o.Default {
			out = append(out, o.Value)
		}
	}
	return out
}

// refusedWith is the refusal a click on an ephemeral message got: the first
// line of the message, updated, without its warning sign.
func refusedWith(r result) string {
	resp := r.Response()
	first, _, _ := strings.Cut(resp.Data.Content, "\n")
	return strings.TrimPrefix(first, "⚠️ ")
}

// Who may use /settings and its menus: a member who may manage the
// channel, or the person who started the channel's latest game; anybody
// else is refused, and a refused click saves nothing.
func TestSettingsPermissions(t *testing.T) {
	t.Parallel()
	h, _ := newSettingsHarness(t)
	h.Perms["u1"] = discordgo.PermissionManageChannels

	refused := locales.T("en", "settings_err_permission", nil)
	title := locales.T("en", "settings_title", nil)
	assert.Equal(t, refused, settingsCmd(h, "u2").EphemeralText(), "no game in the channel yet")
	view := settingsCmd(h, "u1")
	assert.Contains(t, view.EphemeralText(), title)
	msg := view.Shown(nil)
	require.NotNil(t, msg)
	assert.ElementsMatch(t, []string{setID(setLang), setID(setGame), setID(setOption), setID(setPics), setID(setReset)},
		tabletest.ComponentIDs(msg.Components))

	// A stranger clicking the manager's menu changes nothing.
	assert.Equal(t, refused, refusedWith(h.ClickOn("u9", msg, setID(setGame), "dix/live")))
	_, saved := savedSettings(h)
	assert.False(t, saved)

	// u2 opens a table: u2 may now, u3 still may not.
	h.Run(h.startIx("dix", "u2", nil))
	assert.Contains(t, settingsCmd(h, "u2").EphemeralText(), title)
	assert.Equal(t, refused, settingsCmd(h, "u3").EphemeralText())
	// Administrators may.
	h.Perms["u3"] = discordgo.PermissionAdministrator
	assert.Contains(t, settingsCmd(h, "u3").EphemeralText(), title)
}

// Settings chosen in the menus persist per channel (another bot on the same
// store shows them, another channel has its own), and every game's start
// uses them unless its options say otherwise; the lobbies show them.
func TestSettingsPersistAndStartsUseThem(t *testing.T) {
	t.Parallel()
	h, _ := newSettingsHarness(t)
	h.Perms["u1"] = discordgo.PermissionManageChannels
	msg := settingsCmd(h, "u1").Shown(nil)
	click := func(arg string, values ...string) {
		t.Helper()
		r := h.ClickOn("u1", msg, setID(arg), values...)
		require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type, "%s: %q", arg, r.Response().Data.Content)
		msg = r.Shown(msg)
		assert.True(t, strings.HasPrefix(msg.Content, locales.T("en", "settings_saved", nil)))
	}
	click(setLang, "fr")
	click(setGame, "dix/relaxed")
	click(setOption, "dix/difficulty=7")
	click(setOption, "dix/bust=on")
	click(setGame, "qwixx/slow")
	click(setPics)
	s, ok := savedSettings(h)
	require.True(t, ok)
	assert.Equal(t, channelSettings{V: 1, Lang: "fr", Pics: picsOff, Paces: map[string]string{"dix": "relaxed", "qwixx": "slow"},
		Opts: map[string]map[string]string{"dix": {"difficulty": "7", "bust": "on"}}}, s)

	// Another process shows them.
	restart(h)
	msg = settingsCmd(h, "u1").Shown(nil)
	assert.Equal(t, []string{"fr"}, defaults(t, msg, setID(setLang)))
	assert.ElementsMatch(t, []string{"dix/relaxed", "qwixx/slow"}, defaults(t, msg, setID(setGame)))
	assert.ElementsMatch(t, []string{"dix/bust=on", "dix/difficulty=7"}, defaults(t, msg, setID(setOption)))
	assert.Contains(t, msg.Content, locales.T("en", "settings_line_pictures", map[string]any{"Value": locales.T("en", "pictures_off", nil)}))

	// Another channel keeps its own (none).
	h.Channel = "c2"
	_, saved := savedSettings(h)
	assert.False(t, saved)
	h.Run(h.startIx("dix", "u2", nil))
	_, td, _, _ := h.dixNow()
	assert.Equal(t, "en", td.Lang)
	assert.Equal(t, "off", td.Opts["bust"])
	h.Channel = "c1"

	// /dix start without options.
	lobby := h.Run(h.startIx("dix", "u2", nil)).Shown(nil)
	require.NotNil(t, lobby)
	_, td, _, _ = h.dixNow()
	assert.Equal(t, "fr", td.Lang)
	assert.Equal(t, "on", td.Opts["bust"])
	assert.Equal(t, "relaxed", td.Pace)
	assert.True(t, td.NoPics)
	for _, want := range []string{locales.T("fr", "dix_opt_bust_on", nil), "Français", locales.T("fr", "pictures_off", nil)} {
		assert.Contains(t, lobby.Content, want)
	}
	require.NoError(t, h.Db.Delete(context.Background(), h.Channel))

	// Options given win over the settings.
	i := h.startIx("dix", "u2", map[string]string{"bust": "off"})
	sub := i.Data.(discordgo.ApplicationCommandInteractionData).Options[0]
	sub.Options = append(sub.Options,
		&discordgo.ApplicationCommandInteractionDataOption{Name: En("opt_language_name"), Value: "en", Type: discordgo.ApplicationCommandOptionString},
		&discordgo.ApplicationCommandInteractionDataOption{Name: En("opt_pictures_name"), Value: picsOn, Type: discordgo.ApplicationCommandOptionString})
	h.Run(i)
	_, td, _, _ = h.dixNow()
	assert.Equal(t, "en", td.Lang)
	assert.Equal(t, "off", td.Opts["bust"])
	assert.False(t, td.NoPics)
	require.NoError(t, h.Db.Delete(context.Background(), h.Channel))

	// /dix solo takes the difficulty; its option wins.
	h.Run(h.GameCommandIx("dix", "u2", "solo"))
	_, td, _, _ = h.dixNow()
	assert.Equal(t, "7", td.Opts["difficulty"])
	assert.Equal(t, "fr", td.Lang)
	require.NoError(t, h.Db.Delete(context.Background(), h.Channel))
	i = h.GameCommandIx("dix", "u2", "solo")
	sub = i.Data.(discordgo.ApplicationCommandInteractionData).Options[0]
	sub.Options = append(sub.Options, &discordgo.ApplicationCommandInteractionDataOption{Name: "difficulty", Value: "5", Type: discordgo.ApplicationCommandOptionString})
	h.Run(i)
	_, td, _, _ = h.dixNow()
	assert.Equal(t, "5", td.Opts["difficulty"])
	require.NoError(t, h.Db.Delete(context.Background(), h.Channel))

	// /qwixx start takes the language, the pictures and Qwixx's pace.
	ql := h.qcommand("u2", "start").Shown(nil)
	_, qtd, _ := h.qstate()
	assert.Equal(t, "fr", qtd.Lang)
	assert.True(t, qtd.NoPics)
	assert.Equal(t, "slow", qtd.Pace)
	assert.Contains(t, ql.Content, "Français · rythme : slow · "+locales.T("fr", "pictures_off", nil))
	require.NoError(t, h.Db.Delete(context.Background(), h.Channel))

	// Reset: back to the defaults.
	h.ClickOn("u1", msg, setID(setReset))
	s, _ = savedSettings(h)
	assert.Equal(t, channelSettings{V: 1}, s)
	h.Run(h.startIx("dix", "u2", nil))
	_, td, _, _ = h.dixNow()
	assert.Equal(t, "en", td.Lang)
	assert.Equal(t, "evening", h.b.games["dix"].PaceOf(td.Pace).Name, "the default pace")
}

// A value that is not one of a menu's choices, or a forged id, is refused
// with a localised answer and saves nothing.
func TestSettingsRefusals(t *testing.T) {
	t.Parallel()
	h, _ := newSettingsHarness(t)
	h.Perms["u1"] = discordgo.PermissionManageChannels
	msg := settingsCmd(h, "u1").Shown(nil)
	h.ClickOn("u1", msg, setID(setGame), "dix/live")
	before, _ := savedSettings(h)
	for _, tc := range []struct {
		arg    string
		values []string
	}{
		{setLang, []string{"de"}},
		{setLang, []string{""}},
		{setGame, []string{"qwixx/turbo"}},
		{setGame, []string{"chess/slow"}},
		{setGame, []string{"qwixx"}},
		{setGame, []string{"dix/live", "dix/relaxed"}},
		{setOption, []string{"dix/difficulty=11"}},
		{setOption, []string{"dix/difficulty=3"}},
		{setOption, []string{"dix/difficulty=07"}},
		{setOption, []string{"dix/bust=yes"}},
		{setPics, []string{"on"}},
		{setReset, []string{"all"}},
	} {
		for _, lc := range []discordgo.Locale{discordgo.EnglishUS, discordgo.French} {
			h.Locale = lc
			r := h.ClickOn("u1", msg, setID(tc.arg), tc.values...)
			assert.Equal(t, locales.T(locales.For(string(lc)), "settings_err_value", nil), refusedWith(r), "%s %v", tc.arg, tc.values)
		}
	}
	h.Locale = discordgo.EnglishUS
	r := h.ClickOn("u1", msg, "table:set:0:zzz", "1")
	assert.Equal(t, locales.T("en", "err_bad_custom_id", nil), refusedWith(r))
	after, _ := savedSettings(h)
	assert.Equal(t, before, after)
}

// Saved values the bot no longer offers (a pace taken out, a game no longer
// hosted, damaged bytes) never stop a start: it uses the defaults for them.
func TestSettingsUnknownValuesIgnored(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	ctx := context.Background()
	require.NoError(t, fs.SaveSettings(ctx, h.Guild, h.Channel,
		[]byte(`{"v":1,"l":"de","pic":"maybe","gp":{"chess":"slow","qwixx":"turbo","dix":"blitz"},"go":{"dix":{"bust":"on","difficulty":"42"},"chess":{"x":"y"}}}`)))
	h.Run(h.startIx("dix", "u1", nil))
	_, td, _, _ := h.dixNow()
	assert.Equal(t, "en", td.Lang)
	assert.Equal(t, "evening", h.b.games["dix"].PaceOf(td.Pace).Name, "the default pace")
	assert.False(t, td.NoPics)
	assert.Equal(t, "on", td.Opts["bust"], "the value still offered is used")
	require.NoError(t, h.Db.Delete(ctx, h.Channel))

	require.NoError(t, fs.SaveSettings(ctx, h.Guild, h.Channel, []byte(`not json`)))
	h.Run(h.GameCommandIx("dix", "u1", "solo"))
	_, td, _, _ = h.dixNow()
	assert.Equal(t, "4", td.Opts["difficulty"], "the default difficulty")
	require.NoError(t, h.Db.Delete(ctx, h.Channel))
	require.NoError(t, fs.SaveSettings(ctx, h.Guild, h.Channel, []byte(`{"v":99,"l":"fr"}`)))
	h.Run(h.startIx("dix", "u1", nil))
	_, td, _, _ = h.dixNow()
	assert.Equal(t, "en", td.Lang, "settings of a newer version are not read")
}

// A store that keeps no settings: /settings says so, and starts work as
// before.
func TestSettingsWithoutASettingsStore(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 3, false) // the in-memory store keeps no settings
	h.Perms["u1"] = discordgo.PermissionManageChannels
	assert.Equal(t, locales.T("en", "settings_err_unsupported", nil), settingsCmd(h, "u1").EphemeralText())
	h.Run(h.startIx("dix", "u1", map[string]string{"bust": "on"}))
	_, td, _, _ := h.dixNow()
	assert.Equal(t, "on", td.Opts["bust"])
}

// A settings menu with more entries than Discord's 25 is shown a page at a
// time: every entry is on a page, the entries that turn the page change
// nothing, and an entry of a later page is saved like any other.
func TestSettingsLongMenusArePaged(t *testing.T) {
	t.Parallel()
	h, _ := newSettingsHarness(t)
	paced := func(g present.Game, n int) present.Game {
		g.Paces = nil
		for i := range n {
			d := time.Duration(i+1) * time.Minute
			g.Paces = append(g.Paces, present.Pace{Name: "p" + strconv.Itoa(i), Clock: func(engine.State, int) time.Duration { return d }})
		}
		return g
	}
	b, err := New(Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 7 }, Observer: h.Obs,
		Games: []present.Game{botdix.Game(), paced(botqwixx.Game(), 20), paced(botdixxit.Game(), 10)}})
	require.NoError(t, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	h.b = b
	h.Perms["u1"] = discordgo.PermissionManageChannels
	msg := settingsCmd(h, "u1").Shown(nil)

	var seen []string
	page := 0
	for {
		opts := selectMenu(t, msg, setID(setGame)).Options
		require.LessOrEqual(t, len(opts), present.MaxOptions)
		next := ""
		for _, o := range opts {
			if p, ok := menuPage(o.Value); ok {
				if p > page {
					next = o.Value
				}
				continue
			}
			seen = append(seen, o.Value)
		}
		if next == "" {
			break
		}
		before, _ := savedSettings(h)
		r := h.ClickOn("u1", msg, setID(setGame), next)
		require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
		msg = r.Shown(msg)
		after, _ := savedSettings(h)
		assert.Equal(t, before, after, "turning the page saves nothing")
		page++
	}
	assert.Equal(t, 3+20+10, len(seen), "every pace of every game is on a page: %v", seen)
	assert.Equal(t, 1, page)
	assert.Contains(t, seen, "qwixx/p19")

	// An entry of the last page is saved.
	r := h.ClickOn("u1", msg, setID(setGame), "qwixx/p19")
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	s, ok := savedSettings(h)
	require.True(t, ok)
	assert.Equal(t, "p19", s.Paces["qwixx"])

	// A page that does not exist shows the last; a forged page value is
	// refused.
	r = h.ClickOn("u1", msg, setID(setGame), "#9")
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	r = h.ClickOn("u1", msg, setID(setGame), "#-1")
	assert.Equal(t, locales.T("en", "settings_err_value", nil), refusedWith(r))
}

// A game is refused at registration when its paces or its options'
// values would not fit the lobby's menus.
func TestGamesBeyondTheLobbysMenusRefused(t *testing.T) {
	t.Parallel()
	g := qwixxPaced()
	for i := range present.MaxOptions {
		g.Paces = append(g.Paces, present.Pace{Name: "x" + strconv.Itoa(i), Clock: g.Paces[0].Clock})
	}
	_, err := New(Options{Store: tabletest.NewMemStore(), Games: []present.Game{g}})
	assert.ErrorContains(t, err, "paces")

	g = qwixxPaced()
	for i := range 3 {
		o := present.Option{Name: "opt" + strings.Repeat("x", i), Default: "v0"}
		for v := range 10 {
			o.Values = append(o.Values, "v"+strconv.Itoa(v))
		}
		g.Options = append(g.Options, o)
	}
	_, err = New(Options{Store: tabletest.NewMemStore(), Games: []present.Game{g}})
	assert.ErrorContains(t, err, "option values")
}

// /settings' menus chosen on a public message (a ping: the ids forged)
// are answered privately, by one who may change the settings too: the
// message is never turned into the settings panel.
func TestSettingsMenusOnAPublicMessage(t *testing.T) {
	t.Parallel()
	h, _ := newSettingsHarness(t)
	h.Perms["u1"] = discordgo.PermissionManageChannels
	ping := &tabletest.Message{ID: "f999999", Content: "⏳ a ping"}
	for _, choice := range [][2]string{{setLang, "fr"}, {setGame, pageMark + "1"}} {
		res := h.ClickOn("u1", ping, tableID(verbSettings, choice[0]), choice[1])
		resp := res.Response()
		require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type, "%v: %s", choice, res.Describe())
		assert.NotZero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral)
	}
	assert.Nil(t, h.Rec.Message(ping.ID), "the ping is never edited")
}
