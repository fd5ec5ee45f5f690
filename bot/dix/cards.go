package dixview

import (
	"sort"
	"strings"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// colorKey is the locale key suffix of a colour.
func colorKey(c dix.Color) string {
	switch c {
	case dix.Blue:
		return "blue"
	case dix.Green:
		return "green"
	case dix.Orange:
		return "orange"
	case dix.Pink:
		return "pink"
	}
	return "none"
}

func ColorEmoji(lang string, c dix.Color) string {
	return locales.T(lang, "dix_emoji_"+colorKey(c), nil)
}

func ColorName(lang string, c dix.Color) string {
	return locales.T(lang, "dix_color_"+colorKey(c), nil)
}

// cardTexts caches cardText for every valid card in every language: boards
// show many cards and the strings never change.
var cardTexts = func() map[cardKey]string {
	out := map[cardKey]string{}
	var all []dix.Card
	for _, col := range dix.Colors {
		for v := uint8(1); v <= 9; v++ {
			all = append(all, dix.Card{Kind: dix.KindNumber, Color: col, Value: v})
		}
		all = append(all, dix.Card{Kind: dix.KindColorWild, Color: col})
	}
	for v := uint8(1); v <= 9; v++ {
		all = append(all, dix.Card{Kind: dix.KindBlackWild, Value: v})
	}
	all = append(all, dix.Card{Kind: dix.KindSuperWild})
	for v := uint8(1); v <= 5; v++ {
		all = append(all, dix.Card{Kind: dix.KindCurrency, Value: v})
	}
	for _, lang := range locales.Languages {
		for _, c := range all {
			out[cardKey{lang, c}] = renderCardText(lang, c)
		}
	}
	return out
}()

type cardKey struct {
	lang string
	card dix.Card
}

// CardText is the compact form of a card shown on boards ("🟩7").
func CardText(lang string, c dix.Card) string {
	if s, ok := cardTexts[cardKey{lang, c}]; ok {
		return s
	}
	return renderCardText(lang, c)
}

func renderCardText(lang string, c dix.Card) string {
	k, ok := kindKeys[c.Kind]
	if !ok {
		return locales.T(lang, "dix_card_unknown", nil)
	}
	return locales.T(lang, "dix_card_"+k, map[string]any{"Value": int(c.Value), "Emoji": ColorEmoji(lang, c.Color)})
}

// kindKeys end the locale keys of a card of each kind: "dix_card_" + key
// (its text with its emoji) and "dix_name_" + key (its name in words).
var kindKeys = map[dix.Kind]string{
	dix.KindNumber:    "number",
	dix.KindColorWild: "color_wild",
	dix.KindBlackWild: "black_wild",
	dix.KindSuperWild: "super_wild",
	dix.KindCurrency:  "currency",
}

// CardName is the card in words ("green 7", "7 vert").
func CardName(lang string, c dix.Card) string {
	k, ok := kindKeys[c.Kind]
	if !ok {
		return locales.T(lang, "dix_card_unknown", nil)
	}
	return locales.T(lang, "dix_name_"+k, map[string]any{"Value": int(c.Value), "Color": ColorName(lang, c.Color)})
}

// CardsText lists cards in compact form, or "none".
func CardsText(lang string, cards []dix.Card) string {
	if len(cards) == 0 {
		return locales.T(lang, "none", nil)
	}
	parts := make([]string, len(cards))
	for i, c := range cards {
		parts[i] = CardText(lang, c)
	}
	return strings.Join(parts, " ")
}

// ByColor renders number cards grouped by colour, one line per colour
// ("🟦 1 2 2 5"), then the wilds on their own line when withWilds.
func ByColor(lang string, cards []dix.Card, withWilds bool) string {
	var nums [5][]int
	var wilds []dix.Card
	for _, c := range cards {
		switch c.Kind {
		case dix.KindNumber:
			if c.Color <= dix.Pink {
				nums[c.Color] = append(nums[c.Color], int(c.Value))
			}
		default:
			if c.IsWild() {
				wilds = append(wilds, c)
			}
		}
	}
	var lines []string
	for _, col := range dix.Colors {
		v := nums[col]
		if len(v) == 0 {
			continue
		}
		sort.Ints(v)
		parts := make([]string, len(v))
		for i, n := range v {
			parts[i] = itoa(n)
		}
		lines = append(lines, locales.T(lang, "dix_color_line", map[string]any{"Emoji": ColorEmoji(lang, col), "Values": strings.Join(parts, " ")}))
	}
	if withWilds && len(wilds) > 0 {
		lines = append(lines, locales.T(lang, "dix_wilds_line", map[string]any{"Cards": CardsText(lang, wilds)}))
	}
	if len(lines) == 0 {
		return locales.T(lang, "none", nil)
	}
	return strings.Join(lines, "\n")
}

// PaymentText describes a payment ("2 tokens, 1 consolation token, 🟦1 🟦1").
func PaymentText(lang string, p dix.Payment) string {
	var parts []string
	if p.Money > 0 {
		parts = append(parts, locales.N(lang, "dix_pay_tokens", p.Money, nil))
	}
	if p.Consolation > 0 {
		parts = append(parts, locales.N(lang, "dix_pay_consolation", p.Consolation, nil))
	}
	if len(p.Cards) > 0 {
		parts = append(parts, locales.N(lang, "dix_pay_cards", len(p.Cards), map[string]any{"Cards": CardsText(lang, p.Cards)}))
	}
	if len(parts) == 0 {
		return locales.T(lang, "dix_pay_nothing", nil)
	}
	return strings.Join(parts, locales.T(lang, "dix_list_sep", nil))
}

// TableauTotals returns the tableau's total (numbers minus currency) and
// its money (currency sum) (3.1).
func TableauTotals(t []dix.Card) (total, money int) {
	for _, c := range t {
		switch c.Kind {
		case dix.KindNumber:
			total += int(c.Value)
		case dix.KindCurrency:
			total -= int(c.Value)
			money += int(c.Value)
		}
	}
	return total, money
}
