package fakediscord_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/browsertest"
)

// responderBot is a minimal bot built with discordgo: /dix start answers
// with a message carrying a Join button; clicking it updates the message.
func responderBot(s *discordgo.Session, i *discordgo.InteractionCreate) {
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		if d := i.ApplicationCommandData(); d.Name != "dix" || len(d.Options) == 0 || d.Options[0].Name != "start" {
			return
		}
		_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{
				Content:         "<@" + i.Member.User.ID + "> opened a **DIX** lobby.",
				AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{i.Member.User.ID}},
				Embeds: []*discordgo.MessageEmbed{{
					Title:       `**Lobby** of \*x\*`,
					Description: "Waiting for players (2–5).",
					Color:       0x5865f2,
					Fields: []*discordgo.MessageEmbedField{
						{Name: `Players \|\|`, Value: i.Member.User.Username, Inline: true},
						{Name: "Language", Value: "English", Inline: true},
					},
					Footer: &discordgo.MessageEmbedFooter{Text: "dix:lobby:1"},
				}},
				Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: "Join", Style: discordgo.SuccessButton, CustomID: "join"},
					discordgo.Button{Label: "Leave", Style: discordgo.SecondaryButton, CustomID: "leave"},
					discordgo.Button{Label: "Cancel", Style: discordgo.DangerButton, CustomID: "cancel"},
				}}},
			},
		})
	case discordgo.InteractionModalSubmit:
		v := i.ModalSubmitData().Components[0].(*discordgo.ActionsRow).Components[0].(*discordgo.TextInput).Value
		_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "Your bid: **" + v + "**", Flags: discordgo.MessageFlagsEphemeral},
		})
	case discordgo.InteractionMessageComponent:
		switch i.MessageComponentData().CustomID {
		case "bid":
			_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseModal,
				Data: &discordgo.InteractionResponseData{CustomID: "bidmodal", Title: "Custom amount", Components: []discordgo.MessageComponent{
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.TextInput{
						CustomID: "amount", Label: "Amount", Style: discordgo.TextInputShort, Placeholder: "4 to 30", Required: true, MaxLength: 2,
					}}},
				}},
			})
			return
		case "join":
		default:
			return
		}
		_ = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{
				Content: i.Member.User.Username + " joined the lobby.",
				Embeds: []*discordgo.MessageEmbed{{
					Title: "Lobby", Color: 0x248046,
					Fields: []*discordgo.MessageEmbedField{{Name: "Players", Value: i.Member.User.Username + " ✓", Inline: true}},
				}},
				Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: "Start", Style: discordgo.PrimaryButton, CustomID: "start"},
					discordgo.Button{Label: "Bid", Style: discordgo.SecondaryButton, CustomID: "bid"},
				}}},
			},
		})
	}
}

func TestBrowserWebView(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := w.srv
	s, _ := connect(t, srv, func(s *discordgo.Session) { s.AddHandler(responderBot) })
	_, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), w.guild.ID, []*discordgo.ApplicationCommand{{
		Name: "dix", Description: "Play DIX",
		Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "start", Description: "Open a lobby"}},
	}})
	require.NoError(t, err)

	ctx := browsertest.Start(t, 1280, 800, 60*time.Second)

	page := srv.URL() + "?channel=" + w.channel.ID + "&user=" + w.alice.ID
	joined := `//div[contains(@class,"content")][contains(., "alice joined the lobby.")]`
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(page),
		chromedp.WaitVisible(chromedp.CSS(`#status.ok`)),
		chromedp.WaitVisible(chromedp.CSS(`.user.active[data-name="alice"]`)),
		chromedp.SendKeys(chromedp.CSS(`#box`), "/dix start"),
		chromedp.WaitVisible(chromedp.CSS(`.suggestion`)), // the command box knows /dix start
		chromedp.SendKeys(chromedp.CSS(`#box`), kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`button[data-custom-id="join"]`)),
		// Markdown in an embed's title and field names, and a backslash
		// showing a mark itself.
		chromedp.WaitVisible(`//div[contains(@class,"embed-title")]/b[text()="Lobby"]`),
		chromedp.WaitVisible(`//div[contains(@class,"embed-field-name")][text()="Players ||"]`),
		chromedp.Click(chromedp.CSS(`button[data-custom-id="join"]`)),
		chromedp.WaitVisible(joined), // a plain string is an XPath/text search
		chromedp.WaitVisible(chromedp.CSS(`button[data-custom-id="start"]`)),
		// A modal: open it, type, submit; the answer is ephemeral.
		chromedp.Click(chromedp.CSS(`button[data-custom-id="bid"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#modal input[name="amount"]`)),
		chromedp.SendKeys(chromedp.CSS(`#modal input[name="amount"]`), "12"),
		chromedp.Click(chromedp.CSS(`#modal-submit`)),
		chromedp.WaitNotVisible(chromedp.CSS(`#modal-backdrop`)),
		chromedp.WaitVisible(`//div[contains(@class,"ephemeral-msg")]//b[text()="12"]`),
		// bruno does not see alice's ephemeral message.
		chromedp.Click(chromedp.CSS(`.user[data-name="bruno"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.user.active[data-name="bruno"]`)),
		chromedp.WaitVisible(joined),
	))
	var ephemeralForBruno int
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".ephemeral-msg").length`))
	require.NoError(t, err)
	ephemeralForBruno = n
	assert.Zero(t, ephemeralForBruno, "bruno sees no ephemeral message")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`.user[data-name="alice"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.user.active[data-name="alice"] `)),
		chromedp.WaitVisible(chromedp.CSS(`.ephemeral-msg`)),
	))
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)

	shot := filepath.Join(t.TempDir(), "fakediscord.png")
	require.NoError(t, os.WriteFile(shot, png, 0o644))
	if p := os.Getenv("FAKEDISCORD_SCREENSHOT"); p != "" {
		require.NoError(t, os.WriteFile(p, png, 0o644))
	}
	t.Logf("screenshot: %s (%d bytes)", shot, len(png))

	board, ok := srv.LatestPublic(w.channel.ID)
	require.True(t, ok)
	assert.Equal(t, "alice joined the lobby.", board.Content)
	assert.Len(t, board.History, 1)
	eph := srv.Ephemerals(w.channel.ID, w.alice.ID)
	require.Len(t, eph, 1)
	assert.Equal(t, "Your bid: **12**", eph[0].Content)
	assert.Empty(t, srv.Violations())
}

// A timestamp is written in the reader's language, and a relative one is
// rounded to the nearest unit: 2 h 59 from now reads "in 3 hours" for alice
// (en-US) and "dans 3 heures" for bruno (fr).
func TestBrowserTimestampsInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := w.srv
	at := time.Now().Add(2*time.Hour + 59*time.Minute).Unix()
	_, err := srv.Post(w.carol.ID, w.channel.ID, fmt.Sprintf("deadline <t:%d:R>", at))
	require.NoError(t, err)

	ctx := browsertest.Start(t, 1280, 800, 60*time.Second)
	for _, tc := range []struct{ user, want string }{
		{w.alice.ID, "in 3 hours"},
		{w.bruno.ID, "dans 3 heures"},
	} {
		require.NoError(t, chromedp.Do(ctx,
			chromedp.Navigate(srv.URL()+"?channel="+w.channel.ID+"&user="+tc.user),
			chromedp.WaitVisible(chromedp.CSS(`.timestamp`)),
		))
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(".timestamp").textContent`))
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
	}
}
