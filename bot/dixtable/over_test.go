package dixtable

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// scoreboardID is the id of the final scoreboard the harness's bot posted.
func scoreboardID(h *harness) string {
	h.T.Helper()
	h.Rec.Mu.Lock()
	defer h.Rec.Mu.Unlock()
	for id, msg := range h.Rec.Msgs {
		if !msg.Ephemeral && len(msg.Embeds) > 0 && msg.Embeds[0].Title == locales.T("en", "dix_score_title", nil) {
			return id
		}
	}
	h.T.Fatal("no scoreboard posted")
	return ""
}

func TestPromptAfterTheGameSaysItIsOverAndWhereItsScoreboardIs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	startGame(h, "u1", "u2")
	h.Command("u2", "leave") // Alice plays on against the computer
	// Alice opens the market prompt once she can buy, and keeps it.
	var prompt, board *tabletest.Message
	var buy string
	for range 2000 {
		rec, err := h.St.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		if rec.Finished {
			break
		}
		if prompt == nil && dix.GameOf(rec.State).ToAct() == 0 {
			if _, ok := tabletest.FindID(h.Board(), verbBuy); ok {
				board = h.Board()
				buy = h.MustFind(board, verbBuy)
				prompt = h.ClickOn("u1", board, buy).Shown(board)
			}
		}
		require.True(t, stepAs(h, "u1"))
	}
	require.NotNil(t, prompt, "no purchase was ever offered")
	rec, err := h.St.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.True(t, rec.Finished)
	url := bot.MessageURL(h.Guild, h.Channel, scoreboardID(h))

	sel := tabletest.FindIDs(prompt, verbBuySelect)[0]
	r := h.ClickOn("u1", prompt, sel, tabletest.SelectOptions(prompt, sel)[0])
	resp := r.Response()
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "the prompt itself says it")
	assert.Equal(t, locales.T("en", "err_over_scores", map[string]any{"URL": url}), resp.Data.Content)
	assert.Empty(t, resp.Data.Components, "no button left on a prompt of a finished game")
	assert.NotContains(t, resp.Data.Content, locales.T("en", "err_no_game", nil))

	// A button of an old board, in French for a French user.
	h.Locale = discordgo.French
	r = h.ClickOn("u1", board, buy)
	assert.Equal(t, locales.T("fr", "err_over_scores", map[string]any{"URL": url}), r.EphemeralText())
}

func TestPromptAfterAnAbandonSaysSo(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	prompt := h.Command("u1", "abandon").Shown(nil)
	h.ClickOn("u1", prompt, h.MustFind(prompt, verbAbandonYes))
	r := h.ClickOn("u1", board, bot.CustomID(verbDraw, 0))
	text := r.EphemeralText()
	assert.Equal(t, locales.T("en", "err_over_abandoned", map[string]any{"URL": bot.MessageURL(h.Guild, h.Channel, board.ID)}), text)
	assert.False(t, strings.Contains(text, locales.T("en", "err_no_game", nil)))

	// A command still finds no game: the channel is free.
	assert.Equal(t, locales.T("en", "err_no_game", nil), h.Command("u1", "hand").EphemeralText())
}
