package dixtable

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
	"github.com/dixgame/dixbot/picture"
	dixpicture "github.com/dixgame/dixbot/picture/dix"
)

// maxUpload is Discord's default limit on one uploaded file (10 MiB,
// https://discord.com/developers/docs/reference#uploading-files).
const maxUpload = 10 << 20

func TestPicturesOption(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in      string
		off     bool
		wantErr bool
	}{
		{"", false, false},
		{bot.PicsOn, false, false},
		{bot.PicsOff, true, false},
		{"OFF", false, true},
		{"maybe", false, true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			off, err := bot.PicturesOff(tc.in)
			if tc.wantErr {
				assert.ErrorIs(t, err, bot.ErrBadInput)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.off, off)
		})
	}

	// /dix start and /dix solo offer it, localised.
	h := newHarness(t)
	found := 0
	for _, sub := range h.b.Commands()[0].Options {
		for _, o := range sub.Options {
			if o.Name == bot.En("opt_pictures_name") {
				found++
				assert.Equal(t, locales.T("fr", "opt_pictures_name", nil), o.NameLocalizations[discordgo.French])
				require.Len(t, o.Choices, 2)
				assert.Equal(t, bot.PicsOff, o.Choices[1].Value)
				assert.Equal(t, locales.T("fr", "pictures_off", nil), o.Choices[1].NameLocalizations[discordgo.French])
			}
		}
	}
	assert.Equal(t, 2, found, "start and solo")
}

// TestBoardPictureShowsNoHiddenInformation: the board picture is drawn
// from the public view: the same game with its deck in another order
// gives the very same picture.
func TestBoardPictureShowsNoHiddenInformation(t *testing.T) {
	t.Parallel()
	g, err := dix.New(dix.Options{Players: 3, Seed: 5, FirstPlayer: 0})
	require.NoError(t, err)
	for range 6 { // a few draws, so the tableau is not empty
		if g.Phase != dix.PhaseDraw || !slices.Contains(g.Choices(g.ToAct()).Actions, dix.ActDraw) {
			break
		}
		_, err := g.Apply(dix.Action{Kind: dix.ActDraw, Player: g.ToAct()})
		require.NoError(t, err)
	}
	assert.Nil(t, publicView(g).Deck)
	assert.Equal(t, len(g.Deck), publicView(g).DeckCount)
	b, err := bot.New(bot.Options{Store: tabletest.NewMemStore()})
	require.NoError(t, err)
	m := &dixTable{Lang: "en", Seats: []seat{{ID: "u1", Name: "Alice"}, {ID: "u2", Name: "Bob"}, {ID: "u3", Name: "Chloé"}}}
	_, files := boardMessage(b, "en", m, g, true)
	require.Len(t, files, 1)
	before := readFile(t, files[0])
	slices.Reverse(g.Deck)
	_, files = boardMessage(b, "en", m, g, true)
	require.Len(t, files, 1)
	assert.True(t, bytes.Equal(before, readFile(t, files[0])), "the deck's order changes the picture")
}

