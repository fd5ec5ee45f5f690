package dix

import (
	"testing"

	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// boardsOf are the bands of every k-th board of a game of players from
// seed, after each decision.
func boardsOf(t *testing.T, k, players int, seed int64) []picture.Bands {
	return picturetest.BandsOf(t, picturetest.Every(k, gameBoards(t, players, seed)), boardBands)
}

// TestCodes: the boards' codes are fitted to every other board of two
// games of three players as they are drawn now (-update writes them),
// and save at least 8% of the bytes of boards of another game, of three
// players and of five.
func TestCodes(t *testing.T) {
	picturetest.CheckCodes(t, picturetest.CodesCase{Pkg: "dix", Name: "boardCounts", Table: boardCounts,
		Doc:    "the symbols of every other board of two games of three players",
		Fit:    append(boardsOf(t, 2, 3, 5), boardsOf(t, 2, 3, 6)...),
		Others: [][]picture.Bands{boardsOf(t, 4, 3, 9), boardsOf(t, 4, 5, 9)}, Saves: 0.08})
}
