package dix

import (
	"testing"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// BenchmarkBoardLate5p renders the late 5-player board of board_5p.png.
func BenchmarkBoardLate5p(b *testing.B) {
	g := playUntil(b, 5, 3, lateAuction(15))
	in := board(g, names5)
	picturetest.Bench(b, func() ([]byte, error) { return RenderBoard(in) })
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
