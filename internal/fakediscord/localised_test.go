package fakediscord_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// A user types a command with the names of their client's language, as
// Discord offers them, and the bot receives the command's own names; the
// web view's command box suggests the names of the user's language.
func TestLocalisedCommandNames(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := w.srv
	got := make(chan *discordgo.InteractionCreate, 4)
	s, _ := connect(t, srv, func(s *discordgo.Session) {
		s.AddHandler(func(_ *discordgo.Session, i *discordgo.InteractionCreate) { got <- i })
	})
	fr := func(name string) *map[discordgo.Locale]string {
		return &map[discordgo.Locale]string{discordgo.French: name}
	}
	cmd := &discordgo.ApplicationCommand{Name: "dix", Description: "Play DIX", Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "start", NameLocalizations: *fr("lancer"), Description: "Open a lobby",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "language", NameLocalizations: *fr("langue"), Description: "Language",
					Choices: []*discordgo.ApplicationCommandOptionChoice{
						{Name: "English", NameLocalizations: *fr("Anglais"), Value: "en"},
						{Name: "French", NameLocalizations: *fr("Français"), Value: "fr"},
					}},
			}},
	}}
	_, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), w.guild.ID, []*discordgo.ApplicationCommand{cmd})
	require.NoError(t, err)
	ctx := ctxT(t)

	for _, tc := range []struct{ user, line string }{
		{w.bruno.ID, "/dix lancer langue:Anglais"}, // bruno's client is French
		{w.bruno.ID, "/dix start language:en"},     // the default names work too
		{w.alice.ID, "/dix start language:English"},
	} {
		_, err := srv.RunCommand(ctx, tc.user, w.channel.ID, tc.line)
		require.NoError(t, err, tc.line)
		i := <-got
		d := i.ApplicationCommandData()
		assert.Equal(t, "dix", d.Name, tc.line)
		require.Len(t, d.Options, 1, tc.line)
		assert.Equal(t, "start", d.Options[0].Name, tc.line)
		require.Len(t, d.Options[0].Options, 1, tc.line)
		assert.Equal(t, "language", d.Options[0].Options[0].Name, tc.line)
		assert.Equal(t, "en", d.Options[0].Options[0].StringValue(), tc.line)
		require.NoError(t, s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "ok"}}))
	}
	_, err = srv.RunCommand(ctx, w.bruno.ID, w.channel.ID, "/dix lancer langue:Anglais language:en")
	assert.ErrorIs(t, err, fakediscord.ErrBadCommand, "one option given twice under two names")

	// The command box of the web view speaks the viewer's language.
	type state struct {
		Commands []string `json:"commands"`
		Messages []struct {
			UsedBy string `json:"used_by"`
		} `json:"messages"`
	}
	view := func(user string) state {
		q := url.Values{"channel": {w.channel.ID}, "user": {user}}
		resp, err := http.Get(srv.URL() + "/ui/state?" + q.Encode())
		require.NoError(t, err)
		defer resp.Body.Close()
		var st state
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
		return st
	}
	fv := view(w.bruno.ID)
	assert.Equal(t, []string{"/dix lancer [langue:en|fr]"}, fv.Commands)
	assert.Equal(t, []string{"/dix start [language:en|fr]"}, view(w.alice.ID).Commands)
	require.NotEmpty(t, fv.Messages)
	assert.Equal(t, "bruno used /dix start", fv.Messages[0].UsedBy, "the message names the command by its own names")
}
