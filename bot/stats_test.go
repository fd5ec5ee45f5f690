package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	botdix "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
	"github.com/dixgame/dixbot/store"
)

// newStatsHarness is a harness on the embedded store, which keeps
// statistics, hosting DIX and Qwixx.
func newStatsHarness(t *testing.T) *harness {
	t.Helper()
	db, err := store.OpenFile(filepath.Join(t.TempDir(), "dix.db"), store.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	h := newHarnessOn(t, db)
	b, err := New(Options{Store: db, DefaultLanguage: "en", Seed: func() int64 { return 7 }, Observer: h.Obs,
		NoPictures: true, Games: []present.Game{botdix.Game(), botqwixx.Game()}})
	require.NoError(t, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	h.b = b
	return h
}

// statsCmd runs /stats, /leaderboard or /forget-me (id) with options.
func statsCmd(h *harness, user, id string, opts ...*discordgo.ApplicationCommandInteractionDataOption) result {
	h.T.Helper()
	i := h.Base(user, discordgo.InteractionApplicationCommand)
	i.Data = discordgo.ApplicationCommandInteractionData{Name: locales.T("en", id+"_cmd_name", nil), Options: opts}
	return h.Run(i)
}

func gameOpt(game string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: "game", Type: discordgo.ApplicationCommandOptionString, Value: game}
}

func memberOpt(user string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: "member", Type: discordgo.ApplicationCommandOptionUser, Value: user}
}

func playerStats(h *harness, guild, user string) map[string]dixbot.PlayerStats {
	h.T.Helper()
	ps, _, err := h.b.Stats().PlayerStats(context.Background(), guild, user)
	require.NoError(h.T, err)
	out := map[string]dixbot.PlayerStats{}
	for _, p := range ps {
		out[p.Game] = p
	}
	return out
}

// embedText is the title and description of an answer's only embed.
func embedText(t *testing.T, resp *discordgo.InteractionResponse) string {
	t.Helper()
	require.Len(t, resp.Data.Embeds, 1, "content %q", resp.Data.Content)
	return resp.Data.Embeds[0].Title + "\n" + resp.Data.Embeds[0].Description
}

// A DIX game played to its end by clicks is recorded once in its server's
// statistics, with its seats, scores and ranks; recording its end again
// (a second process taking its last effects over) counts nothing more.
func TestDixGameEndRecordsResultOnce(t *testing.T) {
	t.Parallel()
	h := newStatsHarness(t)
	h.openGame("dix", []string{"u1", "u2"}, nil)
	_, td, _, _ := h.dixNow()
	mirror, err := dix.New(dix.Options{Players: 2, Seed: td.Seed, FirstPlayer: td.First - 1})
	require.NoError(t, err)
	d := &dixDriver{h: h, users: []string{"u1", "u2"}, rng: rand.New(rand.NewPCG(5, 2)), mirror: mirror, seen: map[string]int{}}
	d.play(600)
	rec, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.True(t, rec.Finished)
	g, td, _, _ := h.dixNow()
	st := dix.StateOf(g)
	res := resultOf(h.b.games["dix"], rec, td, st)
	require.NotNil(t, res)
	assert.Equal(t, "c1:"+td.Board, res.ID)
	assert.Zero(t, res.Solo)
	require.Len(t, res.Seats, 2)
	for _, r := range st.Results() {
		assert.Equal(t, dixbot.ResultSeat{User: td.Seats[r.Seat].User, Name: td.Seats[r.Seat].Name, Score: r.Score, Rank: r.Rank},
			res.Seats[r.Seat])
	}
	for _, u := range []string{"u1", "u2"} {
		ps := playerStats(h, "g1", u)["dix"]
		assert.Equal(t, 1, ps.Played, u)
		assert.True(t, ps.Rated, u)
	}
	require.NoError(t, h.b.Record(context.Background(), res))
	assert.Equal(t, 1, playerStats(h, "g1", "u1")["dix"].Played)
}

