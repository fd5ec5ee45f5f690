package dixview

import (
	"fmt"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

func cards(t testing.TB, s string) []dix.Card {
	t.Helper()
	cs, err := dix.ParseCards(s)
	require.NoError(t, err)
	return cs
}

func TestRiskLine(t *testing.T) {
	tests := []struct {
		tableau string
		want    string
	}{
		// The rulebook example: total 4, money 6.
		{"b3 $4 o7 $2", "⚠️ Drawing a number of 7 or more, or a currency card of 5, busts you."},
		{"b9", "⚠️ Drawing a number of 2 or more busts you."},
		{"b9 g1", "⚠️ Drawing any number card busts you."},
		{"$5 $4", "⚠️ Drawing a currency card of 2 or more busts you."},
		{"b9 $5 $5 b2", "⚠️ Drawing any currency card busts you."},
		{"$5 $5 b9 b9", "⚠️ Drawing a number of 3 or more, or any currency card, busts you."},
		{"$1", "No card can bust you yet."},
	}
	for _, tc := range tests {
		t.Run(tc.tableau, func(t *testing.T) {
			g := &dix.Game{Tableau: cards(t, tc.tableau), Deck: cards(t, "g1"), Drawn: 1}
			assert.Equal(t, tc.want, RiskLine("en", g))
		})
	}
	empty := &dix.Game{Tableau: cards(t, "b1"), Drawn: 1}
	assert.Equal(t, locales.T("en", "dix_risk_deck_empty", nil), RiskLine("en", empty))
	fr := &dix.Game{Tableau: cards(t, "b3 $4 o7 $2"), Deck: cards(t, "g1"), Drawn: 1}
	assert.Equal(t, "⚠️ Piocher une carte Nombre de 7 ou plus, ou une carte Monnaie de 5, vous grille.", RiskLine("fr", fr))
}

func TestEventLines(t *testing.T) {
	t2 := Table{Lang: "en", Names: []string{"Alice", "Bob"}}
	g3 := cards(t, "g3")[0]
	pay := dix.Payment{Money: 1, Cards: cards(t, "b1 b1")}
	tests := []struct {
		name string
		evs  []dix.Event
		want []string
	}{
		{"stop with no number card", []dix.Event{{Kind: dix.EvTookNumbers, Player: 0}},
			[]string{"Alice takes no number card."}},
		{"a bust says the total", []dix.Event{{Kind: dix.EvBust, Player: 0, Bust: dix.BustTotal, Amount: 13}},
			[]string{"💥 Alice busts: the tableau totals 13 (11 or more busts)."}},
		{"a bust buy is said", []dix.Event{{Kind: dix.EvBustBuy, Player: 1}},
			[]string{"Bob takes a buy instead of the consolation token."}},
		{"a purchase is one line", []dix.Event{{Kind: dix.EvPaid, Player: 1, Amount: 3, Payment: pay}, {Kind: dix.EvBought, Player: 1, Card: g3}},
			[]string{"🛒 Bob buys 🟩3 for 3: 1 token, 2 cards (🟦1 🟦1)."}},
		{"an auction payment stays alone", []dix.Event{{Kind: dix.EvPaid, Player: 1, Amount: 3, Payment: pay}, {Kind: dix.EvDrew, Player: 0, Card: g3}},
			[]string{"Bob pays 3: 1 token, 2 cards (🟦1 🟦1).", "Alice draws 🟩3."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Events(t2, tc.evs))
		})
	}
}

func TestTieBreaks(t *testing.T) {
	tests := []struct {
		name    string
		players []dix.Player
		key     string
	}{
		{"money decides", []dix.Player{{Money: 5, Collection: cards(t, "b1 b2")}, {Money: 2, Collection: cards(t, "g1 g2")}}, "dix_score_tie_money"},
		{"consolation counts 3", []dix.Player{{Money: 2, Collection: cards(t, "b1 b2")}, {Money: 0, Consolation: 1, Collection: cards(t, "g1 g2")}}, "dix_score_tie_money"},
		{"fewer cards decides", []dix.Player{{Money: 3, Collection: cards(t, "b1 b2 b2")}, {Money: 3, Collection: cards(t, "g1 g2")}}, "dix_score_tie_cards"},
		{"shared", []dix.Player{{Money: 3, Collection: cards(t, "b1 b2")}, {Money: 3, Collection: cards(t, "g1 g2")}}, "dix_score_tie_shared"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &dix.Game{Opts: dix.Options{Players: 2}, Players: tc.players, Phase: dix.PhaseOver}
			t2 := Table{Lang: "en", Names: []string{"Alice", "Bob"}}
			e := ScoreboardEmbed(t2, g)
			res := g.Results()
			d := map[string]any{"A": t2.Name(res[0].Player), "B": t2.Name(res[1].Player),
				"MoneyA": res[0].Money, "MoneyB": res[1].Money, "CardsA": res[0].Cards, "CardsB": res[1].Cards}
			assert.Contains(t, e.Description, locales.T("en", tc.key, d))
			if tc.key == "dix_score_tie_shared" {
				assert.Contains(t, e.Description, locales.T("en", "dix_score_shared", map[string]any{"Names": "Alice, Bob"}))
			}
		})
	}
}

