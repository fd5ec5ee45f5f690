package bot

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

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

// pickAuction is the target of an auction payment; a buy's target is the
// card bought, in SPEC §7 notation.
const pickAuction = "w"

// pick is a partial payment being picked.
type pick struct {
	target      string
	money, cons int
	cards       uint64
}

func (p pick) arg(extra ...string) string {
	s := fmt.Sprintf("%s.%d.%d.%x", p.target, p.money, p.cons, p.cards)
	for _, e := range extra {
		s += "." + e
	}
	return s
}

// parsePick reads a picker arg, returning the extra fields after the pick.
func parsePick(arg string) (pick, []string, error) {
	f := strings.Split(arg, ".")
	if len(f) < 4 || f[0] == "" {
		return pick{}, nil, fmt.Errorf("%w: pick %q", ErrBadCustomID, arg)
	}
	money, err1 := strconv.Atoi(f[1])
	cons, err2 := strconv.Atoi(f[2])
	mask, err3 := strconv.ParseUint(f[3], 16, 64)
	if err1 != nil || err2 != nil || err3 != nil || money < 0 || cons < 0 || money > maxNumber || cons > maxNumber {
		return pick{}, nil, fmt.Errorf("%w: pick %q", ErrBadCustomID, arg)
	}
	return pick{target: f[0], money: money, cons: cons, cards: mask}, f[4:], nil
}

// maxSpendable bounds the cards a picker offers (a 64-bit mask).
const maxSpendable = 64

// spendable lists the number cards seat s may give, duplicates (extra
// copies) first, then the last copies, each group in card order; dups is
// how many are duplicates. While an auction runs in a solo game only
// duplicates may pay (§5). Wilds never pay (R4).
func spendable(g *dix.Game, s int) (cards []dix.Card, dups int) {
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
	if len(cards) > maxSpendable {
		cards = cards[:maxSpendable]
	}
	return cards, min(dups, len(cards))
}

// payment is the engine payment of a pick.
func (p pick) payment(list []dix.Card) (dix.Payment, error) {
	if bits.Len64(p.cards) > len(list) {
		return dix.Payment{}, fmt.Errorf("%w: card index out of range", ErrBadCustomID)
	}
	pay := dix.Payment{Money: p.money, Consolation: p.cons}
	for m := p.cards; m != 0; m &= m - 1 {
		pay.Cards = append(pay.Cards, list[bits.TrailingZeros64(m)])
	}
	return pay, nil
}

// checkPick is the engine's check of a payment (ownership, R4, solo
// duplicates, covering the price, R3), said with the amounts.
func checkPick(g *dix.Game, s, price int, pay dix.Payment) error {
	err := g.CheckPayment(s, price, pay)
	d := map[string]any{"Paid": pay.Value(), "Price": price}
	switch {
	case errors.Is(err, dix.ErrPaymentShort):
		return refuse(dix.ErrPaymentShort, "dix_err_payment_short_amounts", d)
	case errors.Is(err, dix.ErrSuperfluousPayment):
		return refuse(dix.ErrSuperfluousPayment, "dix_pick_superfluous", d)
	}
	return err
}

// pickPrice is what the target of a pick costs seat s now, checking that
// the payment is the decision open to s.
func pickPrice(g *dix.Game, s int, target string) (int, error) {
	if target == pickAuction {
		ch, err := requireChoice(g, s, dix.ActPay)
		return ch.Owe, err
	}
	cd, err := buyable(g, s, target)
	return int(cd.Value), err // 3.4: a card costs its value
}

