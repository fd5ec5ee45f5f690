package e2e

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	botdix "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// TestPaymentByPicking: a purchase paid by picking, with no typing: Buy,
// the card, "Choose another payment", one of the player's own cards and the
// money to go with it (one token at a time, the picker's steps), Confirm.
// The engine gets exactly what was picked.
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
		payStep := tb.buyStep(user, board, buttons, target)
		require.True(t, payStep.Ephemeral(), describe(payStep))
		picker, money := tb.pickPayment(user, payStep)
		spent, _ := botdix.Spendable(g, seat)
		r := tb.click(user, picker.Message.ID, moveButton(t, *picker.Message, "buy ").raw)
		require.NotNil(t, r.Message, describe(r))

		after := dixOf(tb.record())
		assert.Greater(t, after.Seq, g.Seq, "the purchase was applied: %s", describe(r))
		assert.Contains(t, after.Players[seat].Collection, target, "the card was bought")
		assert.Equal(t, pl.Money-money, after.Players[seat].Money, "with the money picked")
		assert.Len(t, after.Players[seat].Collection, len(pl.Collection), "and one card of the collection spent")
		count := func(cs []dix.Card, c dix.Card) int {
			return len(slices.DeleteFunc(slices.Clone(cs), func(x dix.Card) bool { return x != c }))
		}
		assert.Equal(t, count(pl.Collection, spent[0])-1, count(after.Players[seat].Collection, spent[0]), "the card picked: %s", spent[0])
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
