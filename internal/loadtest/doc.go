// Package loadtest plays many concurrent games of DIX, Qwixx or Dixxit
// against one bot and measures how the bot keeps up: the load benchmark
// of cmd/dixload.
//
// Run starts a real Redis (a private redis-server unless Config.RedisURL is
// given) and the Discord stand-in (internal/fakediscord) in this process,
// starts the bot through a Bot (a child process of cmd/dixbot, so that its
// CPU time and memory are its own), creates one guild and channel per game
// and plays every game with scripted players. A player knows only what a
// person in the channel knows: the board message (who is asked to decide,
// by name; the buttons carry the state's version), the private prompts the
// bot answers with, and the final scoreboard. It never reads the store.
//
// Every game is played on the bot's shared table the same way (table.go):
// the start command opens a lobby, the others join, the creator seats the
// computers and starts; the lobby becomes the board, which the players
// follow wherever the bot shows it (a board posted again further down the
// channel replaces it). Whenever the board asks players who have no
// decision under way, each makes it beside the others after their own
// think time, as the game's player does (dix.go, qwixx.go, dixxit.go):
// only how a board is read and how a decision is made differ by game.
//
// The figures come from outside the bot: answer latencies as the stand-in
// sees them (fakediscord.Response.Latency, from the interaction's creation
// to its answer), the stand-in's request counters (bot token and
// interaction tokens, 429s), the bot's CPU time and peak memory from
// /proc, and Redis's own counters (INFO). Nothing is asserted about time:
// Report only describes the run.
//
// It depends on fakediscord and locales (to read the boards' texts and the
// scoreboards' titles), never on the bot's packages: the bot is a black
// box reached through the stand-in. Linux only (/proc).
package loadtest
