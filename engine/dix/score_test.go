package dix

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata")

// mustCards parses a collection in SPEC §7 notation.
func mustCards(t testing.TB, s string) []Card {
	t.Helper()
	cs, err := ParseCards(s)
	require.NoError(t, err, s)
	return cs
}

// mustParse parses cards in SPEC §7 notation and panics on a typo.
func mustParse(s string) []Card {
	cs, err := ParseCards(s)
	if err != nil {
		panic(err)
	}
	return cs
}

// allNumbers is one of each of the 36 number cards.
const allNumbers = "b1 b2 b3 b4 b5 b6 b7 b8 b9 g1 g2 g3 g4 g5 g6 g7 g8 g9 " +
	"o1 o2 o3 o4 o5 o6 o7 o8 o9 p1 p2 p3 p4 p5 p6 p7 p8 p9"

// allWilds is every wild of the 4–5 player deck: two colour wilds per
// colour, the black wilds 1–9 and the super wild.
const allWilds = "b# b# g# g# o# o# p# p# *1 *2 *3 *4 *5 *6 *7 *8 *9 **"

// runScoreOf is the longest run in a number mask (bit n-1 for n) and its score.
func runScoreOf(mask uint16) (lo, hi uint8, score int) {
	for n := uint8(1); n <= 9; n++ {
		if mask&(1<<(n-1)) == 0 {
			continue
		}
		m := n
		for m < 9 && mask&(1<<m) != 0 {
			m++
		}
		if l := int(m-n) + 1; l > score {
			lo, hi, score = n, m, l
		}
	}
	if score == 9 {
		score++ // 4.1
	}
	return lo, hi, score
}

// bruteScore is the reference optimum: every wild tries every cell it may
// stand for (a wild on a cell already filled is a wild that adds nothing).
func bruteScore(collection []Card) int {
	var grid [4]uint16
	var wilds []Card
	for _, c := range collection {
		switch {
		case !c.Valid():
		case c.Kind == KindNumber:
			grid[c.Color-Blue] |= 1 << (c.Value - 1)
		case c.IsWild():
			wilds = append(wilds, c)
		}
	}
	var rec func(i int) int
	rec = func(i int) int {
		if i == len(wilds) {
			total := 0
			for _, m := range grid {
				_, _, s := runScoreOf(m)
				total += s
			}
			return total
		}
		best := 0
		try := func(k int, n uint8) {
			old := grid[k]
			grid[k] |= 1 << (n - 1)
			best = max(best, rec(i+1))
			grid[k] = old
		}
		w := wilds[i]
		for k := range 4 {
			for n := uint8(1); n <= 9; n++ {
				switch {
				case w.Kind == KindColorWild && int(w.Color-Blue) == k,
					w.Kind == KindBlackWild && w.Value == n,
					w.Kind == KindSuperWild:
					try(k, n)
				}
			}
		}
		return best
	}
	return rec(0)
}

