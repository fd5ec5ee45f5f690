package dix

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// TestBoardKeyNamesWhatIsDrawn: boards that differ only by what is not
// drawn (the sequence number) share a key and a picture; a change of what
// is drawn changes the key.
func TestBoardKeyNamesWhatIsDrawn(t *testing.T) {
	g := playUntil(t, 3, 2, lateAuction(50))
	b := board(g, names5[:3])
	key := func(b Board) [32]byte {
		k, err := b.Key()
		require.NoError(t, err)
		return k
	}
	k := key(b)

	same := board(g, names5[:3])
	same.View.Seq += 7
	assert.Equal(t, k, key(same), "the sequence number is not drawn")
	p1, err := RenderBoard(b)
	require.NoError(t, err)
	p2, err := RenderBoard(same)
	require.NoError(t, err)
	assert.Equal(t, p1, p2, "same key, same picture")

	changes := map[string]func(b *Board){
		"money":   func(b *Board) { b.View.Seats[1].Money++ },
		"acting":  func(b *Board) { b.Acting = (b.Acting + 1) % 3 },
		"name":    func(b *Board) { b.Names = []string{"Zoé", "Bob", "Chloé"} },
		"mark":    func(b *Board) { b.Marks = []picture.Mark{picture.MarkNone, picture.MarkAway, picture.MarkNone} },
		"label":   func(b *Board) { b.Labels.Market = "Marché" },
		"market":  func(b *Board) { b.View.Market = b.View.Market[1:] },
		"deck":    func(b *Board) { b.View.DeckCount-- },
		"bid":     func(b *Board) { b.View.Auction.HighBid++ },
		"tableau": func(b *Board) { b.View.TableauTotal++ },
	}
	for name, change := range changes {
		c := board(g, names5[:3])
		change(&c)
		assert.NotEqual(t, k, key(c), name)
	}
}

func TestHandAndScoreboardKeys(t *testing.T) {
	c, err := dix.ParseCards(everyWild)
	require.NoError(t, err)
	h := Hand{Name: "Chloé", Collection: c, Money: 7, Labels: enLabels}
	k1, err := h.Key()
	require.NoError(t, err)
	h.Money++
	k2, err := h.Key()
	require.NoError(t, err)
	assert.NotEqual(t, k1, k2)

	g := playUntil(t, 3, 4, func(*dix.Game) bool { return false })
	s := Scoreboard{View: g.View(), Names: names5[:3]}
	k3, err := s.Key()
	require.NoError(t, err)
	s.Names = names5[1:4]
	k4, err := s.Key()
	require.NoError(t, err)
	assert.NotEqual(t, k3, k4)
	assert.NotEqual(t, k1, k3)
}

// bandKeys are the keys of the board's parts: its top, then its rows of
// two players.
func bandKeys(t *testing.T, b Board) []picture.Key {
	t.Helper()
	p, err := boardBands(&b)
	require.NoError(t, err)
	var out []picture.Key
	for _, band := range p.List {
		out = append(out, band.Key)
	}
	return out
}

// TestBoardPartsKeys: a change of the board changes the keys of the parts
// that show it and of no other, so that a click redraws only those; what
// no part shows (the deck's order, the sequence number) changes none.
func TestBoardPartsKeys(t *testing.T) {
	t.Parallel()
	g := playUntil(t, 4, 2, lateAuction(50))
	b := board(g, names5[:4])
	b.Acting = 0
	k := bandKeys(t, b)
	require.Len(t, k, 6) // the top to the tableau's foot, the market below it, the heads and the collections of seats 1-2, then of seats 3-4

	for _, tc := range []struct {
		name    string
		change  func(b *Board)
		changed []int // the parts whose key changes
	}{
		{"the deck's order", func(b *Board) { b.View.Deck = append([]string{"m5"}, b.View.Deck...) }, nil},
		{"the sequence number", func(b *Board) { b.View.Seq += 3 }, nil},
		{"a card drawn", func(b *Board) { b.View.Tableau = append(b.View.Tableau, "g2"); b.View.DeckCount-- }, []int{0}},
		{"a card to the market", func(b *Board) { b.View.Market = append(b.View.Market, "g2") }, []int{0, 1}},
		{"a bid", func(b *Board) { b.View.Auction.HighBid++ }, []int{0}},
		{"the auction over", func(b *Board) { b.View.Auction = nil }, []int{0, 1}},
		{"seat 3's money", func(b *Board) { b.View.Seats[2].Money++ }, []int{4}},
		{"seat 2's collection", func(b *Board) { b.View.Seats[1].Collection = append(b.View.Seats[1].Collection, "b1") }, []int{3}},
		{"the decision passes to seat 4", func(b *Board) { b.Acting = 3 }, []int{2, 4}}, // the heads alone
		{"a label", func(b *Board) { b.Labels.Market = "Marché" }, []int{0}},
		{"seat 4 marked absent", func(b *Board) {
			b.Marks = []picture.Mark{picture.MarkNone, picture.MarkNone, picture.MarkNone, picture.MarkAway}
		}, []int{4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := board(g, names5[:4])
			c.Acting = 0
			c.View.Auction = cloneAuction(b.View.Auction)
			tc.change(&c)
			got := bandKeys(t, c)
			require.Len(t, got, len(k))
			for i := range k {
				assert.Equal(t, slices.Contains(tc.changed, i), got[i] != k[i], "part %d", i)
			}
			// The picture of parts drawn before and kept is the one
			// drawn whole.
			png, err := RenderBoard(c)
			require.NoError(t, err)
			img, err := drawBoard(&c)
			require.NoError(t, err)
			whole, err := picture.EncodePaletted(img)
			require.NoError(t, err)
			diff, err := picturetest.PixelsApart(png, whole)
			require.NoError(t, err)
			assert.Zero(t, diff)
		})
	}
}

func cloneAuction(a *dix.AuctionView) *dix.AuctionView {
	if a == nil {
		return nil
	}
	c := *a
	return &c
}
