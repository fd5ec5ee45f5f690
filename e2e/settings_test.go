package e2e

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// lobbySettings is the part of a DIX lobby's table data this test reads:
// its language, pace, pictures and DIX's own options ("bust": the
// variant).
type lobbySettings struct {
	Lang       string            `json:"l"`
	Pace       string            `json:"pc"`
	NoPictures bool              `json:"np"`
	Opts       map[string]string `json:"oo"`
}

// paceName is the name of DIX's pace in lang, by its bank and increment
// as the settings and the lobby show it.
func paceName(lang, pace string) string {
	var p clock.Pace
	for _, bp := range dixview.Paces {
		if bp.Name == pace {
			p = bp.Bank
		}
	}
	return present.PaceText(lang, p)
}

// TestSettingsThroughTheStandIn: a channel manager sets the channel's
// settings with /settings in English, /dix lancer by a French player uses
// them, that player (now the creator of the channel's game) changes them
// with /réglages in French, and the next /dix start uses the change, with
// an option given winning over them. Someone else is refused. On both
// stores.
func TestSettingsThroughTheStandIn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		redis bool
	}{{"redis", true}, {"embedded", false}} {
		t.Run(tc.name, func(t *testing.T) { testSettingsThroughTheStandIn(t, tc.redis) })
	}
}

func testSettingsThroughTheStandIn(t *testing.T, redis bool) {
	w := newWorld(t, redis)
	tb := w.table(t, "en-US", "Alice", "Bob/fr", "Chloe")
	alice, bob, chloe := tb.users[0], tb.users[1], tb.users[2]
	require.NoError(t, w.fake.AddMember(tb.guild.ID, alice.ID, fakediscord.DefaultPermissions|fakediscord.PermManageChannels))
	saved := func(lang string, r *fakediscord.Response) {
		t.Helper()
		require.NotNil(t, r.Message, describe(r))
		assert.True(t, r.Ephemeral())
		assert.Equal(t, locales.T(lang, "settings_saved", nil), firstLine(r.Message.Content))
	}
	lobbyData := func() lobbySettings {
		t.Helper()
		var s lobbySettings
		require.NoError(t, json.Unmarshal(tb.record().Meta, &s))
		return s
	}

	r := tb.command(chloe, "/settings")
	require.True(t, r.Ephemeral())
	assert.Equal(t, locales.T("en", "settings_err_permission", nil), r.Message.Content)

	r = tb.command(alice, "/settings")
	require.True(t, r.Ephemeral(), "only Alice sees the settings")
	assert.Contains(t, r.Message.Content, "**Settings of this channel**")
	msg := r.Message.ID
	saved("en", tb.pick(alice, msg, "table:set:0:lang", "fr"))
	saved("en", tb.pick(alice, msg, "table:set:0:game", "dix/relaxed"))
	saved("en", tb.pick(alice, msg, "table:set:0:opt", "dix/bust=on"))
	saved("en", tb.click(alice, msg, "table:set:0:pics"))
	now, ok := tb.fake.Message(msg)
	require.True(t, ok)
	assert.Contains(t, now.Content, locales.T("en", "settings_line_game", map[string]any{"Game": "DIX", "Pace": paceName("en", "relaxed")}))
	assert.Contains(t, now.Content, "DIX: "+locales.T("en", "table_option", map[string]any{
		"Option": locales.T("en", "dix_opt_bust", nil), "Value": locales.T("en", "dix_opt_bust_on", nil)}))

	// Bob, in French, opens a lobby: it is played by the settings.
	r = tb.command(bob, "/dix lancer")
	require.NotNil(t, r.Message)
	require.False(t, r.Ephemeral(), describe(r))
	for _, want := range []string{locales.T("fr", "dix_opt_bust_on", nil), "Français", paceName("fr", "relaxed"), locales.T("fr", "pictures_off", nil)} {
		assert.Contains(t, r.Message.Content, want)
	}
	assert.Equal(t, lobbySettings{Lang: "fr", Pace: "relaxed", NoPictures: true, Opts: map[string]string{"bust": "on", "difficulty": "4"}}, lobbyData())
	lobby := r.Message.ID

	// Bob, the creator of the channel's game, may change the settings.
	r = tb.command(bob, "/réglages")
	require.True(t, r.Ephemeral())
	assert.Contains(t, r.Message.Content, "**Réglages de ce salon**")
	saved("fr", tb.pick(bob, r.Message.ID, "table:set:0:opt", "dix/bust=off"))
	saved("fr", tb.pick(bob, r.Message.ID, "table:set:0:game", "dix/live"))
	r = tb.command(chloe, "/settings")
	assert.Equal(t, locales.T("en", "settings_err_permission", nil), r.Message.Content)

	// The next game follows them; an option given wins, the pace and
	// DIX's own options too.
	m, ok := tb.fake.Message(lobby)
	require.True(t, ok)
	tb.clickVerb(bob, m, "cancel")
	r = tb.command(chloe, "/dix start pictures:on")
	require.NotNil(t, r.Message)
	require.False(t, r.Ephemeral(), describe(r))
	assert.Equal(t, lobbySettings{Lang: "fr", Pace: "live", NoPictures: false, Opts: map[string]string{"bust": "off", "difficulty": "4"}}, lobbyData())
	tb.clickVerb(chloe, *r.Message, "cancel")
	r = tb.command(chloe, "/dix start pace:relaxed bust:on")
	require.False(t, r.Ephemeral(), describe(r))
	assert.Equal(t, lobbySettings{Lang: "fr", Pace: "relaxed", NoPictures: true, Opts: map[string]string{"bust": "on", "difficulty": "4"}}, lobbyData())
}
