package dixtable

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
	"github.com/dixgame/dixbot/store"
)

// qwixxPaced is Qwixx offering two paces, for the settings of a contract
// game's pace.
func qwixxPaced() present.Game {
	g := botqwixx.Game()
	g.Paces = []present.Pace{
		{Name: "quick", Clock: func(engine.State, int) time.Duration { return time.Minute }},
		{Name: "slow", Clock: func(engine.State, int) time.Duration { return time.Hour }},
	}
	return g
}

// newSettingsHarness is a harness on a real Redis store whose bot also
// hosts a paced Qwixx.
func newSettingsHarness(t *testing.T) (*harness, *store.Redis) {
	t.Helper()
	rs, err := store.OpenRedis(context.Background(), store.Options{URL: redistest.Start(t).URL(), Prefix: fmt.Sprintf("settings%d:", time.Now().UnixNano())})
	require.NoError(t, err)
	t.Cleanup(func() { rs.Close() })
	h := newHarnessOn(t, rs)
	restart(h)
	return h, rs
}

// restart replaces the harness's bot with a new one on the same store.
func restart(h *harness) {
	h.T.Helper()
	b, err := bot.New(bot.Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 7 }, Observer: h.Obs, Games: []present.Game{qwixxPaced()}})
	require.NoError(h.T, err)
	h.b = b
}

// settingsCmd runs /settings.
func settingsCmd(h *harness, user string) result {
	h.T.Helper()
	i := h.Base(user, discordgo.InteractionApplicationCommand)
	i.Data = discordgo.ApplicationCommandInteractionData{Name: "settings"}
	return h.Run(i)
}

// savedSettings reads the channel's settings from the store.
func savedSettings(h *harness) (bot.ChannelSettings, bool) {
	h.T.Helper()
	raw, err := h.Db.(dixbot.SettingsStore).Settings(context.Background(), h.Guild, h.Channel)
	if err != nil {
		require.ErrorIs(h.T, err, dixbot.ErrNotFound)
		return bot.ChannelSettings{}, false
	}
	var s bot.ChannelSettings
	require.NoError(h.T, json.Unmarshal(raw, &s))
	return s, true
}

// setID is the custom id of the settings component of setting arg.
func setID(arg string) string { return bot.TableID(bot.VerbSettings, arg) }

