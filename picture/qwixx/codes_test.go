package qwixx

import (
	"testing"

	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// TestCodes: the boards' codes are fitted to every other board of two
// games of four players as they are drawn now (-update writes them), and
// save at least 5% of the bytes of every other board of another game, of
// two players and of five.
func TestCodes(t *testing.T) {
	boardsOf := func(k, players int, seed int64) []picture.Bands {
		return picturetest.BandsOf(t, picturetest.Every(k, gameBoards(t, players, seed)), boardBands)
	}
	picturetest.CheckCodes(t, picturetest.CodesCase{Pkg: "qwixx", Name: "boardCounts", Table: boardCounts,
		Doc:    "the symbols of every other board of two games of four players",
		Fit:    append(boardsOf(2, 4, 5), boardsOf(2, 4, 6)...),
		Others: [][]picture.Bands{boardsOf(2, 2, 9), boardsOf(2, 5, 9)}, Saves: 0.05})
}
