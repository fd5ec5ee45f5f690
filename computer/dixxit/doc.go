// Package dixxit is the computer player of Dixxit (X10): a clue-giver and
// guessers that play with the keywords of the deck's pictures (DIXXIT-SPEC
// §8).
//
// The clue-giver picks a keyword of its target that matches, as well as it
// matches the target, one or two other pictures of the grid: an ambiguous
// clue, neither obvious nor hopeless (the rulebook's "intersection" rather
// than "labyrinth"). Guessers rank the free squares by how well the clue
// matches each picture's keywords in either language (whole phrase, then
// words, then word stems, accents and case ignored) and put a finger on the
// best, drawing among equals; a clue said aloud is one they cannot hear, so
// they pick at random. Out of time (X9), a guesser has no finger and an
// active player skips the turn.
//
// It reads only what its seat may see: the seat's own view
// (dixxit.Game.ViewOf), where a guesser finds no target. Decisions are
// deterministic for a given *rand.Rand.
//
// It depends only on the rules (engine/dixxit), the engine contract and the
// standard library plus golang.org/x/text for accents; the keywords come in
// as a function (the deck's, picture/dixxit/deck.Keywords), so the package
// never reads the deck's files itself.
package dixxit