// defaults returns the values of msg's select menu id marked as chosen.
func defaults(msg *tabletest.Message, id string) []string {
	var out []string
	for _, row := range msg.Components {
		for _, c := range tabletest.RowComponents(row) {
			if sm, ok := c.(discordgo.SelectMenu); ok && sm.CustomID == id {
				for _, o := range sm.Options {
					if o.Default {
						out = append(out, o.Value)
					}
				}
			}
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

	refused := enT("settings_err_permission", nil)
	assert.Equal(t, refused, settingsCmd(h, "u2").EphemeralText(), "no game in the channel yet")
	view := settingsCmd(h, "u1")
	assert.Contains(t, view.EphemeralText(), "**Settings of this channel**")
	msg := view.Shown(nil)
	require.NotNil(t, msg)
	assert.ElementsMatch(t, []string{setID(bot.SetLang), setID(bot.SetPace), setID(bot.SetDiff), setID(bot.SetGame), setID(bot.SetPics), setID(bot.SetVariant), setID(bot.SetReset)},
		tabletest.ComponentIDs(msg.Components))

	// A stranger clicking the manager's menu changes nothing.
	assert.Equal(t, refused, refusedWith(h.ClickOn("u9", msg, setID(bot.SetPace), "live")))
	_, saved := savedSettings(h)
	assert.False(t, saved)

	// u2 starts a game: u2 may now, u3 still may not.
	h.Command("u2", "start")
	assert.Contains(t, settingsCmd(h, "u2").EphemeralText(), "**Settings of this channel**")
	assert.Equal(t, refused, settingsCmd(h, "u3").EphemeralText())
	// Administrators may.
	h.Perms["u3"] = discordgo.PermissionAdministrator
	assert.Contains(t, settingsCmd(h, "u3").EphemeralText(), "**Settings of this channel**")
}

// Settings chosen in the menus persist per channel (another bot on the same
// store shows them, another channel has its own), and /dix start, /dix
// solo and /qwixx start use them unless their options say otherwise; the
// lobbies show them.
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
		assert.True(t, strings.HasPrefix(msg.Content, enT("settings_saved", nil)))
	}
	click(bot.SetLang, "fr")
	click(bot.SetPace, "relaxed")
	click(bot.SetDiff, "7")
	click(bot.SetGame, "qwixx/slow")
	click(bot.SetPics)
	click(bot.SetVariant)
	s, ok := savedSettings(h)
	require.True(t, ok)
	assert.Equal(t, bot.ChannelSettings{V: 1, Lang: "fr", Pics: bot.PicsOff, Pace: "relaxed", Variant: bot.VariantBust, Diff: 7, Paces: map[string]string{"qwixx": "slow"}}, s)

	// Another process shows them.
	restart(h)
	msg = settingsCmd(h, "u1").Shown(nil)
	assert.Equal(t, []string{"fr"}, defaults(msg, setID(bot.SetLang)))
	assert.Equal(t, []string{"relaxed"}, defaults(msg, setID(bot.SetPace)))
	assert.Equal(t, []string{"7"}, defaults(msg, setID(bot.SetDiff)))
	assert.Equal(t, []string{"qwixx/slow"}, defaults(msg, setID(bot.SetGame)))
	assert.Contains(t, msg.Content, "Pictures: "+enT("pictures_off", nil))
	assert.Contains(t, msg.Content, "DIX: pace Relaxed · Bust variant · solo difficulty 7")

	// Another channel keeps its own (none).
	h.Channel = "c2"
	_, saved := savedSettings(h)
	assert.False(t, saved)
	h.Command("u2", "start")
	_, m := h.Record()
	assert.Equal(t, "en", m.Lang)
	assert.False(t, m.Bust)
	h.Channel = "c1"

	// /dix start without options.
	lobby := h.Command("u2", "start").Shown(nil)
	_, m = h.Record()
	assert.Equal(t, "fr", m.Lang)
	assert.True(t, m.Bust)
	assert.Equal(t, "relaxed", m.Pace)
	assert.True(t, m.NoPictures)
	require.Len(t, lobby.Embeds, 1)
	shown := lobby.Embeds[0].Fields[1].Value
	for _, want := range []string{locales.T("fr", "variant_bust", nil), "Français", locales.T("fr", "pace_relaxed", nil), locales.T("fr", "pictures_off", nil)} {
		assert.Contains(t, shown, want)
	}
	require.NoError(t, h.Db.Delete(context.Background(), h.Channel))

	// Options given win over the settings.
	h.Command("u2", "start", "variant", "standard", "language", "en", "pace", "live", "pictures", "on")
	_, m = h.Record()
	assert.Equal(t, "en", m.Lang)
	assert.False(t, m.Bust)
	assert.Equal(t, "live", m.Pace)
	assert.False(t, m.NoPictures)
	require.NoError(t, h.Db.Delete(context.Background(), h.Channel))

	// /dix solo takes the difficulty; its option wins.
	h.Command("u2", "solo")
	_, m = h.Record()
	assert.Equal(t, 7, m.Diff)
	assert.Equal(t, "fr", m.Lang)
	require.NoError(t, h.Db.Delete(context.Background(), h.Channel))
	h.Command("u2", "solo", "difficulty", float64(5))
	_, m = h.Record()
	assert.Equal(t, 5, m.Diff)
	require.NoError(t, h.Db.Delete(context.Background(), h.Channel))

	// /qwixx start takes the language, the pictures and Qwixx's pace.
	ql := h.qcommand("u2", "start").Shown(nil)
	_, td, _ := h.qstate()
	assert.Equal(t, "fr", td.Lang)
	assert.True(t, td.NoPics)
	assert.Equal(t, "slow", td.Pace)
	assert.Contains(t, ql.Content, "Français · rythme slow · "+locales.T("fr", "pictures_off", nil))
	require.NoError(t, h.Db.Delete(context.Background(), h.Channel))
	h.qcommand("u2", "start", "language", "en", "pictures", "on")
	_, td, _ = h.qstate()
	assert.Equal(t, "en", td.Lang)
	assert.False(t, td.NoPics)
	require.NoError(t, h.Db.Delete(context.Background(), h.Channel))

	// Reset: back to the defaults.
	h.ClickOn("u1", msg, setID(bot.SetReset))
	s, _ = savedSettings(h)
	assert.Equal(t, bot.ChannelSettings{V: 1}, s)
	h.Command("u2", "start")
	_, m = h.Record()
	assert.Equal(t, "en", m.Lang)
	assert.Equal(t, "evening", m.Pace)
}

