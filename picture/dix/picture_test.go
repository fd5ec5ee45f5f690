package dix

import (
	"bytes"
	"image"
	"image/png"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/picturetest"
)

var enLabels = Labels{
	Market: "Market", Deck: "Deck", Tableau: "Tableau", Total: "total", Money: "money",
	Auction: "Auction", HighBid: "high bid", Score: "score", Paid: "you pay",
}

var names5 = []string{"Alice", "Bob", "Chloé", "Dmitri", "Eleonora Verylongname"}

// playUntil plays a game of players with the engine's simple policy from
// seed until stop says so (or the game ends).
func playUntil(t testing.TB, players int, seed int64, stop func(g *dix.Game) bool) *dix.Game {
	t.Helper()
	g, err := dix.New(dix.Options{Players: players, Seed: seed, FirstPlayer: -1})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(uint64(seed), 11))
	var c dix.Choices
	pol := []dix.Policy{dix.SimplePolicy, dix.RandomPolicy}
	for g.Phase != dix.PhaseOver && !stop(g) {
		seat := g.ToAct()
		g.ChoicesInto(seat, &c)
		_, err := g.Apply(pol[seat%2](g, seat, &c, r))
		require.NoError(t, err)
	}
	return g
}

// lateAuction is a late position with an auction on and a high bid.
func lateAuction(deckLeft int) func(g *dix.Game) bool {
	return func(g *dix.Game) bool {
		return len(g.View().Deck) <= deckLeft && g.Auction != nil && g.Auction.HighBid > 0
	}
}

func board(g *dix.Game, names []string) Board {
	return Board{View: g.View(), Names: names, Acting: g.ToAct(), Labels: enLabels}
}

func TestBoardGolden(t *testing.T) {
	cases := []struct {
		name    string
		players int
		seed    int64
		stop    func(g *dix.Game) bool
	}{
		{"board_2p.png", 2, 1, func(g *dix.Game) bool {
			return len(g.View().Deck) <= 40 && g.Phase == dix.PhaseDraw && len(g.Tableau) >= 2
		}},
		{"board_3p.png", 3, 2, lateAuction(50)},
		{"board_5p.png", 5, 3, lateAuction(15)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := playUntil(t, tc.players, tc.seed, tc.stop)
			require.NotEqual(t, dix.PhaseOver, g.Phase)
			got, err := RenderBoard(board(g, names5[:tc.players]))
			require.NoError(t, err)
			assert.LessOrEqual(t, len(got), 60<<10, "PNG size")
			t.Logf("%s: %d bytes", tc.name, len(got))
			picturetest.Golden(t, tc.name, got)
		})
	}
}

func TestBoardBadInput(t *testing.T) {
	g := playUntil(t, 2, 1, func(g *dix.Game) bool { return len(g.Players[0].Collection) > 0 })
	cases := []struct {
		name string
		edit func(b *Board)
	}{
		{"bad collection card", func(b *Board) { b.View.Seats[0].Collection = append(b.View.Seats[0].Collection, "x9") }},
		{"bad market card", func(b *Board) { b.View.Market = []string{"g0"} }},
		{"bad tableau card", func(b *Board) { b.View.Tableau = []string{"$9"} }},
		{"acting seat out of range", func(b *Board) { b.Acting = 7 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := board(g, names5[:2])
			tc.edit(&b)
			_, err := RenderBoard(b)
			assert.ErrorIs(t, err, ErrBadInput)
		})
	}
}

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	return img
}

// everyWild is a collection with every kind of wild: colour wilds, black
// wilds (one that adds nothing: every colour holds a 1), the super wild,
// copies of a number and a full run.
const everyWild = "b1 b2 b2 b3 b5 b# g1 g1 g1 g2 g3 g4 g5 g6 g7 g9 *8 o1 o4 o5 o6 o6 ** p1 p3 p# *1"

func cards(t *testing.T, s string) []dix.Card {
	t.Helper()
	c, err := dix.ParseCards(s)
	require.NoError(t, err)
	return c
}

