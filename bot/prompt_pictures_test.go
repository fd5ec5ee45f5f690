package bot

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	botdix "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// A prompt's picture is drawn and attached, shown in its first embed,
// only at a table that shows pictures; elsewhere it is not drawn, and an
// embed that only frames it goes with it; one that fails to draw leaves
// the text alone.
func TestPromptPicturedFollowsTheTable(t *testing.T) {
	t.Parallel()
	drawn := 0
	draw := func() ([]byte, error) { drawn++; return []byte("png"), nil }
	step := func(framed bool, d func() ([]byte, error)) present.Prompt {
		return present.Prompt{Content: "text", Embeds: []*discordgo.MessageEmbed{{Title: "title"}, {Title: "second"}},
			Picture: &present.Picture{File: "hand.png", Draw: d, Framed: framed}}
	}
	on := newHarness(t).b
	off := newHarness(t).b
	off.noPictures = true

	p := on.promptPictured(&tableData{}, step(true, draw))
	assert.Equal(t, 1, drawn)
	require.Len(t, p.Files, 1)
	assert.Equal(t, "hand.png", p.Files[0].Name)
	require.Len(t, p.Embeds, 2)
	require.NotNil(t, p.Embeds[0].Image)
	assert.Equal(t, "attachment://hand.png", p.Embeds[0].Image.URL)
	assert.Nil(t, p.Picture, "drawn once, by the table")

	orig := step(false, draw)
	for name, c := range map[string]struct {
		b  *Bot
		td *tableData
	}{"game without pictures": {on, &tableData{NoPics: true}}, "bot without pictures": {off, &tableData{}}} {
		p := c.b.promptPictured(c.td, orig)
		assert.Equal(t, 1, drawn, "%s: not drawn", name)
		assert.Empty(t, p.Files, name)
		require.Len(t, p.Embeds, 2, name)
		assert.Nil(t, p.Embeds[0].Image, name)
		p = c.b.promptPictured(c.td, step(true, draw))
		require.Len(t, p.Embeds, 1, "%s: the frame goes with the picture", name)
		assert.Equal(t, "second", p.Embeds[0].Title)
	}
	assert.Nil(t, orig.Embeds[0].Image, "the presenter's embed is left as it was")

	p = on.promptPictured(&tableData{}, step(true, func() ([]byte, error) { return nil, errors.New("no font") }))
	assert.Empty(t, p.Files)
	assert.Equal(t, "text", p.Content)
	require.Len(t, p.Embeds, 1)
}

// DIX's hand and the payment step of a purchase show their pictures in a
// game with pictures, and none in a game started with pictures off.
func TestDixSharedPromptPicturesFollowTheGame(t *testing.T) {
	t.Parallel()
	for _, pictures := range []string{"on", "off"} {
		t.Run(pictures, func(t *testing.T) {
			t.Parallel()
			h := newDixHarness(t, 11, true)
			board := h.openGame("dix", []string{"u1", "u2"}, map[string]string{optPictures: pictures})
			require.NotNil(t, board)
			d := &dixDriver{h: h, users: []string{"u1", "u2"}, rng: rand.New(rand.NewPCG(11, 2)), seen: map[string]int{}, follow: true}
			hand := h.ClickOn("u1", board, h.dixMust(board, verbStep, "hand")).Shown(nil)
			require.NotNil(t, hand)
			require.NotEmpty(t, hand.Embeds)
			assert.Equal(t, pictures == "on", hand.Embeds[0].Image != nil, "the hand's picture")

			for i := 0; ; i++ {
				require.Less(t, i, 300, "never a card to buy")
				g, td, _, _ := h.dixNow()
				seat := g.ToAct()
				ch := g.Choices(seat)
				var target dix.Card
				for _, c := range ch.Buyable {
					if _, ok := g.ProposePayment(seat, int(c.Value)); ok {
						target = c
					}
				}
				if g.Phase != dix.PhaseBuy || target.Kind == 0 {
					require.True(t, d.decide())
					continue
				}
				user := []string{"u1", "u2"}[seat]
				now := h.Rec.Message(td.Board)
				prompt := h.ClickOn(user, now, h.dixMust(now, verbPrompt, "")).Shown(nil)
				require.NotNil(t, prompt)
				pay := d.step(user, prompt, "b "+target.String())
				if pictures == "off" {
					assert.Empty(t, pay.Embeds, "no picture, no frame")
					return
				}
				require.Len(t, pay.Embeds, 1)
				assert.Equal(t, locales.T("en", "dix_buy_preview", map[string]any{"Card": botdix.CardText("en", target), "CardName": botdix.CardName("en", target)}),
					pay.Embeds[0].Title)
				assert.NotNil(t, pay.Embeds[0].Image, "the collection after paying")
				return
			}
		})
	}
}

// DIX's board as text and hand name the seats as the board does, in the
// clicker's language, with the board's title.
func TestDixSharedTextStepNamesTheSeats(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 4, true)
	board := h.openGame("dix", []string{"u1", "u2"}, nil)
	require.NotNil(t, board)
	_, td, _, _ := h.dixNow()
	text := h.ClickOn("u2", board, h.dixMust(board, verbStep, "text")).Shown(nil)
	require.NotNil(t, text)
	require.Len(t, text.Embeds, 1)
	assert.Equal(t, board.Embeds[0].Title, text.Embeds[0].Title, "the board's title")
	var fields []string
	for _, f := range text.Embeds[0].Fields {
		fields = append(fields, f.Name)
	}
	for _, s := range td.Seats {
		require.NotEmpty(t, s.Name)
		assert.True(t, slices.ContainsFunc(fields, func(f string) bool { return strings.Contains(f, s.Name) }), "%q among %q", s.Name, fields)
	}
	assert.NotContains(t, strings.Join(fields, "\n"), "#1")
	hand := h.ClickOn("u1", board, h.dixMust(board, verbStep, "hand")).Shown(nil)
	require.NotNil(t, hand)
	assert.Equal(t, locales.T("en", "dix_hand_title_yours", nil), hand.Embeds[0].Title)
}

// DIX's board names the pace chosen in the lobby, as the lobby does.
func TestDixSharedBoardNamesThePace(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 4, false)
	board := h.openGame("dix", []string{"u1", "u2"}, nil)
	require.NotNil(t, board)
	require.NotEmpty(t, board.Embeds)
	require.NotNil(t, board.Embeds[0].Footer)
	g := h.b.games["dix"]
	_, td, _, _ := h.dixNow()
	want := locales.T("en", "dix_footer_pace", map[string]any{"Pace": paceLabel("en", "dix", g.PaceOf(td.Pace))})
	assert.Contains(t, board.Embeds[0].Footer.Text, want)
}
