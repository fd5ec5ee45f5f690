package dixtable

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/bot"
	dixview "github.com/dixgame/dixbot/bot/dix"
	computer "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// One person and two computer players: the creator seats them from the
// lobby, their moves are made at once and told on the board, nobody pings
// them, and the game reaches the scoreboard, which names them.
func TestGameWithComputerPlayers(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			lobby := h.Command("u1", "start", bot.OptLanguage, lang).Shown(nil)
			add := h.MustFind(lobby, verbAddCPU)
			// Only the creator seats computers.
			assert.Contains(t, h.ClickOn("u2", lobby, add, "strong").EphemeralText(), locales.T("en", "err_not_creator", nil))
			h.ClickOn("u1", lobby, add, "strong")
			h.ClickOn("u1", lobby, h.MustFind(lobby, verbAddCPU), "easy")
			h.ClickOn("u1", lobby, h.MustFind(lobby, verbAddCPU), "normal")
			h.ClickOn("u1", lobby, h.MustFind(lobby, verbRemoveCPU)) // the normal one goes
			_, m := h.Record()
			require.Len(t, m.Seats, 3)
			assert.Equal(t, []string{"", "strong", "easy"}, []string{m.Seats[0].CPU, m.Seats[1].CPU, m.Seats[2].CPU})
			assert.Contains(t, lobby.Embeds[0].Fields[0].Value, "🤖")
			assert.Contains(t, h.ClickOn("u1", lobby, h.MustFind(lobby, verbAddCPU), "grandmaster").EphemeralText(), "Nothing changed", "an unknown level is refused")
			h.ClickOn("u1", lobby, h.MustFind(lobby, verbGo))

			steps := playToEnd(t, h, 7)
			assert.Greater(t, steps, 5)
			rec, err := h.St.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			require.True(t, rec.Finished)
			require.Equal(t, dix.PhaseOver, dix.GameOf(rec.State).Phase)
			// The computers played: they hold cards.
			assert.NotEmpty(t, dix.GameOf(rec.State).Players[1].Collection)
			// Only the person was ever mentioned.
			for _, c := range h.Rec.Calls {
				if c.Send != nil {
					assert.NotContains(t, strings.ReplaceAll(c.Send.Content, "<@u1>", ""), "<@", "only the person is pinged")
				}
			}
			tabletest.CheckAllCalls(t, h.Rec.Calls)
		})
	}
}

// /dix hint: the exact odds of the next draw, the worth of one more draw
// and the strong player's advice, privately, to the player who must decide;
// anyone else is told whose decision it is.
func TestHint(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
			if lang == "fr" {
				h.Locale = discordgo.French
			}
			board := h.Board()
			h.ClickOn("u1", board, h.MustFind(board, verbDraw)) // g3: total 3
			rec, _ := h.Record()
			o := computer.DrawOdds(dix.GameOf(rec.State))

			r := h.Command("u1", "hint")
			resp := r.Response()
			require.NotZero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "only the player sees it")
			require.Len(t, resp.Data.Embeds, 1)
			text := resp.Data.Embeds[0].Description
			assert.Contains(t, text, locales.T(lang, "dix_hint_odds", map[string]any{"Bust": dixview.Pct(o.Bust()), "Left": o.Left, "Wild": dixview.Pct(o.Wild)}))
			assert.Contains(t, text, locales.T(lang, "dix_hint_bust_total", map[string]any{"Number": 8, "Chance": dixview.Pct(o.BustTotal)}), "a number of 8 or more busts a total of 3")
			assert.Contains(t, text, locales.T(lang, "dix_hint_gain", map[string]any{"Points": dixview.Points(lang, o.Gain)}))
			adv := computer.Advise(dix.GameOf(rec.State), 0, nil)
			assert.Contains(t, text, locales.T(lang, "dix_hint_do_"+dixview.ActionKey(adv.Action.Kind), nil))

			assert.Equal(t, locales.T(lang, "err_not_your_turn", map[string]any{"Name": "Alice"}), h.Command("u2", "hint").EphemeralText())
			assert.Equal(t, locales.T(lang, "err_not_in_game", nil), h.Command("u9", "hint").EphemeralText())
			tabletest.CheckAllCalls(t, h.Rec.Calls)
		})
	}
}