func TestHandGolden(t *testing.T) {
	o7 := dix.Card{Kind: dix.KindNumber, Color: dix.Orange, Value: 7}
	p4 := dix.Card{Kind: dix.KindNumber, Color: dix.Pink, Value: 4}
	g7 := dix.Card{Kind: dix.KindNumber, Color: dix.Green, Value: 7}
	cases := []struct {
		name string
		hand Hand
	}{
		{"hand_wilds.png", Hand{Name: "Chloé", Collection: cards(t, everyWild), Money: 7, Consolation: 2, Labels: enLabels}},
		{"hand_candidate.png", Hand{Name: "Chloé", Collection: cards(t, everyWild), Money: 7, Candidate: &o7, Labels: enLabels}},
		{"hand_candidate_new_colour.png", Hand{Name: "Bob", Collection: cards(t, "b1 b2 b2 b2 o3"), Money: 10, Candidate: &p4, Labels: enLabels}},
		{"hand_empty.png", Hand{Name: "Eleonora Verylongname Verylongname Verylongname", Labels: enLabels}},
		{"hand_candidate_paid.png", Hand{Name: "Bob", Collection: cards(t, "g5 g6 o3 o9 b1 b2 b3 b3 p# *4"), Money: 0,
			Candidate: &g7, Pay: cards(t, "o3 o9"), Labels: enLabels}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := RenderHand(tc.hand)
			require.NoError(t, err)
			t.Logf("%s: %d bytes", tc.name, len(got))
			picturetest.Golden(t, tc.name, got)
		})
	}
}

func TestHandBadInput(t *testing.T) {
	w := dix.Card{Kind: dix.KindSuperWild}
	b2 := dix.Card{Kind: dix.KindNumber, Color: dix.Blue, Value: 2}
	cases := []struct {
		name string
		hand Hand
	}{
		{"currency in a collection", Hand{Collection: cards(t, "b1 $3")}},
		{"invalid card", Hand{Collection: []dix.Card{{Kind: dix.KindNumber, Color: dix.Blue, Value: 12}}}},
		{"wild candidate", Hand{Collection: cards(t, "b1"), Candidate: &w}},
		{"paying with a card not held", Hand{Collection: cards(t, "b1 o3"), Candidate: &b2, Pay: cards(t, "o3 o3")}},
		{"paying with a wild", Hand{Collection: cards(t, "b1 o3 **"), Candidate: &b2, Pay: cards(t, "**")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := RenderHand(tc.hand)
			assert.ErrorIs(t, err, ErrBadInput)
		})
	}
}

// TestHandShowsTheCollectionAfterPaying checks that a purchase preview
// draws the collection the purchase leaves: the cards paid gone from the
// grid, the candidate in, and the score change counting both.
func TestHandShowsTheCollectionAfterPaying(t *testing.T) {
	g7 := dix.Card{Kind: dix.KindNumber, Color: dix.Green, Value: 7}
	coll := cards(t, "g5 g6 o3 o4 o9 b1 b2 b3 b3")
	pay := cards(t, "o3 o4")
	h := Hand{Name: "Bob", Collection: coll, Candidate: &g7, Pay: pay, Labels: enLabels}
	before, after, err := h.Scores()
	require.NoError(t, err)
	left := cards(t, "g5 g6 o9 b1 b2 b3 b3 g7")
	assert.Equal(t, dix.BestScore(coll).Total, before)
	assert.Equal(t, dix.BestScore(left).Total, after)
	assert.Less(t, after-before, dix.BestScore(append(slices.Clone(coll), g7)).Total-before, "the payment costs points here")

	// The grid is the one of the collection left, candidate framed.
	got, err := RenderHand(h)
	require.NoError(t, err)
	want, err := RenderHand(Hand{Name: "Bob", Collection: cards(t, "g5 g6 o9 b1 b2 b3 b3"), Candidate: &g7, Labels: enLabels})
	require.NoError(t, err)
	gi, wi := decode(t, got), decode(t, want)
	require.Equal(t, wi.Bounds(), gi.Bounds())
	gridBottom := 8 + 40 + gridLarge.height()
	for y := 0; y < gridBottom; y++ {
		for x := 0; x < wi.Bounds().Dx(); x++ {
			require.Equal(t, wi.At(x, y), gi.At(x, y), "pixel %d,%d of the grid", x, y)
		}
	}
}

