package qwixx

import "github.com/dixgame/dixbot/engine/qwixx"

// EndNear reports whether the strong level plays g for the win (endNear on
// the sheets as every seat sees them).
func EndNear(g *qwixx.Game) bool {
	var buf [qwixx.MaxPlayers]qwixx.Sheet
	return endNear(g, publicSheets(g, buf[:]))
}
