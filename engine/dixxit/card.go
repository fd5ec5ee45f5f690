package dixxit

import (
	"fmt"
)

// Cards is the number of picture cards (§1); each has two faces (X1).
const Cards = 71

// Card is one face of one picture card: 2×number + face + 1, where number
// is 0–70 (the deck's own numbering, picture/dixxit/deck) and face 0 is
// "a", 1 is "b"; the zero Card is no card (an empty square). Its notation
// (§7) is c017a.
type Card uint8

// NumCardFaces is the number of Card values: 142 pictures.
const NumCardFaces = 2 * Cards

// CardOf returns face (0 or 1) of card number n (0–70).
func CardOf(n, face int) Card { return Card(2*n + face + 1) }

// Number returns the card's number, 0–70.
func (c Card) Number() int { return (int(c) - 1) / 2 }

// Face returns the card's face: 0 (a) or 1 (b).
func (c Card) Face() int { return (int(c) - 1) % 2 }

// Valid reports whether c is one of the 142 faces.
func (c Card) Valid() bool { return c >= 1 && c <= NumCardFaces }

// String returns the deck id (c017a), "" for no card.
func (c Card) String() string {
	if c == 0 {
		return ""
	}
	if !c.Valid() {
		return fmt.Sprintf("c?%d", uint8(c))
	}
	return fmt.Sprintf("c%03d%c", c.Number(), 'a'+rune(c.Face()))
}

// ParseCard reads a deck id (c017a, c17a, c000a to c070b). It returns an error wrapping
// ErrBadMove for anything else.
func ParseCard(s string) (Card, error) {
	bad := fmt.Errorf("%w: card %q", ErrBadMove, s)
	if len(s) < 3 || len(s) > 5 || s[0] != 'c' {
		return 0, bad
	}
	face := s[len(s)-1]
	if face != 'a' && face != 'b' {
		return 0, bad
	}
	n := 0
	for _, d := range s[1 : len(s)-1] {
		if d < '0' || d > '9' {
			return 0, bad
		}
		n = 10*n + int(d-'0')
	}
	if n >= Cards {
		return 0, bad
	}
	return CardOf(n, int(face-'a')), nil
}

// cardStrings returns the deck ids of cards, never nil.
func cardStrings(cards []Card) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = c.String()
	}
	return out
}
