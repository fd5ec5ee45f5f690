package bot

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
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
	assert.ErrorIs(t, checkVersion(6, 5), ErrBadCustomID)
}

// A button carrying a version the game never reached is forged, not
// outdated: it says so and changes nothing.
func TestFutureVersionIsForged(t *testing.T) {
	h := newHarness(t)
	h.seedGame([]string{"u1", "u2"}, auctionDeck, engine.Options{Players: 2, FirstPlayer: 0})
	board := h.board()
	before := h.snap()
	future := customID(verbDraw, h.snapSeq()+1)
	assert.Equal(t, enT("err_bad_custom_id", nil), h.clickOn("u1", board, future).ephemeralText())
	withArg := customID(verbDraw, h.snapSeq(), "x")
	assert.Equal(t, enT("err_bad_custom_id", nil), h.clickOn("u1", board, withArg).ephemeralText())
	h.unchanged(before)

	// The lobby counter is checked the same way.
	h2 := newHarness(t)
	lobby := h2.command("u1", "start").shown(nil)
	require.NotNil(t, lobby)
	join := h2.mustFind(lobby, verbJoin)
	p, err := parseID(join)
	require.NoError(t, err)
	beforeLobby := h2.snap()
	assert.Equal(t, enT("err_bad_custom_id", nil), h2.clickOn("u2", lobby, customID(verbJoin, p.version+1)).ephemeralText())
	h2.unchanged(beforeLobby)
	checkAllCalls(t, h.rec.calls)
}
