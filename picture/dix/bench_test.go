package dix

import (
	"testing"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// BenchmarkBoardLate5p renders the late 5-player board of board_5p.png,
// every part of it drawn and encoded (no part kept).
func BenchmarkBoardLate5p(b *testing.B) {
	g := playUntil(b, 5, 3, lateAuction(15))
	in := board(g, names5)
	picturetest.Bench(b, func() ([]byte, error) {
		picture.DropBands()
		return RenderBoard(in)
	})
}

// BenchmarkBoardLate5pKept renders the same board again: every part kept.
func BenchmarkBoardLate5pKept(b *testing.B) {
	g := playUntil(b, 5, 3, lateAuction(15))
	in := board(g, names5)
	picturetest.Bench(b, func() ([]byte, error) { return RenderBoard(in) })
}

// BenchmarkBoardGame3p renders the board after each decision of a
// 3-player game, in order, as a bot answers the clicks: the parts a
// decision leaves as they were are kept from the board before.
func BenchmarkBoardGame3p(b *testing.B) {
	boards := gameBoards(b, 3, 5)
	i := 0
	picturetest.Bench(b, func() ([]byte, error) {
		in := boards[i%len(boards)]
		if i++; i%len(boards) == 0 {
			picture.DropBands() // the game starts again: a new game's parts
		}
		return RenderBoard(in)
	})
}

// BenchmarkBoardGame3pWhole renders the same boards, each drawn whole.
func BenchmarkBoardGame3pWhole(b *testing.B) {
	boards := gameBoards(b, 3, 5)
	i := 0
	picturetest.Bench(b, func() ([]byte, error) {
		in := boards[i%len(boards)]
		i++
		picture.DropBands()
		return RenderBoard(in)
	})
}

// gameBoards are the boards of a game of players from seed, one after
// each decision.
func gameBoards(b testing.TB, players int, seed int64) []Board {
	var out []Board
	playUntil(b, players, seed, func(g *dix.Game) bool {
		out = append(out, board(g, names5[:players]))
		return false
	})
	return out
}

// BenchmarkBoardLate5pCold renders the same board from an empty tile
// cache each time: every card, token and text rasterised again, as the
// first board after a start.
func BenchmarkBoardLate5pCold(b *testing.B) {
	g := playUntil(b, 5, 3, lateAuction(15))
	in := board(g, names5)
	picturetest.Bench(b, func() ([]byte, error) {
		picture.DropTiles()
		cardTiles.drop()
		picture.DropBands()
		return RenderBoard(in)
	})
}

// BenchmarkBoardKey is the key of the late 5-player board, as its parts'
// keys are worked out before each render (boardBands).
func BenchmarkBoardKey(b *testing.B) {
	g := playUntil(b, 5, 3, lateAuction(15))
	in := board(g, names5)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := in.Key(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHand(b *testing.B) {
	c, _ := dix.ParseCards(everyWild)
	in := Hand{Name: "Chloé", Collection: c, Money: 7, Consolation: 2, Labels: enLabels}
	picturetest.Bench(b, func() ([]byte, error) { return RenderHand(in) })
}

func BenchmarkScoreboard5p(b *testing.B) {
	g := playUntil(b, 5, 4, func(*dix.Game) bool { return false })
	in := Scoreboard{View: g.View(), Names: names5}
	picturetest.Bench(b, func() ([]byte, error) { return RenderScoreboard(in) })
}
