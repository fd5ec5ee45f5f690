// Package app wires the bot program together: it opens the store (Redis or
// the embedded file), connects to Discord's gateway with discordgo, hands
// interactions to the bot, registers the slash commands, serves the optional
// /healthz and /metrics listener (internal/ops), and shuts everything down
// gracefully when its context ends. Between discordgo and the bot, a gate
// drops an interaction delivered a second time (same id) and counts the
// handlers still running, so that shutdown waits for every answer.
//
// It lives outside cmd/dixbot so end-to-end tests can run the real program
// in-process. It receives its Config and logger from the caller and never
// reads the environment or installs signal handlers itself.
package app
