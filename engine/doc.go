// Package engine is the small contract every game on the table implements,
// and nothing else: a Game (the definition the table registers: its name, a
// new game from a Setup, a game decoded from bytes) and a State (one game in
// progress: its bytes, its Seq, who decides now, the forced decision, Apply,
// the views, Over, Results, Check); Player is the computer player of a game.
// Each game's rules live in a package of their own below it (engine/dix for
// DIX). It holds no game's rules and must never depend on one, nor on I/O,
// Discord, the store, the bot or locale strings.
//
// # Shape
//
// The interfaces are plain (not generic) and a move is a Move: a short text
// in the game's own notation ("bid 3", "buy g7 m2 g1" for DIX, "7" for a
// number chosen), as a chess engine's UCI moves ("e2e4") are. The table
// holds games of several types in one registry and one router, so it must
// handle a move without knowing its type: generic interfaces
// (Game[S, M]) would either make the whole table generic in every game's
// types or be erased to an interface at the registry anyway. A text move
// travels unchanged from a button's custom id (the table's router parses
// "<game>:<verb>:<seq>:<move>" and hands the move over) or from a modal's
// text field into Apply; it can be logged (it holds only what its sender
// may know) and replayed; the game parses and validates it completely, so a
// forged id is one more bad move (ErrBadMove), never a panic. A move that a
// button carries is at most MaxMoveLen bytes, which keeps the custom id
// under Discord's 100 characters with the game's prefix, a verb and the Seq.
//
// Several seats may have to decide at once (Qwixx's white sum, the Dixxit
// race): ToDecide lists them all, and each Apply takes one seat's decision;
// the store's compare-and-set serialises concurrent clicks, and Seq grows
// with every Apply, so a board's Seq in a custom id tells an outdated board
// while Apply alone says whether a late decision is still open.
//
// Hidden information never leaves the state except through View(seat):
// View(Public) is what everyone may see, View(seat) what that seat may see.
// Events returned by Apply are public too (what only one seat may know shows
// in its view). Views are JSON-ready values of the game's own types; a
// field that only one seat may see carries the struct tag
// `engine:"private"` inside a struct whose int field tagged `engine:"seat"`
// names that seat (a private field with no such struct around it is seen
// by nobody, as DIX's deck order). View(Public) leaves every private field
// zero and View(seat) every one but seat's own: the conformance test of
// package enginetest checks both on every state it reaches.
//
// The model is boardgame.io's game definition (setup, moves, turn with its
// active players, endIf, playerView) and disgo's router (one prefix per
// game, mounted by the table).
package engine
