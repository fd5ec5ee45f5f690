// Package dixxit is the rules of Dixxit (../shared/rules/DIXXIT-SPEC.md,
// rulings X1–X11): a pure transition function behind the engine contract.
// A Game is one game in progress and an engine.State; Rules is the
// engine.Game the table registers.
//
// It imports nothing of the project but the engine contract, and never
// depends on I/O, Discord, the store, the bot or locale strings. Its only
// randomness comes from the Setup seed.
//
// # Moves
//
// A move is a short text (engine.Move):
//
//	clue TEXT   the active player's clue (X4): 1–100 characters after
//	            "clue ", no control characters; it comes from a modal, so
//	            it may be longer than engine.MaxMoveLen
//	aloud       the active player said the clue aloud (X4)
//	skip        the active player gives no clue: the turn passes (X9, the
//	            move taken when the clue time runs out)
//	f N         a guesser's finger on square N (1–9, left to right, top to
//	            bottom), placed after every finger seen so far
//	f N T       the same finger placed at time T: a non-negative integer,
//	            smaller is earlier (X7). The table passes the interaction's
//	            snowflake id, whose high bits are the millisecond at which
//	            Discord received the click, so clicks of one millisecond
//	            are still ordered
//	f N T K     the same finger, clicked on the board of turn K
//	            (View.Turn): refused once turn K is over, so a click that
//	            arrives after its turn was scored never lands on the next
//	            turn (ErrTurnOver)
//	out         a guesser has no finger this turn (X9, the move taken when
//	            the guessing time runs out)
//
// # The race (X7, X8)
//
// Every guesser decides at once: ToDecide lists those who have neither a
// finger nor are out. Fingers are kept in the order of their times, not in
// the order Apply sees them (equal times: the one applied first is first),
// and a finger applied later with an earlier time is placed where its time
// puts it:
//
//   - on a free square it stands;
//   - on a square held by a finger with a later time it takes the square
//     (whoever got there first keeps it) and the later finger is lifted:
//     that guesser has no finger again and may pick another square
//     (EvLifted);
//   - on a square held by a finger with an earlier (or equal) time it is
//     refused with ErrSquareTaken (a *TakenError names the holder): the
//     guesser picks again;
//   - on the target it finds it: the fingers with a later time were placed
//     after the find and never count (EvIgnored), those with an earlier
//     time go to the active player (§3.4), and the turn is scored.
//
// The turn is scored, and the guessing closed, as soon as the target is
// found or no guesser is left to decide. A click that reaches Apply after
// that is refused (engine.ErrNotYourTurn and ErrNoClue while the next
// clue is awaited; the table tells a click of an earlier turn by
// View.Turn, or the engine by the turn an "f N T K" move names), even if
// its time is earlier than the find: the rulebook's active player says
// "yes" when the finger lands and the turn stops there, and the bot
// applies clicks within milliseconds of their arrival.
//
// # Secrecy (X11)
//
// The target and the order of the draw pile are in the state only. The
// public view, every view but the active player's, and the events (which
// are public) never depend on them before the turn is scored: a standing
// finger is always a "no", since a finger on the target scores the turn at
// once. The target shows in the active player's view only (View.Secret).
package dixxit
