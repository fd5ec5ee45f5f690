package bot

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	botdix "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/engine"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
	"github.com/dixgame/dixbot/store"
)

// optionRules is Qwixx with an option of its own, "speed", which it
// records and leaves out of the setup Qwixx's rules read.
type optionRules struct {
	rules.Rules
	mu   *sync.Mutex
	seen *[]map[string]string
}

func (r optionRules) New(s engine.Setup) (engine.State, error) {
	r.mu.Lock()
	*r.seen = append(*r.seen, s.Options)
	r.mu.Unlock()
	s.Options = nil
	return r.Rules.New(s)
}

// newOptionHarness is a harness on a store that keeps settings, hosting
// Qwixx with the option "speed" (slow by default, or fast), and the
// setups the game was started with.
func newOptionHarness(t *testing.T) (*harness, *[]map[string]string) {
	t.Helper()
	fs, err := store.OpenFile(filepath.Join(t.TempDir(), "db"), store.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { fs.Close() })
	h := newHarnessOn(t, fs)
	var seen []map[string]string
	g := botqwixx.Game()
	g.Rules = optionRules{mu: &sync.Mutex{}, seen: &seen}
	g.Options = []present.Option{{Name: "speed", Values: []string{"slow", "fast"}, Default: "slow"}}
	b, err := New(Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs, NoPictures: true,
		Games: []present.Game{g}})
	require.NoError(t, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	h.b = b
	return h, &seen
}

// startWith runs /qwixx start with the game's own options given.
func (h *harness) startWith(user string, opts map[string]string) result {
	h.T.Helper()
	return h.Run(h.startIx("qwixx", user, opts))
}

// A game's own options are offered by its start command, shown by its
// lobby, changed there by the creator alone among the values the game
// allows, and given to the game when it starts; a rematch keeps them.
func TestGameOptions(t *testing.T) {
	t.Parallel()
	h, seen := newOptionHarness(t)

	var start *discordgo.ApplicationCommandOption
	for _, c := range h.b.Commands() {
		if c.Name == En("qwixx_cmd_name") {
			for _, sub := range c.Options {
				if sub.Name == En("cmd_start_name") {
					for _, o := range sub.Options {
						if o.Name == "speed" {
							start = o
						}
					}
				}
			}
		}
	}
	require.NotNil(t, start, "the start command offers the option")
	require.Len(t, start.Choices, 2)
	assert.Equal(t, "slow", start.Choices[0].Value)

	refused := h.startWith("u1", map[string]string{"speed": "warp"}).EphemeralText()
	assert.Equal(t, locales.T("en", "table_err_option", map[string]any{"Option": "speed"}), refused)

	lobby := h.startWith("u1", map[string]string{"speed": "fast"}).Shown(nil)
	require.NotNil(t, lobby)
	assert.Contains(t, lobby.Content, locales.T("en", "table_option", map[string]any{"Option": "speed", "Value": "fast"}))
	_, td, _ := h.qstate()
	assert.Equal(t, map[string]string{"speed": "fast"}, td.Opts)

	lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	optID := h.qmust(lobby, verbOpt, "")
	menu := selectMenu(t, lobby, optID)
	require.Len(t, menu.Options, 2)
	assert.True(t, menu.Options[1].Default, "the menu shows the value chosen")
	assert.Equal(t, locales.T("en", "err_not_creator", nil), h.ClickOn("u2", lobby, optID, "speed=slow").EphemeralText())
	assert.Equal(t, locales.T("en", "err_bad_custom_id", nil), h.ClickOn("u1", lobby, optID, "speed=warp").EphemeralText())
	assert.Equal(t, locales.T("en", "err_bad_custom_id", nil), h.ClickOn("u1", lobby, optID, "colour=red").EphemeralText())
	_, td, _ = h.qstate()
	assert.Equal(t, "fast", td.Opts["speed"], "a refused choice changed the table")
	lobby = h.ClickOn("u1", lobby, optID, "speed=slow").Shown(lobby)
	assert.Contains(t, lobby.Content, locales.T("en", "table_option", map[string]any{"Option": "speed", "Value": "slow"}))

	h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, ""))
	require.Len(t, *seen, 1)
	assert.Equal(t, map[string]string{"speed": "slow"}, (*seen)[0])
	_, td, _ = h.qstate()
	assert.Equal(t, "slow", td.Opts["speed"])
}

