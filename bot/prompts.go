package bot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	computer "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// Modal text input ids.
const (
	fieldAmount = "amount"
)

// maxNumber bounds numbers typed in modals (far above any legal value).
const maxNumber = 999

// requireChoice checks that kind is open to seat now.
func requireChoice(g *dix.Game, seat int, kind dix.ActionKind) (dix.Choices, error) {
	ch := g.Choices(seat)
	if !hasAction(ch, kind) {
		return ch, dix.ErrWrongPhase
	}
	return ch, nil
}

// bidAmounts are the quick amounts offered: the minimum, a few steps, the maximum.
func bidAmounts(lo, hi int) []int {
	if hi < lo {
		return nil
	}
	cand := []int{lo, lo + 1, lo + 2, lo + (hi-lo)/2, hi}
	var out []int
	for _, v := range cand {
		if v >= lo && v <= hi && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// bidPrompt opens the private bid prompt (3.5).
func (c *call) bidPrompt(p parsedID) error {
	g, m, _, ch, err := c.peekChoice(p.version, dix.ActBid)
	if err != nil {
		return err
	}
	if g.Auction == nil {
		return dix.ErrWrongPhase
	}
	var row []discordgo.MessageComponent
	for _, v := range bidAmounts(ch.MinBid, ch.MaxBid) {
		row = append(row, button(c.lang, "dix_btn_bid_amount", map[string]any{"Amount": v}, discordgo.PrimaryButton, customID(verbBidAmount, m.version(g), itoa(v))))
	}
	comps := []discordgo.MessageComponent{}
	if len(row) > 0 {
		comps = append(comps, discordgo.ActionsRow{Components: row})
	}
	comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		button(c.lang, "dix_btn_bid_custom", nil, discordgo.SecondaryButton, customID(verbBidCustom, m.version(g))),
		button(c.lang, "dix_btn_pass", nil, discordgo.SecondaryButton, customID(verbPass, m.version(g))),
	}})
	d := map[string]any{"Card": cardText(c.lang, g.Auction.Wild), "CardName": cardName(c.lang, g.Auction.Wild), "Min": ch.MinBid, "Max": ch.MaxBid}
	text := locales.T(c.lang, "dix_prompt_bid", d)
	if g.Auction.HighBidder >= 0 && g.Auction.HighBid > 0 {
		d["High"] = g.Auction.HighBid
		d["Holder"] = m.name(c.lang, g.Auction.HighBidder)
		text = locales.T(c.lang, "dix_prompt_bid_over", d)
	}
	if g.Solo() {
		text += "\n" + locales.T(c.lang, "dix_prompt_bid_solo", nil)
	}
	c.ephemeral(text, comps)
	return nil
}

// placeBid applies a bid after checking it against the open range.
func (c *call) placeBid(version uint32, amount int) error {
	return c.play(version, func(g *dix.Game, s int) (dix.Action, error) {
		ch, err := requireChoice(g, s, dix.ActBid)
		if err != nil {
			return dix.Action{}, err
		}
		if amount < ch.MinBid {
			return dix.Action{}, refuse(dix.ErrBidTooLow, "dix_err_bid_range", map[string]any{"Min": ch.MinBid, "Max": ch.MaxBid})
		}
		if amount > ch.MaxBid {
			return dix.Action{}, refuse(dix.ErrBidTooHigh, "dix_err_bid_range", map[string]any{"Min": ch.MinBid, "Max": ch.MaxBid})
		}
		return dix.Action{Kind: dix.ActBid, Amount: amount}, nil
	}, func(lang string, a dix.Action, g *dix.Game, m *meta, s int) (string, []discordgo.MessageComponent) {
		if g.Phase == dix.PhaseAuctionPay && g.ToAct() == s && g.Auction != nil {
			// The last bid won the auction: the payment step follows in the
			// same prompt instead of sending the winner back to the board.
			d := map[string]any{"Amount": a.Amount, "Card": cardText(lang, g.Auction.Wild), "CardName": cardName(lang, g.Auction.Wild)}
			d, row := auctionPayStep(lang, g, m, s, g.Auction.HighBid, d)
			return locales.T(lang, "dix_prompt_won_pay", d), row
		}
		return locales.T(lang, "dix_done_bid", map[string]any{"Amount": a.Amount}), nil
	})
}