// pickerView renders the picker for p in lang, with an optional refusal
// shown above it (a new refusal replaces the previous one).
func pickerView(lang string, g *dix.Game, m *meta, s int, p pick, refusal string) (string, []discordgo.MessageComponent, error) {
	price, err := pickPrice(g, s, p.target)
	if err != nil {
		return "", nil, err
	}
	list, dups := spendable(g, s)
	pay, err := p.payment(list)
	if err != nil {
		return "", nil, err
	}
	pl := g.Players[s]
	seq := m.version(g)

	// The text: what is paid for, the running total, what is wrong.
	var lines []string
	if refusal != "" {
		lines = append(lines, "⚠️ "+refusal)
	}
	d := map[string]any{"Price": price}
	if p.target == pickAuction {
		if g.Auction != nil {
			d["Card"], d["CardName"] = cardText(lang, g.Auction.Wild), cardName(lang, g.Auction.Wild)
		}
		lines = append(lines, locales.T(lang, "dix_pick_title_auction", d))
	} else {
		cd, _ := dix.ParseCard(p.target)
		d["Card"], d["CardName"] = cardText(lang, cd), cardName(lang, cd)
		lines = append(lines, locales.T(lang, "dix_pick_title_buy", d))
	}
	paid := pay.Value()
	d = map[string]any{"Payment": paymentText(lang, pay), "Paid": paid, "Price": price, "Missing": price - paid, "Lost": paid - price}
	checkErr := checkPick(g, s, price, pay)
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
		key, data, _, _ := classify(checkErr)
		lines = append(lines, locales.T(lang, "dix_pick_status_wrong", d)+"\n"+locales.T(lang, key, data))
	}
	if g.Solo() && p.target == pickAuction {
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
				Label:       truncate(cardName(lang, cd), 100),
				Value:       itoa(i),
				Description: truncate(locales.T(lang, desc, nil), 100),
				Emoji:       &discordgo.ComponentEmoji{Name: colorEmoji(lang, cd.Color)},
				Default:     p.cards&(1<<uint(i)) != 0,
			})
		}
		zero := 0
		placeholder := locales.T(lang, "dix_pick_cards_placeholder", nil)
		if len(list) > 25 {
			placeholder = locales.T(lang, "dix_pick_cards_placeholder_part", map[string]any{"From": k*25 + 1, "To": min(len(list), (k+1)*25), "Of": len(list)})
		}
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			CustomID: customID(verbPickCards, seq, p.arg(itoa(k))), Placeholder: truncate(placeholder, 150),
			MinValues: &zero, MaxValues: len(opts), Options: opts,
		}}})
	}
	tokenMenu := func(verb string, have, chosen int, key string, worth int) discordgo.MessageComponent {
		var opts []discordgo.SelectMenuOption
		for n := 0; n <= have && n < 25; n++ {
			opts = append(opts, discordgo.SelectMenuOption{
				Label:   truncate(locales.N(lang, key, n, map[string]any{"Worth": n * worth}), 100),
				Value:   itoa(n),
				Default: n == chosen,
			})
		}
		return discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			CustomID: customID(verb, seq, p.arg()), Options: opts,
			Placeholder: truncate(locales.N(lang, key, chosen, map[string]any{"Worth": chosen * worth}), 150),
		}}}
	}
	if pl.Money > 0 {
		rows = append(rows, tokenMenu(verbPickMoney, pl.Money, p.money, "dix_pick_money_option", 1))
	}
	if pl.Consolation > 0 {
		rows = append(rows, tokenMenu(verbPickCons, pl.Consolation, p.cons, "dix_pick_cons_option", dix.ConsolationValue))
	}
	confirm := button(lang, "dix_btn_pick_confirm", map[string]any{"Paid": paid}, discordgo.SuccessButton, customID(verbPickOK, seq, p.arg()))
	confirm.Disabled = checkErr != nil
	rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		confirm,
		button(lang, "dix_btn_back", nil, discordgo.SecondaryButton, customID(verbPickBack, seq, p.target)),
	}})
	return strings.Join(lines, "\n"), rows, nil
}

// showPicker answers by turning the prompt into the picker for p.
func (c *call) showPicker(version uint32, p pick, refusal string) error {
	g, m, s, err := c.peek(version)
	if err != nil {
		return err
	}
	text, comps, err := pickerView(c.lang, g, m, s, p, refusal)
	if err != nil {
		return err
	}
	c.updateOrReply(text, comps)
	return nil
}

// pickOpen opens the picker, empty, for a buy (arg: the card) or the
// auction payment (no arg).
func (c *call) pickOpen(p parsedID) error {
	target := p.arg
	if p.verb == verbAuctOther {
		target = pickAuction
	}
	if target == "" {
		return fmt.Errorf("%w: no target", ErrBadCustomID)
	}
	return c.showPicker(p.version, pick{target: target}, "")
}