func TestAttachmentsFor(t *testing.T) {
	t.Parallel()
	raw, err := json.Marshal(discordgo.MessageEdit{Attachments: bot.AttachmentsFor(nil)})
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"attachments":[]`, "no files: every old attachment goes")

	files := []*discordgo.File{bot.PngFile(bot.BoardFile, []byte("x")), bot.PngFile(bot.HandFile, []byte("y"))}
	atts := *bot.AttachmentsFor(files)
	require.Len(t, atts, 2)
	assert.Equal(t, "0", atts[0].ID, "the placeholder id is the files[n] index")
	assert.Equal(t, bot.BoardFile, atts[0].Filename)
	assert.Equal(t, "1", atts[1].ID)
	assert.Equal(t, bot.HandFile, atts[1].Filename)
}

func TestOrphanedPictures(t *testing.T) {
	t.Parallel()
	withPic := &discordgo.Message{Attachments: []*discordgo.MessageAttachment{{ID: "9", Filename: bot.HandFile}}}
	image := &discordgo.MessageEmbed{Image: &discordgo.MessageEmbedImage{URL: "https://cdn/hand.png"}}
	plain := &discordgo.MessageEmbed{Title: "x"}
	for _, tc := range []struct {
		name   string
		msg    *discordgo.Message
		embeds []*discordgo.MessageEmbed
		drop   bool
	}{
		{"no message", nil, nil, false},
		{"no attachment", &discordgo.Message{}, nil, false},
		{"picture, then text only", withPic, nil, true},
		{"picture, then an embed without image", withPic, []*discordgo.MessageEmbed{plain}, true},
		{"picture kept by its embed", withPic, []*discordgo.MessageEmbed{plain, image}, false},
		{"nil embed", withPic, []*discordgo.MessageEmbed{nil}, true},
		// As Discord returns a message whose embed shows its picture: no
		// attachment listed, the embed holding the file's URL.
		{"picture in the embed, then text only", &discordgo.Message{Embeds: []*discordgo.MessageEmbed{image}}, nil, true},
		{"picture in the embed, kept by the new one", &discordgo.Message{Embeds: []*discordgo.MessageEmbed{image}}, []*discordgo.MessageEmbed{image}, false},
		{"no picture at all", &discordgo.Message{Embeds: []*discordgo.MessageEmbed{plain}}, []*discordgo.MessageEmbed{plain}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := bot.OrphanedPictures(tc.msg, tc.embeds)
			if !tc.drop {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Empty(t, *got)
		})
	}
}

// TestPictureFallsBackToText: a game the picture cannot draw (a broken
// acting seat cannot happen, so an unreadable card in a collection) is
// shown as text, whole, and nothing panics.
func TestPictureFallsBackToText(t *testing.T) {
	t.Parallel()
	g, err := dix.New(dix.Options{Players: 2, Seed: 1, FirstPlayer: 0})
	require.NoError(t, err)
	g.Players[0].Collection = []dix.Card{{Kind: dix.KindNumber, Color: dix.Blue, Value: 42}}
	b, err := bot.New(bot.Options{Store: tabletest.NewMemStore()})
	require.NoError(t, err)
	m := &dixTable{Lang: "en", Seats: []seat{{ID: "u1", Name: "Alice"}, {ID: "u2", Name: "Bob"}}}
	e, files := boardMessage(b, "en", m, g, true)
	assert.Nil(t, files)
	assert.Nil(t, e.Image)
	assert.Equal(t, dixview.BoardEmbed(m.view("en"), g), e)
	e, files = handMessage(b, "en", m, g, 0, true)
	assert.Nil(t, files)
	assert.Nil(t, e.Image)
}

// TestPicturesInGamesByClicks plays whole games through the recorder with
// pictures on, off for the game (pictures:off) and off for the bot
// (DIX_PICTURES=off). With pictures, every board (the answer that updates
// it, a fresh board, an edit) carries exactly one PNG within Discord's
// limits, which its embed shows and which replaces the old one; so do
// /dix hand, the buy prompt's payment step and the final scoreboard.
// Without, nothing is attached.
func TestPicturesInGamesByClicks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		opts     []any
		botOff   bool
		pictures bool
	}{
		{"pictures", nil, false, true},
		{"pictures in French", []any{bot.OptLanguage, "fr"}, false, true},
		{"game off", []any{bot.OptPictures, bot.PicsOff}, false, false},
		{"bot off", nil, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.b.NoPictures = tc.botOff
			startGameWith(h, tc.opts, "u1", "u2", "u3")
			_, m := h.Record()
			assert.Equal(t, tc.pictures, pictured(h.b, m))

			rng := rand.New(rand.NewPCG(9, 9))
			steps := 0
			hands := 0
			for step(h, rng) {
				if steps%7 == 0 {
					rec, m := h.Record()
					if !rec.Finished && dix.GameOf(rec.State) != nil && dix.GameOf(rec.State).Phase != dix.PhaseOver {
						h.Command(m.Seats[dix.GameOf(rec.State).ToAct()].ID, "hand")
						hands++
					}
				}
				steps++
				require.Less(t, steps, 5000)
			}
			require.Positive(t, hands)
			tabletest.CheckAllCalls(t, h.Rec.Calls)

			counts := map[string]int{}
			largest := 0
			for k, c := range h.Rec.Calls {
				files, atts := filesOf(c)
				embeds := embedsOf(c)
				if !tc.pictures {
					assert.Empty(t, files, "call %d (%s) attaches a file", k, c.Op)
					for _, e := range embeds {
						assert.Nil(t, e.Image, "call %d (%s)", k, c.Op)
					}
					continue
				}
				var images []string
				for _, e := range embeds {
					if e.Image != nil {
						images = append(images, e.Image.URL)
					}
				}
				if len(files) == 0 {
					assert.Empty(t, images, "call %d (%s) shows a picture it does not attach", k, c.Op)
					continue
				}
				require.Len(t, files, 1, "call %d (%s): one picture", k, c.Op)
				assert.Equal(t, []string{"attachment://" + files[0].Name}, images, "call %d (%s): the embed shows it", k, c.Op)
				data := readFile(t, files[0])
				largest = max(largest, len(data))
				assert.LessOrEqual(t, len(data), maxUpload)
				_, err := png.DecodeConfig(bytes.NewReader(data))
				assert.NoError(t, err, "call %d (%s): a PNG", k, c.Op)
				assert.Equal(t, "image/png", files[0].ContentType)
				if !c.Posted() && !isEphemeralAnswer(c) {
					// An update: the new picture replaces the old one.
					require.NotNil(t, atts, "call %d (%s): the attachments to keep", k, c.Op)
					require.Len(t, *atts, 1)
					assert.Equal(t, files[0].Name, (*atts)[0].Filename)
				}
				op := c.Op
				if c.Posted() {
					op = "send" // with the bot token or as a follow-up
				}
				counts[op+"/"+files[0].Name]++
			}
			if !tc.pictures {
				return
			}
			t.Logf("pictures: %v, largest %d bytes", counts, largest)
			assert.Positive(t, counts["respond/"+bot.BoardFile], "boards updated in place")
			assert.Positive(t, counts["send/"+bot.BoardFile], "fresh boards")
			assert.Equal(t, 1, counts["send/"+bot.ScoresFile], "one final scoreboard")
			assert.Positive(t, counts["respond/"+bot.HandFile], "/dix hand and the buy step")
		})
	}
}

func filesOf(c tabletest.Call) ([]*discordgo.File, *[]*discordgo.MessageAttachment) {
	switch {
	case c.Resp != nil && c.Resp.Data != nil:
		return c.Resp.Data.Files, c.Resp.Data.Attachments
	case c.Send != nil:
		return c.Send.Files, nil
	case c.Edit != nil:
		return c.Edit.Files, c.Edit.Attachments
	case c.Params != nil:
		return c.Params.Files, nil
	}
	return nil, nil
}

func isEphemeralAnswer(c tabletest.Call) bool {
	return c.Resp != nil && c.Resp.Type == discordgo.InteractionResponseChannelMessageWithSource
}

// readFile reads an upload's bytes (once: the reader is consumed).
func readFile(t *testing.T, f *discordgo.File) []byte {
	t.Helper()
	b, err := io.ReadAll(f.Reader)
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(f.Name, ".png"))
	return b
}

// noAttach is Discord in a channel where the bot lacks ATTACH_FILES: a
// message with files is refused (403 50013), as create-message's
// "Limitations" say.
type noAttach struct{ *tabletest.Recorder }

func missingPermissions() error {
	return &discordgo.RESTError{
		Response: &http.Response{StatusCode: http.StatusForbidden},
		Message:  &discordgo.APIErrorMessage{Code: discordgo.ErrCodeMissingPermissions, Message: "Missing Permissions"},
	}
}

func (n noAttach) Send(ctx context.Context, channel string, m *discordgo.MessageSend, nonce string) (*discordgo.Message, error) {
	if len(m.Files) > 0 {
		n.Add(tabletest.Call{Op: "refused", Channel: channel, Send: m})
		return nil, missingPermissions()
	}
	return n.Recorder.Send(ctx, channel, m, nonce)
}

func (n noAttach) Edit(ctx context.Context, e *discordgo.MessageEdit) error {
	if len(e.Files) > 0 {
		n.Add(tabletest.Call{Op: "refused", Channel: e.Channel, Edit: e})
		return missingPermissions()
	}
	return n.Recorder.Edit(ctx, e)
}

// TestNoAttachFilesPermission: where the bot may not attach files, the
// board is posted as text rather than lost, and the answers to clicks
// (whose app_permissions say so) carry no file.
func TestNoAttachFilesPermission(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.AppPerm = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionEmbedLinks
	seedGame(h, []string{"u1", "u2"}, "b1 g2 o3 p4 b5 g6", dix.Options{Players: 2, FirstPlayer: 0})
	var m *dixTable
	rec, err := h.St.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
		m = mustDixTable(r.Meta)
		m.owe(r, bot.Effect{Kind: bot.EffBoard})
		r.Meta = m.Encode()
		return nil
	})
	require.NoError(t, err)
	require.NoError(t, runDixOutbox(h.b, context.Background(), noAttach{h.Rec}, rec, nil))
	var refused, sent int
	for _, c := range h.Rec.Calls {
		switch {
		case c.Op == "refused":
			refused++
		case c.Op == "send" && len(c.Send.Components) > 0:
			sent++
			if refused > 0 {
				assert.Empty(t, c.Send.Files)
				assert.Nil(t, c.Send.Embeds[0].Image)
				assert.Equal(t, dixview.BoardEmbed(m.view("en"), dix.GameOf(rec.State)), c.Send.Embeds[0], "the whole text")
			}
		}
	}
	assert.Equal(t, 1, refused)
	assert.Equal(t, 2, sent, "the seeded board, then the text one")

	r := h.ClickOn("u1", h.Board(), h.MustFind(h.Board(), verbDraw))
	assert.Empty(t, r.Response().Data.Files)
	assert.Nil(t, r.Response().Data.Embeds[0].Image)
	hand := h.Command("u2", "hand").Response().Data
	assert.Empty(t, hand.Files)
	assert.Nil(t, hand.Embeds[0].Image)
}

// TestBuyPreviewAgreesWithTheMenu plays games by clicks and, at every
// purchase, checks that the market menu and the payment step's picture
// tell the same story: each option's payment and score change are those of
// the picture the step would draw (the collection after paying), and the
// picture the step attaches is exactly that one.
func TestBuyPreviewAgreesWithTheMenu(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			if lang == "fr" {
				h.Locale = discordgo.French // the prompts speak the clicker's language
			}
			startGame(h, "u1", "u2", "u3")
			rng := rand.New(rand.NewPCG(21, 5))
			steps, checked, costly := 0, 0, 0
			for checked < 8 {
				rec, m := h.Record()
				if rec.Finished {
					break
				}
				g := dix.GameOf(rec.State)
				s := g.ToAct()
				ch := g.Choices(s)
				if (g.Phase == dix.PhaseBuy || g.Phase == dix.PhaseFinalBuy) && len(ch.Buyable) > 0 && slices.Contains(ch.Actions, dix.ActBuy) {
					user := m.Seats[s].ID
					board := h.Board()
					prompt := h.ClickOn(user, board, h.MustFind(board, verbBuy)).Shown(board)
					opts := menuOptions(prompt)
					require.Len(t, opts, len(ch.Buyable))
					for _, o := range opts {
						cd, err := dix.ParseCard(o.Value)
						require.NoError(t, err)
						pay, ok := g.ProposePayment(s, int(cd.Value))
						require.True(t, ok)
						ph := previewHand(lang, m, g, s, cd, pay)
						assert.Equal(t, pay.Cards, ph.Pay, "%s: the picture pays with the proposed cards", cd)
						before, after, err := ph.Scores()
						require.NoError(t, err)
						want := locales.N(lang, "dix_option_card_pay", dixview.Abs(after-before), map[string]any{"Payment": dixview.PaymentText(lang, pay), "Points": dixview.Signed(after - before)})
						assert.Equal(t, bot.Truncate(want, 100), o.Description, "%s: the menu and the picture", cd)
						if after-before != dix.BestScore(append(slices.Clone(g.Players[s].Collection), cd)).Total-before {
							costly++ // the cards paid change the score: the case that matters
						}
					}
					// The step the player sees attaches that very picture.
					o := opts[rng.IntN(len(opts))]
					cd, _ := dix.ParseCard(o.Value)
					sel := h.ClickOn(user, prompt, h.MustFind(prompt, verbBuySelect), o.Value)
					files, _ := filesOf(sel.Calls[0])
					require.Len(t, files, 1)
					pay, _ := g.ProposePayment(s, int(cd.Value))
					want, err := dixpicture.RenderHand(previewHand(lang, m, g, s, cd, pay))
					require.NoError(t, err)
					assert.True(t, bytes.Equal(want, readFile(t, files[0])), "%s: the attached picture is not the collection after paying", cd)
					checked++
				}
				if !step(h, rng) {
					break
				}
				steps++
				require.Less(t, steps, 5000)
			}
			t.Logf("%d purchase steps checked, %d menu options where paying changes the score", checked, costly)
			assert.Positive(t, checked)
			assert.Positive(t, costly, "no purchase where the payment costs points: the test proves nothing")
		})
	}
}

// menuOptions are the options of every select of msg.
func menuOptions(msg *tabletest.Message) []discordgo.SelectMenuOption {
	var out []discordgo.SelectMenuOption
	for _, c := range msg.Components {
		if row, ok := c.(discordgo.ActionsRow); ok {
			for _, cc := range row.Components {
				if s, ok := cc.(discordgo.SelectMenu); ok {
					out = append(out, s.Options...)
				}
			}
		}
	}
	return out
}

// TestPicturesDrawOnlyWhatTheFontHas checks what the bot gives the
// pictures, in both languages: the labels and the names of every kind of
// seat hold only runes the pictures' fonts draw (no emoji drawn as an
// empty box), and each seat carries the mark the text gives it: the robot
// for the computer's seats, the moon for an absent player.
func TestPicturesDrawOnlyWhatTheFontHas(t *testing.T) {
	t.Parallel()
	m := &dixTable{Seats: []seat{
		{ID: "u1", Name: "Alice"},
		{CPU: "strong"},
		{ID: "u3", Name: "Chloé", Away: true},
		{ID: "u4", Name: "Dan", Gone: bot.GoneLeft},
		{ID: "u5", Name: "Eve", Gone: bot.GoneKicked},
	}}
	g, err := dix.New(dix.Options{Players: 5, Seed: 3, FirstPlayer: 0})
	require.NoError(t, err)
	solo := &dixTable{Solo: true, Seats: []seat{{ID: "u1", Name: "Alice"}, {}}}
	gs, err := dix.New(dix.Options{Players: 1, Seed: 3, FirstPlayer: 0, Difficulty: 5})
	require.NoError(t, err)
	for _, lang := range []string{"en", "fr"} {
		l := dixview.PictureLabels(lang)
		for _, s := range []string{l.Market, l.Deck, l.Tableau, l.Total, l.Money, l.Auction, l.HighBid, l.Score, l.Paid} {
			assert.NotEmpty(t, s)
			assert.Equal(t, s, picture.Drawable(s), "%s label", lang)
		}
		for _, tc := range []struct {
			m     *dixTable
			g     *dix.Game
			marks []dixpicture.Mark
		}{
			{m, g, []dixpicture.Mark{dixpicture.MarkNone, dixpicture.MarkComputer, dixpicture.MarkAway, dixpicture.MarkComputer, dixpicture.MarkComputer}},
			{solo, gs, []dixpicture.Mark{dixpicture.MarkNone, dixpicture.MarkComputer}},
		} {
			b := boardPicture(lang, tc.m, tc.g)
			sb := scoreboardPicture(lang, tc.m, tc.g)
			require.Len(t, b.Names, len(tc.marks))
			for s, name := range b.Names {
				assert.NotEmpty(t, name, "%s seat %d", lang, s)
				assert.Equal(t, name, picture.Drawable(name), "%s seat %d", lang, s)
				assert.Contains(t, tc.m.name(lang, s), name, "%s seat %d: the name the text gives", lang, s)
			}
			assert.Equal(t, tc.marks, b.Marks, lang)
			assert.Equal(t, b.Names, sb.Names, lang)
			assert.Equal(t, b.Marks, sb.Marks, lang)
		}
	}
}

// asDiscordShows makes the prompt m look as Discord returns it: the embed
// that showed hand.png by reference now holds the file's CDN URL, and the
// message lists no attachment, the embed showing the only one
// (https://github.com/discord/discord-api-docs/issues/1340).
func asDiscordShows(t *testing.T, m *tabletest.Message) {
	t.Helper()
	require.Len(t, m.Embeds, 1)
	require.NotNil(t, m.Embeds[0].Image, "the step shows its picture")
	require.Equal(t, "attachment://"+bot.HandFile, m.Embeds[0].Image.URL)
	e := *m.Embeds[0]
	e.Image = &discordgo.MessageEmbedImage{URL: "https://cdn.discordapp.com/attachments/1/2/" + bot.HandFile + "?ex=1&is=2",
		ProxyURL: "https://media.discordapp.net/attachments/1/2/" + bot.HandFile, Width: 540, Height: 416}
	m.Embeds = []*discordgo.MessageEmbed{&e}
}

// TestBuyPictureShownOnce: the payment step's picture, on the prompt as
// Discord returns it (asDiscordShows), never stays behind as a loose file
// and is never shown twice: a refusal redraws the step with its embed
// pointing at the file by name again, keeping it; Back and the purchase
// itself remove it.
func TestBuyPictureShownOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	board := toBobsBuy(t, h)
	prompt := h.ClickOn("u2", board, h.MustFind(board, verbBuy)).Shown(board)
	pay := h.ClickOn("u2", prompt, h.MustFind(prompt, verbBuySelect), "g3").Shown(prompt)
	asDiscordShows(t, pay)

	r := h.ClickOn("u2", pay, bot.CustomID(verbBuyPay, snapSeq(h), "r9"))
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	d := r.Response().Data
	assert.True(t, strings.HasPrefix(d.Content, bot.RefusalMark), d.Content)
	require.Len(t, d.Embeds, 1)
	require.NotNil(t, d.Embeds[0].Image)
	assert.Equal(t, "attachment://"+bot.HandFile, d.Embeds[0].Image.URL, "the picture by reference: shown once, in the embed")
	assert.Nil(t, d.Attachments, "the file stays")

	asDiscordShows(t, pay)
	r = h.ClickOn("u2", pay, h.MustFind(pay, verbPickBack))
	d = r.Response().Data
	assert.False(t, bot.ShowsImage(d.Embeds))
	require.NotNil(t, d.Attachments, "Back: the picture goes with the step")
	assert.Empty(t, *d.Attachments)

	market := h.Rec.Message(pay.ID)
	pay = h.ClickOn("u2", market, h.MustFind(market, verbBuySelect), "g3").Shown(market)
	asDiscordShows(t, pay)
	r = h.ClickOn("u2", pay, h.MustFind(pay, verbBuyPay))
	d = r.Response().Data
	rec, _ := h.Record()
	require.Contains(t, dix.GameOf(rec.State).Players[1].Collection, cards(t, "g3")[0], "bought")
	assert.False(t, bot.ShowsImage(d.Embeds))
	require.NotNil(t, d.Attachments, "bought: the picture goes with the step")
	assert.Empty(t, *d.Attachments)
}

func TestByReference(t *testing.T) {
	t.Parallel()
	cdn := func(u string) *discordgo.MessageEmbed {
		return &discordgo.MessageEmbed{Title: "t", Image: &discordgo.MessageEmbedImage{URL: u, ProxyURL: u, Width: 5, Height: 5}}
	}
	for _, tc := range []struct {
		name, url, want string
	}{
		{"Discord's CDN", "https://cdn.discordapp.com/attachments/1/2/hand.png?ex=1&is=2&hm=3", "attachment://hand.png"},
		{"the stand-in", "http://127.0.0.1:4000/attachments/1/2/board.png", "attachment://board.png"},
		{"scoreboard", "https://cdn.discordapp.com/attachments/1/2/scores.png", "attachment://scores.png"},
		{"by reference already", "attachment://hand.png", "attachment://hand.png"},
		{"another image", "https://example.com/cat.png", "https://example.com/cat.png"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := []*discordgo.MessageEmbed{{Title: "text"}, cdn(tc.url), nil}
			out := bot.ByReference(in)
			require.Len(t, out, 3)
			assert.Same(t, in[0], out[0])
			assert.Equal(t, tc.want, out[1].Image.URL)
			assert.Equal(t, "t", out[1].Title)
			assert.Equal(t, tc.url, in[1].Image.URL, "the embeds given are left as they are")
			assert.Nil(t, out[2])
		})
	}
}

// TestBoardAsText: a pictured board leaves the market and the collections
// to its picture, so it carries a "Board as text" button that gives anyone,
// privately and in their language, the whole board as text; a game
// without pictures shows it all already and has no such button.
func TestBoardAsText(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	startGame(h, "u1", "u2", "u3")
	rng := rand.New(rand.NewPCG(3, 3))
	for range 30 {
		require.True(t, step(h, rng))
	}
	rec, m := h.Record()
	g := dix.GameOf(rec.State)
	board := h.Board()
	require.NotNil(t, board.Embeds[0].Image, "the board is pictured")
	market := locales.N("en", "dix_board_deck_market", len(g.Deck), nil)
	for _, f := range board.Embeds[0].Fields {
		assert.NotEqual(t, market, f.Name, "the pictured summary leaves the market to the picture")
	}
	id := h.MustFind(board, verbBoardText)
	for _, tc := range []struct {
		user   string
		locale discordgo.Locale
		lang   string
	}{{"u2", discordgo.EnglishUS, "en"}, {"u9", discordgo.French, "fr"}} {
		h.Locale = tc.locale
		r := h.ClickOn(tc.user, board, id)
		resp := r.Response()
		require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type)
		assert.NotZero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "only for the clicker")
		assert.Empty(t, resp.Data.Files)
		require.Len(t, resp.Data.Embeds, 1)
		assert.Equal(t, dumpEmbed(dixview.BoardEmbed(m.view(tc.lang), g)), dumpEmbed(resp.Data.Embeds[0]), "the whole board as text, in the clicker's language")
		var names []string
		for _, f := range resp.Data.Embeds[0].Fields {
			names = append(names, f.Name)
		}
		assert.Contains(t, names, locales.N(tc.lang, "dix_board_deck_market", len(g.Deck), nil))
		for s, p := range g.Players {
			if len(p.Collection) > 0 {
				assert.Contains(t, dumpEmbed(resp.Data.Embeds[0]), dixview.ByColor(tc.lang, p.Collection, true), "seat %d's collection", s)
			}
		}
	}
	_, after := h.Record()
	assert.Equal(t, m.Encode(), after.Encode(), "nothing changes")

	h2 := newHarness(t)
	startGameWith(h2, []any{bot.OptPictures, bot.PicsOff}, "u1", "u2")
	_, ok := tabletest.FindID(h2.Board(), verbBoardText)
	assert.False(t, ok, "a text board needs no text button")
	h3 := newHarness(t)
	h3.b.NoPictures = true
	startGame(h3, "u1", "u2")
	_, ok = tabletest.FindID(h3.Board(), verbBoardText)
	assert.False(t, ok, "nor does a game of a bot without pictures")
}

// TestBoardButtonsFitTheirRows: the hand and text buttons and the most
// vote buttons a board can carry stay within Discord's five buttons per
// row (https://discord.com/developers/docs/components/reference#action-row).
func TestBoardButtonsFitTheirRows(t *testing.T) {
	t.Parallel()
	g, err := dix.New(dix.Options{Players: 5, Seed: 3, FirstPlayer: 0})
	require.NoError(t, err)
	m := &dixTable{Lang: "en", Creator: "u1"}
	for i, u := range []string{"u1", "u2", "u3", "u4", "u5"} {
		m.Seats = append(m.Seats, seat{ID: u, Name: u, Late: min(i, 1)})
	}
	rows := dixview.BoardButtons(m.view("en"), g)
	var ids []string
	for _, r := range rows {
		row := r.(discordgo.ActionsRow)
		assert.LessOrEqual(t, len(row.Components), 5)
		ids = append(ids, tabletest.ComponentIDs([]discordgo.MessageComponent{row})...)
	}
	assert.Contains(t, ids, bot.CustomID(verbHand, 0))
	assert.Contains(t, ids, bot.CustomID(verbBoardText, 0))
	kicks := 0
	for _, id := range ids {
		if p, err := bot.ParseID(id); err == nil && p.Verb == verbKick {
			kicks++
		}
	}
	assert.Equal(t, bot.MaxKickButtons, kicks)
}

// TestPicturedHandKeepsTheCollectionInText: /dix hand with its picture
// still lists the collection by colour, for a screen reader.
func TestPicturedHandKeepsTheCollectionInText(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	startGame(h, "u1", "u2")
	rng := rand.New(rand.NewPCG(4, 4))
	for {
		rec, _ := h.Record()
		if len(dix.GameOf(rec.State).Players[0].Collection) > 0 {
			break
		}
		require.True(t, step(h, rng))
	}
	rec, _ := h.Record()
	r := h.Command("u1", "hand")
	resp := r.Response()
	require.Len(t, resp.Data.Files, 1, "pictured")
	require.Len(t, resp.Data.Embeds, 1)
	assert.Contains(t, dumpEmbed(resp.Data.Embeds[0]), dixview.ByColor("en", dix.GameOf(rec.State).Players[0].Collection, true))
}

// TestBoardDrawnOncePerPicture: the board asked for again, after a change
// its picture does not show (the sequence number), is the picture already
// drawn (the same bytes in memory), not a new one; a change the picture
// shows draws a new one.
func TestBoardDrawnOncePerPicture(t *testing.T) {
	t.Parallel()
	g, err := dix.New(dix.Options{Players: 3, Seed: 8, FirstPlayer: 0})
	require.NoError(t, err)
	b, err := bot.New(bot.Options{Store: tabletest.NewMemStore()})
	require.NoError(t, err)
	m := &dixTable{Lang: "en", Seats: []seat{{ID: "u1", Name: "Alice"}, {ID: "u2", Name: "Bob"}, {ID: "u3", Name: "Chloé"}}}
	_, files := boardMessage(b, "en", m, g, true)
	require.Len(t, files, 1)
	first := readFile(t, files[0])
	g.Seq += 3
	_, files = boardMessage(b, "en", m, g, true)
	require.Len(t, files, 1)
	again := readFile(t, files[0])
	assert.Equal(t, first, again)

	png1, err := memoBoard(boardPicture("en", m, g))
	require.NoError(t, err)
	png2, err := memoBoard(boardPicture("en", m, g))
	require.NoError(t, err)
	assert.Same(t, &png1[0], &png2[0], "drawn twice")

	_, err = g.Apply(dix.Action{Kind: dix.ActDraw, Player: g.ToAct()})
	require.NoError(t, err)
	png3, err := memoBoard(boardPicture("en", m, g))
	require.NoError(t, err)
	assert.NotEqual(t, png1, png3, "a drawn change keeps the old picture")
}

// A click on the board whose picture the table data knows: when the board
// as the click leaves it draws the same picture, the table data still
// knows the picture, and the answer (an UPDATE_MESSAGE, which may drop
// files it does not carry) uploads that same picture; when the picture
// changes, the answer uploads it and the table data forgets the picture
// (naming the click) until the outbox learns it. A click on an ephemeral
// prompt leaves it as it is.
func TestAnswerKeepsAnUnchangedBoardPicture(t *testing.T) {
	t.Parallel()
	g, err := dix.New(dix.Options{Players: 3, Seed: 8, FirstPlayer: 0})
	require.NoError(t, err)
	b, err := bot.New(bot.Options{Store: tabletest.NewMemStore()})
	require.NoError(t, err)
	m := &dixTable{Lang: "en", Board: "900", Seats: []seat{{ID: "u1", Name: "Alice"}, {ID: "u2", Name: "Bob"}, {ID: "u3", Name: "Chloé"}}}
	key := pictureKey(boardPicture("en", m, g))
	require.NotEmpty(t, key)
	click := func(msg string, flags discordgo.MessageFlags) *bot.Call {
		return &bot.Call{B: b, I: &discordgo.Interaction{ID: "77", Type: discordgo.InteractionMessageComponent,
			Message: &discordgo.Message{ID: msg, Flags: flags}}}
	}
	r := &dixbot.Record{State: g}

	m.BoardPic = &bot.BoardPic{Msg: "900", Key: key}
	c := click("900", 0)
	answerPicture(c, r, m)
	assert.Equal(t, &bot.BoardPic{Msg: "900", Key: key}, m.BoardPic)
	e, files := boardAnswer(c, m, g)
	assert.Len(t, files, 1, "an answer carries its picture")
	require.NotNil(t, e.Image)
	assert.Equal(t, "attachment://"+bot.BoardFile, e.Image.URL)
	assert.Equal(t, key, c.AnswerPic)

	_, err = g.Apply(dix.Action{Kind: dix.ActDraw, Player: g.ToAct()})
	require.NoError(t, err)
	c = click("900", 0)
	answerPicture(c, r, m)
	assert.Equal(t, &bot.BoardPic{Key: "77"}, m.BoardPic, "forgotten, as of this click")
	_, files = boardAnswer(c, m, g)
	assert.Len(t, files, 1, "a changed picture is uploaded")
	assert.Equal(t, pictureKey(boardPicture("en", m, g)), c.AnswerPic)

	m.BoardPic = &bot.BoardPic{Msg: "900", Key: key}
	c = click("901", discordgo.MessageFlagsEphemeral)
	answerPicture(c, r, m)
	assert.Equal(t, &bot.BoardPic{Msg: "900", Key: key}, m.BoardPic, "a prompt's answer leaves the board alone")
	c = click("555", 0) // a board posted but not recorded yet
	answerPicture(c, r, m)
	assert.Equal(t, &bot.BoardPic{Key: "77"}, m.BoardPic)
}

// The outbox records the picture the board has only when nothing that may
// have changed it came in between: a click that forgot it, or a board that
// is not the one the picture is on.
func TestOutboxRecordsTheBoardPicture(t *testing.T) {
	t.Parallel()
	x := &executor{rec: &dixbot.Record{Version: 4}, board: "900", pic0: &bot.BoardPic{Msg: "900", Key: "a"}, pic: &bot.BoardPic{Msg: "900", Key: "b"}}
	assert.Equal(t, &bot.BoardPic{Msg: "900", Key: "b"}, x.boardPicture(&dixbot.Record{Version: 4}, &dixTable{BoardPic: &bot.BoardPic{Msg: "900", Key: "a"}}))
	assert.Equal(t, &bot.BoardPic{Msg: "900", Key: "b"}, x.boardPicture(&dixbot.Record{Version: 6}, &dixTable{BoardPic: &bot.BoardPic{Msg: "900", Key: "a"}}),
		"a change in between that left the picture alone (a command)")
	assert.Nil(t, x.boardPicture(&dixbot.Record{Version: 5}, &dixTable{BoardPic: &bot.BoardPic{Key: "77"}}), "a click in between")
	x.board = "901"
	assert.Nil(t, x.boardPicture(&dixbot.Record{Version: 4}, &dixTable{BoardPic: &bot.BoardPic{Msg: "900", Key: "a"}}), "another board")
	assert.Equal(t, &bot.BoardPic{Msg: "900", Key: "c"}, startPicture(&dixTable{Board: "900"}, &bot.Via{Orig: "900", Pic: "c"}, true))
	assert.Nil(t, startPicture(&dixTable{Board: "900", BoardPic: &bot.BoardPic{Msg: "900", Key: "a"}}, &bot.Via{Orig: "900"}, true), "a text answer")
	assert.Equal(t, &bot.BoardPic{Key: "77"}, startPicture(&dixTable{Board: "900", BoardPic: &bot.BoardPic{Key: "77"}}, &bot.Via{Orig: "900", Pic: "c"}, false))
	assert.Equal(t, &bot.BoardPic{Msg: "900", Key: "a"}, startPicture(&dixTable{Board: "900", BoardPic: &bot.BoardPic{Msg: "900", Key: "a"}}, nil, false), "no answer")
}
