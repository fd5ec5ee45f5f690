// Package loadtest plays many concurrent DIX games against one bot and
// measures how the bot keeps up: the load benchmark of cmd/dixload.
//
// Run starts a real Redis (a private redis-server unless Config.RedisURL is
// given) and the Discord stand-in (internal/fakediscord) in this process,
// starts the bot through a Bot (a child process of cmd/dixbot, so that its
// CPU time and memory are its own), creates one guild and channel per game
// and plays every game with scripted players. A player knows only what a
// person in the channel knows: the board message (whose decision it is is
// the 👉 marker, the buttons carry the state version), the private prompts
// the bot answers with, and the final scoreboard. It never reads the store.
//
// The figures come from outside the bot: answer latencies as the stand-in
// sees them (fakediscord.Response.Latency, from the interaction's creation
// to its answer), the stand-in's request counters (bot token and
// interaction tokens, 429s), the bot's CPU time and peak memory from
// /proc, and Redis's own counters (INFO). Nothing is asserted about time:
// Report only describes the run.
//
// It depends on fakediscord and locales (to recognise the board's marker
// and the scoreboard's title), never on the bot's packages: the bot is a
// black box reached through the stand-in. Linux only (/proc).
package loadtest