// pickChange applies one menu's new values to the pick carried by its id.
func (c *call) pickChange(p parsedID) error {
	st, extra, err := parsePick(p.arg)
	if err != nil {
		return err
	}
	vals := c.values()
	one := func() (int, error) {
		if len(vals) != 1 {
			return 0, ErrBadInput
		}
		n, err := strconv.Atoi(vals[0])
		if err != nil || n < 0 || n > maxNumber {
			return 0, ErrBadInput
		}
		return n, nil
	}
	switch p.verb {
	case verbPickMoney:
		if st.money, err = one(); err != nil {
			return err
		}
	case verbPickCons:
		if st.cons, err = one(); err != nil {
			return err
		}
	case verbPickCards:
		if len(extra) != 1 {
			return fmt.Errorf("%w: no card group", ErrBadCustomID)
		}
		k, err := strconv.Atoi(extra[0])
		if err != nil || k < 0 || k*25 >= maxSpendable {
			return fmt.Errorf("%w: card group %q", ErrBadCustomID, extra[0])
		}
		for i := k * 25; i < (k+1)*25 && i < maxSpendable; i++ {
			st.cards &^= 1 << uint(i)
		}
		for _, v := range vals {
			i, err := strconv.Atoi(v)
			if err != nil || i < k*25 || i >= (k+1)*25 || i >= maxSpendable {
				return ErrBadInput
			}
			st.cards |= 1 << uint(i)
		}
	}
	return c.showPicker(p.version, st, "")
}

// pickConfirm pays with the pick. A refusal redraws the picker with the
// reason instead of adding a message.
func (c *call) pickConfirm(p parsedID) error {
	st, _, err := parsePick(p.arg)
	if err != nil {
		return err
	}
	payer := func(g *dix.Game, s, price int) (dix.Payment, error) {
		list, _ := spendable(g, s)
		pay, err := st.payment(list)
		if err != nil {
			return pay, err
		}
		return pay, checkPick(g, s, price, pay)
	}
	if st.target == pickAuction {
		err = c.payAuction(p.version, payer)
	} else {
		err = c.buy(parsedID{verb: verbBuyPay, version: p.version, arg: st.target}, payer)
	}
	if err == nil {
		return nil
	}
	if key, data, outcome, _ := classify(err); outcome == outcomeRefused && !c.responded {
		if c.showPicker(p.version, st, locales.T(c.lang, key, data)) == nil {
			return nil
		}
	}
	return err
}

// pickBack goes back one step: from a buy's payment to the market, from
// the auction picker to the proposed payment.
func (c *call) pickBack(p parsedID) error {
	if p.arg == pickAuction {
		g, m, s, ch, err := c.peekChoice(p.version, dix.ActPay)
		if err != nil {
			return err
		}
		d := map[string]any{"Amount": ch.Owe}
		if g.Auction != nil {
			d["Card"], d["CardName"] = cardText(c.lang, g.Auction.Wild), cardName(c.lang, g.Auction.Wild)
		}
		d, comps := auctionPayStep(c.lang, g, m, s, ch.Owe, d)
		c.updateOrReply(locales.T(c.lang, "dix_prompt_auction_pay", d), comps)
		return nil
	}
	g, m, s, ch, err := c.peekChoice(p.version, dix.ActBuy)
	if err != nil {
		return err
	}
	if len(ch.Buyable) == 0 {
		return refuse(dix.ErrNotInMarket, "dix_err_nothing_to_buy", nil)
	}
	c.updateOrReply(locales.T(c.lang, "dix_prompt_buy", map[string]any{"Capacity": g.BuyCapacity(s)}), buySelects(c.lang, m.version(g), ch.Buyable, proposer(g, s)))
	return nil
}

// onlyPayment returns the payment of price by seat s when there is exactly
// one that the engine accepts and that has no superfluous unit (R3): paying
// it then decides nothing. Cards that are the same colour and number are
// the same choice.
func onlyPayment(g *dix.Game, s, price int) (dix.Payment, bool) {
	list, _ := spendable(g, s)
	pl := g.Players[s]
	distinct := map[dix.Card]bool{}
	for _, cd := range list {
		distinct[cd] = true
	}
	var found dix.Payment
	n := 0
	for m := 0; m <= pl.Money; m++ {
		for c := 0; c <= pl.Consolation; c++ {
			for k := 0; k <= len(list); k++ {
				if g.CheckPayment(s, price, dix.Payment{Money: m, Consolation: c, Cards: list[:k]}) != nil {
					continue
				}
				if k > 0 && k < len(list) && len(distinct) > 1 {
					return dix.Payment{}, false // several ways to choose the cards
				}
				n++
				if n > 1 {
					return dix.Payment{}, false
				}
				found = dix.Payment{Money: m, Consolation: c, Cards: append([]dix.Card(nil), list[:k]...)}
			}
		}
	}
	if n != 1 || checkPick(g, s, price, found) != nil {
		return dix.Payment{}, false
	}
	return found, true
}
