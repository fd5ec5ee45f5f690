package dixxit

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	rules "github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/locales"
)

// newGame is a game of four seats, seat 0 first.
func newGame(t *testing.T) *rules.Game {
	t.Helper()
	st, err := rules.Rules{}.New(engine.Setup{Players: 4, Seed: 5, First: 0})
	require.NoError(t, err)
	return st.(*rules.Game)
}

// The board shows the turn's clue once, under its title, however the
// latest events tell it: written or said aloud, in both languages.
func TestBoardShowsTheClueOnce(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "fr"} {
		for _, m := range []engine.Move{"clue Zanzibar", "aloud"} {
			g := newGame(t)
			tb := present.Table{Lang: lang, Names: []string{"Ann", "Bob", "Chloé", "Dan"}}
			evs, err := g.Apply(0, m)
			require.NoError(t, err)
			tb.Log = Presenter{}.Events(tb, evs)
			require.Len(t, tb.Log, 1)
			b := Presenter{}.Board(tb, g)
			once := "Zanzibar"
			if m == "aloud" {
				once = locales.T(lang, "dixxit_board_aloud", map[string]any{"Name": "Ann"})
			}
			assert.Equal(t, 1, strings.Count(b.Content, once), "%s %s:\n%s", lang, m, b.Content)
		}
	}
}

// Once a turn is scored, the board of the next turn shows it as it was
// scored (titled with who found what) above the refilled grid, until the
// clue is out; the final board shows the last turn under the scores.
func TestBoardShowsTheTurnScored(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "fr"} {
		g := newGame(t)
		tb := present.Table{Lang: lang, Names: []string{"Ann", "Bob", "Chloé", "Dan"}}
		b := Presenter{}.Board(tb, g)
		require.Len(t, b.Embeds, 1, "turn 1: the grid alone")
		target := g.ViewOf(0).Secret.Target
		_, err := g.Apply(0, "clue sea")
		require.NoError(t, err)
		_, err = g.Apply(2, rules.FingerMove(target, 10))
		require.NoError(t, err)
		b = Presenter{}.Board(tb, g)
		require.Len(t, b.Embeds, 2, "the turn scored, then the grid")
		require.Len(t, b.Files, 2)
		assert.Equal(t, "attachment://"+b.Files[0].Name, b.Embeds[0].Image.URL)
		assert.Equal(t, "attachment://"+b.Files[1].Name, b.Embeds[1].Image.URL)
		assert.Equal(t, locales.T(lang, "dixxit_last_found", map[string]any{"Turn": 1, "Finder": "Chloé", "Name": "Ann", "Square": target}), b.Embeds[0].Title)
		_, err = g.Apply(1, "aloud")
		require.NoError(t, err)
		assert.Len(t, Presenter{}.Board(tb, g).Embeds, 1, "the race: the grid alone")
		// Nobody finds it.
		target = g.ViewOf(1).Secret.Target
		for _, s := range []int{0, 2, 3} {
			_, err = g.Apply(s, "out")
			require.NoError(t, err)
		}
		b = Presenter{}.Board(tb, g)
		require.Len(t, b.Embeds, 2)
		assert.Equal(t, locales.T(lang, "dixxit_last_not_found", map[string]any{"Turn": 2, "Name": "Bob", "Square": target}), b.Embeds[0].Title)
		// A turn skipped shows none.
		_, err = g.Apply(2, "skip")
		require.NoError(t, err)
		assert.Len(t, Presenter{}.Board(tb, g).Embeds, 1)
	}
}

// twin is g with another target: the same game as everyone but its
// active player sees it.
func twin(t *testing.T, g *rules.Game) *rules.Game {
	t.Helper()
	b := g.Encode()
	// The target follows the schema, seats, first seat, seed, version
	// and turn, then the active seat and the phase (engine/dixxit codec).
	at := len(binary.AppendUvarint(nil, rules.SchemaVersion)) + 2 + len(binary.AppendVarint(nil, 5)) +
		len(binary.AppendUvarint(nil, g.Seq())) + len(binary.AppendUvarint(nil, g.ViewOf(engine.Public).Turn)) + 2
	b[at] = (b[at] + 1) % rules.Squares
	st, err := rules.Rules{}.Decode(b)
	require.NoError(t, err)
	o := st.(*rules.Game)
	require.NotEqual(t, g.ViewOf(g.Active()).Secret.Target, o.ViewOf(o.Active()).Secret.Target, "the twin's target")
	require.Equal(t, g.ViewOf(engine.Public), o.ViewOf(engine.Public), "the same public view")
	return o
}

