package bot

import (
	"context"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	botdix "github.com/dixgame/dixbot/bot/dix"
	botdixxit "github.com/dixgame/dixbot/bot/dixxit"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// newGamesHarness is a harness whose bot hosts DIX, Qwixx and Dixxit,
// with text boards, on store db (nil: a MemStore), its default language
// lang.
func newGamesHarness(t *testing.T, db dixbot.Store, lang string) *harness {
	t.Helper()
	h := newHarnessOn(t, db)
	b, err := New(Options{Store: h.Db, DefaultLanguage: lang, Seed: func() int64 { return 11 }, Observer: h.Obs,
		NoPictures: true, Games: []present.Game{botdix.Game(), botqwixx.Game(), botdixxit.Game()}})
	require.NoError(t, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	h.b = b
	return h
}

// One game per channel, whatever the games: in a channel where one game
// is played, every command of another game that would act on a game there
// says, privately, which game the channel has, and changes nothing; so do
// the buttons of other games. The rules, which act on no game, are shown.
func TestOneGamePerChannelAcrossGames(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t, nil, "en")
	other := func(game string) string {
		return locales.T("en", "table_err_other_game", map[string]any{"Game": game})
	}
	check := func(game, title string, board *tabletest.Message, others ...string) {
		t.Helper()
		before := snapshot(h)
		for _, o := range others {
			for _, sub := range append(gameSubcommands, "solo") {
				if sub == "hint" && o == "dixxit" || sub == "solo" && h.b.games[o].MinSeats > 1 {
					continue // no such subcommand
				}
				res := h.Run(h.GameCommandIx(o, "u1", sub))
				if sub == "rules" {
					assert.NotContains(t, res.EphemeralText(), other(title), "/%s rules", o)
					continue
				}
				assert.Equal(t, other(title), res.EphemeralText(), "/%s %s", o, sub)
			}
			id := buttonID(o, verbJoin, 1, "")
			assert.Equal(t, other(title), h.ClickOn("u2", board, id).EphemeralText(), id)
		}
		unchanged(h, before)
	}
	check("qwixx", "Qwixx", h.openQwixx([]string{"u1", "u2"}), "dix", "dixxit")
	h.Channel = "c2"
	check("dix", "DIX", h.openGame("dix", []string{"u1", "u2"}, nil), "qwixx", "dixxit")
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

// resultsStore is a MemStore that keeps the results recorded.
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
// channel: /qwixx start after it archives it (its result recorded) and
// opens its lobby.
func TestStartAfterAnotherGameOverUnarchived(t *testing.T) {
	t.Parallel()
	st := tabletest.NewMemStore()
	rs := &resultsStore{MemStore: st}
	h := newGamesHarness(t, rs, "en")
	h.St = st
	h.openQwixx([]string{"u1"}, "normal")
	h.qcommand("u1", "leave") // the computer finishes the game
	unarchive(h)
	rs.results = nil // recorded when it ended; the store keeps it once
	res := h.Run(h.startIx("dix", "u2", nil))
	require.NotNil(t, res.Shown(nil), "a DIX lobby: %s", res.Describe())
	assert.Zero(t, res.Response().Data.Flags&discordgo.MessageFlagsEphemeral, "the lobby is public")
	_, td, _, _ := h.dixNow()
	assert.Equal(t, "u2", td.Creator)
	assert.Equal(t, []string{"qwixx g1"}, rs.results, "the Qwixx game's result, recorded before it was archived")
}

// The last person playing, once the others left, may end the game, though
// they did not open the table; anyone else seated is refused while
// another person plays.
func TestLastPlayerMayAbandon(t *testing.T) {
	t.Parallel()
	for _, game := range []string{"dix", "qwixx"} {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			h := newGamesHarness(t, nil, "en")
			h.openGame(game, []string{"u1", "u2"}, nil)
			h.Run(h.GameCommandIx(game, "u1", "leave"))
			ask := h.Run(h.GameCommandIx(game, "u2", "abandon"))
			assert.Equal(t, locales.T("en", "abandon_confirm", nil), ask.EphemeralText())
			confirm := ask.Shown(nil)
			require.NotNil(t, confirm)
			yes, ok := gameFind(game, confirm, verbEnd, "")
			require.True(t, ok)
			h.ClickOn("u2", confirm, yes)
			r, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			assert.True(t, r.Finished, "the game ended")
		})
	}
	h := newGamesHarness(t, nil, "en")
	h.openGame("dix", []string{"u1", "u2", "u3"}, nil)
	h.Run(h.GameCommandIx("dix", "u1", "leave"))
	assert.Equal(t, locales.T("en", "err_no_permission", nil), h.Run(h.GameCommandIx("dix", "u2", "abandon")).EphemeralText())
}

// Every game's table picks its language alike: the option; else, for a
// solo game, the player's; else the server's locale unless it is en-US
// (which a server that is not a Community server always reports, so it
// says nothing); else the language of the player who opens it; else the
// bot's default.
func TestGameLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		sub         string
		option      string
		user, guild discordgo.Locale
		defaultLang string
		want        string
	}{
		{"option wins", "start", "en", discordgo.French, discordgo.French, "fr", "en"},
		{"en-US server says nothing: the starter's", "start", "", discordgo.French, discordgo.EnglishUS, "en", "fr"},
		{"French Community server", "start", "", discordgo.EnglishUS, discordgo.French, "en", "fr"},
		{"British Community server", "start", "", discordgo.French, discordgo.EnglishGB, "fr", "en"},
		{"unsupported server locale: the starter's", "start", "", discordgo.French, discordgo.German, "en", "fr"},
		{"nothing known: the default", "start", "", discordgo.German, discordgo.German, "fr", "fr"},
		{"solo: the player's, whatever the server", "solo", "", discordgo.French, discordgo.EnglishGB, "en", "fr"},
		{"solo option", "solo", "en", discordgo.French, discordgo.French, "fr", "en"},
		{"solo, unsupported player locale: server", "solo", "", discordgo.German, discordgo.French, "en", "fr"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, game := range []string{"dix", "qwixx", "dixxit"} {
				h := newGamesHarness(t, nil, tc.defaultLang)
				if tc.sub == "solo" && h.b.games[game].MinSeats > 1 {
					continue // no solo game
				}
				h.Locale, h.GuildLc = tc.user, tc.guild
				var opts []any
				if tc.option != "" {
					opts = append(opts, optLanguage, tc.option)
				}
				res := h.Run(h.GameCommandIx(game, "u1", tc.sub, opts...))
				r, err := h.Db.Get(context.Background(), h.Channel)
				require.NoError(t, err, "%s: %s", game, res.Describe())
				td, err := decodeTableData(r.Meta)
				require.NoError(t, err)
				assert.Equal(t, tc.want, td.Lang, game)
			}
		})
	}
}