// /dix board after the game is over shows the archived game's final
// scores to the channel, in the answer itself.
func TestBoardAfterTheEnd(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			startGameWith(h, []any{bot.OptLanguage, lang}, "u1", "u2")
			playToEnd(t, h, 3)
			rec, err := h.St.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			require.True(t, rec.Finished)
			r := h.Command("u2", "board")
			resp := r.Response()
			require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type)
			assert.Zero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "for the whole channel")
			assert.Equal(t, locales.T(lang, "board_archived", nil), resp.Data.Content)
			require.Len(t, resp.Data.Embeds, 1)
			assert.Equal(t, locales.T(lang, "dix_score_title", nil), resp.Data.Embeds[0].Title)
			assert.Empty(t, r.Sends(), "nothing sent with the bot's token")
			tabletest.CheckAllCalls(t, h.Rec.Calls)
		})
	}
}

// The reward buttons say what the player would really get: tokens beyond
// 10 are lost, in solo the money goes to ALIX, and a tableau without money
// gives the others nothing to gain.
func TestRewardButtonsSayWhatTheyGive(t *testing.T) {
	t.Parallel()
	label := func(g *dix.Game, m *dixTable, verb string) string {
		t.Helper()
		for _, row := range dixview.BoardButtons(m.view("en"), g) {
			for _, c := range row.(discordgo.ActionsRow).Components {
				if b, ok := c.(discordgo.Button); ok {
					if p, err := bot.ParseID(b.CustomID); err == nil && p.Verb == verb {
						return b.Label
					}
				}
			}
		}
		t.Fatalf("no %s button", verb)
		return ""
	}
	choose := func(players int, deck string, draws int) *dix.Game {
		cards, err := dix.ParseCards(deck)
		require.NoError(t, err)
		g, err := dix.NewWithDeck(dix.Options{Players: players, Difficulty: 7, FirstPlayer: 0}, cards)
		require.NoError(t, err)
		for range draws {
			_, err := g.Apply(dix.Action{Kind: dix.ActDraw})
			require.NoError(t, err)
		}
		_, err = g.Apply(dix.Action{Kind: dix.ActStop})
		require.NoError(t, err)
		return g
	}
	two := &dixTable{Lang: "en", Seats: []seat{{ID: "u1", Name: "Alice"}, {ID: "u2", Name: "Bob"}}}

	g := choose(2, "g3 $4 b1 b2 b3", 2)
	assert.Equal(t, "Take money (+4; 1 card to the market)", label(g, two, verbMoney))
	assert.Equal(t, "Take numbers (1 card; others gain 4)", label(g, two, verbNumbers))
	g.Players[0].Money = 8
	assert.Equal(t, "Take money (+2: 10 at most; 1 card to the market)", label(g, two, verbMoney))
	g.Players[0].Money = 10
	assert.Equal(t, "Take money (+0: 10 at most; 1 card to the market)", label(g, two, verbMoney))

	g = choose(2, "g3 b4 b1 b2 b3", 2)
	assert.Equal(t, "Take numbers (2 cards)", label(g, two, verbNumbers), "nobody gains anything")

	solo := &dixTable{Lang: "en", Solo: true, Diff: 7, Seats: []seat{{ID: "u1", Name: "Alice"}, {}}}
	g = choose(1, "g3 $2 b1 b2 b3 b4 b5 b6 b7 b8 b9", 2)
	assert.Equal(t, "Take numbers (1 card; ALIX gains 2)", label(g, solo, verbNumbers))
}

// A summary that holds ALIX's whole turn after the player's titles both.
func TestSoloSummaryTitlesEachTurn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1"}, quickTurnDeck, dix.Options{Players: 1, Difficulty: 4, FirstPlayer: 0})
	board := h.Board()
	for _, v := range []string{verbDraw, verbStop, verbMoney} {
		h.ClickOn("u1", board, h.MustFind(board, v))
	}
	require.Len(t, board.Embeds, 1)
	assert.Equal(t, "Turn 1: Alice · Turn 2: ALIX", board.Embeds[0].Title)
}

