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
// Against ALIX at difficulty 10 the weights were measured on the same
// 2,000 games twice (seeds 1 and 50001, `go build -tags tune`, DIX_TUNE;
// tune.go). Worth for each number card kept and for each token she gains
// only pay together: they pull the choice to take the numbers (which gives
// her the tableau's money, 3.2) opposite ways. Cards alone (0.2) raised the
// player's average score by 0.9 point and ALIX's by 0.8, since she won more
// wilds with the money she was given, and won no more games (26.1% on seed
// 1); with her tokens at 0.2 too the player won 28.4% and 26.4%; then,
// step by step, each card drawn worth 0.2 for being denied to her (was
// 0.09), a consolation token 0.9 (was 0.75), the runs' growth 0.6 (was
// 0.5) and a money token 0.33 (was 0.3) reached 31.4% and 29.6%, against
// 26.1% and 26.0% before. On seeds not used to choose them (200001 and
// 300001) the same weights won 28.4% and 29.9%, against 24.6% and 27.1%
// (with the end searched up to 700 positions; seeds 1 and 50001 then give
// 31.2% and 29.4%). Tuning on from there found nothing that held: a unit
// of capacity ALIX spends worth 0.2 and her tokens 0.35 won 32.5% and
// 30.8% on the first seeds, but 28.4% and 29.8% on the others.
//
// Measured and left out, with the earlier weights (about 26% at difficulty
// 10): rollouts of the rest of the game (sampled orders of the unseen
// cards), since one game's outcome varies so much that the few dozen
// rollouts a decision can afford choose worse than the exact look-ahead; a
// worth for holding the capacity to win the next wild (it lost); valuing
// each card drawn by what it would add to ALIX's collection, and drawing for
// the chance to win rather than for points (the margin taken as normal),
// neither beyond the noise of 1,000 games. Searching the end exactly from
// further away gains little for its cost: on the same 1,000 games, from 0,
// 3, 5 and 7 cards left the player won 24.0%, 25.3%, 25.9% and 26.5%, the
// last at a seventh of the speed (the search now stops at 700 positions,
// which keeps the slowest decision well under 20 ms for 0.2 point of win
// rate). Nor did reshaping the worth of money (2,000 games each, against
// 26.0%): tokens worth less as the deck runs out won 21.9–23.1% (more
// points, but ALIX won more wilds with the money the player let her gain);
// a premium for holding the lowest bid of 5, or more capacity than ALIX,
// 22.6–24.7%; tokens beyond 5 or 7 worth half, 24.8% and 26.6%. Paying for
// purchases with the cards worth least by this valuation instead of tokens
// won 21.9% and 22.6% (seeds 1 and 50001): the player's average score fell
// from 19.45 to 18.87, those cards being worth more later than it said.
//
// It depends only on the engine and the standard library: no Discord, no
// store, no text (reasons are typed values the bot puts into words).
package computer
