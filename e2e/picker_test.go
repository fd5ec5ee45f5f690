package e2e

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// TestPaymentByPicking: a purchase paid by picking, with no typing: Buy,
// the card, "Choose another payment", one of the player's own cards and the
// money to go with it, Pay. The engine gets exactly what was picked.
func TestPaymentByPicking(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)
	tb := w.table(t, "en-US", "Alice", "Bob")
	tb.lobby("/dix start")
	for i := 0; ; i++ {
		require.Less(t, i, 400, "never a purchase to pay by picking")
		rec := tb.record()
		g := dixOf(rec)
		require.NotEqual(t, dix.PhaseOver, g.Phase, "the game ended first")
		seat := g.ToAct()
		ch := g.Choices(seat)
		pl := g.Players[seat]
		numbers := 0
		for _, c := range pl.Collection {
			if c.Kind == dix.KindNumber {
				numbers++
			}
		}
		var target dix.Card
		for _, c := range ch.Buyable {
			if v := int(c.Value); v >= 2 && pl.Money >= v-1 && numbers > 0 {
				target = c
			}
		}
		if g.Phase != dix.PhaseBuy || target.Kind == 0 {
			require.True(t, tb.decide())
			continue
		}
		user := tb.user(seats(t, rec)[seat])
		board, buttons := tb.boardFor(rec)
		prompt := tb.click(user, board.ID, buttons["buy"].raw)
		require.True(t, prompt.Ephemeral(), describe(prompt))
		sel := findComponent(t, *prompt.Message, "bsel")
		payStep := tb.pick(user, prompt.Message.ID, sel.CustomID, target.String())
		other := findComponent(t, *payStep.Message, "balt")
		picker := tb.click(user, payStep.Message.ID, other.CustomID)
		require.NotNil(t, picker.Message, describe(picker))
		cardsMenu := findComponent(t, *picker.Message, "pkc")
		chosen := cardsMenu.Options[0].Value
		picker = tb.pick(user, picker.Message.ID, cardsMenu.CustomID, chosen)
		money := int(target.Value) - 1
		if money > 0 {
			moneyMenu := findComponent(t, *picker.Message, "pkm")
			picker = tb.pick(user, picker.Message.ID, moneyMenu.CustomID, strconv.Itoa(money))
		}
		ok := findComponent(t, *picker.Message, "pko")
		r := tb.click(user, picker.Message.ID, ok.CustomID)
		require.NotNil(t, r.Message, describe(r))

		after := dixOf(tb.record())
		assert.Greater(t, after.Seq, g.Seq, "the purchase was applied: %s", describe(r))
		assert.Contains(t, after.Players[seat].Collection, target, "the card was bought")
		assert.Equal(t, pl.Money-money, after.Players[seat].Money, "with the money picked")
		assert.Len(t, after.Players[seat].Collection, len(pl.Collection), "and one card of the collection spent")
		return
	}
}

// findComponent is the component of m whose custom id has verb.
func findComponent(t *testing.T, m fakediscord.Message, verb string) fakediscord.Component {
	t.Helper()
	for _, c := range components(m) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == verb {
			return c
		}
	}
	t.Fatalf("no %s component on %q", verb, m.Content)
	return fakediscord.Component{}
}
