// Package store persists the record of each channel's game: the bot's opaque
// metadata and the engine state (SPEC: one game per channel, every action
// persisted). It implements the dixbot.Store contract twice:
//
//   - Redis (OpenRedis) for production, on one server or a Redis Cluster
//     (Options.Cluster): optimistic concurrency with a Lua compare-and-set,
//     exactly-once interaction ids, expiry of idle games and archives, keys
//     laid out so one game lives in one Cluster slot.
//   - File (OpenFile), the embedded default: a bbolt file that survives
//     restarts and can be opened by one process at a time.
//
// Both write the same binary envelope around a record (see envelope.go):
// magic, envelope format version, record version, flags and update time,
// then the table's metadata, the game's name and its state as bytes that
// the game's own Decode reads. The store reads no game. A value written by
// newer code gives dixbot.ErrSchemaTooNew and damaged bytes give
// dixbot.ErrCorrupt; a bad stored value never panics and never changes
// state.
//
// Errors are the sentinels of the root package (re-exported in errors.go),
// wrapped with %w. Configuration arrives as an Options value: this package
// never reads the environment. It depends on the root package and the
// ratings (package rating) only, never on a game or the bot.
package store