// An abandoned game ends without a result and is never recorded.
func TestAbandonedGameIsNotRecorded(t *testing.T) {
	t.Parallel()
	h := newStatsHarness(t)
	h.openGame("dix", []string{"u1", "u2"}, nil)
	prompt := h.Run(h.GameCommandIx("dix", "u1", "abandon")).Shown(nil)
	require.NotNil(t, prompt)
	h.ClickOn("u1", prompt, h.dixMust(prompt, verbEnd, ""))
	rec, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.True(t, rec.Finished)
	assert.Empty(t, playerStats(h, "g1", "u1"), "an abandoned game does not count")
}

// A solo game against ALIX is recorded apart: its difficulty's record, no
// rating.
func TestSoloGameRecordedApart(t *testing.T) {
	t.Parallel()
	h := newStatsHarness(t)
	h.openGame("dix", []string{"u1"}, map[string]string{"difficulty": "6"})
	_, td, _, _ := h.dixNow()
	mirror, err := dix.New(dix.Options{Players: 1, Seed: td.Seed, Difficulty: 6, FirstPlayer: 0})
	require.NoError(t, err)
	d := &dixDriver{h: h, users: []string{"u1"}, rng: rand.New(rand.NewPCG(3, 1)), mirror: mirror, seen: map[string]int{}}
	d.play(400)
	ps, solo, err := h.b.Stats().PlayerStats(context.Background(), "g1", "u1")
	require.NoError(t, err)
	assert.Empty(t, ps)
	require.Len(t, solo, 1)
	assert.Equal(t, 6, solo[0].Difficulty)
	assert.Equal(t, 1, solo[0].Played)
	txt := embedText(t, statsCmd(h, "u1", "stats").Response())
	assert.Contains(t, txt, locales.T("en", "stats_solo", map[string]any{"Difficulty": 6, "Played": locales.N("en", "stats_games", 1, nil),
		"Won": locales.N("en", "stats_wins", solo[0].Won, nil), "Best": solo[0].Best}))
}

// A Qwixx game the computers finish (its only person left) is recorded
// when it is archived, the person who left included.
func TestGameEndRecordsResult(t *testing.T) {
	t.Parallel()
	h := newStatsHarness(t)
	lobby := h.qcommand("u1", "start").Shown(nil)
	lobby = h.ClickOn("u1", lobby, h.qmust(lobby, verbCPU, "normal")).Shown(lobby)
	h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, ""))
	h.qcommand("u1", "leave")
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.True(t, r.Finished)
	st := playerStats(h, "g1", "u1")["qwixx"]
	assert.Equal(t, 1, st.Played)
	assert.True(t, st.Rated, "rated against the computer seat")
}