func TestScoreboardGolden(t *testing.T) {
	g := playUntil(t, 5, 4, func(*dix.Game) bool { return false })
	require.Equal(t, dix.PhaseOver, g.Phase)
	got, err := RenderScoreboard(Scoreboard{View: g.View(), Names: names5, Labels: enLabels})
	require.NoError(t, err)
	t.Logf("scoreboard: %d bytes", len(got))
	picturetest.Golden(t, "scoreboard_5p.png", got)
}

func TestScoreboardNeedsResults(t *testing.T) {
	g := playUntil(t, 3, 4, func(g *dix.Game) bool { return len(g.View().Deck) < 50 })
	_, err := RenderScoreboard(Scoreboard{View: g.View(), Names: names5})
	assert.ErrorIs(t, err, ErrBadInput)
}

// TestMarketShowsCopies checks that copies of a market card are counted:
// two or three blue 1s carry a disc with their number on the front copy,
// a single one carries none.
func TestMarketShowsCopies(t *testing.T) {
	g := playUntil(t, 2, 1, func(g *dix.Game) bool { return len(g.Players[0].Collection) > 0 })
	for _, n := range []int{1, 2, 3} {
		b := board(g, names5[:2])
		b.View.Market = []string{"g3"}
		for range n {
			b.View.Market = append(b.View.Market, "b1")
		}
		img, err := drawBoard(&b)
		require.NoError(t, err)
		// The blue row comes first; the 1 is its first place.
		cx, ry := margin, margin+labelH+2*gridSmall.stack
		r := countRadius(small)
		x, y := cx+small.w-3-r-1, ry+3-r-1
		for k := 2; k <= 3; k++ {
			assert.Equal(t, k == n, tileAt(img, countTile(k, small, picture.Table), x, y), "%d copies: disc %d", n, k)
		}
		if n == 2 {
			png, err := picture.Encode(img)
			require.NoError(t, err)
			picturetest.Golden(t, "board_market_copies.png", png)
		}
	}
}

// tileAt reports whether every opaque pixel of t is found in img with its
// top-left corner at (x, y).
func tileAt(img *image.Paletted, t *picture.Tile, x, y int) bool {
	for ty := range t.H {
		for tx := range t.W {
			v := t.Pix[ty*t.W+tx]
			if v != picture.Transparent && img.ColorIndexAt(x+tx, y+ty) != v {
				return false
			}
		}
	}
	return true
}

func TestDrawable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Alice", "Alice"},
		{"Chloé", "Chloé"},
		{"Дмитрий", "Дмитрий"},
		{"Ελένη", "Ελένη"},
		{"🤖 Computer 2 (normal)", "Computer 2 (normal)"},
		{"Zoë 🎲 the bold", "Zoë the bold"},
		{"💤", ""},
		{"", ""},
	} {
		assert.Equal(t, tc.want, picture.Drawable(tc.in), "%q", tc.in)
	}
}

// marked is a late 4-player board whose seats are played by a person, the
// computer, an absent player and a person whose name is partly emoji.
func marked(t *testing.T) Board {
	g := playUntil(t, 4, 7, lateAuction(12))
	b := board(g, []string{"Alice", "🤖 Computer 2 (strong)", "Chloé", "🎲 Dmitri 🎲"})
	b.Marks = []picture.Mark{picture.MarkNone, picture.MarkComputer, picture.MarkAway}
	return b
}