// checkArrangement verifies that sc is a legal arrangement of collection
// that scores what it says: one placement per wild in collection order, each
// used wild standing for a number it may stand for, on a cell no number card
// or other wild fills, inside its colour's reported run; each reported run
// fully filled and the longest of its colour; the total the sum.
func checkArrangement(t *testing.T, collection []Card, sc Score) {
	t.Helper()
	var grid [4]uint16
	var wilds []Card
	for _, c := range collection {
		if c.Valid() && c.Kind == KindNumber {
			grid[c.Color-Blue] |= 1 << (c.Value - 1)
		}
		if c.IsWild() {
			wilds = append(wilds, c)
		}
	}
	require.Len(t, sc.Placements, len(wilds), "one placement per wild")
	for i, p := range sc.Placements {
		assert.Equal(t, wilds[i], p.Wild, "placement %d is for the wild in collection order", i)
		if !p.Used {
			assert.Equal(t, Placement{Wild: p.Wild}, p, "an unused wild has zero placement")
			continue
		}
		require.True(t, p.Wild.Valid(), "an invalid wild is never used")
		require.True(t, p.Color >= Blue && p.Color <= Pink && p.Value >= 1 && p.Value <= 9, "placement %+v", p)
		switch p.Wild.Kind {
		case KindColorWild:
			assert.Equal(t, p.Wild.Color, p.Color, "a colour wild stays in its colour")
		case KindBlackWild:
			assert.Equal(t, p.Wild.Value, p.Value, "a black wild keeps its number")
		}
		k, bit := p.Color-Blue, uint16(1)<<(p.Value-1)
		assert.Zero(t, grid[k]&bit, "wild %v placed on a filled cell %v%d", p.Wild, p.Color, p.Value)
		cs := sc.Colors[k]
		assert.True(t, p.Value >= cs.Lo && p.Value <= cs.Hi, "used wild %+v outside the run %+v", p, cs)
		grid[k] |= bit
	}
	total := 0
	for k, col := range Colors {
		cs := sc.Colors[k]
		assert.Equal(t, col, cs.Color)
		lo, hi, s := runScoreOf(grid[k])
		assert.Equal(t, s, cs.Score, "colour %v: reported score is the longest run", col)
		if s == 0 {
			assert.Equal(t, ColorScore{Color: col}, cs)
			continue
		}
		assert.Equal(t, int(cs.Hi-cs.Lo)+1, cs.Length)
		assert.Equal(t, cs.Length+cs.Bonus, cs.Score)
		if cs.Length == 9 {
			assert.Equal(t, 1, cs.Bonus)
		} else {
			assert.Equal(t, 0, cs.Bonus)
		}
		run := uint16(1<<(cs.Hi-cs.Lo+1)-1) << (cs.Lo - 1)
		assert.Equal(t, run, grid[k]&run, "colour %v: run %d–%d fully filled (longest %d–%d)", col, cs.Lo, cs.Hi, lo, hi)
		total += cs.Score
	}
	assert.Equal(t, total, sc.Total)
}

