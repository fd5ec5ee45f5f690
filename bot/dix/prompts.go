package dixview

import (
	"slices"

	"github.com/bwmarrin/discordgo"

	computer "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// RequireChoice checks that kind is open to seat now.
func RequireChoice(g *dix.Game, seat int, kind dix.ActionKind) (dix.Choices, error) {
	ch := g.Choices(seat)
	if !HasAction(ch, kind) {
		return ch, dix.ErrWrongPhase
	}
	return ch, nil
}

// BidAmounts are the quick amounts offered: the minimum, a few steps, the maximum.
func BidAmounts(lo, hi int) []int {
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

// Proposer returns the payment the engine proposes to seat s for a card
// (R6), for the market select's descriptions.
// The proposal depends only on the price, so it is computed once per price.
func Proposer(g *dix.Game, s int) func(dix.Card) (dix.Payment, int, bool) {
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

// Buyable parses a card notation and checks that seat may buy it now.
func Buyable(g *dix.Game, seat int, notation string) (dix.Card, error) {
	cd, err := dix.ParseCard(notation)
	if err != nil {
		return dix.Card{}, err
	}
	ch, err := RequireChoice(g, seat, dix.ActBuy)
	if err != nil {
		return dix.Card{}, err
	}
	if !slices.Contains(ch.Buyable, cd) {
		return dix.Card{}, dix.ErrNotInMarket
	}
	return cd, nil
}

// AuctionPayStep adds the proposed payment of owe to d and returns the
// buttons of the winner's payment step: Pay (when a payment covers it) and
// Choose another payment.
func AuctionPayStep(lang string, g *dix.Game, s, owe int, d map[string]any) (map[string]any, []discordgo.MessageComponent) {
	pay, ok := g.ProposePayment(s, owe)
	row := []discordgo.MessageComponent{}
	if ok {
		d["Payment"] = PaymentText(lang, pay)
		row = append(row, button(lang, "dix_btn_pay", nil, discordgo.SuccessButton, ID(VerbAuctPay, g.Seq)))
	} else {
		d["Payment"] = locales.T(lang, "dix_pay_none_found", nil)
	}
	row = append(row, button(lang, "dix_btn_other_payment", nil, discordgo.SecondaryButton, ID(VerbAuctOther, g.Seq)))
	return d, []discordgo.MessageComponent{discordgo.ActionsRow{Components: row}}
}

// Abs is |n|, the count that chooses the plural form of a signed amount.
func Abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Signed writes a score change with its sign: +2, 0, −1.
func Signed(n int) string {
	switch {
	case n > 0:
		return "+" + itoa(n)
	case n < 0:
		return "−" + itoa(-n)
	}
	return "0"
}

// BidPrompt is the private prompt of a bid (3.5) open to a player with
// choices ch: what is auctioned and the bid so far, the quick amounts, a
// custom amount and Pass. g has an auction.
func BidPrompt(t Table, g *dix.Game, ch dix.Choices) (string, []discordgo.MessageComponent) {
	lang := t.Lang
	var row []discordgo.MessageComponent
	for _, v := range BidAmounts(ch.MinBid, ch.MaxBid) {
		row = append(row, button(lang, "dix_btn_bid_amount", map[string]any{"Amount": v}, discordgo.PrimaryButton, ID(VerbBidAmount, g.Seq, itoa(v))))
	}
	comps := []discordgo.MessageComponent{}
	if len(row) > 0 {
		comps = append(comps, discordgo.ActionsRow{Components: row})
	}
	comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		button(lang, "dix_btn_bid_custom", nil, discordgo.SecondaryButton, ID(VerbBidCustom, g.Seq)),
		button(lang, "dix_btn_pass", nil, discordgo.SecondaryButton, ID(VerbPass, g.Seq)),
	}})
	d := map[string]any{"Card": CardText(lang, g.Auction.Wild), "CardName": CardName(lang, g.Auction.Wild), "Min": ch.MinBid, "Max": ch.MaxBid}
	text := locales.T(lang, "dix_prompt_bid", d)
	if g.Auction.HighBidder >= 0 && g.Auction.HighBid > 0 {
		d["High"] = g.Auction.HighBid
		d["Holder"] = t.Name(g.Auction.HighBidder)
		text = locales.T(lang, "dix_prompt_bid_over", d)
	}
	if g.Solo() {
		text += "\n" + locales.T(lang, "dix_prompt_bid_solo", nil)
	}
	return text, comps
}

// BuyPayStep is the step after seat s chose cd in the market: its price,
// the payment the engine proposes (R6), and Pay, Choose another payment,
// Back. A Refusal when no payment covers the price.
func BuyPayStep(lang string, g *dix.Game, s int, cd dix.Card) (string, []discordgo.MessageComponent, dix.Payment, error) {
	price := int(cd.Value) // 3.4: a card costs its value
	d := map[string]any{"Card": CardText(lang, cd), "CardName": CardName(lang, cd), "Price": price}
	pay, ok := g.ProposePayment(s, price)
	if !ok {
		return "", nil, pay, &Refusal{Err: dix.ErrCannotAfford, Key: "dix_err_cannot_afford_card", Data: d}
	}
	d["Payment"] = PaymentText(lang, pay)
	comps := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		button(lang, "dix_btn_pay", nil, discordgo.SuccessButton, ID(VerbBuyPay, g.Seq, cd.String())),
		button(lang, "dix_btn_other_payment", nil, discordgo.SecondaryButton, ID(VerbBuyOther, g.Seq, cd.String())),
		button(lang, "dix_btn_back", nil, discordgo.SecondaryButton, ID(VerbPickBack, g.Seq)),
	}}}
	return locales.T(lang, "dix_prompt_buy_pay", d), comps, pay, nil
}

// AuctionPayPrompt is the private prompt of the auction's winner, seat s,
// who owes owe (3.5): the wild won and the payment step.
func AuctionPayPrompt(lang string, g *dix.Game, s, owe int) (string, []discordgo.MessageComponent) {
	d := map[string]any{"Amount": owe}
	if g.Auction != nil {
		d["Card"], d["CardName"] = CardText(lang, g.Auction.Wild), CardName(lang, g.Auction.Wild)
	}
	d, comps := AuctionPayStep(lang, g, s, owe, d)
	return locales.T(lang, "dix_prompt_auction_pay", d), comps
}