// /stats, /leaderboard and /forget-me end to end in English and French;
// stats of one server are never shown in another.
func TestStatsCommands(t *testing.T) {
	t.Parallel()
	h := newStatsHarness(t)
	ctx := context.Background()
	s := h.b.Stats()
	for i, ranks := range [][3]int{{1, 2, 3}, {1, 3, 2}, {2, 1, 3}} {
		_, err := s.RecordResult(ctx, &dixbot.Result{Guild: "g1", Game: "dix", ID: "c:" + string(rune('a'+i)), Seats: []dixbot.ResultSeat{
			{User: "u1", Name: "Alice", Score: 40 - ranks[0], Rank: ranks[0]},
			{User: "u2", Name: "Bob", Score: 40 - ranks[1], Rank: ranks[1]},
			{Level: "normal", Score: 40 - ranks[2], Rank: ranks[2]},
		}})
		require.NoError(t, err)
	}
	a := playerStats(h, "g1", "u1")["dix"]

	resp := statsCmd(h, "u1", "stats").Response()
	assert.NotZero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "private")
	txt := embedText(t, resp)
	assert.Contains(t, txt, locales.T("en", "stats_game_placed", map[string]any{"Game": "DIX", "Played": "3 games", "Won": "2 wins", "Rate": "67",
		"Avg": "38.7", "Best": 39, "Ahead": "ahead of 5 opponents out of 6", "Rating": shownRating("en", a.Mu, a.Sigma)}))
	assert.Contains(t, txt, locales.T("en", "stats_favourite", map[string]any{"Game": "DIX"}))

	h.Locale = discordgo.French
	txt = embedText(t, statsCmd(h, "u2", "stats", memberOpt("u1"), gameOpt("dix")).Response())
	assert.Contains(t, txt, "Alice sur ce serveur")
	assert.Contains(t, txt, "38,7", "French decimals")
	assert.Equal(t, locales.T("fr", "stats_none", map[string]any{"Name": "Alice"}),
		statsCmd(h, "u1", "stats", gameOpt("qwixx")).EphemeralText())

	// The leaderboard is public, in the server's language.
	h.Locale = discordgo.EnglishUS
	resp = statsCmd(h, "u3", "leaderboard", gameOpt("dix")).Response()
	assert.Zero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "public")
	txt = embedText(t, resp)
	assert.Contains(t, txt, locales.T("en", "leaderboard_line", map[string]any{"Rank": 1, "Name": "Alice",
		"Rating": shownRating("en", a.Mu, a.Sigma), "Record": "3 games, 2 wins, ahead of 5 opponents out of 6"}))
	assert.Contains(t, txt, "**2.** Bob")
	assert.NotContains(t, txt, "You:", "the asker is not rated")
	assert.Contains(t, embedText(t, statsCmd(h, "u3", "leaderboard", gameOpt("qwixx")).Response()),
		locales.T("en", "leaderboard_empty", map[string]any{"Game": "Qwixx"}))
	assert.Equal(t, locales.T("en", "err_bad_input", nil), statsCmd(h, "u1", "leaderboard", gameOpt("chess")).EphemeralText(), "an unknown game is refused")

	// Another server sees nothing of this one.
	h.Guild = "g2"
	assert.Equal(t, locales.T("en", "stats_none", map[string]any{"Name": "Alice"}), statsCmd(h, "u1", "stats").EphemeralText())
	assert.Contains(t, embedText(t, statsCmd(h, "u1", "leaderboard", gameOpt("dix")).Response()),
		locales.T("en", "leaderboard_empty", map[string]any{"Game": "DIX"}))
	_, err := s.RecordResult(ctx, &dixbot.Result{Guild: "g2", Game: "dix", ID: "c:z", Seats: []dixbot.ResultSeat{
		{User: "u1", Name: "Alice", Score: 1, Rank: 1}, {User: "u4", Name: "Dan", Rank: 2}}})
	require.NoError(t, err)

	// /forget-me asks first; "keep" deletes nothing.
	h.Guild = "g1"
	prompt := statsCmd(h, "u1", "forget").Shown(nil)
	require.True(t, prompt.Ephemeral)
	assert.Equal(t, locales.T("en", "forget_confirm", nil), prompt.Content)
	assert.Equal(t, locales.T("en", "forget_kept", nil), h.ClickOn("u1", prompt, tableID(verbForgetNo)).Shown(prompt).Content)
	assert.Equal(t, 3, playerStats(h, "g1", "u1")["dix"].Played)
	prompt = statsCmd(h, "u1", "forget").Shown(nil)
	assert.Equal(t, locales.T("en", "forget_done", nil), h.ClickOn("u1", prompt, tableID(verbForgetYes)).Shown(prompt).Content)
	assert.Empty(t, playerStats(h, "g1", "u1"))
	assert.Equal(t, 3, playerStats(h, "g1", "u2")["dix"].Played, "only the clicker's")
	assert.Equal(t, 1, playerStats(h, "g2", "u1")["dix"].Played, "on that server only")
	txt = embedText(t, statsCmd(h, "u2", "leaderboard", gameOpt("dix")).Response())
	assert.NotContains(t, txt, "Alice")
	assert.Contains(t, txt, "**1.** Bob")
}