// The board names its pictures by what they show to everyone, never by
// the target only the active player knows; it draws none when they are
// the ones the message keeps (Table.Kept), the embeds still showing the
// files by name; a change they show changes the name.
func TestBoardPictureKey(t *testing.T) {
	t.Parallel()
	tb := present.Table{Lang: "en", Names: []string{"Ann", "Bob", "Chloé", "Dan"}, Pictures: true}
	g := newGame(t)
	b := Presenter{}.Board(tb, g)
	require.Len(t, b.Files, 1)
	require.NotEmpty(t, b.Picture)
	assert.Equal(t, b.Picture, Presenter{}.Board(tb, twin(t, g)).Picture, "the target is not in the key")

	kept := tb
	kept.Kept = b.Picture
	k := Presenter{}.Board(kept, g)
	assert.Empty(t, k.Files, "kept: not drawn")
	assert.Equal(t, b.Picture, k.Picture)
	assert.Equal(t, b.Embeds, k.Embeds, "the embeds show the kept files")
	assert.Equal(t, b.Content, k.Content)

	// The clue changes no picture (turn 1 has no turn scored above the
	// grid); a finger does.
	_, err := g.Apply(0, "clue sea")
	require.NoError(t, err)
	c := Presenter{}.Board(tb, g)
	assert.Equal(t, b.Picture, c.Picture, "the clue is text")
	assert.Equal(t, c.Picture, Presenter{}.Board(tb, twin(t, g)).Picture, "the target is not in the key")
	target := g.ViewOf(0).Secret.Target
	miss := target%rules.Squares + 1
	_, err = g.Apply(2, rules.FingerMove(miss, 10))
	require.NoError(t, err)
	f := Presenter{}.Board(tb, g)
	assert.NotEqual(t, c.Picture, f.Picture, "a finger on the grid")
	assert.Len(t, f.Files, 1)
}

// A clue is text to show as typed: its Markdown, its mentions and its
// links show as the clue-giver typed them, on the board and in the log,
// neither bold nor a mention pill nor a link Discord would preview (X4).
func TestClueShowsAsTyped(t *testing.T) {
	t.Parallel()
	const typed = "flying **fold** @everyone <@123> _x_ `y` #z [l](u) https://example.com/x HTTP://a.b steam://run"
	for _, lang := range []string{"en", "fr"} {
		g := newGame(t)
		tb := present.Table{Lang: lang, Names: []string{"Ann", "Bob", "Chloé", "Dan"}}
		evs, err := g.Apply(0, rules.ClueMove(typed))
		require.NoError(t, err)
		tb.Log = Presenter{}.Events(tb, evs)
		require.Len(t, tb.Log, 1)
		b := Presenter{}.Board(tb, g)
		for what, text := range map[string]string{"board": b.Content, "log": tb.Log[0]} {
			assert.Contains(t, text, `flying \*\*fold\*\* @`+"\u200b"+`everyone \<@`+"\u200b"+`123\> \_x\_ `+"\\`y\\`"+` \#z \[l\](u) https:`+"\u200b"+`//example.com/x HTTP:`+"\u200b"+`//a.b steam:`+"\u200b"+`//run`, "%s %s", lang, what)
			assert.NotContains(t, text, "://", what)
			assert.NotContains(t, text, "**fold**", what)
			assert.NotContains(t, text, "<@1", what)
			assert.NotContains(t, text, "@everyone", what)
		}
	}
}

// The final scoreboard's picture marks the seats as every game's pictures
// do (present.Table.PictureMarks): a computer seat or an absent player
// draws another picture than a person at their seat.
func TestScoreboardPictureMarksTheSeats(t *testing.T) {
	t.Parallel()
	g := newGame(t)
	for n := 0; !g.Over(); n++ {
		require.Less(t, n, 10000)
		seat := g.ToDecide()[0]
		if g.Phase() == rules.PhaseClue {
			_, err := g.Apply(seat, "clue x")
			require.NoError(t, err)
			continue
		}
		for sq := 1; sq <= rules.Squares; sq++ {
			if _, err := g.Apply(seat, rules.FingerMove(sq, uint64(n))); err == nil {
				break
			}
		}
	}
	people := present.Table{Lang: "en", Names: []string{"Ann", "Bob", "Chloé", "Robot 4"}, Computer: make([]bool, 4), Marks: make([]string, 4), Pictures: true}
	robot := people
	robot.Computer = []bool{false, false, false, true}
	away := people
	away.Marks = []string{"", " (away)", "", ""}
	keys := map[string]string{}
	for name, tb := range map[string]present.Table{"people": people, "robot": robot, "away": away} {
		b := Presenter{}.Board(tb, g)
		require.NotEmpty(t, b.Picture, name)
		require.NotEmpty(t, b.Files, name)
		keys[b.Picture] = name
	}
	assert.Len(t, keys, 3, "each table draws its own scoreboard: %v", keys)
}

// Every refusal of a move reads in full in both languages, for every
// error the rules give a move: the key exists and each field the message
// names is given.
func TestEveryRefusalReads(t *testing.T) {
	t.Parallel()
	g := newGame(t)
	errs := []error{&rules.TakenError{Square: 3, Holder: 2}, rules.ErrBadClue, rules.ErrTurnOver, rules.ErrNoClue, rules.ErrNotGuessing,
		rules.ErrAlreadyDone, rules.ErrClueGiven, rules.ErrNotActive, rules.ErrNotYourTurn, rules.ErrBadSquare, rules.ErrSquareTaken,
		rules.ErrBadMove, engine.ErrGameOver, engine.ErrBadMove, engine.ErrNotYourTurn}
	for _, seat := range []int{0, 1} {
		for _, err := range errs {
			for _, lang := range locales.Languages {
				rf := Presenter{}.Refusal(lang, g, seat, "f 3 10", err)
				s := locales.T(lang, rf.Key, rf.DataWith(func(int) string { return "Ann" }))
				assert.NotEqual(t, locales.Missing(rf.Key), s, "%s seat %d: %v", lang, seat, err)
				assert.NotContains(t, s, "<no value>", "%s seat %d: %v: %s", lang, seat, err, rf.Key)
			}
		}
	}
}
