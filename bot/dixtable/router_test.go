package dixtable

import (
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
)

func TestParseIDStrict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		id   string
		want bot.ParsedID // zero: refused with ErrBadCustomID
	}{
		{"plain verb", "dix:draw:3", bot.ParsedID{Verb: verbDraw, Version: 3}},
		{"required argument", "dix:bidn:12:7", bot.ParsedID{Verb: verbBidAmount, Version: 12, Arg: "7"}},
		{"optional argument given", "dix:bsel:4:g", bot.ParsedID{Verb: verbBuySelect, Version: 4, Arg: "g"}},
		{"optional argument left out", "dix:bsel:4", bot.ParsedID{Verb: verbBuySelect, Version: 4}},
		{"versionless verb", "dix:hand:0", bot.ParsedID{Verb: verbHand}},
		{"modal verb", "dix:bmod:2:g3", bot.ParsedID{Verb: verbBuyModal, Version: 2, Arg: "g3"}},

		{"argument on a verb that takes none", "dix:draw:3:x", bot.ParsedID{}},
		{"argument on a lobby verb", "dix:join:1:u1", bot.ParsedID{}},
		{"missing required argument", "dix:bidn:12", bot.ParsedID{}},
		{"empty argument", "dix:bidn:12:", bot.ParsedID{}},
		{"empty optional argument", "dix:bsel:4:", bot.ParsedID{}},
		{"version on a versionless verb", "dix:hand:3", bot.ParsedID{}},
		{"padded version", "dix:draw:03", bot.ParsedID{}},
		{"signed version", "dix:draw:+3", bot.ParsedID{}},
		{"negative version", "dix:draw:-1", bot.ParsedID{}},
		{"version out of range", "dix:draw:4294967296", bot.ParsedID{}},
		{"unknown verb", "dix:nope:1", bot.ParsedID{}},
		{"other prefix", "xid:draw:1", bot.ParsedID{}},
		{"too many parts", "dix:bidn:1:2:3", bot.ParsedID{}},
		{"too few parts", "dix:draw", bot.ParsedID{}},
		{"too long", "dix:bpay:1:" + string(make([]byte, 100)), bot.ParsedID{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := bot.ParseID(tc.id)
			if tc.want == (bot.ParsedID{}) {
				assert.ErrorIs(t, err, bot.ErrBadCustomID)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestCheckVersion(t *testing.T) {
	t.Parallel()
	assert.NoError(t, bot.CheckVersion(5, 5))
	assert.ErrorIs(t, bot.CheckVersion(4, 5), bot.ErrStale)
	assert.ErrorIs(t, bot.CheckVersion(6, 5), bot.ErrAhead)
}

// A button carrying a version the game never reached shows a state the
// store lost (Discord sends only the custom ids of a message's own
// components): the click changes nothing in the game, says what happened,
// retires the buttons clicked and posts the game as the store has it. A
// malformed id is refused as not recognised.
func TestFutureVersionIsRestoredData(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	before := snap(h)
	withArg := bot.CustomID(verbDraw, snapSeq(h), "x")
	assert.Equal(t, enT("err_bad_custom_id", nil), h.ClickOn("u1", board, withArg).EphemeralText())
	unchanged(h, before)

	future := bot.CustomID(verbDraw, snapSeq(h)+1)
	r := h.ClickOn("u1", board, future)
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	assert.Equal(t, enT("err_game_restored", nil), r.Response().Data.Content)
	assert.Empty(t, tabletest.ComponentIDs(h.Rec.Message(board.ID).Components), "the buttons clicked are retired")
	after, m := h.Record()
	assert.Equal(t, before.State, snap(h).State, "the game is unchanged")
	assert.NotEqual(t, board.ID, m.Board, "a fresh board")
	assert.Empty(t, m.Outbox)
	assert.Equal(t, gameOf(after).Seq, snapSeq(h))
	showsNow(h, h.Board())

	// The lobby counter is checked the same way.
	h2 := newHarness(t)
	lobby := h2.Command("u1", "start").Shown(nil)
	require.NotNil(t, lobby)
	join := h2.MustFind(lobby, verbJoin)
	p, err := bot.ParseID(join)
	require.NoError(t, err)
	r = h2.ClickOn("u2", lobby, bot.CustomID(verbJoin, p.Version+1))
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	assert.Equal(t, enT("err_game_restored", nil), r.Response().Data.Content)
	_, m = h2.Record()
	require.NotEqual(t, lobby.ID, m.Board, "a fresh lobby")
	fresh := h2.Rec.Message(m.Board)
	require.NotNil(t, fresh)
	assert.Equal(t, []string{join}, tabletest.FindIDs(fresh, verbJoin), "the lobby as the store has it")
	assert.Len(t, m.Seats, 1, "nobody joined")
	tabletest.CheckAllCalls(t, h.Rec.Calls)
}

// TestComponentAndModalVerbsStayApart: a component's verb submitted as a
// modal, or a modal's clicked as a component, is a forged id and changes
// nothing.
func TestComponentAndModalVerbsStayApart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	before := snap(h)
	seq := snapSeq(h)
	for verb, spec := range bot.Verbs {
		var args []string
		if spec.Arg == bot.ArgRequired {
			args = []string{"1"}
		}
		version := seq
		if spec.Versionless {
			version = 0
		}
		id := bot.CustomID(verb, version, args...)
		var txt string
		if spec.Modal {
			txt = h.ClickOn("u1", board, id).EphemeralText()
		} else {
			txt = h.Submit("u1", board, id, map[string]string{"amount": "3"}).EphemeralText()
		}
		assert.Equal(t, enT("err_bad_custom_id", nil), txt, id)
	}
	unchanged(h, before)
}