// Below the top ten, the asker sees their own line.
func TestLeaderboardShowsTheAskersLine(t *testing.T) {
	t.Parallel()
	h := newStatsHarness(t)
	ctx := context.Background()
	users := []string{"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "b0", "b1"}
	for i := range users {
		for j := i + 1; j < len(users); j++ {
			_, err := h.b.Stats().RecordResult(ctx, &dixbot.Result{Guild: "g1", Game: "dix", ID: users[i] + users[j],
				Seats: []dixbot.ResultSeat{{User: users[i], Name: "N" + users[i], Rank: 1}, {User: users[j], Name: "N" + users[j], Rank: 2}}})
			require.NoError(t, err)
		}
	}
	txt := embedText(t, statsCmd(h, "b1", "leaderboard", gameOpt("dix")).Response())
	assert.Equal(t, 11, strings.Count(txt, " games, "), "ten lines and the asker's: %s", txt)
	assert.Contains(t, txt, "You: **12.** Nb1: **0.0** (11 games, 0 wins, ahead of 0 opponents out of 11)")
	txt = embedText(t, statsCmd(h, "a3", "leaderboard", gameOpt("dix")).Response())
	assert.NotContains(t, txt, "You:")
	assert.Contains(t, txt, "**4.** Na3")
}

// The commands are registered, localised, for servers only, when the store
// keeps statistics, with every game hosted once; a store without them has
// none.
func TestStatsCommandsRegistered(t *testing.T) {
	t.Parallel()
	h := newStatsHarness(t)
	names := map[string]Command{}
	for _, c := range h.b.Commands() {
		names[c.Name] = c
	}
	for _, n := range []string{"stats", "leaderboard", "forget-me"} {
		c := names[n]
		require.NotNil(t, c.ApplicationCommand, n)
		assert.Equal(t, []InteractionContext{ContextGuild}, c.Contexts)
		assert.Regexp(t, `^[-_\p{Ll}\p{N}]{1,32}$`, (*c.NameLocalizations)[discordgo.French])
		assert.NotEmpty(t, (*c.DescriptionLocalizations)[discordgo.French])
	}
	var choices []string
	for _, ch := range names["leaderboard"].Options[0].Choices {
		choices = append(choices, ch.Value.(string))
	}
	assert.Equal(t, []string{"dix", "qwixx"}, choices, "every game, DIX first")
	for _, c := range newDixHarness(t, 1, false).b.Commands() {
		assert.NotContains(t, []string{"stats", "leaderboard", "forget-me"}, c.Name, "a store without statistics")
	}
}

// failingStats is the embedded store whose first recordings fail as
// unreachable.
type failingStats struct {
	*store.File
	fail atomic.Int32
}

func (f *failingStats) RecordResult(ctx context.Context, r *dixbot.Result) (bool, error) {
	if f.fail.Add(-1) >= 0 {
		return false, fmt.Errorf("%w: test", dixbot.ErrUnavailable)
	}
	return f.File.RecordResult(ctx, r)
}

// A game whose result cannot be recorded at its end stays active, its
// scoreboard shown; a Rematch click, or the next start in the channel,
// records it before archiving it.
func TestResultRecordedLater(t *testing.T) {
	t.Parallel()
	for _, via := range []string{"rematch", "start"} {
		t.Run(via, func(t *testing.T) {
			t.Parallel()
			db, err := store.OpenFile(filepath.Join(t.TempDir(), "dix.db"), store.Options{})
			require.NoError(t, err)
			t.Cleanup(func() { db.Close() })
			fs := &failingStats{File: db}
			fs.fail.Store(1)
			h := newHarnessOn(t, fs)
			b, err := New(Options{Store: fs, DefaultLanguage: "en", Seed: func() int64 { return 7 }, Observer: h.Obs,
				NoPictures: true, Games: []present.Game{botqwixx.Game()}})
			require.NoError(t, err)
			b.workBudget, b.deferAfter = harnessBudget, harnessBudget
			h.b = b
			lobby := h.qcommand("u1", "start").Shown(nil)
			lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
			lobby = h.ClickOn("u1", lobby, h.qmust(lobby, verbCPU, "normal")).Shown(lobby)
			board := h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, "")).Shown(lobby)
			h.qcommand("u1", "leave")
			h.qcommand("u2", "leave")
			r, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			require.False(t, r.Finished, "not archived while its result is not recorded")
			assert.Empty(t, playerStats(h, "g1", "u1"))

			switch via {
			case "rematch":
				h.ClickOn("u2", h.Rec.Message(board.ID), rematchID)
			case "start":
				h.qcommand("u2", "start")
			}
			for _, u := range []string{"u1", "u2"} {
				assert.Equal(t, 1, playerStats(h, "g1", u)["qwixx"].Played, u)
			}
		})
	}
}

