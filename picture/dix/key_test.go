package dix

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
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
		"mark":    func(b *Board) { b.Marks = []Mark{MarkNone, MarkAway, MarkNone} },
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
