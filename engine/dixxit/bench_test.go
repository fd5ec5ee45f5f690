package dixxit

import (
	"testing"

	"github.com/dixgame/dixbot/engine"
)

// BenchmarkDecode decodes a five-player game in its guessing phase, as
// the table does several times a click.
func BenchmarkDecode(b *testing.B) {
	st, err := Rules{}.New(engine.Setup{Players: 5, Seed: 5, First: -1})
	if err != nil {
		b.Fatal(err)
	}
	g := st.(*Game)
	if _, err := g.Apply(g.active, "clue un indice"); err != nil {
		b.Fatal(err)
	}
	data := g.Encode()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Rules{}).Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}
