package present

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dixgame/dixbot/picture"
)

func TestTruncate(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "abc", Truncate("abc", 3))
	assert.Equal(t, "ab…", Truncate("abcd", 3))
	assert.Equal(t, "é…", Truncate("éèê", 2), "characters, not bytes")
	assert.Equal(t, "", Truncate("", 5))
}

func TestCustomID(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "dix:draw:12", CustomID("dix", "draw", 12))
	assert.Equal(t, "qwixx:mv:3:w -", CustomID("qwixx", "mv", 3, "w -"))
	assert.Equal(t, "dix:pkc:7:g7:2", CustomID("dix", "pkc", 7, "g7", "2"))
}

// Every game's pictures mark the seats alike: a robot for a seat the
// computer plays (a computer player, a seat handed over for good, a seat
// the table does not hold such as the solo game's virtual player), a moon
// for an absent player, nothing for a person at their seat.
func TestPictureMarks(t *testing.T) {
	t.Parallel()
	tb := Table{
		Names:    []string{"Ann", "Robot 2", "Bob", "Cleo"},
		Computer: []bool{false, true, false, true},
		Marks:    []string{"", "", " (away)", " (gone)"},
	}
	assert.Equal(t, []picture.Mark{picture.MarkNone, picture.MarkComputer, picture.MarkAway, picture.MarkComputer, picture.MarkComputer},
		tb.PictureMarks(5))
	assert.Empty(t, Table{}.PictureMarks(0))
}

// A refusal's data carries the names of the seats it names, and leaves
// its own data alone.
func TestRefusalDataWith(t *testing.T) {
	t.Parallel()
	r := Refusal{Key: "k", Data: map[string]any{"Square": 3}, Names: map[string]int{"Name": 1}}
	name := func(s int) string { return []string{"Ann", "Bob"}[s] }
	assert.Equal(t, map[string]any{"Square": 3, "Name": "Bob"}, r.DataWith(name))
	assert.Equal(t, map[string]any{"Square": 3}, r.Data, "its own data unchanged")
	assert.Equal(t, r.Data, Refusal{Data: r.Data}.DataWith(name), "no seat named")
}
