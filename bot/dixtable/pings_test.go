package dixtable

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// setSeats changes the seats of the stored game with f.
func setSeats(h *harness, f func(seats []seat)) {
	h.T.Helper()
	_, err := h.St.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
		m := mustDixTable(r.Meta)
		f(m.Seats)
		r.Meta = m.Encode()
		return nil
	})
	require.NoError(h.T, err)
}

func TestAuctionPingSkipsAbsentAndHandedOverSeats(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2", "u3", "u4"}, auctionDeck, dix.Options{Players: 4, FirstPlayer: 0})
	setSeats(h, func(s []seat) {
		s[2].Away, s[2].Late = true, 2 // Chloé is absent
		s[3].Gone = bot.GoneLeft       // Dan left: the computer plays his seat
	})
	// Alice draws the super wild: Bob, Chloé and Dan may bid.
	r := h.ClickOn("u1", h.Board(), h.MustFind(h.Board(), verbDraw))
	rec, _ := h.Record()
	require.Equal(t, dix.PhaseAuction, dix.GameOf(rec.State).Phase)
	assert.Equal(t, []string{"u2"}, pinged(r.Calls), "only Bob, present, is notified")
	for _, s := range r.Sends() {
		assert.NotContains(t, s.Content, "<@u3>")
		assert.NotContains(t, s.Content, "<@u4>")
	}
}

func TestAuctionPingIsNotSentWhenOnlyComputerPlayedSeatsBid(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2", "u3"}, auctionDeck, dix.Options{Players: 3, FirstPlayer: 0})
	setSeats(h, func(s []seat) {
		s[1].Gone = bot.GoneKicked
		s[2].Away, s[2].Late = true, 2
	})
	r := h.ClickOn("u1", h.Board(), h.MustFind(h.Board(), verbDraw))
	assert.Empty(t, pinged(r.Calls), "nobody present can bid: no notification")
}

func TestFinalRoundPingSkipsHandedOverSeats(t *testing.T) {
	t.Parallel()
	m, g := lateGame(t, locales.English)
	g.Phase, g.Tableau, g.Deck, g.EndTriggered = dix.PhaseFinalBuy, nil, nil, true
	g.FinalOrder, g.FinalNext = []int{3, 4, 0, 1, 2}, 2
	require.NotEmpty(t, buyableNow(g, 1))
	require.NotEmpty(t, buyableNow(g, 2))
	assert.Equal(t, []string{"u1", "u2", "u3"}, nextDeciders(m, g, ""), "every present buyer in order")
	m.Seats[1].Away = true
	m.Seats[2].Gone = bot.GoneLeft
	assert.Equal(t, []string{"u1"}, nextDeciders(m, g, ""), "the computer plays seats 1 and 2: nobody notified for them")
}
