package qwixx

import (
	"testing"

	"github.com/dixgame/dixbot/bot/present"
	rules "github.com/dixgame/dixbot/engine/qwixx"
)

// benchBoard renders a board of five sheets in play, its picture drawn
// (kept false) or the one the message keeps (kept true).
func benchBoard(b *testing.B, kept bool) {
	g := sheetsGame(b, "r2 r3 y4 g10 b12", "r5 y2 y3 P", "g12 g11 b6", "r2 r4 r6 y9 b11 b10 P P", "-")
	tb := present.Table{Lang: "en", Names: []string{"Ann", "Bob", "Cat", "Dan", "Eve"}, Computer: make([]bool, 5), Pictures: true}
	if kept {
		tb.Kept = Presenter{}.Board(tb, rules.StateOf(g)).Picture
	}
	b.ReportAllocs()
	for b.Loop() {
		if pb := (Presenter{}).Board(tb, rules.StateOf(g)); pb.Picture == "" || kept != (len(pb.Files) == 0) {
			b.Fatalf("picture %q, %d files", pb.Picture, len(pb.Files))
		}
	}
}

// BenchmarkBoard is a board whose picture is drawn: a click's answer, an
// edit whose picture changed.
func BenchmarkBoard(b *testing.B) { benchBoard(b, false) }

// BenchmarkBoardKept is a board whose picture the message keeps: an edit
// of the text alone (a pause, a clock line).
func BenchmarkBoardKept(b *testing.B) { benchBoard(b, true) }

// BenchmarkBoardText is the board without pictures: its text alone.
func BenchmarkBoardText(b *testing.B) {
	g := sheetsGame(b, "r2 r3 y4 g10 b12", "r5 y2 y3 P", "g12 g11 b6", "r2 r4 r6 y9 b11 b10 P P", "-")
	tb := present.Table{Lang: "en", Names: []string{"Ann", "Bob", "Cat", "Dan", "Eve"}, Computer: make([]bool, 5)}
	b.ReportAllocs()
	for b.Loop() {
		if pb := (Presenter{}).Board(tb, rules.StateOf(g)); pb.Content == "" {
			b.Fatal("no text")
		}
	}
}
