package bot

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	botdixxit "github.com/dixgame/dixbot/bot/dixxit"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/locales"
	"github.com/dixgame/dixbot/store"
)

// A French player at an English table reads one language at a time: the
// game's log speaks the game's language, as its lines do (its header and
// its page buttons too), and the rules name the board's button as an
// English board shows it as well as in French.
func TestFrenchPlayerAtAnEnglishDixxitTable(t *testing.T) {
	t.Parallel()
	h := newDixxitHarness(t, nil)
	board := h.openDixxit("en", []string{"u1", "u2", "u3"}, 0)
	g, _, _ := h.dstate()
	h.giveClue([]string{"u1", "u2", "u3"}[g.Active()], board, "tea")
	h.Locale = discordgo.French
	log := h.dcommand("u2", "log").Texts()
	assert.Contains(t, log, locales.T("en", "log_title", map[string]any{"Page": 1, "Pages": 1}))
	assert.NotContains(t, log, locales.T("fr", "log_title", map[string]any{"Page": 1, "Pages": 1}))
	rules := h.dcommand("u2", "rules").EphemeralText()
	for _, lang := range []string{"fr", "en"} {
		assert.Contains(t, rules, "**"+locales.T(lang, "dixxit_btn_my_picture", nil)+"**", "the board's button as a %s board shows it", lang)
	}
}

