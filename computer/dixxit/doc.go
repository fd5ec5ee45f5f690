// Package dixxit is the computer player of Dixxit (X10): a clue-giver and
// guessers that play with the keywords and synonyms of the deck's pictures
// (DIXXIT-SPEC §8).
//
// The clue-giver picks a keyword of its target (or a word of one, or a
// keyword of the deck the target is associated with) that one or two
// other pictures of the grid match as well as the target: an ambiguous
// clue, neither obvious nor hopeless (the rulebook's "intersection" rather
// than "labyrinth"). Guessers rank the free squares by how well the clue
// matches each picture's keywords and synonyms in either language (whole
// phrase, then words, then word stems, accents and case ignored; a synonym
// counts half as much as a keyword, so "gloomy" finds a bat whose keywords
// say "dark"), then by association (how many keywords the picture shares
// with the deck's other pictures that carry the clue), and put a finger on
// the best, drawing among equals; a clue said aloud is one they cannot
// hear, so they pick at random. Out of time (X9), a guesser has no finger
// and an active player skips the turn.
//
// The keywords and synonyms of the whole deck are public (only the order
// of the pile is secret): NewPlayer indexes them once.
//
// It reads only what its seat may see: the seat's own view
// (dixxit.Game.ViewOf), where a guesser finds no target. Decisions are
// deterministic for a given *rand.Rand.
//
// It depends only on the rules (engine/dixxit), the engine contract and the
// standard library plus golang.org/x/text for accents; the keywords and
// synonyms come in as functions (the deck's, picture/dixxit/deck.Keywords
// and deck.Synonyms), so the package never reads the deck's files itself.
package dixxit
