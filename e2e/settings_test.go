package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// lobbySettings is the part of a DIX lobby's table data this test reads.
type lobbySettings struct {
	Lang       string `json:"l"`
	Bust       bool   `json:"bv"`
	Pace       string `json:"pc"`
	NoPictures bool   `json:"np"`
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
	saved("en", tb.pick(alice, msg, "table:set:0:pace", "relaxed"))
	saved("en", tb.click(alice, msg, "table:set:0:var"))
	saved("en", tb.click(alice, msg, "table:set:0:pics"))
	now, ok := tb.fake.Message(msg)
	require.True(t, ok)
	assert.Contains(t, now.Content, "DIX: pace Relaxed · Bust variant")

	// Bob, in French, opens a lobby: it is played by the settings.
	r = tb.command(bob, "/dix lancer")
	require.NotNil(t, r.Message)
	require.NotEmpty(t, r.Message.Embeds)
	var shown []string
	for _, f := range r.Message.Embeds[0].Fields {
		shown = append(shown, f.Value)
	}
	for _, want := range []string{locales.T("fr", "variant_bust", nil), "Français", locales.T("fr", "pace_relaxed", nil), locales.T("fr", "pictures_off", nil)} {
		assert.Contains(t, strings.Join(shown, "\n"), want)
	}
	assert.Equal(t, lobbySettings{Lang: "fr", Bust: true, Pace: "relaxed", NoPictures: true}, lobbyData())
	lobby := r.Message.ID

	// Bob, the creator of the channel's game, may change the settings.
	r = tb.command(bob, "/réglages")
	require.True(t, r.Ephemeral())
	assert.Contains(t, r.Message.Content, "**Réglages de ce salon**")
	saved("fr", tb.click(bob, r.Message.ID, "table:set:0:var"))
	saved("fr", tb.pick(bob, r.Message.ID, "table:set:0:pace", "live"))
	r = tb.command(chloe, "/settings")
	assert.Equal(t, locales.T("en", "settings_err_permission", nil), r.Message.Content)

	// The next game follows them; an option given wins.
	m, ok := tb.fake.Message(lobby)
	require.True(t, ok)
	tb.clickVerb(bob, m, "cancel")
	r = tb.command(chloe, "/dix start pictures:on")
	require.NotNil(t, r.Message)
	require.False(t, r.Ephemeral(), describe(r))
	assert.Equal(t, lobbySettings{Lang: "fr", Bust: false, Pace: "live", NoPictures: false}, lobbyData())
}