func (c *call) bidAmount(p parsedID) error {
	n, err := strconv.Atoi(p.arg)
	if err != nil || n < 0 || n > maxNumber {
		return fmt.Errorf("%w: bid %q", ErrBadCustomID, p.arg)
	}
	return c.placeBid(p.version, n)
}

// bidCustom opens the "custom amount" modal.
func (c *call) bidCustom(p parsedID) error {
	g, m, _, ch, err := c.peekChoice(p.version, dix.ActBid)
	if err != nil {
		return err
	}
	c.modal(customID(verbBidModal, m.version(g)), locales.T(c.lang, "dix_modal_bid_title", nil), []discordgo.TextInput{{
		CustomID: fieldAmount, Style: discordgo.TextInputShort, Required: true, MaxLength: 3,
		Label:       truncate(locales.T(c.lang, "dix_modal_bid_label", map[string]any{"Min": ch.MinBid, "Max": ch.MaxBid}), 45),
		Placeholder: itoa(ch.MinBid),
	}})
	return nil
}

func (c *call) bidModal(p parsedID) error {
	n, err := parseNumber(c.modalValues()[fieldAmount], false)
	if err != nil {
		return err
	}
	return c.placeBid(p.version, n)
}

// parseNumber reads a typed whole number 0–maxNumber; blank is 0 when optional.
func parseNumber(s string, optional bool) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" && optional {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > maxNumber {
		return 0, refuse(ErrBadInput, "err_bad_number", map[string]any{"Text": truncate(escape(s), 20)})
	}
	return n, nil
}

// modal answers with a modal of text inputs.
func (c *call) modal(id, title string, inputs []discordgo.TextInput) {
	rows := make([]discordgo.MessageComponent, len(inputs))
	for i, in := range inputs {
		rows[i] = discordgo.ActionsRow{Components: []discordgo.MessageComponent{in}}
	}
	c.respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseModal,
		Data: &discordgo.InteractionResponseData{CustomID: id, Title: truncate(title, 45), Components: rows},
	})
}

// buyPrompt opens the private market prompt: a select of the cards this
// player may buy (R5), one select per colour beyond 25 choices.
func (c *call) buyPrompt(p parsedID) error {
	g, m, s, ch, err := c.peekChoice(p.version, dix.ActBuy)
	if err != nil {
		return err
	}
	if len(ch.Buyable) == 0 {
		return refuse(dix.ErrNotInMarket, "dix_err_nothing_to_buy", nil)
	}
	// 3.4: a market card may be paid with any number card, in solo too
	// (g.Capacity is the auction capacity, duplicates only in solo).
	c.ephemeral(locales.T(c.lang, "dix_prompt_buy", map[string]any{"Capacity": g.BuyCapacity(s)}), buySelects(c.lang, m.version(g), ch.Buyable, proposer(g, s)))
	return nil
}

// proposer returns the payment the engine proposes to seat s for a card
// (R6), for the market select's descriptions.
// The proposal depends only on the price, so it is computed once per price.
func proposer(g *dix.Game, s int) func(dix.Card) (dix.Payment, int, bool) {
	type proposal struct {
		pay dix.Payment
		ok  bool
	}
	byPrice := map[int]proposal{}
	coll := g.Players[s].Collection
	return func(cd dix.Card) (dix.Payment, int, bool) {
		price := int(cd.Value)
		p, seen := byPrice[price]
		if !seen {
			p.pay, p.ok = g.ProposePayment(s, price)
			byPrice[price] = p
		}
		// What the purchase does to the score, the cards spent included
		// (they can shorten a run).
		delta := computer.ScoreDelta(coll, cd) + computer.SpendDelta(append(slices.Clone(coll), cd), p.pay.Cards)
		return p.pay, delta, p.ok
	}
}