// /dix log pages through the whole game, a turn at a time in the order it
// was played; a long turn's summary keeps its first and last lines and says
// how many are left out.
func TestGameLog(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	startGameWith(h, nil, "u1", "u2")
	playToEnd(t, h, 5)
	r := h.Command("u1", "log")
	first := r.Response()
	require.NotZero(t, first.Data.Flags&discordgo.MessageFlagsEphemeral)
	text := first.Data.Content
	assert.True(t, strings.HasPrefix(text, "📜"), text)
	older, ok := tabletest.FindID(&tabletest.Message{Components: first.Data.Components}, bot.VerbLog)
	require.True(t, ok, "a long game has older pages")
	msg := r.Shown(nil)
	seen := map[string]bool{}
	pages := 0
	for id, ok := older, true; ok; id, ok = findIDOfLabel(msg, locales.T("en", "btn_log_older", nil)) {
		h.ClickOn("u1", msg, id)
		pages++
		require.Less(t, pages, 100)
		for _, line := range strings.Split(msg.Content, "\n")[1:] {
			seen[line] = true
		}
	}
	assert.Greater(t, pages, 3)
	assert.True(t, seen[locales.T("en", "log_started", map[string]any{"Name": "Alice"})] || seen[locales.T("en", "log_started", map[string]any{"Name": "Bob"})], "the first page holds the game's start")

	m := &dixTable{Lang: "en"}
	var long []string
	for i := range 40 {
		long = append(long, bot.Itoa(i))
	}
	m.addLog(long...)
	sum := m.turnSummary("en")
	require.Len(t, sum, maxTurnLog+1)
	assert.Equal(t, "0", sum[0])
	assert.Equal(t, locales.N("en", "log_more", 40-maxTurnLog, nil), sum[turnHead])
	assert.Equal(t, "39", sum[len(sum)-1])
}

// findIDOfLabel is the custom id of the button of msg labelled label.
func findIDOfLabel(msg *tabletest.Message, label string) (string, bool) {
	for _, row := range msg.Components {
		for _, c := range tabletest.RowComponents(row) {
			if b, ok := c.(discordgo.Button); ok && b.Label == label {
				return b.CustomID, true
			}
		}
	}
	return "", false
}

// A private prompt whose decision is over loses its buttons when clicked:
// it turns into the "outdated" answer instead of staying live beside a new
// message.
func TestStalePromptLosesItsButtons(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	board, prompt := toAuction(t, h)
	second := h.ClickOn("u2", board, h.MustFind(board, verbBid)).Shown(nil)
	require.NotNil(t, second)
	require.True(t, second.Ephemeral)
	h.ClickOn("u2", prompt, h.MustFind(prompt, verbBidAmount)) // Bob bids from the first prompt
	before := snap(h)
	r := h.ClickOn("u2", second, h.MustFind(second, verbBidAmount))
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	assert.Contains(t, second.Content, enT("err_stale", nil))
	assert.Empty(t, tabletest.FindIDs(second, verbBidAmount), "no bid button is left on it")
	unchanged(h, before)
}

// Layout: a colour wild never wraps between its colour and its #, a token
// count never breaks inside its value, the solo difficulty never stands
// alone on a line (the joins are word joiners and no-break spaces).
func TestNoBreakInsideValues(t *testing.T) {
	t.Parallel()
	for _, lang := range locales.Languages {
		wild := dixview.CardText(lang, dix.Card{Kind: dix.KindColorWild, Color: dix.Green})
		assert.True(t, strings.HasSuffix(wild, "\u2060#"), "%s: %q", lang, wild)
		for _, key := range []string{"dix_player_tokens", "dix_player_consolation"} {
			s := locales.N(lang, key, 7, nil)
			assert.Contains(t, s, "\u00a07\u00a0", "%s %s: %q", lang, key, s)
			assert.NotContains(t, s, " 7", "%s %s", lang, key)
		}
		footer := locales.T(lang, "dix_footer_solo", map[string]any{"Level": 7, "LevelName": "x"})
		assert.Contains(t, footer, "\u00a07 ", "%s: %q", lang, footer)
	}
}
