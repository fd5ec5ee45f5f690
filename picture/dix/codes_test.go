package dix

import (
	"testing"

	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// boardsOf are the bands of the boards of a game of players from seed,
// after each decision.
func boardsOf(t *testing.T, players int, seed int64) []picture.Bands {
	return picturetest.BandsOf(t, gameBoards(t, players, seed), boardBands)
}

// TestCodes: the boards' codes are fitted to the boards of two games of
// three players as they are drawn now (-update writes them), and save at
// least 8% of the bytes of the boards of another game, of three players
// and of five.
func TestCodes(t *testing.T) {
	picturetest.CheckCodes(t, picturetest.CodesCase{Pkg: "dix", Name: "boardCounts", Table: boardCounts,
		Doc:    "the symbols of the boards of two games of three players, after each decision",
		Fit:    append(boardsOf(t, 3, 5), boardsOf(t, 3, 6)...),
		Others: [][]picture.Bands{boardsOf(t, 3, 9), boardsOf(t, 5, 9)}, Saves: 0.08})
}
