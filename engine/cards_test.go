package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCard(t *testing.T) {
	tests := []struct {
		in   string
		want Card
	}{
		{"g7", Card{Kind: KindNumber, Color: Green, Value: 7}},
		{"b1", Card{Kind: KindNumber, Color: Blue, Value: 1}},
		{"O9", Card{Kind: KindNumber, Color: Orange, Value: 9}},
		{"p#", Card{Kind: KindColorWild, Color: Pink}},
		{"*7", Card{Kind: KindBlackWild, Value: 7}},
		{"**", Card{Kind: KindSuperWild}},
		{"$3", Card{Kind: KindCurrency, Value: 3}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseCard(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestParseCardBad(t *testing.T) {
	for _, in := range []string{"", "g", "g0", "g10", "x3", "$0", "$6", "*0", "#g", "g7 ", "$#", "***", "7g"} {
		t.Run(in, func(t *testing.T) {
			_, err := ParseCard(in)
			assert.ErrorIs(t, err, ErrBadCard)
		})
	}
}

func TestCardStringRoundTrip(t *testing.T) {
	for i := range numCardIndex {
		c := cardAt(i)
		require.True(t, c.Valid(), "cardAt(%d)", i)
		assert.Equal(t, i, cardIndex(c))
		got, err := ParseCard(c.String())
		require.NoError(t, err)
		assert.Equal(t, c, got)
	}
	assert.Equal(t, "??", Card{}.String())
	assert.Equal(t, -1, cardIndex(Card{Kind: KindNumber, Color: Blue}))
}

func TestParseCards(t *testing.T) {
	got, err := ParseCards("  g7 g#\t*7\n** $3 ")
	require.NoError(t, err)
	assert.Equal(t, "g7 g# *7 ** $3", FormatCards(got))
	empty, err := ParseCards("   ")
	require.NoError(t, err)
	assert.Empty(t, empty)
	_, err = ParseCards("g7 zz")
	assert.ErrorIs(t, err, ErrBadCard)
}

func TestBuildDeck(t *testing.T) {
	tests := []struct {
		players, size int
	}{{1, 91}, {2, 91}, {3, 108}, {4, 129}, {5, 129}}
	for _, tc := range tests {
		deck, err := BuildDeck(tc.players)
		require.NoError(t, err)
		assert.Len(t, deck, tc.size, "players %d", tc.players)
		assert.Equal(t, tc.size, DeckSize(tc.players))
	}
	all, _ := BuildDeck(5)
	var numbers, colorWilds, blackWilds, super, currency int
	for _, c := range all {
		switch c.Kind {
		case KindNumber:
			numbers++
		case KindColorWild:
			colorWilds++
		case KindBlackWild:
			blackWilds++
		case KindSuperWild:
			super++
		case KindCurrency:
			currency++
		}
	}
	assert.Equal(t, []int{84, 8, 9, 1, 27}, []int{numbers, colorWilds, blackWilds, super, currency})
	for _, p := range []int{0, 6, -1} {
		_, err := BuildDeck(p)
		assert.ErrorIs(t, err, ErrBadOptions)
		assert.Zero(t, DeckSize(p))
	}
}