// The public leaderboard is in the language a game opened by its asker
// would have: the server's when it is a Community server of a supported
// language, else the asker's (a server that says nothing reports en-US).
func TestLeaderboardInTheAskersLanguage(t *testing.T) {
	t.Parallel()
	db, err := store.OpenFile(filepath.Join(t.TempDir(), "dix.db"), store.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	h := newHarnessOn(t, db)
	b, err := New(Options{Store: db, DefaultLanguage: "en", Seed: func() int64 { return 7 }, Observer: h.Obs,
		NoPictures: true, Games: []present.Game{botdixxit.Game()}})
	require.NoError(t, err)
	h.b = b
	_, err = db.RecordResult(context.Background(), &dixbot.Result{Guild: h.Guild, Game: "dixxit", ID: "c:1", Seats: []dixbot.ResultSeat{
		{User: "u1", Name: "Alice", Score: 5, Rank: 1}, {User: "u2", Name: "Bob", Score: 2, Rank: 2}}})
	require.NoError(t, err)
	ask := func() string {
		t.Helper()
		i := h.Base("u2", discordgo.InteractionApplicationCommand)
		i.Data = discordgo.ApplicationCommandInteractionData{Name: locales.T("en", "leaderboard_cmd_name", nil), Options: []*discordgo.ApplicationCommandInteractionDataOption{
			{Name: "game", Type: discordgo.ApplicationCommandOptionString, Value: "dixxit"}}}
		resp := h.Run(i).Response()
		require.Len(t, resp.Data.Embeds, 1, "content %q", resp.Data.Content)
		return resp.Data.Embeds[0].Title
	}
	h.Locale = discordgo.French
	assert.Equal(t, locales.T("fr", "leaderboard_title", map[string]any{"Game": "Dixxit"}), ask(), "an en-US server: the asker's French")
}

// Ratings read without a lesson: provisional for a person's first games,
// then a figure that starts at 0 and never shows below it, however the
// person lost; the leaderboard shows beside each name the games, wins and
// placements it rests on, and says in a line what the figure means.
func TestRatingsReadWithoutALesson(t *testing.T) {
	t.Parallel()
	db, err := store.OpenFile(filepath.Join(t.TempDir(), "dix.db"), store.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	h := newHarnessOn(t, db)
	b, err := New(Options{Store: db, DefaultLanguage: "en", Seed: func() int64 { return 7 }, Observer: h.Obs,
		NoPictures: true, Games: []present.Game{botdixxit.Game()}})
	require.NoError(t, err)
	h.b = b
	game := 0
	lose := func() {
		t.Helper()
		game++
		_, err := db.RecordResult(context.Background(), &dixbot.Result{Guild: h.Guild, Game: "dixxit", ID: "c:" + strconv.Itoa(game), Seats: []dixbot.ResultSeat{
			{User: "u1", Name: "Alice", Score: 5, Rank: 1}, {User: "u2", Name: "Bob", Score: 2, Rank: 2}}})
		require.NoError(t, err)
	}
	cmd := func(user, name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.MessageEmbed {
		t.Helper()
		i := h.Base(user, discordgo.InteractionApplicationCommand)
		i.Data = discordgo.ApplicationCommandInteractionData{Name: locales.T("en", name+"_cmd_name", nil), Options: opts}
		resp := h.Run(i).Response()
		require.Len(t, resp.Data.Embeds, 1, "content %q", resp.Data.Content)
		return resp.Data.Embeds[0]
	}
	dixxit := &discordgo.ApplicationCommandInteractionDataOption{Name: "game", Type: discordgo.ApplicationCommandOptionString, Value: "dixxit"}
	lose()
	e := cmd("u2", "stats")
	assert.Contains(t, e.Description, locales.N("en", "rating_provisional", 1, map[string]any{"Of": provisionalGames}), "one game: provisional")
	assert.NotContains(t, e.Description, "−", "no negative figure")
	for range provisionalGames + 2 {
		lose()
	}
	e = cmd("u2", "stats")
	assert.Contains(t, e.Description, "**0.0**", "a figure from 0 up, after losses too: %s", e.Description)
	assert.NotContains(t, e.Description, "−")
	lb := cmd("u3", "leaderboard", dixxit)
	assert.Contains(t, lb.Description, "Alice: **", lb.Description)
	assert.Contains(t, lb.Description, "(6 games, 6 wins, ahead of 6 opponents out of 6)")
	assert.Contains(t, lb.Description, "Bob: **0.0** (6 games, 0 wins, ahead of 0 opponents out of 6)")
	assert.NotContains(t, lb.Description, "−")
	assert.Equal(t, locales.T("en", "stats_rating_note", nil), lb.Footer.Text)
	assert.NotContains(t, lb.Footer.Text, "σ", "no statistics lesson")
}

// A player is named as Discord shows them: in a server, their nickname
// there, else their display name (global_name), else their user name
// (https://discord.com/developers/docs/resources/guild#guild-member-object,
// https://discord.com/developers/docs/resources/user#user-object).
func TestPlayersNamedAsDiscordShowsThem(t *testing.T) {
	t.Parallel()
	member := func(nick, global string) *discordgo.Interaction {
		return &discordgo.Interaction{Member: &discordgo.Member{Nick: nick, User: &discordgo.User{ID: "u1", Username: "ann_92", GlobalName: global}}}
	}
	for _, tc := range []struct {
		i    *discordgo.Interaction
		name string
	}{
		{member("Annie", "Ann"), "Annie"},
		{member("", "Ann"), "Ann"},
		{member("", ""), "ann_92"},
		{&discordgo.Interaction{User: &discordgo.User{ID: "u1", Username: "ann_92", GlobalName: "Ann"}}, "Ann"},
		{&discordgo.Interaction{User: &discordgo.User{ID: "u1", Username: "ann_92"}}, "ann_92"},
	} {
		id, name := userOf(tc.i)
		assert.Equal(t, "u1", id)
		assert.Equal(t, tc.name, name)
	}
	id, name := userOf(&discordgo.Interaction{})
	assert.Empty(t, id)
	assert.Empty(t, name)
}

// A name is what its person typed: in every game, the lobby, the board
// and its lines show it as typed, its Markdown, mentions and links
// escaped (neither bold, a spoiler, a mention pill nor a link Discord
// previews), while the table keeps it as typed for the pictures.
func TestNamesShowAsTyped(t *testing.T) {
	t.Parallel()
	const typed = "**Bo** ||x|| @everyone https://x.example"
	escaped := present.Escape(typed)
	for _, game := range []string{"dix", "qwixx", "dixxit"} {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			h := newEveryGameHarness(t)
			h.Names["u2"] = typed
			lobby := h.Run(h.startIx(game, "u1", nil)).Shown(nil)
			join, ok := gameFind(game, lobby, verbJoin, "")
			require.True(t, ok)
			lobby = h.ClickOn("u2", lobby, join).Shown(lobby)
			h.ClickOn("u3", lobby, join)
			texts := []string{h.Rec.Message(lobby.ID).Content}
			start, ok := gameFind(game, lobby, verbGo, "")
			require.True(t, ok)
			board := h.ClickOn("u1", lobby, start).Shown(lobby)
			texts = append(texts, board.Content)
			for _, e := range board.Embeds {
				texts = append(texts, e.Title, e.Description)
				for _, f := range e.Fields {
					texts = append(texts, f.Name, f.Value)
				}
			}
			all := strings.Join(texts, "\n")
			assert.Contains(t, all, escaped)
			for _, raw := range []string{"**Bo**", "||x||", "@everyone", "https://"} {
				assert.NotContains(t, all, raw)
			}
			r, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			td, err := decodeTableData(r.Meta)
			require.NoError(t, err)
			require.Len(t, td.Seats, 3)
			assert.Equal(t, typed, td.Seats[1].Name, "kept as typed")
		})
	}
}