// TestPoints: a score change's decimal point is the language's.
func TestPoints(t *testing.T) {
	assert.Equal(t, "+0.4", Points("en", 0.42))
	assert.Equal(t, "−1,5", Points("fr", -1.5))
}

// TestRefusals: every refusal of DIX's rules has its words in both
// languages, found through any wrapping; the engine's other errors are not
// DIX's to say.
func TestRefusals(t *testing.T) {
	for _, r := range refusalKeys {
		for _, lang := range locales.Languages {
			assert.True(t, locales.Has(lang, r.key), "%v: %s has no %s message", r.err, r.key, lang)
		}
		key, ok := RefusalKey(fmt.Errorf("wrapped: %w", r.err))
		assert.True(t, ok)
		assert.Equal(t, r.key, key)
	}
	_, ok := RefusalKey(dix.ErrWrongPhase)
	assert.False(t, ok, "the table says the engine's errors that are not DIX's rules")
	short := &Refusal{Err: dix.ErrPaymentShort, Key: "dix_err_payment_short_amounts", Data: map[string]any{"Paid": 2, "Price": 4}}
	assert.ErrorIs(t, short, dix.ErrPaymentShort)
	assert.Equal(t, "That payment does not cover the price: it pays 2 and 4 is owed.", refusalText("en", short))
	assert.Equal(t, locales.T("fr", "dix_err_not_owned", nil), refusalText("fr", dix.ErrNotOwned))
	assert.Equal(t, locales.T("en", "err_internal", nil), refusalText("en", dix.ErrInvariant))
}

// TestCustomIDs: the ids DIX's components carry, as messages already
// posted hold them.
func TestCustomIDs(t *testing.T) {
	assert.Equal(t, "dix:draw:12", ID(VerbDraw, 12))
	assert.Equal(t, "dix:hand:0", ID(VerbHand, 0))
	p := Pick{Target: PickAuction, Money: 2, Cons: 1, Cards: 0x5}
	assert.Equal(t, "dix:pkc:7:w.2.1.5.0", ID(VerbPickCards, 7, p.Arg("0")))
	back, extra, err := ParsePick(p.Arg("0"))
	require.NoError(t, err)
	assert.Equal(t, p, back)
	assert.Equal(t, []string{"0"}, extra)
	for _, bad := range []string{"", "w", "w.1.2", "w.-1.0.0", "w.0.0.zz", ".0.0.0", "w.1000.0.0"} {
		_, _, err := ParsePick(bad)
		assert.ErrorIs(t, err, ErrBadPick, bad)
	}
}

// TestTableNames: a seat the table does not have is nobody's.
func TestTableNames(t *testing.T) {
	tb := Table{Lang: "fr", Names: []string{"Alice"}, Marks: []string{" 💤"}}
	assert.Equal(t, "Alice", tb.Name(0))
	assert.Equal(t, locales.T("fr", "nobody", nil), tb.Name(1))
	assert.Equal(t, locales.T("fr", "nobody", nil), tb.Name(-1))
	assert.Equal(t, " 💤", tb.mark(0))
	assert.Empty(t, tb.mark(3))
	assert.Empty(t, tb.auto(0))
}

// TestBuyPayStep: the step after choosing a market card proposes a payment
// with its buttons, or refuses, with the card and its price, a card the
// player cannot afford.
func TestBuyPayStep(t *testing.T) {
	cd := cards(t, "g5")[0]
	g := &dix.Game{Opts: dix.Options{Players: 2}, Seq: 9, Players: []dix.Player{{Money: 2}, {Money: 6}}, Market: []dix.Card{cd}}
	_, _, _, err := BuyPayStep("en", g, 0, cd)
	var r *Refusal
	require.ErrorAs(t, err, &r)
	assert.ErrorIs(t, err, dix.ErrCannotAfford)
	assert.Equal(t, "You cannot afford 🟩5 (green 5, price 5).", locales.T("en", r.Key, r.Data))
	text, comps, pay, err := BuyPayStep("en", g, 1, cd)
	require.NoError(t, err)
	assert.Equal(t, dix.Payment{Money: 5}, pay)
	assert.Equal(t, "Buy 🟩5 (green 5) for 5. Proposed payment: 5 tokens.", text)
	row := comps[0].(discordgo.ActionsRow).Components
	require.Len(t, row, 3)
	assert.Equal(t, "dix:bpay:9:g5", row[0].(discordgo.Button).CustomID)
	assert.Equal(t, "dix:balt:9:g5", row[1].(discordgo.Button).CustomID)
	assert.Equal(t, "dix:back:9", row[2].(discordgo.Button).CustomID)
}
