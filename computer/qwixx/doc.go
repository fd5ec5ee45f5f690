// Package qwixx is the computer player of Qwixx and the numbers behind it:
// the exact value of every solitaire sheet under perfect play (shipped
// with the program), a small table fitted to it, and the expected points
// of each decision open to a seat (for a hint).
//
// It decides from what every seat may see (Q11): its own sheet, the rows
// locked, the roll on the table and its own action 1 decision. It never
// reads the game's future rolls nor what other seats decided in the
// action 1 under way (decisions are simultaneous). Decisions are
// deterministic: only the easy level draws, from the *rand.Rand given.
//
// How it plays. Every decision is valued in points of final score: the
// points a mark adds now (a row's nth mark adds n, the lock one more
// mark, Q3; a penalty −5) plus a measure of the sheet that follows. The
// active seat values its white sum with the best colour sum of the same
// roll to follow (Q2, Q5, Q6, Q8). The levels differ by that measure:
//
//   - strong: alone, Exact, the exact solitaire values computed by
//     dynamic programming (Optimum; `dixsim optimum -table` solves them
//     and writes optimum.bin, shipped in the binary and decoded at the
//     first use): solitaire is played perfectly. With others at the
//     table, it looks one roll ahead: the expectation, over the next roll,
//     of the best it can make of it (the white sum alone on another
//     seat's roll, both actions on its own), each sheet then valued by
//     Compact, an additive table (row code × penalties × rows already
//     closed) fitted by least squares to Optimum, of which it counts a
//     share (strongScale: the game ends sooner, so a box kept for later is
//     worth less), reading the penalties as those of the most penalised
//     seat, whose fourth ends the game for all. It then plays the few
//     best decisions by points, and every one that may end the game at
//     once, out hundreds of times each (the others by the normal level's
//     rule, itself by its table, on dice from a source seeded by the
//     position): at three to five seats for a few rounds, after which a
//     model reads its chance of finishing first from the sheets (at
//     three seats a value network trained by temporal differences on
//     games against normal players, `dixsim netfit`, valuenet3.bin; at
//     four and five a logistic model fitted on its own games, `dixsim
//     winfit`); at two seats to the end of the game. Once the end is
//     near (a row locked, a seat with three penalties, a row that a seat
//     may lock) it plays for the win: it takes the decision that
//     finished first most often; before, it keeps the first (at three
//     seats the decision the network rates highest, elsewhere the best by
//     points) unless another finished first clearly more often (at four
//     and five seats, where it plays twice as many rollouts, more often
//     at all);
//   - normal: a rule of thumb (each open row marks about a third of the
//     boxes left, fewer the more seats there are), blind to penalties;
//   - easy: no measure; it marks the number skipping the fewest boxes when
//     it skips at most one (more on a colour sum, more again to avoid a
//     penalty) and passes otherwise.
//
// Only the strong level's search models the other seats' decisions (as
// the normal level's); otherwise the others matter through the rows they
// lock and, for the strong level, their penalties.
//
// It depends only on the rules (engine/qwixx), the engine contract and the
// standard library: no Discord, no store, no text.
package qwixx
