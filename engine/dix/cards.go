package dix

import (
	"fmt"
	"strings"
)

// This file holds the cards: their notation (SPEC §7), the deck table (R1)
// and a dense index of the distinct cards used for multiset bookkeeping.

// colorLetters maps a Color to its notation letter.
var colorLetters = [...]byte{NoColor: '?', Blue: 'b', Green: 'g', Orange: 'o', Pink: 'p'}

// String returns the notation letter of c ("b", "g", "o", "p"), or "?"
// for NoColor and out-of-range values.
func (c Color) String() string {
	if c >= Blue && c <= Pink {
		return string(colorLetters[c])
	}
	return "?"
}

// ParseColor parses a colour letter (b, g, o, p; case-insensitive).
// Returns ErrBadCard.
func ParseColor(s string) (Color, error) {
	if len(s) == 1 {
		if c := colorOf(s[0]); c != NoColor {
			return c, nil
		}
	}
	return NoColor, fmt.Errorf("%w: colour %q", ErrBadCard, s)
}

func colorOf(b byte) Color {
	switch b {
	case 'b', 'B':
		return Blue
	case 'g', 'G':
		return Green
	case 'o', 'O':
		return Orange
	case 'p', 'P':
		return Pink
	}
	return NoColor
}

// Valid reports whether c is a card that exists in DIX.
func (c Card) Valid() bool {
	switch c.Kind {
	case KindNumber:
		return c.Color >= Blue && c.Color <= Pink && c.Value >= 1 && c.Value <= 9
	case KindColorWild:
		return c.Color >= Blue && c.Color <= Pink && c.Value == 0
	case KindBlackWild:
		return c.Color == NoColor && c.Value >= 1 && c.Value <= 9
	case KindSuperWild:
		return c.Color == NoColor && c.Value == 0
	case KindCurrency:
		return c.Color == NoColor && c.Value >= 1 && c.Value <= 5
	}
	return false
}

// IsWild reports whether c is one of the three kinds of wild.
func (c Card) IsWild() bool {
	return c.Kind == KindColorWild || c.Kind == KindBlackWild || c.Kind == KindSuperWild
}

// ParseCard parses one card in SPEC §7 notation: "g7" (number), "g#" (colour
// wild), "*7" (black wild), "**" (super wild), "$3" (currency). Letters are
// case-insensitive. Returns ErrBadCard.
func ParseCard(s string) (Card, error) {
	if len(s) == 2 {
		a, b := s[0], s[1]
		var c Card
		switch {
		case a == '*' && b == '*':
			c = Card{Kind: KindSuperWild}
		case a == '*':
			c = Card{Kind: KindBlackWild, Value: b - '0'}
		case a == '$':
			c = Card{Kind: KindCurrency, Value: b - '0'}
		case colorOf(a) != NoColor && b == '#':
			c = Card{Kind: KindColorWild, Color: colorOf(a)}
		case colorOf(a) != NoColor:
			c = Card{Kind: KindNumber, Color: colorOf(a), Value: b - '0'}
		}
		if c.Valid() {
			return c, nil
		}
	}
	return Card{}, fmt.Errorf("%w: %q", ErrBadCard, s)
}

// ParseCards parses a whitespace-separated list of cards (SPEC §7). An empty
// or blank string is an empty list. Returns ErrBadCard naming the first bad
// card.
func ParseCards(s string) ([]Card, error) {
	fields := strings.Fields(s)
	cards := make([]Card, 0, len(fields))
	for _, f := range fields {
		c, err := ParseCard(f)
		if err != nil {
			return nil, err
		}
		cards = append(cards, c)
	}
	return cards, nil
}

// String returns the card in SPEC §7 notation. An invalid card reads "??".
func (c Card) String() string {
	if !c.Valid() {
		return "??"
	}
	switch c.Kind {
	case KindNumber:
		return string([]byte{colorLetters[c.Color], '0' + c.Value})
	case KindColorWild:
		return string([]byte{colorLetters[c.Color], '#'})
	case KindBlackWild:
		return string([]byte{'*', '0' + c.Value})
	case KindSuperWild:
		return "**"
	default: // KindCurrency
		return string([]byte{'$', '0' + c.Value})
	}
}

// FormatCards returns cards in SPEC §7 notation separated by single spaces.
func FormatCards(cards []Card) string {
	var sb strings.Builder
	for i, c := range cards {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(c.String())
	}
	return sb.String()
}

// deckRow is one line of the deck table: how many copies of Card are in the
// base game (1–2 players), how many more carry the 3+ symbol and how many more
// carry the 4+ symbol.
type deckRow struct {
	Card               Card
	Base, Plus3, Plus4 uint8
}

