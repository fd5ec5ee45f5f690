package dixview

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dix"
)

// The table data of DIX's own table reads as the shared table's terms: its
// people, ALIX left out of a solo game's seats, the options, the clock's
// banks and the decision running; the shared table's data is not taken
// for it, and a newer version is refused.
func TestUpgradeReadsTheOwnTable(t *testing.T) {
	t.Parallel()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "records", name+".table.json"))
		require.NoError(t, err)
		return b
	}
	u, ok, err := Upgrade(read("lobby"), nil)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "u1", u.Creator)
	assert.Equal(t, uint32(2), u.Lobby)
	assert.Equal(t, "i1", u.Opened)
	assert.Equal(t, "orig-i1", u.Board)
	require.Len(t, u.Seats, 2)
	assert.Equal(t, "Bob", u.Seats[1].Name)
	assert.Equal(t, -1, u.Deciding)

	solo := read("solo")
	// The state is the one frozen beside it: a solo game at difficulty 6.
	g, err := dix.New(dix.Options{Players: 1, Seed: 5, Difficulty: 6, FirstPlayer: 0})
	require.NoError(t, err)
	u, ok, err = Upgrade(solo, g.AppendBinary(nil))
	require.NoError(t, err)
	require.True(t, ok)
	require.Len(t, u.Seats, 1, "ALIX is no seat of the table")
	assert.Equal(t, "6", u.Options[dix.OptDifficulty])
	assert.Equal(t, "off", u.Options[dix.OptBust])
	assert.Equal(t, int64(5), u.Seed)
	assert.Equal(t, 1, u.First)
	assert.Equal(t, []int64{10_800_000}, u.Banks)
	assert.Equal(t, 0, u.Deciding)
	assert.NotZero(t, u.DecidingAt)

	// A state of another number of players does not fit the seats.
	two, err := dix.New(dix.Options{Players: 3, Seed: 5})
	require.NoError(t, err)
	_, ok, err = Upgrade(solo, two.AppendBinary(nil))
	assert.True(t, ok)
	assert.ErrorIs(t, err, engine.ErrCorrupt)

	_, ok, err = Upgrade([]byte(`{"v":1,"c":"u1","l":"en","s":[{"u":"u1","n":"Ann"}],"bv":{"a":"app","t":"x","at":1}}`), nil)
	assert.False(t, ok, "the shared table's data")
	assert.NoError(t, err)
	_, ok, err = Upgrade([]byte(`{"v":2,"c":"u1","l":"en","s":[{"i":"u1","n":"Ann"}]}`), nil)
	assert.True(t, ok)
	assert.ErrorIs(t, err, engine.ErrSchemaTooNew)
}

// The components of DIX's own table mean the same click on the shared
// table where one does; the old picker's and forms' mean nothing now.
func TestOldClicks(t *testing.T) {
	t.Parallel()
	c, ok := OldClick(VerbDraw, "", nil)
	assert.True(t, ok)
	assert.Equal(t, engine.Move("draw"), c.Move)
	c, ok = OldClick(VerbBidAmount, "5", nil)
	assert.True(t, ok)
	assert.Equal(t, dix.FormatMove(dix.Action{Kind: dix.ActBid, Amount: 5}), c.Move)
	c, ok = OldClick(VerbBuy, "", nil)
	assert.True(t, ok && c.Prompt)
	c, ok = OldClick(VerbBuySelect, "", []string{"g4"})
	assert.True(t, ok)
	assert.Equal(t, "b g4", c.Next)
	c, ok = OldClick(VerbHand, "", nil)
	assert.True(t, ok)
	assert.Equal(t, stepHand, c.Next)
	c, ok = OldClick("addcpu", "", []string{"easy"})
	assert.True(t, ok)
	assert.Equal(t, "easy", c.Level)
	for _, bad := range []struct {
		verb, arg string
		values    []string
	}{
		{VerbPickOK, "", nil}, {VerbBidCustom, "", nil}, {VerbBidAmount, "x", nil}, {VerbBidAmount, "0", nil},
		{VerbBuySelect, "", []string{"zz"}}, {VerbDraw, "1", nil}, {"nope", "", nil},
	} {
		_, ok := OldClick(bad.verb, bad.arg, bad.values)
		assert.False(t, ok, "%+v", bad)
	}
}
