package dixview

import (
	"io"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine/dix"
)

func fileBytes(t *testing.T, b present.Board) []byte {
	t.Helper()
	require.Len(t, b.Files, 1)
	out, err := io.ReadAll(b.Files[0].Reader)
	require.NoError(t, err)
	return out
}

// The board's picture is drawn from the public view: the same game with
// its deck in another order gives the very same picture and picture key.
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
	tb := present.Table{Lang: "en", Names: []string{"Alice", "Bob", "Chloé"}, Pictures: true}
	before := Presenter{}.Board(tb, dix.StateOf(g))
	slices.Reverse(g.Deck)
	after := Presenter{}.Board(tb, dix.StateOf(g))
	assert.Equal(t, before.Picture, after.Picture)
	assert.Equal(t, fileBytes(t, before), fileBytes(t, after), "the deck's order changes the picture")
}

// A game the picture cannot draw (an unreadable card in a collection,
// which the rules never make) is shown as text, whole, and nothing panics.
func TestPictureFallsBackToText(t *testing.T) {
	t.Parallel()
	g, err := dix.New(dix.Options{Players: 2, Seed: 1, FirstPlayer: 0})
	require.NoError(t, err)
	g.Players[0].Collection = []dix.Card{{Kind: dix.KindNumber, Color: dix.Blue, Value: 42}}
	tb := present.Table{Lang: "en", Names: []string{"Alice", "Bob"}}
	text := Presenter{}.Board(tb, dix.StateOf(g))
	tb.Pictures = true
	b := Presenter{}.Board(tb, dix.StateOf(g))
	assert.Empty(t, b.Files)
	assert.Empty(t, b.Picture)
	require.NotEmpty(t, b.Embeds)
	assert.Nil(t, b.Embeds[0].Image)
	assert.Equal(t, text.Embeds, b.Embeds, "the board as text")
}

// The pictures draw the names as typed, the text of the board escapes
// them (present.Escape): a name's Markdown marks are neither drawn with
// their escapes nor read as Markdown.
func TestPicturesDrawNamesAsTyped(t *testing.T) {
	t.Parallel()
	g, err := dix.New(dix.Options{Players: 2, Seed: 1, FirstPlayer: 0})
	require.NoError(t, err)
	tb := present.Table{Lang: "en", Names: []string{"**Bo**_x", "Al #2"}, Pictures: true}
	assert.Equal(t, []string{"**Bo**_x", "Al #2"}, pictureNames(tb, g))
	assert.Equal(t, []string{present.Escape("**Bo**_x"), present.Escape("Al #2")}, names(tb))
}
