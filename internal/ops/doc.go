// Package ops serves the bot's operational endpoints: /healthz (is the
// gateway connected and the store reachable) and /metrics (Prometheus text
// exposition, written by hand). Metrics implements bot.Observer.
//
// It depends only on the standard library and on small interfaces it declares
// itself; it never imports discordgo, the bot or a store implementation. The
// program (internal/app) wires it.
package ops
