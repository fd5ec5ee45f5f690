package qwixx

import (
	"testing"

	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// TestCodes: the boards' codes are fitted to the boards of two games of
// four players as they are drawn now (-update writes them), and save at
// least 5% of the bytes of the boards of another game, of two players and
// of five.
func TestCodes(t *testing.T) {
	boardsOf := func(players int, seed int64) []picture.Bands {
		return picturetest.BandsOf(t, gameBoards(t, players, seed), boardBands)
	}
	picturetest.CheckCodes(t, picturetest.CodesCase{Pkg: "qwixx", Name: "boardCounts", Table: boardCounts,
		Doc:    "the symbols of the boards of two games of four players, after each decision",
		Fit:    append(boardsOf(4, 5), boardsOf(4, 6)...),
		Others: [][]picture.Bands{boardsOf(2, 9), boardsOf(5, 9)}, Saves: 0.05})
}
