package dixview

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/bwmarrin/discordgo"

	computer "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// HintEmbed is the hint for seat s, who must decide now in g.
func HintEmbed(lang string, g *dix.Game, s int) *discordgo.MessageEmbed {
	var lines []string
	if g.Phase == dix.PhaseDraw && len(g.Deck) > 0 {
		o := computer.DrawOdds(g)
		lines = append(lines, locales.T(lang, "dix_hint_odds", map[string]any{
			"Bust": Pct(o.Bust()), "Left": o.Left, "Wild": Pct(o.Wild),
		}))
		if o.BustNumber > 0 {
			lines = append(lines, locales.T(lang, "dix_hint_bust_total", map[string]any{"Number": o.BustNumber, "Chance": Pct(o.BustTotal)}))
		}
		if o.BustCurrency > 0 {
			lines = append(lines, locales.T(lang, "dix_hint_bust_money", map[string]any{"Currency": o.BustCurrency, "Chance": Pct(o.BustMoney)}))
		}
		if g.Drawn > 0 {
			lines = append(lines, locales.T(lang, "dix_hint_gain", map[string]any{"Points": Points(lang, o.Gain)}))
		}
	}
	if g.Phase == dix.PhaseBuy || g.Phase == dix.PhaseFinalBuy {
		ch := g.Choices(s)
		pay := Proposer(g, s)
		for _, cd := range ch.Buyable {
			if _, delta, ok := pay(cd); ok {
				lines = append(lines, locales.N(lang, "dix_hint_card", Abs(delta), map[string]any{"Card": CardText(lang, cd), "Points": Signed(delta)}))
			}
		}
	}
	// The advice is deterministic for a position: the strong level uses
	// no randomness.
	adv := computer.Advise(g, s, rand.New(rand.NewPCG(uint64(g.Seq), 0)))
	d := map[string]any{"Points": Points(lang, adv.Points), "Amount": adv.Action.Amount, "Chance": Pct(adv.Points)}
	if adv.Action.Kind == dix.ActBuy {
		d["Card"] = CardText(lang, adv.Action.Card)
	}
	if g.Auction != nil {
		d["Card"] = CardText(lang, g.Auction.Wild)
	}
	lines = append(lines, locales.T(lang, "dix_hint_advice", map[string]any{
		"Do":  locales.T(lang, "dix_hint_do_"+ActionKey(adv.Action.Kind), d),
		"Why": locales.T(lang, fmt.Sprintf("dix_hint_why_%d", adv.Reason), d),
	}))
	return &discordgo.MessageEmbed{Title: locales.T(lang, "dix_hint_title", nil), Description: strings.Join(lines, "\n"), Color: colorPrompt}
}

// ActionKey names an action kind in the hint's locale keys.
func ActionKey(k dix.ActionKind) string {
	switch k {
	case dix.ActDraw:
		return "draw"
	case dix.ActStop:
		return "stop"
	case dix.ActTakeNumbers:
		return "numbers"
	case dix.ActTakeMoney:
		return "money"
	case dix.ActBuy:
		return "buy"
	case dix.ActEndTurn:
		return "skip"
	case dix.ActConsolation:
		return "consolation"
	case dix.ActBustBuy:
		return "bustbuy"
	case dix.ActBid:
		return "bid"
	case dix.ActPass:
		return "pass"
	case dix.ActPay:
		return "pay"
	}
	return "none"
}

// Pct writes a chance as a whole percentage.
func Pct(p float64) string { return fmt.Sprintf("%.0f", 100*p) }

// Points writes a value in points with one decimal, in lang's decimal
// point, and its sign.
func Points(lang string, v float64) string {
	s := fmt.Sprintf("+%.1f", v)
	if v < 0 {
		s = fmt.Sprintf("−%.1f", -v)
	}
	return strings.Replace(s, ".", locales.T(lang, "decimal_point", nil), 1)
}
