// Package dixview is DIX's presentation on the Discord table: what a DIX
// game looks like in Discord, in the reader's language, and nothing of how
// the table runs it.
//
// It renders, from the engine's state (engine/dix) and a small Table value
// the table fills (names by seat, the turn, the recent lines, the clock's
// and pace's words, the table's own buttons):
//   - the public board (embed, status, risk, auction and footer lines) and
//     its buttons; the board of an abandoned game; the summary an old board
//     becomes; the final scoreboard; a player's hand;
//   - cards, colours and payments as text;
//   - the engine's events as lines of the log;
//   - the hint (odds, and what the strong computer player would do);
//   - the prompts' components: the quick bid amounts, the market's select
//     menus, the auction winner's payment step, and the payment picker,
//     whose partial pick lives in its custom ids (Pick).
//
// Every custom id it builds starts with "dix:" (ID); the verbs are the ones
// the table's router reads, and their spellings never change, since they
// are stored on messages already posted. Every string comes from locales,
// under keys that start with "dix_" or that the table shares between games.
//
// It may import the engine (engine/dix), the computer player (computer/dix),
// locales and discordgo; never the table (package bot), which imports it
// and keeps the handlers, the turn loop, the outbox, the pictures and the
// table's data.
package dixview
