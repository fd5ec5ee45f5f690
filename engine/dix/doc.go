// Package dix is the rules of DIX (the French edition of TEN): the deck,
// the state of one game, the transition function Apply, the payment helpers,
// the solo opponent ALIX, scoring and the compact serialised form.
//
// The package is a pure transition function: state + action → new state +
// events, or a typed error (errors.go) and no change at all. Events describe
// what happened; rendering them is the caller's business.
//
// It must never depend on I/O, Discord, Redis, the store, the bot, locale
// strings, logging, the clock or global randomness: all randomness comes from
// Options.Seed (math/rand/v2 PCG), so the same seed and the same actions give
// the same state, byte for byte. It imports nothing of this module but the
// engine contract, which Rules and State (contract.go) implement.
//
// Rule numbers in comments (R1 … R14, §3.4 …) refer to the rules
// specification (docs/RULES.md).
package dix