// TestSeatMarks checks that a seat the computer plays carries the robot and
// an absent player the moon, just before the name, on the board and on the
// scoreboard, and that nobody else carries either.
func TestSeatMarks(t *testing.T) {
	b := marked(t)
	img, err := drawBoard(&b)
	require.NoError(t, err)
	got, err := picture.Encode(img)
	require.NoError(t, err)
	picturetest.Golden(t, "board_marks.png", got)

	topH := img.Bounds().Dy() - 2*margin - 2*(blockHeight()+colGap)
	for seat, want := range []picture.Mark{picture.MarkNone, picture.MarkComputer, picture.MarkAway, picture.MarkNone} {
		bx := margin + (seat%2)*(blockW+colGap)
		by := margin + topH + colGap + (seat/2)*(blockHeight()+colGap)
		bg := picture.Panel
		x := bx + 8
		if seat == b.Acting {
			bg = picture.PanelAct
			x += 18 + 5 // the arrow first
		}
		if seat == b.View.Active {
			x += 18 + 5 // the star
		}
		y := by + 4 + (headerH-4-20)/2
		for _, m := range []picture.Mark{picture.MarkComputer, picture.MarkAway} {
			assert.Equal(t, m == want, tileAt(img, picture.SeatMarkTile(m, bg, false), x, y), "seat %d, mark %d", seat, m)
		}
	}

	g := playUntil(t, 4, 7, func(*dix.Game) bool { return false })
	sb := Scoreboard{View: g.View(), Names: b.Names, Marks: b.Marks}
	simg, err := drawScoreboard(&sb)
	require.NoError(t, err)
	spng, err := picture.Encode(simg)
	require.NoError(t, err)
	picturetest.Golden(t, "scoreboard_marks.png", spng)
	for i, r := range g.View().Results {
		x := margin + (i%2)*(blockW+colGap) + 8 + 24 + 6 // after the rank
		y := margin + (i/2)*(blockHeight()+colGap) + 4 + (headerH-4-20)/2
		want := picture.MarkNone
		if r.Seat < len(b.Marks) {
			want = b.Marks[r.Seat]
		}
		for _, m := range []picture.Mark{picture.MarkComputer, picture.MarkAway} {
			assert.Equal(t, m == want, tileAt(simg, picture.SeatMarkTile(m, picture.Panel, false), x, y), "scoreboard seat %d, mark %d", r.Seat, m)
		}
	}
}

// TestEveryRuneDrawnHasAGlyph draws every kind of picture, with names that
// hold emoji and labels in both languages' alphabets, then checks that
// every rune rasterised has a glyph in the embedded fonts: none is drawn
// as an empty box.
func TestEveryRuneDrawnHasAGlyph(t *testing.T) {
	for _, tc := range []struct {
		players int
		seed    int64
		stop    func(*dix.Game) bool
	}{{2, 1, lateAuction(60)}, {3, 2, lateAuction(50)}, {5, 3, lateAuction(15)}} {
		g := playUntil(t, tc.players, tc.seed, tc.stop)
		_, err := RenderBoard(board(g, []string{"Zoë 🎲", "🤖 Computer 2 (normal)", "💤", "李 Li", "Ana"}))
		require.NoError(t, err)
	}
	b := marked(t)
	_, err := RenderBoard(b)
	require.NoError(t, err)
	g := playUntil(t, 5, 4, func(*dix.Game) bool { return false })
	_, err = RenderScoreboard(Scoreboard{View: g.View(), Names: b.Names, Marks: b.Marks, Labels: enLabels})
	require.NoError(t, err)
	g7 := dix.Card{Kind: dix.KindNumber, Color: dix.Green, Value: 7}
	for _, h := range []Hand{
		{Name: "🎲 Chloé", Collection: cards(t, everyWild), Money: 7, Consolation: 12, Labels: enLabels},
		{Name: "Bob", Collection: cards(t, "g5 g6 o3 o9 b1 b2 b3 b3 p# *4"), Candidate: &g7, Pay: cards(t, "o3 o9"), Labels: enLabels},
		{Name: "Bob", Collection: cards(t, "g5 g6 g7 g8 o3 o4"), Candidate: &g7, Pay: cards(t, "g5 g6 g7"), Labels: enLabels},
	} {
		_, err := RenderHand(h)
		require.NoError(t, err)
	}

	drawn := picture.DrawnRunes()
	require.NotEmpty(t, drawn)
	var missing []string
	for r := range drawn {
		if !picture.HasGlyph(r) {
			missing = append(missing, string(r))
		}
	}
	assert.Empty(t, missing, "runes drawn as empty boxes")
	for _, r := range "–…−+#0123456789" {
		assert.True(t, drawn[r] || r == '…', "%q is drawn somewhere: the test covers it", r)
	}
}
