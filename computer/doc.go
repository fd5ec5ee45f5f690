// Package computer is the computer player of DIX and the numbers behind it:
// exact odds of the next draw, the score a card adds, and the advice the
// strongest level would give.
//
// It decides every choice the engine offers (engine.Game.Choices) from
// public information only: the deck is used as a multiset (what has not
// been seen yet), never in its order, and a decision is the same whatever
// the order of the cards face down. Decisions are deterministic for a given
// *rand.Rand and fast (well under 20 ms at the strongest level; see the
// benchmarks).
//
// How it plays: every option is valued in points of final score. A
// collection is worth its best score (engine.BestScore) plus a little for
// cards one gap away from lengthening a run (against ALIX, the strong
// level counts instead the expected growth of each colour's longest run
// from the unseen copies of the numbers it lacks); a money token is worth a
// fraction of a point (it buys cards later); what the others gain counts
// against the player. Drawing is valued by an exact expectation over the
// cards left in the deck, looking one or two draws ahead; against ALIX each
// card drawn also counts a little for being one she will not draw (the
// more, the higher the difficulty: she draws more a turn). Auctions are
// valued by what the wild adds to the player and would add to the strongest
// rival, bidding enough to keep later bidders out when that is affordable;
// on ALIX's turn, a player who will not outbid her bids just below her
// capacity, since she outbids by one whatever it costs her (SPEC §5).
//
// Rollouts of the rest of the game (sampled orders of the unseen cards)
// were measured against ALIX and left out: one game's outcome varies so
// much that the few dozen rollouts a decision can afford choose worse than
// the exact look-ahead. So were, at difficulty 10: a worth for holding the
// capacity to win the next wild, valuing each card drawn by what it would
// add to ALIX's collection, and drawing for the chance to win rather than
// for points (the margin taken as normal). None won more often beyond the
// noise of 1,000 games, and the capacity term lost. Searching the end
// exactly from further away gains little for its cost: on the same 1,000
// games at difficulty 10, from 0, 3, 5 and 7 cards left the player won
// 24.0%, 25.3%, 25.9% and 26.5%, the last at a seventh of the speed.
// Nor did reshaping the worth of money help (2,000 games each, against
// 26.0% for the weights below): tokens worth less as the deck runs out won
// 21.9–23.1% (more points, but ALIX won more wilds with the money the
// player let her gain); a premium for holding the lowest bid of 5, or more
// capacity than ALIX, 22.6–24.7%; tokens beyond 5 or 7 worth half, 24.8%
// and 26.6%.
//
// It depends only on the engine and the standard library: no Discord, no
// store, no text (reasons are typed values the bot puts into words).
package computer
