package dix

import (
	"testing"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// BenchmarkBoardLate5p renders the late 5-player board of board_5p.png.
func BenchmarkBoardLate5p(b *testing.B) {
	g := playUntil(b, 5, 3, lateAuction(15))
	in := board(g, names5)
	picturetest.Bench(b, func() ([]byte, error) { return RenderBoard(in) })
}

// BenchmarkBoardLate5pCold renders the same board from an empty tile
// cache each time: every card, token and text rasterised again, as the
// first board after a start.
func BenchmarkBoardLate5pCold(b *testing.B) {
	g := playUntil(b, 5, 3, lateAuction(15))
	in := board(g, names5)
	picturetest.Bench(b, func() ([]byte, error) {
		picture.DropTiles()
		return RenderBoard(in)
	})
}

// BenchmarkBoardKey is the key of the late 5-player board: what a board
// already drawn costs the bot's memo (bot/pictures.go) instead of a render.
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
