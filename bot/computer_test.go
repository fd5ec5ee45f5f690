package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/computer"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// One person and two computer players: the creator seats them from the
// lobby, their moves are made at once and told on the board, nobody pings
// them, and the game reaches the scoreboard, which names them.
func TestGameWithComputerPlayers(t *testing.T) {
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			lobby := h.command("u1", "start", optLanguage, lang).shown(nil)
			add := h.mustFind(lobby, verbAddCPU)
			// Only the creator seats computers.
			assert.Contains(t, h.clickOn("u2", lobby, add, "strong").ephemeralText(), locales.T("en", "err_not_creator", nil))
			h.clickOn("u1", lobby, add, "strong")
			h.clickOn("u1", lobby, h.mustFind(lobby, verbAddCPU), "easy")
			h.clickOn("u1", lobby, h.mustFind(lobby, verbAddCPU), "normal")
			h.clickOn("u1", lobby, h.mustFind(lobby, verbRemoveCPU)) // the normal one goes
			_, m := h.record()
			require.Len(t, m.Seats, 3)
			assert.Equal(t, []string{"", "strong", "easy"}, []string{m.Seats[0].CPU, m.Seats[1].CPU, m.Seats[2].CPU})
			assert.Contains(t, lobby.embeds[0].Fields[0].Value, "🤖")
			assert.Contains(t, h.clickOn("u1", lobby, h.mustFind(lobby, verbAddCPU), "grandmaster").ephemeralText(), "Nothing changed", "an unknown level is refused")
			h.clickOn("u1", lobby, h.mustFind(lobby, verbGo))

			steps := playToEnd(t, h, 7)
			assert.Greater(t, steps, 5)
			rec, err := h.st.Get(context.Background(), h.channel)
			require.NoError(t, err)
			require.True(t, rec.Finished)
			require.Equal(t, engine.PhaseOver, rec.State.Phase)
			// The computers played: they hold cards.
			assert.NotEmpty(t, rec.State.Players[1].Collection)
			// Only the person was ever mentioned.
			for _, c := range h.rec.calls {
				if c.send != nil {
					assert.NotContains(t, strings.ReplaceAll(c.send.Content, "<@u1>", ""), "<@", "only the person is pinged")
				}
			}
			checkAllCalls(t, h.rec.calls)
		})
	}
}

// /dix hint: the exact odds of the next draw, the worth of one more draw
// and the strong player's advice, privately, to the player who must decide;
// anyone else is told whose decision it is.
func TestHint(t *testing.T) {
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			h.seedGame([]string{"u1", "u2"}, quickTurnDeck, engine.Options{Players: 2, FirstPlayer: 0})
			if lang == "fr" {
				h.locale = discordgo.French
			}
			board := h.board()
			h.clickOn("u1", board, h.mustFind(board, verbDraw)) // g3: total 3
			rec, _ := h.record()
			o := computer.DrawOdds(rec.State)

			r := h.command("u1", "hint")
			resp := r.response()
			require.NotZero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "only the player sees it")
			require.Len(t, resp.Data.Embeds, 1)
			text := resp.Data.Embeds[0].Description
			assert.Contains(t, text, locales.T(lang, "hint_odds", map[string]any{"Bust": pct(o.Bust()), "Left": o.Left, "Wild": pct(o.Wild)}))
			assert.Contains(t, text, locales.T(lang, "hint_bust_total", map[string]any{"Number": 8, "Chance": pct(o.BustTotal)}), "a number of 8 or more busts a total of 3")
			assert.Contains(t, text, locales.T(lang, "hint_gain", map[string]any{"Points": points(o.Gain)}))
			adv := computer.Advise(rec.State, 0, nil)
			assert.Contains(t, text, locales.T(lang, "hint_do_"+actionKey(adv.Action.Kind), nil))

			assert.Equal(t, locales.T(lang, "err_not_your_turn", map[string]any{"Name": "Alice"}), h.command("u2", "hint").ephemeralText())
			assert.Equal(t, locales.T(lang, "err_not_in_game", nil), h.command("u9", "hint").ephemeralText())
			checkAllCalls(t, h.rec.calls)
		})
	}
}

// /dix board after the game is over shows the archived game's final
// scores to the channel, in the answer itself.
func TestBoardAfterTheEnd(t *testing.T) {
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			h.startGameWith([]any{optLanguage, lang}, "u1", "u2")
			playToEnd(t, h, 3)
			rec, err := h.st.Get(context.Background(), h.channel)
			require.NoError(t, err)
			require.True(t, rec.Finished)
			r := h.command("u2", "board")
			resp := r.response()
			require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type)
			assert.Zero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "for the whole channel")
			assert.Equal(t, locales.T(lang, "board_archived", nil), resp.Data.Content)
			require.Len(t, resp.Data.Embeds, 1)
			assert.Equal(t, locales.T(lang, "score_title", nil), resp.Data.Embeds[0].Title)
			assert.Empty(t, r.sends(), "nothing sent with the bot's token")
			checkAllCalls(t, h.rec.calls)
		})
	}
}