// The server settings keep a game's defaults under its name, among the
// values the game allows, with the table's own components under the
// table's prefix; a settings component posted under DIX's prefix is still
// answered.
func TestSettingsGameOptions(t *testing.T) {
	t.Parallel()
	h, seen := newOptionHarness(t)
	h.Perms = map[string]int64{"u1": discordgo.PermissionManageChannels}
	i := h.Base("u1", discordgo.InteractionApplicationCommand)
	i.Data = discordgo.ApplicationCommandInteractionData{Name: En("settings_cmd_name")}
	msg := h.Run(i).Shown(nil)
	require.NotNil(t, msg)
	id := tableID(verbSettings, setOption)
	menu := selectMenu(t, msg, id)
	var values []string
	for _, o := range menu.Options {
		values = append(values, o.Value)
	}
	assert.Equal(t, []string{"qwixx/speed=slow", "qwixx/speed=fast"}, values)
	for _, ids := range tabletest.ComponentIDs(msg.Components) {
		assert.Regexp(t, `^table:`, ids)
	}

	for _, bad := range []string{"qwixx/speed=warp", "dixxit/speed=fast", "qwixx/colour=red"} {
		assert.Contains(t, h.ClickOn("u1", msg, id, bad).Response().Data.Content, locales.T("en", "settings_err_value", nil), bad)
	}
	msg = h.ClickOn("u1", msg, id, "qwixx/speed=fast").Shown(msg)
	assert.Contains(t, msg.Content, locales.T("en", "table_option", map[string]any{"Option": "speed", "Value": "fast"}))
	// The id of a settings message posted before the table's prefix.
	msg = h.ClickOn("u1", msg, present.CustomID(oldTablePrefix, verbSettings, 0, setLang), "fr").Shown(msg)
	assert.Contains(t, msg.Content, locales.T("en", "settings_saved", nil))

	raw, err := h.Db.(*store.File).Settings(context.Background(), h.Guild, h.Channel)
	require.NoError(t, err)
	var s channelSettings
	require.NoError(t, json.Unmarshal(raw, &s))
	assert.Equal(t, map[string]map[string]string{"qwixx": {"speed": "fast"}}, s.Opts)
	assert.Equal(t, "fr", s.Lang)

	lobby := h.startWith("u1", nil).Shown(nil)
	require.NotNil(t, lobby)
	lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, ""))
	require.Len(t, *seen, 1)
	assert.Equal(t, map[string]string{"speed": "fast"}, (*seen)[0], "the channel's default")
}

// Settings that DIX's own table kept for a channel (its pace, variant and
// solo difficulty) are read as DIX's pace and options on the shared
// table: /settings shows them, a start uses them, and the next save keeps
// them in the shared table's shape. That table's settings components are
// answered as outdated and change nothing.
func TestOldDixSettingsAreDixsOptions(t *testing.T) {
	t.Parallel()
	fs, err := store.OpenFile(filepath.Join(t.TempDir(), "db"), store.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { fs.Close() })
	h := newDixHarnessOn(t, fs, botdix.Game(), 5, false)
	h.Perms = map[string]int64{"u1": discordgo.PermissionManageChannels}
	ctx := context.Background()
	require.NoError(t, fs.SaveSettings(ctx, h.Guild, h.Channel, []byte(`{"v":1,"p":"relaxed","var":"bust","d":7}`)))

	i := h.Base("u1", discordgo.InteractionApplicationCommand)
	i.Data = discordgo.ApplicationCommandInteractionData{Name: En("settings_cmd_name")}
	msg := h.Run(i).Shown(nil)
	require.NotNil(t, msg)
	menu := selectMenu(t, msg, tableID(verbSettings, setOption))
	var chosen []string
	for _, o := range menu.Options {
		if o.Default {
			chosen = append(chosen, o.Value)
		}
	}
	assert.ElementsMatch(t, []string{"dix/bust=on", "dix/difficulty=7"}, chosen)
	games := selectMenu(t, msg, tableID(verbSettings, setGame))
	for _, o := range games.Options {
		assert.Equal(t, o.Value == "dix/relaxed", o.Default, o.Value)
	}

	for _, old := range []struct{ id, value string }{
		{present.CustomID(oldTablePrefix, verbSettings, 0, "var"), ""}, {present.CustomID(oldTablePrefix, verbSettings, 0, "diff"), "9"}, {present.CustomID(oldTablePrefix, verbSettings, 0, "pace"), "live"},
	} {
		resp := h.ClickOn("u1", msg, old.id, old.value).Response()
		assert.Equal(t, locales.T("en", "err_stale", nil), resp.Data.Content, old.id)
		assert.Empty(t, resp.Data.Components, "the outdated settings message loses its menus")
	}
	raw, err := fs.Settings(ctx, h.Guild, h.Channel)
	require.NoError(t, err)
	assert.JSONEq(t, `{"v":1,"p":"relaxed","var":"bust","d":7}`, string(raw), "an outdated click saved nothing")

	h.ClickOn("u1", msg, tableID(verbSettings, setLang), "fr")
	raw, err = fs.Settings(ctx, h.Guild, h.Channel)
	require.NoError(t, err)
	var s channelSettings
	require.NoError(t, json.Unmarshal(raw, &s))
	assert.Equal(t, channelSettings{V: settingsVersion, Lang: "fr", Paces: map[string]string{"dix": "relaxed"},
		Opts: map[string]map[string]string{"dix": {"bust": "on", "difficulty": "7"}}}, s)

	h.Run(h.startIx("dix", "u1", nil))
	_, td, _, _ := h.dixNow()
	assert.Equal(t, map[string]string{"bust": "on", "difficulty": "7"}, td.Opts)
	assert.Equal(t, "relaxed", td.Pace)
}
