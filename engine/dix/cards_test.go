package dix

import (
	"fmt"
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

// TestDeckComposition checks every card's count for each player count
// against the table of SPEC §1.1 (R1): numbers 1–3 carry the 3+ symbol,
// numbers 4–6 and the colour wilds the 4+ symbol, 7–9, the black wilds and
// the super wild are in every deck; currency 5/4/4/2/2 plus one of each
// value per symbol.
func TestDeckComposition(t *testing.T) {
	type counts struct{ low, mid, high, colorWild, blackWild, super int }
	tests := []struct {
		players  int
		want     counts
		currency [6]int // by value, index 0 unused
	}{
		{1, counts{2, 2, 1, 1, 1, 1}, [6]int{0, 5, 4, 4, 2, 2}},
		{2, counts{2, 2, 1, 1, 1, 1}, [6]int{0, 5, 4, 4, 2, 2}},
		{3, counts{3, 2, 1, 1, 1, 1}, [6]int{0, 6, 5, 5, 3, 3}},
		{4, counts{3, 3, 1, 2, 1, 1}, [6]int{0, 7, 6, 6, 4, 4}},
		{5, counts{3, 3, 1, 2, 1, 1}, [6]int{0, 7, 6, 6, 4, 4}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d players", tc.players), func(t *testing.T) {
			deck, err := BuildDeck(tc.players)
			require.NoError(t, err)
			got := map[Card]int{}
			for _, c := range deck {
				got[c]++
			}
			want := map[Card]int{}
			for _, col := range Colors {
				for v := uint8(1); v <= 9; v++ {
					n := tc.want.low
					if v >= 7 {
						n = tc.want.high
					} else if v >= 4 {
						n = tc.want.mid
					}
					want[Card{Kind: KindNumber, Color: col, Value: v}] = n
				}
				want[Card{Kind: KindColorWild, Color: col}] = tc.want.colorWild
			}
			for v := uint8(1); v <= 9; v++ {
				want[Card{Kind: KindBlackWild, Value: v}] = tc.want.blackWild
			}
			want[Card{Kind: KindSuperWild}] = tc.want.super
			for v := uint8(1); v <= 5; v++ {
				want[Card{Kind: KindCurrency, Value: v}] = tc.currency[v]
			}
			assert.Equal(t, want, got)
		})
	}
}
