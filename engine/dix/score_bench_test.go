package dix

import "testing"

// BenchmarkBestScore measures the solver on the collections that bound its
// cost. Goals (SPEC §4.1 scoring at game end and for live standings): the
// worst case under 1 ms, a typical collection under 20 µs.
func BenchmarkBestScore(b *testing.B) {
	cases := []struct{ name, cards string }{
		// The brief's worst case: every wild of the deck and one of each number.
		{"worst-all-cards", allNumbers + " " + allWilds},
		// The hardest instance for the tables: every wild, no number (all nine
		// black wilds matter to every colour).
		{"all-wilds-no-numbers", allWilds},
		{"all-wilds-sparse-numbers", "b5 g1 g9 o3 o7 p2 p8 " + allWilds},
		{"typical-3-wilds", "b2 b3 b5 g7 g8 o1 o1 o2 o4 p4 p6 p7 p8 *4 g# **"},
		{"typical-no-wilds", "b1 b2 b3 b5 b6 g2 g3 g4 o7 o8 o9 p1 p1 p2 p5 p6 p7 p9"},
		{"rulebook", "b1 b2 b3 b3 b4 b5 b6 b9 g1 g2 g3 g# g5 g6 *7 g8 g9 p2 p3 p4 p5 p6 p8 o1 o4 o5 o6 o9"},
	}
	for _, tc := range cases {
		coll := mustParse(tc.cards)
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				BestScore(coll)
			}
		})
	}
}
