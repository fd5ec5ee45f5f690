// Package dix is the computer player of DIX and the numbers behind it:
// exact odds of the next draw, the score a card adds, and the advice the
// strongest level would give.
//
// It decides every choice the engine offers (dix.Game.Choices) from
// public information only: the deck is used as a multiset (what has not
// been seen yet), never in its order, and a decision is the same whatever
// the order of the cards face down. Decisions are deterministic for a given
// *rand.Rand and fast (well under 20 ms at the strongest level; see the
// benchmarks).
//
// How it plays: every option is valued in points of final score. A
// collection is worth its best score (dix.BestScore) plus a little for
// cards one gap away from lengthening a run (against ALIX, the strong
// level counts instead the expected growth of each colour's longest run
// from the unseen copies of the numbers it lacks, and a little for every
// number card held); a money token is worth a fraction of a point (it buys
// cards later); what the others gain counts against the player (against
// ALIX, every token she gains costs a fixed share of a point: she spends
// them all in auctions). Drawing is valued by an exact expectation over the
// cards left in the deck, looking one or two draws ahead; against ALIX each
// card drawn also counts a little for being one she will not draw (the
// more, the higher the difficulty: she draws more a turn). Auctions are
// valued by what the wild adds to the player and would add to the strongest
// rival, bidding enough to keep later bidders out when that is affordable;
// on ALIX's turn, a player who will not outbid her bids just below her
// capacity, since she outbids by one whatever it costs her (SPEC §5).
//
// The weights of the strong level against ALIX, how they were measured
// (`go build -tags tune`, DIX_TUNE, tune.go) and the variants measured and
// left out are in docs/computer-dix-tuning.md.
//
// It depends only on the rules (engine/dix) and the standard library: no Discord, no
// store, no text (reasons are typed values the bot puts into words).
package dix
