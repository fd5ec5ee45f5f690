package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
)

func TestParseIDStrict(t *testing.T) {
	tests := []struct {
		name string
		id   string
		want parsedID // zero: refused with ErrBadCustomID
	}{
		{"plain verb", "dix:draw:3", parsedID{verb: verbDraw, version: 3}},
		{"required argument", "dix:bidn:12:7", parsedID{verb: verbBidAmount, version: 12, arg: "7"}},
		{"optional argument given", "dix:bsel:4:g", parsedID{verb: verbBuySelect, version: 4, arg: "g"}},
		{"optional argument left out", "dix:bsel:4", parsedID{verb: verbBuySelect, version: 4}},
		{"versionless verb", "dix:hand:0", parsedID{verb: verbHand}},
		{"modal verb", "dix:bmod:2:g3", parsedID{verb: verbBuyModal, version: 2, arg: "g3"}},

		{"argument on a verb that takes none", "dix:draw:3:x", parsedID{}},
		{"argument on a lobby verb", "dix:join:1:u1", parsedID{}},
		{"missing required argument", "dix:bidn:12", parsedID{}},
		{"empty argument", "dix:bidn:12:", parsedID{}},
		{"empty optional argument", "dix:bsel:4:", parsedID{}},
		{"version on a versionless verb", "dix:hand:3", parsedID{}},
		{"padded version", "dix:draw:03", parsedID{}},
		{"signed version", "dix:draw:+3", parsedID{}},
		{"negative version", "dix:draw:-1", parsedID{}},
		{"version out of range", "dix:draw:4294967296", parsedID{}},
		{"unknown verb", "dix:nope:1", parsedID{}},
		{"other prefix", "xid:draw:1", parsedID{}},
		{"too many parts", "dix:bidn:1:2:3", parsedID{}},
		{"too few parts", "dix:draw", parsedID{}},
		{"too long", "dix:bpay:1:" + string(make([]byte, 100)), parsedID{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseID(tc.id)
			if tc.want == (parsedID{}) {
				assert.ErrorIs(t, err, ErrBadCustomID)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestCheckVersion(t *testing.T) {
	assert.NoError(t, checkVersion(5, 5))
	assert.ErrorIs(t, checkVersion(4, 5), ErrStale)
	assert.ErrorIs(t, checkVersion(6, 5), ErrAhead)
}

// A button carrying a version the game never reached shows a state the
// store lost (Discord sends only the custom ids of a message's own
// components): the click changes nothing in the game, says what happened,
// retires the buttons clicked and posts the game as the store has it. A
// malformed id is refused as not recognised.
func TestFutureVersionIsRestoredData(t *testing.T) {
	h := newHarness(t)
	h.seedGame([]string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.board()
	before := h.snap()
	withArg := customID(verbDraw, h.snapSeq(), "x")
	assert.Equal(t, enT("err_bad_custom_id", nil), h.clickOn("u1", board, withArg).ephemeralText())
	h.unchanged(before)

	future := customID(verbDraw, h.snapSeq()+1)
	r := h.clickOn("u1", board, future)
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.response().Type)
	assert.Equal(t, enT("err_game_restored", nil), r.response().Data.Content)
	assert.Empty(t, componentIDs(h.rec.message(board.id).components), "the buttons clicked are retired")
	after, m := h.record()
	assert.Equal(t, before.state, h.snap().state, "the game is unchanged")
	assert.NotEqual(t, board.id, m.Board, "a fresh board")
	assert.Empty(t, m.Outbox)
	assert.Equal(t, gameOf(after).Seq, h.snapSeq())
	h.showsNow(h.board())

	// The lobby counter is checked the same way.
	h2 := newHarness(t)
	lobby := h2.command("u1", "start").shown(nil)
	require.NotNil(t, lobby)
	join := h2.mustFind(lobby, verbJoin)
	p, err := parseID(join)
	require.NoError(t, err)
	r = h2.clickOn("u2", lobby, customID(verbJoin, p.version+1))
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.response().Type)
	assert.Equal(t, enT("err_game_restored", nil), r.response().Data.Content)
	_, m = h2.record()
	require.NotEqual(t, lobby.id, m.Board, "a fresh lobby")
	fresh := h2.rec.message(m.Board)
	require.NotNil(t, fresh)
	assert.Equal(t, []string{join}, findIDs(fresh, verbJoin), "the lobby as the store has it")
	assert.Len(t, m.Seats, 1, "nobody joined")
	checkAllCalls(t, h.rec.calls)
}

// TestComponentAndModalVerbsStayApart: a component's verb submitted as a
// modal, or a modal's clicked as a component, is a forged id and changes
// nothing.
func TestComponentAndModalVerbsStayApart(t *testing.T) {
	h := newHarness(t)
	h.seedGame([]string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.board()
	before := h.snap()
	seq := h.snapSeq()
	for verb, spec := range verbs {
		var args []string
		if spec.arg == argRequired {
			args = []string{"1"}
		}
		version := seq
		if spec.versionless {
			version = 0
		}
		id := customID(verb, version, args...)
		var txt string
		if spec.modal {
			txt = h.clickOn("u1", board, id).ephemeralText()
		} else {
			txt = h.submit("u1", board, id, map[string]string{"amount": "3"}).ephemeralText()
		}
		assert.Equal(t, enT("err_bad_custom_id", nil), txt, id)
	}
	h.unchanged(before)
}
