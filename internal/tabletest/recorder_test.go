package tabletest

import (
	"context"
	"errors"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"
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