// buySelects builds the market select menus. Each option shows the card's
// colour as its emoji, its name and price, and (when pay is set) the
// payment the next step will propose.
func buySelects(lang string, seq uint32, cards []dix.Card, pay func(dix.Card) (dix.Payment, int, bool)) []discordgo.MessageComponent {
	option := func(cd dix.Card) discordgo.SelectMenuOption {
		o := discordgo.SelectMenuOption{
			Label: truncate(locales.T(lang, "dix_option_card", map[string]any{"CardName": cardName(lang, cd), "Price": int(cd.Value)}), 100),
			Value: cd.String(),
			Emoji: &discordgo.ComponentEmoji{Name: colorEmoji(lang, cd.Color)},
		}
		if pay != nil {
			if p, delta, ok := pay(cd); ok {
				o.Description = truncate(locales.N(lang, "dix_option_card_pay", abs(delta), map[string]any{"Payment": paymentText(lang, p), "Points": signed(delta)}), 100)
			}
		}
		return o
	}
	one := func(id, placeholder string, cs []dix.Card) discordgo.MessageComponent {
		opts := make([]discordgo.SelectMenuOption, len(cs))
		for i, cd := range cs {
			opts[i] = option(cd)
		}
		return discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			CustomID: id, Placeholder: truncate(placeholder, 150), Options: opts,
		}}}
	}
	if len(cards) <= 25 {
		return []discordgo.MessageComponent{one(customID(verbBuySelect, seq), locales.T(lang, "dix_select_buy", nil), cards)}
	}
	var rows []discordgo.MessageComponent
	for _, col := range dix.Colors {
		var cs []dix.Card
		for _, cd := range cards {
			if cd.Color == col {
				cs = append(cs, cd)
			}
		}
		if len(cs) == 0 {
			continue
		}
		if len(cs) > 25 {
			cs = cs[:25]
		}
		rows = append(rows, one(customID(verbBuySelect, seq, col.String()),
			locales.T(lang, "dix_select_buy_color", map[string]any{"Color": colorName(lang, col), "Emoji": colorEmoji(lang, col)}), cs))
	}
	return rows
}

// buyable parses a card notation and checks that seat may buy it now.
func buyable(g *dix.Game, seat int, notation string) (dix.Card, error) {
	cd, err := dix.ParseCard(notation)
	if err != nil {
		return dix.Card{}, err
	}
	ch, err := requireChoice(g, seat, dix.ActBuy)
	if err != nil {
		return dix.Card{}, err
	}
	if !slices.Contains(ch.Buyable, cd) {
		return dix.Card{}, dix.ErrNotInMarket
	}
	return cd, nil
}

// buySelect shows the payment step for the chosen card.
func (c *call) buySelect(p parsedID) error {
	vals := c.values()
	if len(vals) != 1 {
		return ErrBadInput
	}
	g, m, s, err := c.peek(p.version)
	if err != nil {
		return err
	}
	cd, err := buyable(g, s, vals[0])
	if err != nil {
		return err
	}
	price := int(cd.Value) // 3.4: a card costs its value
	d := map[string]any{"Card": cardText(c.lang, cd), "CardName": cardName(c.lang, cd), "Price": price}
	pay, ok := g.ProposePayment(s, price)
	if !ok {
		return refuse(dix.ErrCannotAfford, "dix_err_cannot_afford_card", d)
	}
	d["Payment"] = paymentText(c.lang, pay)
	comps := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		button(c.lang, "dix_btn_pay", nil, discordgo.SuccessButton, customID(verbBuyPay, m.version(g), cd.String())),
		button(c.lang, "dix_btn_other_payment", nil, discordgo.SecondaryButton, customID(verbBuyOther, m.version(g), cd.String())),
		button(c.lang, "dix_btn_back", nil, discordgo.SecondaryButton, customID(verbPickBack, m.version(g))),
	}}}
	embeds, files := c.b.buyPreview(c.lang, m, g, s, cd, pay, c.canAttach())
	c.update(locales.T(c.lang, "dix_prompt_buy_pay", d), embeds, comps, files...)
	return nil
}

