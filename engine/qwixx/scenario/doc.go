// Package scenario runs Qwixx scenario files: a line-based script of one
// game in the notation of §10 (the table, the sheets, each roll, each
// seat's decisions and what must hold after them), used by the rules
// tests. The notation is documented in
// engine/qwixx/testdata/scenarios/README.md.
//
// Every decision goes through the engine contract (qwixx.State.Apply, the
// text the table sends) and is followed by qwixx.CheckStep (the invariants
// of §9); a refused decision must leave the state's bytes unchanged.
//
// It depends only on the rules package engine/qwixx, the engine contract
// and the standard library.
package scenario