// A player who never won but finished ahead of most opponents can top the
// leaderboard; the line says what the order rests on, in the board's
// language: games, wins, and how many opponents they finished ahead of.
// /stats says it too.
func TestLeaderboardSaysWhatTheOrderRestsOn(t *testing.T) {
	t.Parallel()
	h := newStatsHarness(t)
	ctx := context.Background()
	// Bruno is second every time, behind Alice, Carol or Dan in turn.
	others := []dixbot.ResultSeat{{User: "ua", Name: "Alice"}, {User: "uc", Name: "Carol"}, {User: "ud", Name: "Dan"}}
	for i := range 6 {
		seats := []dixbot.ResultSeat{{User: "ub", Name: "Bruno", Score: 30, Rank: 2}}
		for j := range others {
			s := others[(i+j)%len(others)]
			s.Rank, s.Score = []int{1, 3, 4}[j], []int{40, 20, 10}[j]
			seats = append(seats, s)
		}
		_, err := h.b.Stats().RecordResult(ctx, &dixbot.Result{Guild: "g1", Game: "qwixx", ID: fmt.Sprintf("c:%d", i), Seats: seats})
		require.NoError(t, err)
	}
	assert.Equal(t, "🏆 Qwixx: the leaderboard of this server\n"+
		"**1.** Bruno: **9.5** (6 games, 0 wins, ahead of 12 opponents out of 18)\n"+
		"**2.** Dan: **1.5** (6 games, 2 wins, ahead of 8 opponents out of 18)\n"+
		"**3.** Alice: **0.3** (6 games, 2 wins, ahead of 8 opponents out of 18)\n"+
		"**4.** Carol: **0.1** (6 games, 2 wins, ahead of 8 opponents out of 18)",
		embedText(t, statsCmd(h, "ua", "leaderboard", gameOpt("qwixx")).Response()))
	txt := embedText(t, statsCmd(h, "ub", "stats", gameOpt("qwixx")).Response())
	assert.Contains(t, txt, "**Qwixx**: 6 games, 0 wins (0 %), average score 30.0, best 30, ahead of 12 opponents out of 18, rating **9.5**")

	h.Locale = discordgo.French
	assert.Equal(t, "🏆 Qwixx : le classement de ce serveur\n"+
		"**1.** Bruno : **9,5** (6 parties, 0 victoire, devant 12 adversaires sur 18)\n"+
		"**2.** Dan : **1,5** (6 parties, 2 victoires, devant 8 adversaires sur 18)\n"+
		"**3.** Alice : **0,3** (6 parties, 2 victoires, devant 8 adversaires sur 18)\n"+
		"**4.** Carol : **0,1** (6 parties, 2 victoires, devant 8 adversaires sur 18)",
		embedText(t, statsCmd(h, "ua", "leaderboard", gameOpt("qwixx")).Response()))
	txt = embedText(t, statsCmd(h, "ub", "stats", gameOpt("qwixx")).Response())
	assert.Contains(t, txt, "**Qwixx** : 6 parties, 0 victoire (0 %), score moyen 30,0, meilleur 30, devant 12 adversaires sur 18, cote **9,5**")
}

// A record kept before placements were shows games and wins alone; the
// placements take each language's plural forms.
func TestRecordText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang                      string
		played, won, ahead, faced int
		want                      string
	}{
		{"en", 4, 1, 0, 0, "4 games, 1 win"},
		{"fr", 4, 1, 0, 0, "4 parties, 1 victoire"},
		{"en", 1, 0, 0, 2, "1 game, 0 wins, ahead of 0 opponents out of 2"},
		{"fr", 1, 0, 0, 2, "1 partie, 0 victoire, devant 0 adversaire sur 2"},
		{"en", 2, 0, 1, 4, "2 games, 0 wins, ahead of 1 opponent out of 4"},
		{"fr", 2, 0, 1, 4, "2 parties, 0 victoire, devant 1 adversaire sur 4"},
		{"fr", 3, 2, 5, 6, "3 parties, 2 victoires, devant 5 adversaires sur 6"},
	} {
		assert.Equal(t, c.want, recordText(c.lang, c.played, c.won, c.ahead, c.faced))
	}
}
