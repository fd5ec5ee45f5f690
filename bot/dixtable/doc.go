// Package dixtable is DIX's own table on Discord: the /dix command, the
// "dix:<verb>:<version>[:<arg>]" custom ids, DIX's lobby, turn loop,
// prompts, clocks and absent players, its outbox effects, pictures, log and
// results, on its table data (dixTable) and the DIX game of the record
// (dixbot.Record.State). It is built on the shared table (package bot),
// which reaches it only through bot.OwnTable; importing the package hosts
// it (bot.Host, in its init function). Package bot's comment describes how
// a game takes shape on Discord, as this table does it.
//
// DIX's own prompts:
//   - Bids, purchases and payments are ephemeral prompts: quick bid amounts
//     and a "custom amount" modal; a market select (one per colour when more
//     than 25 cards could be bought), each option with the payment the next
//     step proposes; the proposed payment (R6) or a modal with money
//     tokens, consolation tokens and cards in SPEC §7 notation, written with
//     the colour letters of the user's language (v and r for vert and rose
//     in French; the engine's letters are read too). A bid that wins the
//     auction turns its prompt into the payment step; choosing the buy after
//     a bust (variant) opens the market at once.
//
// What a DIX game looks like (the board and its buttons, the scoreboard,
// the hand, cards and payments as text, the lines of events, the hint, the
// prompts' components and the payment picker) is DIX's presentation,
// package bot/dix (dixview): this table keeps the handlers of the clicks
// and commands, the turn loop, the outbox effects, the pictures and the
// table data (dixTable), and gives the presentation what it needs of that
// data as a dixview.Table (table.go). bot/dix never imports this
// package.
//
// It depends on the shared table, DIX's rules (engine/dix), its computer
// player (computer/dix), its presentation (bot/dix) and drawings
// (picture/dix); nothing of the table depends on it.
package dixtable
