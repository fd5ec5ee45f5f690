package dixxit

import (
	"math/rand/v2"
	"testing"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/picture/dixxit/deck"
)

// BenchmarkNewPlayer indexes the deck's keywords and synonyms (once per
// table).
func BenchmarkNewPlayer(b *testing.B) {
	for b.Loop() {
		NewPlayer(deck.Keywords, deck.Synonyms, "en")
	}
}

// BenchmarkClue is one clue of the active player on the deck.
func BenchmarkClue(b *testing.B) {
	p := NewPlayer(deck.Keywords, deck.Synonyms, "en")
	s, err := dixxit.Rules{}.New(engine.Setup{Players: 4, Seed: 3, First: 0})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		if _, err := p.Decide(s, 0, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGuess is one guesser's finger on the deck.
func BenchmarkGuess(b *testing.B) {
	p := NewPlayer(deck.Keywords, deck.Synonyms, "en")
	s, err := dixxit.Rules{}.New(engine.Setup{Players: 4, Seed: 3, First: 0})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Apply(0, "clue night"); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		if _, err := p.Decide(s, 1, r); err != nil {
			b.Fatal(err)
		}
	}
}
