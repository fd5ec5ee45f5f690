package dix

// Internals that the external tests (package dix_test) reach into: those
// tests build states with the scenario notation, whose package imports this
// one.

// MaxDeck is maxDeck.
const MaxDeck = maxDeck

// AddToSetup counts one more copy of c in the deck g was set up with, so a
// test can corrupt a state without breaking card conservation.
func AddToSetup(g *Game, c Card) { g.setup[cardIndex(c)]++ }

// SetupOf returns the deck g was set up with, as counts by card.
func SetupOf(g *Game) [numCardIndex]uint8 { return g.setup }
