// Package clock keeps the time of a turn-based game played over hours, in
// the manner of Board Game Arena's turn-based mode: each player has a time
// bank, a decision may use it, and every decision made adds an increment
// to it. It says when a decision is due, when to remind the player (at most
// twice per decision), and stops while the game is paused.
//
// It knows nothing of DIX, Discord or a store: a Clock is a small value,
// serialisable as JSON, kept with the game and changed by its owner; times
// are passed in, never read from the system, so tests need no sleeping.
package clock
