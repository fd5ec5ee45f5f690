package fakediscord_test

import (
	"context"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/discordapi"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// BenchmarkClickRoundTrip measures a button click answered by a discordgo
// bot with UPDATE_MESSAGE: dispatch over the gateway, REST callback, edit.
func BenchmarkClickRoundTrip(b *testing.B) {
	srv, err := fakediscord.New(fakediscord.Options{})
	require.NoError(b, err)
	defer srv.Close()
	g := srv.AddGuild(fakediscord.GuildSpec{Name: "bench"})
	ch, err := srv.AddChannel(g.ID, "dix")
	require.NoError(b, err)
	u := srv.AddUser(fakediscord.UserSpec{Name: "alice"})
	require.NoError(b, srv.AddMember(g.ID, u.ID, 0))
	require.NoError(b, discordapi.SetBaseURL(srv.URL()))
	defer func() { _ = discordapi.SetBaseURL("") }()
	s, err := discordgo.New("Bot " + srv.Token())
	require.NoError(b, err)
	s.LogLevel = discordgo.LogError
	s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{Content: "clicked"},
		})
	})
	require.NoError(b, s.Open())
	defer s.Close()
	m, err := s.ChannelMessageSendComplex(ch.ID, &discordgo.MessageSend{
		Content: "board",
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Go", Style: discordgo.PrimaryButton, CustomID: "go"},
		}}},
	})
	require.NoError(b, err)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		ix, err := srv.Click(ctx, u.ID, m.ID, "go")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Wait(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
