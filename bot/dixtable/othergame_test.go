package dixtable

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	botdixxit "github.com/dixgame/dixbot/bot/dixxit"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// newGamesHarness is a harness whose bot hosts Qwixx and Dixxit besides
// DIX, with text boards.
func newGamesHarness(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t)
	b, err := bot.New(bot.Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs,
		NoPictures: true, Games: []present.Game{botqwixx.Game(), botdixxit.Game()}})
	require.NoError(t, err)
	b.WorkBudget = harnessBudget
	h.b = b
	return h
}

// One game per channel, whatever the games: in a channel where Qwixx is
// played, every command of DIX and of Dixxit that would act on a game
// there says, privately, that the channel has a game of Qwixx, and changes
// nothing; where DIX is played, every /qwixx command says it of DIX. The
// rules, which act on no game, are shown.
func TestOneGamePerChannelAcrossGames(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	other := func(game string) string {
		return locales.T("en", "table_err_other_game", map[string]any{"Game": game})
	}
	unchanged := func(before uint64, game string) {
		t.Helper()
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		assert.Equal(t, before, r.Version, "the game changed")
		assert.Equal(t, game, r.Game)
	}

	board := h.openQwixx([]string{"u1", "u2"})
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	for _, sub := range bot.Subcommands {
		res := h.Command("u1", sub)
		if sub == "rules" {
			assert.NotEmpty(t, res.Response().Data.Embeds, "/dix rules")
			continue
		}
		assert.Equal(t, other("Qwixx"), res.EphemeralText(), "/dix %s", sub)
	}
	for _, sub := range bot.ContractSubcommands {
		if sub == "hint" {
			continue // Dixxit has no hint, and /dixxit no such subcommand
		}
		res := h.dcommand("u1", sub)
		if sub == "rules" {
			assert.NotContains(t, res.EphemeralText(), other("Qwixx"), "/dixxit rules")
			continue
		}
		assert.Equal(t, other("Qwixx"), res.EphemeralText(), "/dixxit %s", sub)
	}
	// Buttons of other games (on messages of games the channel had
	// before) say the same.
	for _, id := range []string{bot.CustomID(verbDraw, uint32(r.Version)), bot.ContractID("dixxit", bot.CverbJoin, 1, "")} {
		assert.Equal(t, other("Qwixx"), h.ClickOn("u2", board, id).EphemeralText(), id)
	}
	unchanged(r.Version, "qwixx")

	h.Channel = "c2"
	startGame(h, "u1", "u2")
	r, err = h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	for _, sub := range bot.ContractSubcommands {
		res := h.qcommand("u1", sub)
		if sub == "rules" {
			assert.NotContains(t, res.EphemeralText(), other("DIX"), "/qwixx rules")
			continue
		}
		assert.Equal(t, other("DIX"), res.EphemeralText(), "/qwixx %s", sub)
	}
	unchanged(r.Version, "")
}

// unarchive puts the channel's archived record back as active, as if its
// archiving had failed.
func unarchive(h *harness) {
	h.T.Helper()
	h.St.Mu.Lock()
	defer h.St.Mu.Unlock()
	st, ok := h.St.Archived[h.Channel]
	require.True(h.T, ok, "nothing archived")
	st.Rec.Finished = false
	h.St.Live[h.Channel] = st
	delete(h.St.Archived, h.Channel)
}

// resultsStore is a memStore that keeps the results recorded.
type resultsStore struct {
	*tabletest.MemStore
	results []string // "<game> <guild>"
}

func (s *resultsStore) RecordResult(_ context.Context, r *dixbot.Result) (bool, error) {
	s.results = append(s.results, r.Game+" "+r.Guild)
	return true, nil
}

func (s *resultsStore) PlayerStats(context.Context, string, string) ([]dixbot.PlayerStats, []dixbot.SoloStats, error) {
	return nil, nil, nil
}

func (s *resultsStore) Leaderboard(context.Context, string, string, string, int) ([]dixbot.Standing, *dixbot.Standing, error) {
	return nil, nil, nil
}

func (s *resultsStore) ForgetPlayer(context.Context, string, string) error { return nil }

// A game over whose archiving failed does not keep another game from the
// channel: /qwixx start after DIX, and /dix start after Qwixx, archive it
// (its result recorded) and open their lobby.
func TestStartAfterAnotherGameOverUnarchived(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rs := &resultsStore{MemStore: h.St}
	b, err := bot.New(bot.Options{Store: rs, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs,
		NoPictures: true, Games: []present.Game{botqwixx.Game()}})
	require.NoError(t, err)
	h.b = b
	h.Guild = "g1"

	startGame(h, "u1", "u2")
	playToEnd(t, h, 5)
	unarchive(h)
	rs.results = nil // recorded when it ended; the store keeps it once
	res := h.qcommand("u2", "start")
	require.NotNil(t, res.Shown(nil), "a Qwixx lobby: %s", res.Describe())
	assert.Zero(t, res.Response().Data.Flags&discordgo.MessageFlagsEphemeral, "the lobby is public")
	_, td, _ := h.qstate()
	assert.Equal(t, "u2", td.Creator)
	assert.Equal(t, []string{"dix g1"}, rs.results, "the DIX game's result, recorded before it was archived")

	// The Qwixx game, played to its end by the computer's decisions.
	g := h.b.Games["qwixx"]
	st, err := g.Rules.New(engine.Setup{Players: 2, Seed: 5, First: 0})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(5, 5))
	for !st.Over() {
		for _, s := range st.ToDecide() {
			m, err := g.Player(g.Default).Decide(st, s, rng)
			require.NoError(t, err)
			_, err = st.Apply(s, m)
			require.NoError(t, err)
		}
	}
	td.Seats = append(td.Seats, bot.TableSeat{User: "u1", Name: "Alice"})
	_, err = h.Db.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
		r.Data, r.Meta = st.Encode(), td.Encode()
		return nil
	})
	require.NoError(t, err)

	res = h.Command("u1", "start")
	require.NotNil(t, res.Shown(nil), "a DIX lobby: %s", res.Describe())
	assert.Zero(t, res.Response().Data.Flags&discordgo.MessageFlagsEphemeral, "the lobby is public")
	rec, m := h.Record()
	assert.Empty(t, rec.Game)
	assert.Equal(t, "u1", m.Creator)
	assert.Equal(t, []string{"dix g1", "qwixx g1"}, rs.results, "the Qwixx game's result too")
}

