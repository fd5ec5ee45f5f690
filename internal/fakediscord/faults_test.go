package fakediscord_test

import (
	"context"
	"errors"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

func TestRedeliverSendsTheSameInteractionAgain(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := w.srv
	got := make(chan *discordgo.InteractionCreate, 4)
	s, _ := connect(t, srv, func(s *discordgo.Session) {
		s.AddHandler(func(_ *discordgo.Session, i *discordgo.InteractionCreate) { got <- i })
	})
	ctx := ctxT(t)
	_, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), w.guild.ID, []*discordgo.ApplicationCommand{dixCommand})
	require.NoError(t, err)
	respond := func(i *discordgo.InteractionCreate) error {
		return s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "ok"},
		})
	}

	ix, err := srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix start")
	require.NoError(t, err)
	first := <-got
	require.NoError(t, respond(first))
	assert.Equal(t, 1, ix.Deliveries())

	require.NoError(t, ix.Redeliver(ctx))
	second := <-got
	assert.Equal(t, 2, ix.Deliveries())
	assert.Equal(t, first.ID, second.ID, "same interaction id")
	assert.Equal(t, first.Token, second.Token, "same token")
	assert.Equal(t, first.ApplicationCommandData().Name, second.ApplicationCommandData().Name)
	assert.Empty(t, srv.Violations(), "a redelivery alone breaks no rule")

	// Answering it again is what Discord refuses.
	var re *discordgo.RESTError
	require.ErrorAs(t, respond(second), &re)
	assert.Equal(t, discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged, re.Message.Code)
	require.Len(t, srv.Violations(), 1)
	var v *fakediscord.Violation
	require.ErrorAs(t, srv.Violations()[0], &v)
	assert.Equal(t, 40060, v.Code)
	assert.Equal(t, ix.ID, v.InteractionID)

	// Unknown interactions cannot be redelivered.
	bogus := *ix
	bogus.ID = "1"
	assert.ErrorIs(t, bogus.Redeliver(ctx), fakediscord.ErrUnknownInteraction)
}

func TestHoldCallbacksKeepsTheAnswerInFlight(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := w.srv
	answered := make(chan error, 4)
	s, _ := connect(t, srv, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			answered <- s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "ok"},
			})
		})
	})
	ctx := ctxT(t)
	_, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), w.guild.ID, []*discordgo.ApplicationCommand{dixCommand})
	require.NoError(t, err)

	hold := srv.HoldCallbacks(w.alice.ID)
	defer hold.Release()
	held, err := srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix start")
	require.NoError(t, err)
	select {
	case <-hold.Arrived():
	case <-ctx.Done():
		t.Fatal("the held answer never arrived")
	}
	_, ok := held.Response()
	assert.False(t, ok, "a held answer is not seen yet")

	// Other users are not held.
	free, err := srv.RunCommand(ctx, w.bruno.ID, w.channel.ID, "/dix start")
	require.NoError(t, err)
	_, err = free.Wait(ctx)
	require.NoError(t, err)
	require.NoError(t, <-answered)

	hold.Release()
	r, err := held.Wait(ctx)
	require.NoError(t, err)
	assert.Equal(t, fakediscord.CallbackChannelMessage, r.Type)
	require.NoError(t, <-answered)
	hold.Release() // twice is harmless
	assert.Empty(t, srv.Violations())
}

func TestRedeliverWithoutBot(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := w.srv
	s, _ := connect(t, srv, nil)
	_, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), w.guild.ID, []*discordgo.ApplicationCommand{dixCommand})
	require.NoError(t, err)
	ctx := ctxT(t)
	ix, err := srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix start")
	require.NoError(t, err)
	require.NoError(t, srv.Close())
	err = ix.Redeliver(ctx)
	assert.True(t, errors.Is(err, fakediscord.ErrClosed), "got %v", err)
}

func TestHoldDropsTheAnswerOfAGoneSender(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := w.srv
	sent, cancel := context.WithCancel(context.Background())
	answered := make(chan error, 1)
	s, _ := connect(t, srv, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			answered <- s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "ok"},
			}, discordgo.WithContext(sent))
		})
	})
	ctx := ctxT(t)
	_, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), w.guild.ID, []*discordgo.ApplicationCommand{dixCommand})
	require.NoError(t, err)

	hold := srv.HoldCallbacks(w.alice.ID)
	defer hold.Release()
	held, err := srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix start")
	require.NoError(t, err)
	select {
	case <-hold.Arrived():
	case <-ctx.Done():
		t.Fatal("the held answer never arrived")
	}
	cancel() // the sender goes away (its process killed)
	require.Error(t, <-answered)
	// Held on: the request is dropped once the stand-in sees its sender
	// gone, not applied.
	_, err = held.Wait(ctx)
	assert.ErrorIs(t, err, fakediscord.ErrNoResponse, "the answer never reached Discord")
	assert.Empty(t, srv.Transcript(w.channel.ID), "nothing posted")
}