// A value that is not one of a menu's choices, or a forged id, is refused
// with a localised answer and saves nothing.
func TestSettingsRefusals(t *testing.T) {
	t.Parallel()
	h, _ := newSettingsHarness(t)
	h.Perms["u1"] = discordgo.PermissionManageChannels
	msg := settingsCmd(h, "u1").Shown(nil)
	h.ClickOn("u1", msg, setID(bot.SetPace), "live")
	before, _ := savedSettings(h)
	for _, tc := range []struct {
		arg    string
		values []string
	}{
		{bot.SetLang, []string{"de"}},
		{bot.SetLang, []string{""}},
		{bot.SetPace, []string{"blitz"}},
		{bot.SetDiff, []string{"11"}},
		{bot.SetDiff, []string{"3"}},
		{bot.SetDiff, []string{"07"}},
		{bot.SetDiff, []string{"x"}},
		{bot.SetGame, []string{"qwixx/turbo"}},
		{bot.SetGame, []string{"chess/slow"}},
		{bot.SetGame, []string{"qwixx"}},
		{bot.SetPace, []string{"live", "relaxed"}},
		{bot.SetPics, []string{"on"}},
		{bot.SetVariant, []string{"bust"}},
		{bot.SetReset, []string{"all"}},
	} {
		for _, lc := range []discordgo.Locale{discordgo.EnglishUS, discordgo.French} {
			h.Locale = lc
			r := h.ClickOn("u1", msg, setID(tc.arg), tc.values...)
			assert.Equal(t, locales.T(locales.For(string(lc)), "settings_err_value", nil), refusedWith(r), "%s %v", tc.arg, tc.values)
		}
	}
	h.Locale = discordgo.EnglishUS
	r := h.ClickOn("u1", msg, "dix:set:0:zzz", "1")
	assert.Equal(t, enT("err_bad_custom_id", nil), refusedWith(r))
	after, _ := savedSettings(h)
	assert.Equal(t, before, after)
}

// Saved values the bot no longer offers (a pace taken out, a game no longer
// hosted, damaged bytes) never stop a start: it uses the defaults for them.
func TestSettingsUnknownValuesIgnored(t *testing.T) {
	t.Parallel()
	h, rs := newSettingsHarness(t)
	ctx := context.Background()
	require.NoError(t, rs.SaveSettings(ctx, h.Guild, h.Channel,
		[]byte(`{"v":1,"l":"de","pic":"maybe","p":"blitz","var":"bust","d":42,"gp":{"chess":"slow","qwixx":"turbo"}}`)))
	h.Command("u1", "start")
	_, m := h.Record()
	assert.Equal(t, "en", m.Lang)
	assert.Equal(t, "evening", m.Pace)
	assert.False(t, m.NoPictures)
	assert.True(t, m.Bust, "the value still offered is used")
	require.NoError(t, h.Db.Delete(ctx, h.Channel))

	require.NoError(t, rs.SaveSettings(ctx, h.Guild, h.Channel, []byte(`not json`)))
	h.Command("u1", "solo")
	_, m = h.Record()
	assert.Equal(t, bot.DefaultDifficulty, m.Diff)
	require.NoError(t, h.Db.Delete(ctx, h.Channel))
	require.NoError(t, rs.SaveSettings(ctx, h.Guild, h.Channel, []byte(`{"v":99,"l":"fr"}`)))
	h.Command("u1", "start")
	_, m = h.Record()
	assert.Equal(t, "en", m.Lang, "settings of a newer version are not read")
}

// A store that keeps no settings: /settings says so, and starts work as
// before.
func TestSettingsWithoutASettingsStore(t *testing.T) {
	t.Parallel()
	h := newHarness(t) // the in-memory store keeps no settings
	h.Perms["u1"] = discordgo.PermissionManageChannels
	assert.Equal(t, enT("settings_err_unsupported", nil), settingsCmd(h, "u1").EphemeralText())
	h.Command("u1", "start", "variant", "bust")
	_, m := h.Record()
	assert.True(t, m.Bust)
}

// The difficulties a server may set are the solo difficulties of DIX's
// rules (SPEC §5).
func TestDifficultyBoundsAreTheRules(t *testing.T) {
	t.Parallel()
	assert.Equal(t, dix.MinDifficulty, bot.MinDifficulty)
	assert.Equal(t, dix.MaxDifficulty, bot.MaxDifficulty)
	assert.GreaterOrEqual(t, bot.DefaultDifficulty, dix.MinDifficulty)
	assert.LessOrEqual(t, bot.DefaultDifficulty, dix.MaxDifficulty)
}