// The last person playing, once the others left, may end the game, though
// they did not open the table: DIX's answer to their /dix leave sends
// them to /dix abandon; in every game /<game> abandon takes them.
func TestLastPlayerMayAbandon(t *testing.T) {
	t.Parallel()
	t.Run("dix", func(t *testing.T) {
		h := newHarness(t)
		startGame(h, "u1", "u2")
		h.Command("u1", "leave")
		assert.Equal(t, locales.T("en", "err_last_player", nil), h.Command("u2", "leave").EphemeralText())
		ask := h.Command("u2", "abandon")
		assert.Equal(t, locales.T("en", "abandon_confirm", nil), ask.EphemeralText())
		confirm := ask.Shown(nil)
		require.NotNil(t, confirm)
		h.ClickOn("u2", confirm, h.MustFind(confirm, verbAbandonYes))
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		assert.True(t, r.Finished, "the game ended")
	})
	t.Run("qwixx", func(t *testing.T) {
		h := newQwixxHarness(t, false)
		h.openQwixx([]string{"u1", "u2"})
		h.qcommand("u1", "leave")
		ask := h.qcommand("u2", "abandon")
		assert.Equal(t, locales.T("en", "abandon_confirm", nil), ask.EphemeralText())
		confirm := ask.Shown(nil)
		require.NotNil(t, confirm)
		yes, ok := qfind(confirm, bot.CverbEnd, "")
		require.True(t, ok)
		h.ClickOn("u2", confirm, yes)
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		assert.True(t, r.Finished, "the game ended")
	})
	t.Run("others", func(t *testing.T) {
		// Anyone else seated is refused while another person plays.
		h := newQwixxHarness(t, false)
		h.openQwixx([]string{"u1", "u2", "u3"})
		h.qcommand("u1", "leave")
		assert.Equal(t, locales.T("en", "err_no_permission", nil), h.qcommand("u2", "abandon").EphemeralText())
	})
}

// Every game's table picks its language as /dix start does: the option;
// else the server's locale unless it is en-US (which a server that is not
// a Community server always reports, so it says nothing); else the
// language of the player who opens it.
func TestStartLanguageAsAtDIX(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		user, server  discordgo.Locale
		option, wants string
	}{
		{"a French player on a server that says nothing", discordgo.French, discordgo.EnglishUS, "", "fr"},
		{"an English player on a French server", discordgo.EnglishGB, discordgo.French, "", "fr"},
		{"the option first", discordgo.French, discordgo.French, "en", "en"},
		{"an English player", discordgo.EnglishUS, discordgo.EnglishUS, "", "en"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newGamesHarness(t)
			h.Locale, h.GuildLc = tc.user, tc.server
			var opts []any
			if tc.option != "" {
				opts = []any{"language", tc.option}
			}
			require.NotNil(t, h.Command("u1", "start", opts...).Shown(nil))
			_, m := h.Record()
			assert.Equal(t, tc.wants, m.Lang, "DIX")
			for _, game := range []string{"qwixx", "dixxit"} {
				h.Channel = "c-" + game
				var res result
				if game == "qwixx" {
					res = h.qcommand("u1", "start", opts...)
				} else {
					res = h.dcommand("u1", "start", opts...)
				}
				require.NotNil(t, res.Shown(nil), "%s: %s", game, res.Describe())
				r, err := h.Db.Get(context.Background(), h.Channel)
				require.NoError(t, err)
				td, err := bot.DecodeTableData(r.Meta)
				require.NoError(t, err)
				assert.Equal(t, tc.wants, td.Lang, game)
			}
		})
	}
}

// A command of one game in a channel that holds the other names the game
// the channel holds.
func TestCommandOfTheOtherGameNamesIt(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	lobby := h.qcommand("u1", "start").Shown(nil)
	h.ClickOn("u2", lobby, h.qmust(lobby, bot.CverbJoin, ""))
	h.ClickOn("u1", lobby, h.qmust(lobby, bot.CverbGo, ""))
	assert.Contains(t, h.Command("u2", "board").EphemeralText(), "Qwixx", "a DIX command in a Qwixx channel names the game")

	h2 := newQwixxHarness(t, false)
	h2.Command("u1", "start")
	assert.Contains(t, h2.qcommand("u2", "start").EphemeralText(), "DIX", "a Qwixx command in a DIX channel names the game")
}