func TestBestScore(t *testing.T) {
	type want struct {
		card  string // a wild in notation, or "" for none
		place string // what it stands for ("g4"), or "" for unused
	}
	tests := []struct {
		name   string
		cards  string
		total  int
		scores [4]int // blue, green, orange, pink
		wilds  []want // every placement, in collection order
	}{
		{
			// 4.1: blue 6 + green 9 (+1) + pink 5 + orange 3 = 24.
			name:   "rulebook example",
			cards:  "b1 b2 b3 b3 b4 b5 b6 b9 g1 g2 g3 g# g5 g6 *7 g8 g9 p2 p3 p4 p5 p6 p8 o1 o4 o5 o6 o9",
			total:  24,
			scores: [4]int{6, 10, 3, 5},
			wilds:  []want{{"g#", "g4"}, {"*7", "g7"}},
		},
		{name: "empty collection", cards: "", total: 0},
		{name: "single number", cards: "o7", total: 1, scores: [4]int{0, 0, 1, 0}},
		{name: "duplicates add nothing", cards: "g3 g3 g3 g4 g4", total: 2, scores: [4]int{0, 2, 0, 0}},
		{
			// R14: two blue colour wilds make a blue run of 2 on their own.
			name: "R14 colour wilds only", cards: "b# b#", total: 2, scores: [4]int{2, 0, 0, 0},
			wilds: []want{{"b#", "b1"}, {"b#", "b2"}},
		},
		{
			// R14: a lone super wild is a run of 1 in the first colour.
			name: "R14 super wild only", cards: "**", total: 1, scores: [4]int{1, 0, 0, 0},
			wilds: []want{{"**", "b1"}},
		},
		{
			name: "R14 black wilds only", cards: "*4 *5 *6", total: 3, scores: [4]int{3, 0, 0, 0},
			wilds: []want{{"*4", "b4"}, {"*5", "b5"}, {"*6", "b6"}},
		},
		{
			// 4.1: a full run with wilds still earns the bonus.
			name: "full run bonus with wilds", cards: "o1 o2 o3 o6 o7 o# o# *5 **", total: 10,
			scores: [4]int{0, 0, 10, 0},
			wilds:  []want{{"o#", "o4"}, {"o#", "o8"}, {"*5", "o5"}, {"**", "o9"}},
		},
		{
			name: "full run of wilds only", cards: "p# p# *1 *2 *3 *4 *5 *6 *7", total: 10,
			scores: [4]int{0, 0, 0, 10},
		},
		{
			// The black 3 completes blue or green, not both.
			name: "black wild shared between colours but used once", cards: "b1 b2 b4 g1 g2 g4 *3", total: 6,
			scores: [4]int{4, 2, 0, 0},
			wilds:  []want{{"*3", "b3"}},
		},
		{
			name: "black wild goes where it helps most", cards: "b1 b2 b4 g1 g2 g4 g5 g6 *3", total: 8,
			scores: [4]int{2, 6, 0, 0},
			wilds:  []want{{"*3", "g3"}},
		},
		{
			name: "super wild fills the best gap", cards: "b1 b2 b4 g5 g6 g7 g8 g9 **", total: 9,
			scores: [4]int{4, 5, 0, 0},
			wilds:  []want{{"**", "b3"}},
		},
		{
			name: "super wild extends a run", cards: "p1 p2 p3 p4 p5 p6 p7 p8 **", total: 10,
			scores: [4]int{0, 0, 0, 10},
			wilds:  []want{{"**", "p9"}},
		},
		{
			name: "wild that adds nothing is unused", cards: "*5 b1 b2 b3 b4 b5 b6 b7 b8 b9 g5 o5 p5", total: 13,
			scores: [4]int{10, 1, 1, 1},
			wilds:  []want{{"*5", ""}},
		},
		{
			name: "colour wild used before the black wild", cards: "g1 g2 g4 g# *3", total: 5,
			scores: [4]int{1, 4, 0, 0},
			wilds:  []want{{"g#", "g3"}, {"*3", "b3"}},
		},
		{
			name: "currency and invalid cards are ignored", cards: "b1 $3 b2", total: 2, scores: [4]int{2, 0, 0, 0},
		},
		{
			name: "worst case all cards", cards: allNumbers + " " + allWilds, total: 40,
			scores: [4]int{10, 10, 10, 10},
			wilds: []want{{"b#", ""}, {"b#", ""}, {"g#", ""}, {"g#", ""}, {"o#", ""}, {"o#", ""}, {"p#", ""}, {"p#", ""},
				{"*1", ""}, {"*2", ""}, {"*3", ""}, {"*4", ""}, {"*5", ""}, {"*6", ""}, {"*7", ""}, {"*8", ""}, {"*9", ""}, {"**", ""}},
		},
		{
			// 8 colour wilds + 9 black wilds + the super wild: one full run
			// (10) and the other 8 wilds one each.
			name: "every wild and no number", cards: allWilds, total: 19, scores: [4]int{10, 5, 2, 2},
		},
		{
			// Only *5 and ** can fill the 5s: two colours full, two split.
			name:  "four colours missing the same number",
			cards: "b1 b2 b3 b4 b6 b7 b8 b9 g1 g2 g3 g4 g6 g7 g8 g9 o1 o2 o3 o4 o6 o7 o8 o9 p1 p2 p3 p4 p6 p7 p8 p9 *5 **",
			total: 28, scores: [4]int{10, 10, 4, 4},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			coll := mustCards(t, tc.cards)
			if tc.name == "currency and invalid cards are ignored" {
				coll = append(coll, Card{}, Card{Kind: KindNumber, Color: Blue, Value: 12})
			}
			got := BestScore(coll)
			checkArrangement(t, coll, got)
			assert.Equal(t, tc.total, got.Total)
			var scores [4]int
			for k, cs := range got.Colors {
				scores[k] = cs.Score
			}
			assert.Equal(t, tc.scores, scores)
			if tc.wilds != nil {
				var gotWilds []want
				for _, p := range got.Placements {
					w := want{card: p.Wild.String()}
					if p.Used {
						w.place = Card{Kind: KindNumber, Color: p.Color, Value: p.Value}.String()
					}
					gotWilds = append(gotWilds, w)
				}
				assert.Equal(t, tc.wilds, gotWilds)
			}
			if len(coll) <= 12 && len(got.Placements) <= 5 {
				assert.Equal(t, bruteScore(coll), got.Total, "brute force")
			}
		})
	}
}

