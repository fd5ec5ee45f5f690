// Package dixtable is DIX's own table on Discord: the /dix command, the
// "dix:<verb>:<version>[:<arg>]" custom ids, DIX's lobby, turn loop,
// prompts, clocks and absent players, its outbox effects, pictures, log and
// results, on its table data (dixTable) and the DIX game of the record
// (dixbot.Record.State). It is built on the shared table (package bot),
// which reaches it only through bot.OwnTable; importing the package hosts
// it (bot.Host, in its init function). Package bot's comment describes how
// a game takes shape on Discord, as this table does it.
//
// It depends on the shared table, DIX's rules (engine/dix), its computer
// player (computer/dix), its presentation (bot/dix) and drawings
// (picture/dix); nothing of the table depends on it.
package dixtable
