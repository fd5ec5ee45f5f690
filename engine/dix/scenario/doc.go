// Package scenario runs DIX scenario files: a line-based script of one game
// (the table, the deck, the actions and what must hold after them), used by
// the rules tests and by `dixsim replay`. The notation is documented in
// engine/dix/testdata/scenarios/README.md; the actions are written as
// dix.FormatAction writes them.
//
// It depends only on the rules package engine/dix and the standard library:
// never on I/O beyond the reader it is given, Discord, the store or the bot.
package scenario