func TestBestScoreInvalidWild(t *testing.T) {
	coll := []Card{
		{Kind: KindColorWild}, // no colour
		{Kind: KindBlackWild, Value: 10},
		{Kind: KindSuperWild, Value: 3},
		{Kind: KindNumber, Color: Pink, Value: 4},
	}
	got := BestScore(coll)
	assert.Equal(t, 1, got.Total)
	require.Len(t, got.Placements, 3)
	for i, p := range got.Placements {
		assert.Equal(t, Placement{Wild: coll[i]}, p)
	}
}

func TestBestScoreDoesNotModifyInput(t *testing.T) {
	coll := mustCards(t, "b1 b# *3 ** g2")
	orig := slices.Clone(coll)
	BestScore(coll)
	assert.Equal(t, orig, coll)
}

// randomCollection draws number cards and up to maxWilds wilds. With deckOnly
// the wilds are distinct cards of the real deck; otherwise duplicate black and
// super wilds (which the deck cannot produce) may appear too.
func randomCollection(r *rand.Rand, maxWilds int, deckOnly bool) []Card {
	var coll []Card
	density := r.Float64()
	for _, col := range Colors {
		for v := uint8(1); v <= 9; v++ {
			for r.Float64() < density*0.8 {
				coll = append(coll, Card{Kind: KindNumber, Color: col, Value: v})
				if r.IntN(3) > 0 {
					break
				}
			}
		}
	}
	pool := mustParse(allWilds)
	if !deckOnly {
		pool = append(pool, mustParse("*1 *3 *5 *5 ** b# g#")...)
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	coll = append(coll, pool[:r.IntN(maxWilds+1)]...)
	if r.IntN(4) == 0 {
		coll = append(coll, Card{Kind: KindCurrency, Value: uint8(r.IntN(5) + 1)})
	}
	r.Shuffle(len(coll), func(i, j int) { coll[i], coll[j] = coll[j], coll[i] })
	return coll
}

// TestBestScoreMatchesBruteForce is the proof of optimality: on thousands of
// random small collections the solver's total equals the exhaustive optimum,
// and its arrangement is legal and scores that total.
func TestBestScoreMatchesBruteForce(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	for _, deckOnly := range []bool{true, false} {
		t.Run(fmt.Sprintf("deckOnly=%v", deckOnly), func(t *testing.T) {
			r := rand.New(rand.NewPCG(14, 41))
			for i := range n {
				coll := randomCollection(r, 4+i%2, deckOnly)
				got := BestScore(coll)
				want := bruteScore(coll)
				if got.Total != want {
					t.Fatalf("collection %q: got total %d, want %d (%+v)", FormatCards(coll), got.Total, want, got)
				}
				checkArrangement(t, coll, got)
				if t.Failed() {
					t.Fatalf("collection %q", FormatCards(coll))
				}
			}
		})
	}
}

// TestBestScoreOrderIndependent: the same multiset in any order gives the
// same total and runs, and the same placements up to order.
func TestBestScoreOrderIndependent(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	key := func(ps []Placement) []string {
		var ks []string
		for _, p := range ps {
			ks = append(ks, fmt.Sprintf("%v>%v%d/%v", p.Wild, p.Color, p.Value, p.Used))
		}
		slices.Sort(ks)
		return ks
	}
	for range 500 {
		coll := randomCollection(r, 10, true)
		want := BestScore(coll)
		shuffled := slices.Clone(coll)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got := BestScore(shuffled)
		require.Equal(t, want.Total, got.Total, FormatCards(coll))
		require.Equal(t, want.Colors, got.Colors, FormatCards(coll))
		require.Equal(t, key(want.Placements), key(got.Placements), FormatCards(coll))
	}
}

// TestBestScoreManyWilds checks large collections (too many wilds for the
// brute force) against an upper bound and for a legal arrangement.
func TestBestScoreManyWilds(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for range 300 {
		coll := randomCollection(r, 18, true)
		got := BestScore(coll)
		checkArrangement(t, coll, got)
		// Adding a card never lowers the optimum.
		more := append(slices.Clone(coll), Card{Kind: KindSuperWild})
		assert.GreaterOrEqual(t, BestScore(more).Total, got.Total, FormatCards(coll))
		if t.Failed() {
			t.Fatalf("collection %q", FormatCards(coll))
		}
	}
}

// formatScore renders a Score for the golden files.
func formatScore(sc Score) string {
	var b strings.Builder
	fmt.Fprintf(&b, "total %d\n", sc.Total)
	for _, cs := range sc.Colors {
		if cs.Score == 0 {
			fmt.Fprintf(&b, "%v -\n", cs.Color)
			continue
		}
		fmt.Fprintf(&b, "%v %d-%d length %d bonus %d score %d\n", cs.Color, cs.Lo, cs.Hi, cs.Length, cs.Bonus, cs.Score)
	}
	for _, p := range sc.Placements {
		if p.Used {
			fmt.Fprintf(&b, "%v = %v%d\n", p.Wild, p.Color, p.Value)
		} else {
			fmt.Fprintf(&b, "%v unused\n", p.Wild)
		}
	}
	return b.String()
}

// TestBestScoreGolden pins the solver's full output, tie-breaking included.
// Run `go test ./engine -run Golden -update` to rewrite the files.
func TestBestScoreGolden(t *testing.T) {
	cases := []struct{ name, cards string }{
		{"rulebook", "b1 b2 b3 b3 b4 b5 b6 b9 g1 g2 g3 g# g5 g6 *7 g8 g9 p2 p3 p4 p5 p6 p8 o1 o4 o5 o6 o9"},
		{"empty", ""},
		{"all-wilds", allWilds},
		{"all-cards", allNumbers + " " + allWilds},
		{"wilds-only-r14", "b# b# ** *9"},
		{"mid-game", "b2 b3 b5 g7 g8 o1 o1 o2 p4 p6 p7 *4 g# **"},
		{"sparse-many-wilds", "b5 g1 g9 o3 o7 p2 p8 b# g# o# p# p# *1 *2 *5 *6 *8 **"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			coll := mustCards(t, tc.cards)
			got := "cards " + tc.cards + "\n" + formatScore(BestScore(coll))
			path := filepath.Join("testdata", "score", tc.name+".golden")
			if *updateGolden {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run with -update to create it")
			assert.Equal(t, string(want), got)
		})
	}
}

// FuzzBestScore: any collection the deck can produce (plus currency and
// invalid cards) gets a legal arrangement that scores its total, optimal
// when the brute force can check it.
func FuzzBestScore(f *testing.F) {
	f.Add([]byte{0, 1, 2, 36, 40, 49})
	f.Add([]byte{255, 50, 3, 3, 3})
	deck, err := BuildDeck(5)
	require.NoError(f, err)
	copies := make(map[Card]int)
	for _, c := range deck {
		copies[c]++
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var coll []Card
		held := make(map[Card]int)
		wilds := 0
		for _, b := range data {
			c := Card{Kind: KindNumber, Color: Blue, Value: 10} // invalid
			if int(b) < numCardIndex {
				c = cardAt(int(b))
			}
			if c.Valid() && held[c] == copies[c] {
				continue
			}
			held[c]++
			if c.IsWild() {
				wilds++
			}
			coll = append(coll, c)
		}
		got := BestScore(coll)
		checkArrangement(t, coll, got)
		if wilds <= 3 {
			assert.Equal(t, bruteScore(coll), got.Total, FormatCards(coll))
		}
	})
}

// TestBestScoreMatchesBruteForceManyWilds extends the proof of optimality to
// collections of 6 to 11 wilds of the real deck, kept to those the
// exhaustive search can afford (mostly black and colour wilds).
func TestBestScoreMatchesBruteForceManyWilds(t *testing.T) {
	want, budget := 60, 5e5
	if testing.Short() {
		want = 10
	}
	r := rand.New(rand.NewPCG(2026, 11))
	checked := 0
	for i := 0; checked < want && i < 100000; i++ {
		coll := randomCollection(r, 6+i%6, true)
		cells, wilds := 1.0, 0
		for _, c := range coll {
			switch c.Kind {
			case KindColorWild:
				cells *= 9
			case KindBlackWild:
				cells *= 4
			case KindSuperWild:
				cells *= 36
			default:
				continue
			}
			wilds++
		}
		if wilds < 6 || cells > budget {
			continue
		}
		checked++
		if got, best := BestScore(coll).Total, bruteScore(coll); got != best {
			t.Fatalf("collection %q: got total %d, want %d", FormatCards(coll), got, best)
		}
	}
	require.Equal(t, want, checked, "collections checked")
}
