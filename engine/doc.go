// Package engine is the place of the small contract every game on the table
// implements (state, moves, who decides now, views per seat, events); each
// game's rules live in a package of their own below it (engine/dix for DIX).
// It holds no game's rules and must never depend on one, nor on I/O,
// Discord, the store, the bot or locale strings.
package engine
