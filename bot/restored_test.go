package bot

import (
	"context"
	"fmt"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// A click on a board showing a later state of the game than the store
// has (its data restored from an older copy) says so on that board and
// takes its buttons, in the answer itself; a fresh board showing the game
// as stored follows, becomes the table's board, and the game goes on
// from it. A step's button of such a board is answered the same way.
func TestClickOnABoardAheadOfTheStore(t *testing.T) {
	t.Parallel()
	for _, button := range [][2]string{{verbMove, "draw"}, {verbStep, "hand"}} {
		h := newDixHarness(t, 3, false)
		board := h.openGame("dix", []string{"u1", "u2"}, nil)
		older, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		g, td, _, _ := h.dixNow()
		active := td.Seats[g.ToAct()].User
		board = h.ClickOn(active, board, h.dixMust(board, verbMove, "draw")).Shown(board)
		_, err = h.Db.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
			r.Data, r.Meta = older.Data, older.Meta
			return nil
		})
		require.NoError(t, err)

		res := h.ClickOn(active, board, h.dixMust(board, button[0], button[1]))
		resp := res.Response()
		require.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, res.Describe())
		assert.Equal(t, locales.T("en", "err_game_restored", nil), resp.Data.Content)
		assert.Empty(t, tabletest.ComponentIDs(h.Rec.Message(board.ID).Components), "the board's buttons are gone")

		_, td, _, _ = h.dixNow()
		require.NotEqual(t, board.ID, td.Board, "a fresh board is the table's")
		fresh := h.Rec.Message(td.Board)
		require.NotNil(t, fresh)
		assert.False(t, fresh.Ephemeral)
		draw := h.dixMust(fresh, verbMove, "draw")
		h.ClickOn(active, fresh, draw)
		after, _, _, _ := h.dixNow()
		assert.Equal(t, g.Seq+1, after.Seq, "the game goes on from the fresh board")
	}
}

// A click whose custom id names a later version of the game than the
// store's, on a board that does not carry it, is forged, not a board of a
// restored store: in every game it is refused privately, the board keeps
// its buttons, no board follows and nothing changes. On the message that
// carries it (the restored board above), the same id is answered as
// restored.
func TestForgedVersionAheadChangesNothing(t *testing.T) {
	t.Parallel()
	for _, game := range []string{"dix", "qwixx", "dixxit"} {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			h := newEveryGameHarness(t)
			board := h.openGame(game, []string{"u1", "u2", "u3"}, nil)
			ids := tabletest.ComponentIDs(board.Components)
			require.NotEmpty(t, ids)
			p, err := parseID(ids[0], gameVerbs)
			require.NoError(t, err)
			forged := present.CustomID(game, verbMove, p.n+1, "x")
			before := snapshot(h)
			for _, u := range []string{"u1", "u2", "u3"} {
				res := h.dclick(u, board, forged)
				resp := res.Response()
				require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type, res.Describe())
				assert.NotZero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral)
				assert.Equal(t, locales.T("en", "err_bad_custom_id", nil), resp.Data.Content)
				require.Len(t, res.Calls, 1, "the answer alone: %s", res.Describe())
			}
			unchanged(h, before)
			assert.Equal(t, ids, tabletest.ComponentIDs(h.Rec.Message(board.ID).Components), "the board keeps its buttons")
		})
	}
}

// A custom id clicked on a public message that does not carry it, later
// than the table's board (a ping, a notice), is forged: whatever its
// verb (the ids the lobby or the board carries, and those of the other
// messages of the table: a page of the log, a kick vote, the abandon's
// confirmation, Rematch, a prompt's step or form, the lobby's during the
// game, /forget-me's and /settings' own), in the lobby and in the
// game of every game, the answer is private, that message is never edited
// into a board, a lobby or a page of the log, and nothing is stored.
func TestIdsClickedOnAnotherMessage(t *testing.T) {
	t.Parallel()
	for _, game := range []string{"dix", "qwixx", "dixxit"} {
		for _, started := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/started=%v", game, started), func(t *testing.T) {
				t.Parallel()
				h := newEveryGameHarness(t)
				var shown *tabletest.Message
				if started {
					shown = h.openGame(game, []string{"u1", "u2", "u3"}, nil)
				} else {
					shown = h.Run(h.startIx(game, "u1", nil)).Shown(nil)
					join, ok := gameFind(game, shown, verbJoin, "")
					require.True(t, ok)
					shown = h.ClickOn("u2", shown, join).Shown(shown)
				}
				ping := &tabletest.Message{ID: "f999999", Content: "⏳ a ping"}
				before := snapshot(h)
				ids := tabletest.ComponentIDs(shown.Components)
				for _, verb := range []string{verbLog, verbKick, verbEnd, verbKeep, verbAgain, verbPrompt, verbStep, verbModal, verbJoin, verbLeave, verbGo, verbCancel, verbRmCPU, verbCPU} {
					for n := range uint64(3) {
						for _, arg := range []string{"", "0", "1"} {
							ids = append(ids, buttonID(game, verb, n, arg))
						}
					}
				}
				ids = append(ids, tableID(verbForgetYes), tableID(verbForgetNo), tableID(verbSettings, "lang"), tableID(verbSettings, "pace"))
				for _, id := range ids {
					for _, u := range []string{"u1", "u2", "u3"} {
						res := h.dclick(u, ping, id)
						resp := res.Response()
						assert.NotEqual(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "%s by %s: %s", id, u, res.Describe())
						assert.NotEqual(t, discordgo.InteractionResponseDeferredMessageUpdate, resp.Type, "%s by %s: %s", id, u, res.Describe())
					}
				}
				assert.Nil(t, h.Rec.Message(ping.ID), "the ping is never edited")
				unchanged(h, before)
			})
		}
	}
}