// deckTable is THE deck composition (SPEC §1.1). R1: which cards carry the 3+
// and 4+ symbols is our choice; correct it here and only here.
var deckTable = func() []deckRow {
	var rows []deckRow
	for _, col := range Colors {
		for v := uint8(1); v <= 9; v++ {
			r := deckRow{Card: Card{Kind: KindNumber, Color: col, Value: v}}
			switch {
			case v <= 3:
				r.Base, r.Plus3 = 2, 1
			case v <= 6:
				r.Base, r.Plus4 = 2, 1
			default:
				r.Base = 1
			}
			rows = append(rows, r)
		}
	}
	for _, col := range Colors {
		rows = append(rows, deckRow{Card: Card{Kind: KindColorWild, Color: col}, Base: 1, Plus4: 1})
	}
	for v := uint8(1); v <= 9; v++ {
		rows = append(rows, deckRow{Card: Card{Kind: KindBlackWild, Value: v}, Base: 1})
	}
	rows = append(rows, deckRow{Card: Card{Kind: KindSuperWild}, Base: 1})
	currencyBase := [6]uint8{0, 5, 4, 4, 2, 2}
	for v := uint8(1); v <= 5; v++ {
		rows = append(rows, deckRow{Card: Card{Kind: KindCurrency, Value: v}, Base: currencyBase[v], Plus3: 1, Plus4: 1})
	}
	return rows
}()

// DeckSize returns the number of cards in the deck for players (1–5), or 0
// for a bad player count.
func DeckSize(players int) int {
	if players < 1 || players > 5 {
		return 0
	}
	n := 0
	for _, r := range deckTable {
		n += int(r.Base)
		if players >= 3 {
			n += int(r.Plus3)
		}
		if players >= 4 {
			n += int(r.Plus4)
		}
	}
	return n
}

// BuildDeck returns the unshuffled deck for players (SPEC §1.1, R1): 1 (solo)
// and 2 players get the base 91 cards, 3 players 108, 4–5 players all 129.
// The order is the deck table's order. Returns ErrBadOptions for a player
// count outside 1–5.
func BuildDeck(players int) ([]Card, error) {
	if players < 1 || players > 5 {
		return nil, fmt.Errorf("%w: %d players", ErrBadOptions, players)
	}
	deck := make([]Card, 0, DeckSize(players))
	for _, r := range deckTable {
		n := int(r.Base)
		if players >= 3 {
			n += int(r.Plus3)
		}
		if players >= 4 {
			n += int(r.Plus4)
		}
		for range n {
			deck = append(deck, r.Card)
		}
	}
	return deck, nil
}

// numCardIndex is the number of distinct cards (see cardIndex).
const numCardIndex = 36 + 4 + 9 + 1 + 5

// cardIndex maps a valid card to a dense index in [0, numCardIndex):
// numbers 0–35 (colour-major), colour wilds 36–39, black wilds 40–48, the
// super wild 49, currency 50–54. It returns -1 for an invalid card.
func cardIndex(c Card) int {
	switch c.Kind {
	case KindNumber:
		if c.Color >= Blue && c.Color <= Pink && c.Value >= 1 && c.Value <= 9 {
			return int(c.Color-Blue)*9 + int(c.Value) - 1
		}
	case KindColorWild:
		if c.Color >= Blue && c.Color <= Pink && c.Value == 0 {
			return 36 + int(c.Color-Blue)
		}
	case KindBlackWild:
		if c.Color == NoColor && c.Value >= 1 && c.Value <= 9 {
			return 40 + int(c.Value) - 1
		}
	case KindSuperWild:
		if c.Color == NoColor && c.Value == 0 {
			return 49
		}
	case KindCurrency:
		if c.Color == NoColor && c.Value >= 1 && c.Value <= 5 {
			return 50 + int(c.Value) - 1
		}
	}
	return -1
}

// cardAt is the inverse of cardIndex.
func cardAt(i int) Card {
	switch {
	case i < 36:
		return Card{Kind: KindNumber, Color: Color(i/9) + Blue, Value: uint8(i%9) + 1}
	case i < 40:
		return Card{Kind: KindColorWild, Color: Color(i-36) + Blue}
	case i < 49:
		return Card{Kind: KindBlackWild, Value: uint8(i-40) + 1}
	case i == 49:
		return Card{Kind: KindSuperWild}
	default:
		return Card{Kind: KindCurrency, Value: uint8(i-50) + 1}
	}
}

// numberIndex is cardIndex for a valid number card, without the checks.
func numberIndex(c Card) int { return int(c.Color-Blue)*9 + int(c.Value) - 1 }
