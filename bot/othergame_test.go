package bot

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	botdixxit "github.com/dixgame/dixbot/bot/dixxit"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/locales"
)

// One game per channel, whatever the games: in a channel where Qwixx is
// played, every command of DIX and of Dixxit that would act on a game
// there says, privately, that the channel has a game of Qwixx, and changes
// nothing; where DIX is played, every /qwixx command says it of DIX. The
// rules, which act on no game, are shown.
func TestOneGamePerChannelAcrossGames(t *testing.T) {
	h := newHarness(t)
	b, err := New(Options{Store: h.db, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.obs,
		NoPictures: true, Games: []present.Game{botqwixx.Game(), botdixxit.Game()}})
	require.NoError(t, err)
	h.b = b
	other := func(game string) string {
		return locales.T("en", "table_err_other_game", map[string]any{"Game": game})
	}
	unchanged := func(before uint64, game string) {
		t.Helper()
		r, err := h.db.Get(context.Background(), h.channel)
		require.NoError(t, err)
		assert.Equal(t, before, r.Version, "the game changed")
		assert.Equal(t, game, r.Game)
	}

	board := h.openQwixx([]string{"u1", "u2"})
	r, err := h.db.Get(context.Background(), h.channel)
	require.NoError(t, err)
	for _, sub := range subcommands {
		res := h.command("u1", sub)
		if sub == "rules" {
			assert.NotEmpty(t, res.response().Data.Embeds, "/dix rules")
			continue
		}
		assert.Equal(t, other("Qwixx"), res.ephemeralText(), "/dix %s", sub)
	}
	for _, sub := range contractSubcommands {
		if sub == "hint" {
			continue // Dixxit has no hint, and /dixxit no such subcommand
		}
		res := h.dcommand("u1", sub)
		if sub == "rules" {
			assert.NotContains(t, res.ephemeralText(), other("Qwixx"), "/dixxit rules")
			continue
		}
		assert.Equal(t, other("Qwixx"), res.ephemeralText(), "/dixxit %s", sub)
	}
	// Buttons of other games (on messages of games the channel had
	// before) say the same.
	for _, id := range []string{customID(verbDraw, uint32(r.Version)), contractID("dixxit", cverbJoin, 1, "")} {
		assert.Equal(t, other("Qwixx"), h.clickOn("u2", board, id).ephemeralText(), id)
	}
	unchanged(r.Version, "qwixx")

	h.channel = "c2"
	h.startGame("u1", "u2")
	r, err = h.db.Get(context.Background(), h.channel)
	require.NoError(t, err)
	for _, sub := range contractSubcommands {
		res := h.qcommand("u1", sub)
		if sub == "rules" {
			assert.NotContains(t, res.ephemeralText(), other("DIX"), "/qwixx rules")
			continue
		}
		assert.Equal(t, other("DIX"), res.ephemeralText(), "/qwixx %s", sub)
	}
	unchanged(r.Version, "")
}
