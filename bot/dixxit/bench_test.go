package dixxit

import (
	"testing"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	rules "github.com/dixgame/dixbot/engine/dixxit"
)

// benchBoard renders the board of a turn just scored (its picture above
// the new grid), its pictures drawn (kept false) or the ones the message
// keeps (kept true).
func benchBoard(b *testing.B, kept bool) {
	st, err := rules.Rules{}.New(engine.Setup{Players: 4, Seed: 5, First: 0})
	if err != nil {
		b.Fatal(err)
	}
	g := st.(*rules.Game)
	target := g.ViewOf(0).Secret.Target
	if _, err := g.Apply(0, "clue sea"); err != nil {
		b.Fatal(err)
	}
	if _, err := g.Apply(2, rules.FingerMove(target, 10)); err != nil {
		b.Fatal(err)
	}
	tb := present.Table{Lang: "en", Names: []string{"Ann", "Bob", "Chloé", "Dan"}, Pictures: true}
	if kept {
		tb.Kept = Presenter{}.Board(tb, g).Picture
	}
	b.ReportAllocs()
	for b.Loop() {
		if pb := (Presenter{}).Board(tb, g); pb.Picture == "" || kept != (len(pb.Files) == 0) {
			b.Fatalf("picture %q, %d files", pb.Picture, len(pb.Files))
		}
	}
}

// BenchmarkBoard is a board whose pictures are drawn.
func BenchmarkBoard(b *testing.B) { benchBoard(b, false) }

// BenchmarkBoardKept is a board whose pictures the message keeps.
func BenchmarkBoardKept(b *testing.B) { benchBoard(b, true) }