// payer chooses the payment of price by seat s: the proposed one, or the
// one the player picked.
type payer func(g *dix.Game, s, price int) (dix.Payment, error)

// proposed pays with the payment that loses the least (R6).
func proposed(g *dix.Game, s, price int) (dix.Payment, error) {
	pay, ok := g.ProposePayment(s, price)
	if !ok {
		return pay, dix.ErrCannotAfford
	}
	return pay, nil
}

func (c *call) buyPay(p parsedID) error { return c.buy(p, proposed) }

// buy applies ActBuy of the card named in the custom id.
func (c *call) buy(p parsedID, payment payer) error {
	return c.play(p.version, func(g *dix.Game, s int) (dix.Action, error) {
		cd, err := buyable(g, s, p.arg)
		if err != nil {
			return dix.Action{}, err
		}
		pay, err := payment(g, s, int(cd.Value)) // 3.4: a card costs its value
		if err != nil {
			return dix.Action{}, err
		}
		return dix.Action{Kind: dix.ActBuy, Card: cd, Payment: pay}, nil
	}, confirmText(func(lang string, a dix.Action) string {
		return locales.T(lang, "dix_done_buy", map[string]any{"Card": cardText(lang, a.Card), "CardName": cardName(lang, a.Card), "Payment": paymentText(lang, a.Payment)})
	}))
}

// auctionPayPrompt opens the winner's payment prompt (3.5).
func (c *call) auctionPayPrompt(p parsedID) error {
	g, m, s, ch, err := c.peekChoice(p.version, dix.ActPay)
	if err != nil {
		return err
	}
	d := map[string]any{"Amount": ch.Owe}
	if g.Auction != nil {
		d["Card"] = cardText(c.lang, g.Auction.Wild)
		d["CardName"] = cardName(c.lang, g.Auction.Wild)
	}
	d, comps := auctionPayStep(c.lang, g, m, s, ch.Owe, d)
	c.ephemeral(locales.T(c.lang, "dix_prompt_auction_pay", d), comps)
	return nil
}

// auctionPayStep adds the proposed payment of owe to d and returns the
// buttons of the winner's payment step: Pay (when a payment covers it) and
// Choose another payment.
func auctionPayStep(lang string, g *dix.Game, m *meta, s, owe int, d map[string]any) (map[string]any, []discordgo.MessageComponent) {
	pay, ok := g.ProposePayment(s, owe)
	row := []discordgo.MessageComponent{}
	if ok {
		d["Payment"] = paymentText(lang, pay)
		row = append(row, button(lang, "dix_btn_pay", nil, discordgo.SuccessButton, customID(verbAuctPay, m.version(g))))
	} else {
		d["Payment"] = locales.T(lang, "dix_pay_none_found", nil)
	}
	row = append(row, button(lang, "dix_btn_other_payment", nil, discordgo.SecondaryButton, customID(verbAuctOther, m.version(g))))
	return d, []discordgo.MessageComponent{discordgo.ActionsRow{Components: row}}
}

func (c *call) auctionPay(p parsedID) error { return c.payAuction(p.version, proposed) }

func (c *call) payAuction(version uint32, payment payer) error {
	return c.play(version, func(g *dix.Game, s int) (dix.Action, error) {
		ch, err := requireChoice(g, s, dix.ActPay)
		if err != nil {
			return dix.Action{}, err
		}
		pay, err := payment(g, s, ch.Owe)
		if err != nil {
			return dix.Action{}, err
		}
		return dix.Action{Kind: dix.ActPay, Payment: pay}, nil
	}, confirmText(func(lang string, a dix.Action) string {
		return locales.T(lang, "dix_done_pay", map[string]any{"Payment": paymentText(lang, a.Payment)})
	}))
}

// abs is |n|, the count that chooses the plural form of a signed amount.
func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// signed writes a score change with its sign: +2, 0, −1.
func signed(n int) string {
	switch {
	case n > 0:
		return "+" + itoa(n)
	case n < 0:
		return "−" + itoa(-n)
	}
	return "0"
}
