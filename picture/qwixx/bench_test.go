package qwixx

import (
	"testing"

	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// BenchmarkBoard5p renders the 5-player board of board_5p.png and reports
// the median and 99th percentile of one render and the PNG size.
func BenchmarkBoard5p(b *testing.B) {
	g := playUntil(b, 5, 1, lateWithALock)
	in := Board{View: g.View(-1), Names: names5, Marks: []picture.Mark{picture.MarkNone, picture.MarkComputer}}
	picturetest.Bench(b, func() ([]byte, error) {
		picture.DropBands() // every part drawn
		return RenderBoard(in)
	})
}

// BenchmarkBoardGame4p renders the board after each decision of a
// 4-player game, in order, as a bot answers the clicks: the sheets a
// decision leaves as they were are kept from the board before.
func BenchmarkBoardGame4p(b *testing.B) {
	boards := gameBoards(b, 4, 3)
	i := 0
	picturetest.Bench(b, func() ([]byte, error) {
		in := boards[i%len(boards)]
		if i++; i%len(boards) == 0 {
			picture.DropBands() // the game starts again: a new game's parts
		}
		return RenderBoard(in)
	})
}

// BenchmarkBoardGame4pWhole renders the same boards, each drawn whole.
func BenchmarkBoardGame4pWhole(b *testing.B) {
	boards := gameBoards(b, 4, 3)
	i := 0
	picturetest.Bench(b, func() ([]byte, error) {
		in := boards[i%len(boards)]
		i++
		picture.DropBands()
		return RenderBoard(in)
	})
}

// gameBoards are the public boards of a game of players from seed, one
// after each decision.
func gameBoards(b testing.TB, players int, seed int64) []Board {
	var out []Board
	playUntil(b, players, seed, func(g *rules.Game) bool {
		out = append(out, Board{View: g.View(-1), Names: names5[:players], Labels: Labels{Score: "score"}})
		return false
	})
	return out
}
