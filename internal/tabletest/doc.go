// Package tabletest is what the tests of the tables on Discord share: a
// Recorder standing in for Discord's API (it records every call and shows
// every message as users see it, so tests click the buttons the bot drew),
// an in-memory store (MemStore), the checks of Discord's limits on every
// message sent (CheckAllCalls), and finders of components by verb. It is
// for tests only and imports no table.
package tabletest
