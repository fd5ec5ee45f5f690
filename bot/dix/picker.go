package dixview

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// The payment picker: "Choose another payment" turns the prompt into menus
// of what the player may spend (their number cards, duplicates first, and
// their money and consolation tokens), the running total against the price
// and one Confirm button. Nothing is typed.
//
// The partial pick lives in the custom ids of the picker's own components
// (arg "<target>.<money>.<consolation>.<cards>", cards a hexadecimal mask
// over the player's spendable cards in spendable's order, which cannot
// change while the state version stays the same), so every pick is one
// interaction that reads nothing but the game and writes nothing at all.

// PickAuction is the target of an auction payment; a buy's target is the
// card bought, in SPEC §7 notation.
const PickAuction = "w"

// Pick is a partial payment being picked.
type Pick struct {
	Target      string // PickAuction, or the card bought in SPEC §7 notation
	Money, Cons int    // money and consolation tokens
	Cards       uint64 // a mask over the player's Spendable cards
}

// Arg is the pick written in a custom id, followed by extra fields.
func (p Pick) Arg(extra ...string) string {
	s := fmt.Sprintf("%s.%d.%d.%x", p.Target, p.Money, p.Cons, p.Cards)
	for _, e := range extra {
		s += "." + e
	}
	return s
}

// ParsePick reads a picker arg, returning the extra fields after the pick.
func ParsePick(arg string) (Pick, []string, error) {
	f := strings.Split(arg, ".")
	if len(f) < 4 || f[0] == "" {
		return Pick{}, nil, fmt.Errorf("%w: %q", ErrBadPick, arg)
	}
	money, err1 := strconv.Atoi(f[1])
	cons, err2 := strconv.Atoi(f[2])
	mask, err3 := strconv.ParseUint(f[3], 16, 64)
	if err1 != nil || err2 != nil || err3 != nil || money < 0 || cons < 0 || money > MaxNumber || cons > MaxNumber {
		return Pick{}, nil, fmt.Errorf("%w: %q", ErrBadPick, arg)
	}
	return Pick{Target: f[0], Money: money, Cons: cons, Cards: mask}, f[4:], nil
}

// MaxSpendable bounds the cards a picker offers (a 64-bit mask).
const MaxSpendable = 64

// Spendable lists the number cards seat s may give, duplicates (extra
// copies) first, then the last copies, each group in card order; dups is
// how many are duplicates. While an auction runs in a solo game only
// duplicates may pay (§5). Wilds never pay (R4).
func Spendable(g *dix.Game, s int) (cards []dix.Card, dups int) {
	var nums []dix.Card
	for _, cd := range g.Players[s].Collection {
		if cd.Kind == dix.KindNumber {
			nums = append(nums, cd)
		}
	}
	slices.SortFunc(nums, func(a, b dix.Card) int {
		if a.Color != b.Color {
			return int(a.Color) - int(b.Color)
		}
		return int(a.Value) - int(b.Value)
	})
	var last []dix.Card
	for i, cd := range nums {
		if i+1 < len(nums) && nums[i+1] == cd {
			cards = append(cards, cd)
		} else {
			last = append(last, cd)
		}
	}
	dups = len(cards)
	if !(g.Solo() && (g.Phase == dix.PhaseAuction || g.Phase == dix.PhaseAuctionPay)) {
		cards = append(cards, last...)
	}
	if len(cards) > MaxSpendable {
		cards = cards[:MaxSpendable]
	}
	return cards, min(dups, len(cards))
}

// payment is the engine payment of a pick.
func (p Pick) Payment(list []dix.Card) (dix.Payment, error) {
	if bits.Len64(p.Cards) > len(list) {
		return dix.Payment{}, fmt.Errorf("%w: card index out of range", ErrBadPick)
	}
	pay := dix.Payment{Money: p.Money, Consolation: p.Cons}
	for m := p.Cards; m != 0; m &= m - 1 {
		pay.Cards = append(pay.Cards, list[bits.TrailingZeros64(m)])
	}
	return pay, nil
}

// CheckPick is the engine's check of a payment (ownership, R4, solo
// duplicates, covering the price, R3), said with the amounts.
func CheckPick(g *dix.Game, s, price int, pay dix.Payment) error {
	err := g.CheckPayment(s, price, pay)
	d := map[string]any{"Paid": pay.Value(), "Price": price}
	switch {
	case errors.Is(err, dix.ErrPaymentShort):
		return &Refusal{Err: dix.ErrPaymentShort, Key: "dix_err_payment_short_amounts", Data: d}
	case errors.Is(err, dix.ErrSuperfluousPayment):
		return &Refusal{Err: dix.ErrSuperfluousPayment, Key: "dix_pick_superfluous", Data: d}
	}
	return err
}

// PickPrice is what the target of a pick costs seat s now, checking that
// the payment is the decision open to s.
func PickPrice(g *dix.Game, s int, target string) (int, error) {
	if target == PickAuction {
		ch, err := RequireChoice(g, s, dix.ActPay)
		return ch.Owe, err
	}
	cd, err := Buyable(g, s, target)
	return int(cd.Value), err // 3.4: a card costs its value
}

