package qwixx

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/picturetest"
)

func bandKeys(t *testing.T, b Board) []picture.Key {
	t.Helper()
	p, err := boardBands(&b)
	require.NoError(t, err)
	var out []picture.Key
	for _, band := range p.List {
		out = append(out, band.Key)
	}
	return out
}

// head and row are the indices of seat s's bands in boardBands: its head
// and its row of colour c.
func head(s int) int               { return 1 + 5*s }
func row(s int, c rules.Color) int { return 2 + 5*s + int(c) }

// TestBoardPartsKeys: a change of the board changes the keys of the parts
// that show it and of no other; what no part shows (a seat's plan, which
// only its own view holds, its first decision of the roll, the sequence
// number) changes none. A seat asked to decide, or done deciding, changes
// its sheet's head and not its rows.
func TestBoardPartsKeys(t *testing.T) {
	t.Parallel()
	g := playUntil(t, 3, 1, lateWithALock)
	mk := func() Board { return Board{View: g.View(-1), Names: names5[:3], Labels: Labels{Score: "score"}} }
	k := bandKeys(t, mk())
	locked := g.View(-1).Locked
	open := rules.Color(slices.Index(locked[:], false))
	require.GreaterOrEqual(t, int(open), 0)
	require.Len(t, k, 16) // the roll, three sheets of five bands
	for _, tc := range []struct {
		name    string
		change  func(b *Board)
		changed []int
	}{
		{"the sequence number", func(b *Board) { b.View.Seq++ }, nil},
		{"a plan", func(b *Board) { b.View.Sheets[1].Plan = "c b10" }, nil},
		{"a first decision", func(b *Board) { b.View.Sheets[2].Action1 = "-" }, nil},
		{"a mark on sheet 2", func(b *Board) {
			b.View.Sheets[1].Rows[rules.Red].Marks = append(slices.Clone(b.View.Sheets[1].Rows[rules.Red].Marks), 12)
		}, []int{row(1, rules.Red)}},
		{"a penalty on sheet 3", func(b *Board) { b.View.Sheets[2].Penalties++ }, []int{head(2)}},
		{"sheet 1 decides no more", func(b *Board) { b.View.Sheets[0].Deciding = !b.View.Sheets[0].Deciding }, []int{head(0)}},
		{"a new roll", func(b *Board) { b.View.Dice[rules.W1] = b.View.Dice[rules.W1]%6 + 1 }, []int{0}},
		{"a row locked", func(b *Board) { b.View.Locked[open] = true },
			[]int{row(0, open), row(1, open), row(2, open)}},
		{"the roll passes on", func(b *Board) { b.View.Active = (b.View.Active + 1) % 3 }, nil},
		{"a name", func(b *Board) { b.Names = []string{"Alice", "Zoé", "Chloé"} }, []int{head(1)}},
		{"a score", func(b *Board) { b.View.Sheets[1].Score++ }, []int{head(1)}},
		{"the score's label", func(b *Board) { b.Labels.Score = "points" }, []int{head(0), head(1), head(2)}},
		{"a row's points", func(b *Board) { b.View.Sheets[0].Rows[rules.Blue].Points++ }, []int{row(0, rules.Blue)}},
		{"a mark", func(b *Board) { b.Marks = []picture.Mark{picture.MarkNone, picture.MarkNone, picture.MarkAway} }, []int{head(2)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := mk()
			tc.change(&b)
			got := bandKeys(t, b)
			require.Len(t, got, len(k))
			want := tc.changed
			if tc.name == "the roll passes on" {
				// The seat that rolled and the one that rolls now.
				want = []int{head(g.View(-1).Active), head(b.View.Active)}
			}
			for i := range k {
				assert.Equal(t, slices.Contains(want, i), got[i] != k[i], "part %d", i)
			}
			png, err := RenderBoard(b)
			require.NoError(t, err)
			img, err := drawBoard(&b)
			require.NoError(t, err)
			whole, err := picture.EncodePaletted(img)
			require.NoError(t, err)
			diff, err := picturetest.PixelsApart(png, whole)
			require.NoError(t, err)
			assert.Zero(t, diff)
		})
	}
}
