package tabletest

import (
	"context"
	"errors"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
)

// An interaction takes one callback: a second is refused with 40060, as
// Discord refuses it; a callback refused first leaves the interaction
// unanswered.
func TestRecorderTakesOneCallback(t *testing.T) {
	t.Parallel()
	r := NewRecorder()
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "hi"}}
	refuseOnce := errors.New("refused")
	refused := false
	r.Refuse = func(c Call) error {
		if c.Interaction == "i2" && !refused {
			refused = true
			return refuseOnce
		}
		return nil
	}

	i1 := &discordgo.Interaction{ID: "i1", ChannelID: "c", Token: "t1"}
	require.NoError(t, r.Respond(context.Background(), i1, resp))
	err := r.Respond(context.Background(), i1, resp)
	var rest *discordgo.RESTError
	require.ErrorAs(t, err, &rest)
	require.Equal(t, 40060, rest.Message.Code)

	i2 := &discordgo.Interaction{ID: "i2", ChannelID: "c", Token: "t2"}
	require.ErrorIs(t, r.Respond(context.Background(), i2, resp), refuseOnce)
	require.NoError(t, r.Respond(context.Background(), i2, resp), "a refused callback does not answer the interaction")
}

// A recorder and a store copied go on apart: an edit, an answer or a
// write made in the copy leaves the original as it was, the callback the
// original took stays taken in the copy, and the copy keeps its own hooks.
func TestCopiesGoOnApart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := NewRecorder()
	i1 := &discordgo.Interaction{ID: "i1", ChannelID: "c", Token: "t1"}
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "board"}}
	require.NoError(t, r.Respond(ctx, i1, resp))
	board := r.Origs["t1"]
	require.NotEmpty(t, board)

	c := NewRecorder()
	refused := errors.New("refused")
	c.Refuse = func(Call) error { return nil }
	c.CopyFrom(r)
	require.NotNil(t, c.Refuse, "the copy keeps its hooks")
	require.Empty(t, c.Calls, "the copy starts with no calls")
	var rest *discordgo.RESTError
	require.ErrorAs(t, c.Respond(ctx, i1, resp), &rest, "the callback the original took is taken in the copy")
	require.Equal(t, 40060, rest.Message.Code)
	text := "edited"
	require.NoError(t, c.FollowupEdit(ctx, i1, "@original", &discordgo.WebhookEdit{Content: &text}))
	require.Equal(t, "edited", c.Message(board).Content)
	require.Equal(t, "board", r.Message(board).Content, "the original's message is as it was")
	c.Refuse = func(Call) error { return refused }
	i2 := &discordgo.Interaction{ID: "i2", ChannelID: "c", Token: "t2"}
	require.ErrorIs(t, c.Respond(ctx, i2, resp), refused)
	require.NoError(t, r.Respond(ctx, i2, resp), "the original answers with its own hooks")

	s := NewMemStore()
	require.NoError(t, s.Create(ctx, &dixbot.Record{Channel: "c", Data: []byte{1}}))
	cs := NewMemStore()
	cs.CopyFrom(s)
	_, err := cs.Update(ctx, "c", "i9", func(rec *dixbot.Record) error {
		rec.Data[0] = 2
		return nil
	})
	require.NoError(t, err)
	got, err := s.Get(ctx, "c")
	require.NoError(t, err)
	require.Equal(t, []byte{1}, got.Data, "the original's record is as it was")
	require.False(t, s.Seen["c/i9"], "the copy's interactions are its own")
	got, err = cs.Get(ctx, "c")
	require.NoError(t, err)
	require.Equal(t, []byte{2}, got.Data)
}