// PickerView renders the picker for p in lang, with an optional refusal
// shown above it (a new refusal replaces the previous one).
func PickerView(lang string, g *dix.Game, s int, p Pick, refusal string) (string, []discordgo.MessageComponent, error) {
	price, err := PickPrice(g, s, p.Target)
	if err != nil {
		return "", nil, err
	}
	list, dups := Spendable(g, s)
	pay, err := p.Payment(list)
	if err != nil {
		return "", nil, err
	}
	pl := g.Players[s]
	seq := g.Seq

	// The text: what is paid for, the running total, what is wrong.
	var lines []string
	if refusal != "" {
		lines = append(lines, "⚠️ "+refusal)
	}
	d := map[string]any{"Price": price}
	if p.Target == PickAuction {
		if g.Auction != nil {
			d["Card"], d["CardName"] = CardText(lang, g.Auction.Wild), CardName(lang, g.Auction.Wild)
		}
		lines = append(lines, locales.T(lang, "dix_pick_title_auction", d))
	} else {
		cd, _ := dix.ParseCard(p.Target)
		d["Card"], d["CardName"] = CardText(lang, cd), CardName(lang, cd)
		lines = append(lines, locales.T(lang, "dix_pick_title_buy", d))
	}
	paid := pay.Value()
	d = map[string]any{"Payment": PaymentText(lang, pay), "Paid": paid, "Price": price, "Missing": price - paid, "Lost": paid - price}
	checkErr := CheckPick(g, s, price, pay)
	switch {
	case paid == 0:
		lines = append(lines, locales.T(lang, "dix_pick_status_empty", d))
	case checkErr == nil && paid > price:
		lines = append(lines, locales.T(lang, "dix_pick_status_ok_loss", d))
	case checkErr == nil:
		lines = append(lines, locales.T(lang, "dix_pick_status_ok", d))
	case paid < price:
		lines = append(lines, locales.T(lang, "dix_pick_status_short", d))
	default:
		lines = append(lines, locales.T(lang, "dix_pick_status_wrong", d)+"\n"+refusalText(lang, checkErr))
	}
	if g.Solo() && p.Target == PickAuction {
		lines = append(lines, locales.T(lang, "dix_pick_solo", nil)) // §5
	}

	// The menus: cards (25 per menu), money, consolation; then the buttons.
	var rows []discordgo.MessageComponent
	tokenRows := 0
	if pl.Money > 0 {
		tokenRows++
	}
	if pl.Consolation > 0 {
		tokenRows++
	}
	maxCardRows := 5 - 1 - tokenRows
	for k := 0; k*25 < len(list) && k < maxCardRows; k++ {
		var opts []discordgo.SelectMenuOption
		for i := k * 25; i < len(list) && i < (k+1)*25; i++ {
			cd := list[i]
			desc := "dix_pick_card_last"
			if i < dups {
				desc = "dix_pick_card_dup"
			}
			opts = append(opts, discordgo.SelectMenuOption{
				Label:       present.Truncate(CardName(lang, cd), present.MaxOptionLabel),
				Value:       itoa(i),
				Description: present.Truncate(locales.T(lang, desc, nil), present.MaxOptionDesc),
				Emoji:       &discordgo.ComponentEmoji{Name: ColorEmoji(lang, cd.Color)},
				Default:     p.Cards&(1<<uint(i)) != 0,
			})
		}
		zero := 0
		placeholder := locales.T(lang, "dix_pick_cards_placeholder", nil)
		if len(list) > 25 {
			placeholder = locales.T(lang, "dix_pick_cards_placeholder_part", map[string]any{"From": k*25 + 1, "To": min(len(list), (k+1)*25), "Of": len(list)})
		}
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			CustomID: ID(VerbPickCards, seq, p.Arg(itoa(k))), Placeholder: present.Truncate(placeholder, present.MaxMenuHolder),
			MinValues: &zero, MaxValues: len(opts), Options: opts,
		}}})
	}
	tokenMenu := func(verb string, have, chosen int, key string, worth int) discordgo.MessageComponent {
		var opts []discordgo.SelectMenuOption
		for n := 0; n <= have && n < 25; n++ {
			opts = append(opts, discordgo.SelectMenuOption{
				Label:   present.Truncate(locales.N(lang, key, n, map[string]any{"Worth": n * worth}), present.MaxOptionLabel),
				Value:   itoa(n),
				Default: n == chosen,
			})
		}
		return discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			CustomID: ID(verb, seq, p.Arg()), Options: opts,
			Placeholder: present.Truncate(locales.N(lang, key, chosen, map[string]any{"Worth": chosen * worth}), present.MaxMenuHolder),
		}}}
	}
	if pl.Money > 0 {
		rows = append(rows, tokenMenu(VerbPickMoney, pl.Money, p.Money, "dix_pick_money_option", 1))
	}
	if pl.Consolation > 0 {
		rows = append(rows, tokenMenu(VerbPickCons, pl.Consolation, p.Cons, "dix_pick_cons_option", dix.ConsolationValue))
	}
	confirm := button(lang, "dix_btn_pick_confirm", map[string]any{"Paid": paid}, discordgo.SuccessButton, ID(VerbPickOK, seq, p.Arg()))
	confirm.Disabled = checkErr != nil
	rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		confirm,
		button(lang, "dix_btn_back", nil, discordgo.SecondaryButton, ID(VerbPickBack, seq, p.Target)),
	}})
	return strings.Join(lines, "\n"), rows, nil
}

// ErrBadValue is a value of a picker's menu that does not read.
var ErrBadValue = errors.New("dixview: unreadable menu value")

// Pays is the payment of price that seat s picked with p, checked as the
// engine checks it (CheckPick).
func (p Pick) Pays(g *dix.Game, s, price int) (dix.Payment, error) {
	list, _ := Spendable(g, s)
	pay, err := p.Payment(list)
	if err != nil {
		return pay, err
	}
	return pay, CheckPick(g, s, price, pay)
}
