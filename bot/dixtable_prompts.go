package bot

import (
	"fmt"
	"strconv"

	"github.com/bwmarrin/discordgo"

	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// Modal text input ids.
const (
	fieldAmount = "amount"
)

// maxNumber bounds numbers typed in modals (far above any legal value).
const maxNumber = dixview.MaxNumber

// bidPrompt opens the private bid prompt (3.5).
func (c *call) bidPrompt(p parsedID) error {
	g, m, _, ch, err := c.peekChoice(p.version, dix.ActBid)
	if err != nil {
		return err
	}
	if g.Auction == nil {
		return dix.ErrWrongPhase
	}
	c.ephemeral(dixview.BidPrompt(m.names(c.lang), g, ch))
	return nil
}

// placeBid applies a bid after checking it against the open range.
func (c *call) placeBid(version uint32, amount int) error {
	return c.play(version, func(g *dix.Game, s int) (dix.Action, error) {
		ch, err := dixview.RequireChoice(g, s, dix.ActBid)
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
	}, func(lang string, a dix.Action, g *dix.Game, m *dixTable, s int) (string, []discordgo.MessageComponent) {
		return dixview.BidDone(lang, g, s, a.Amount)
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
	n, err := parseNumber(c.modalValues()[fieldAmount], false, maxNumber)
	if err != nil {
		return err
	}
	return c.placeBid(p.version, n)
}

// buyPrompt opens the private market prompt: a select of the cards this
// player may buy (R5), one select per colour beyond 25 choices.
func (c *call) buyPrompt(p parsedID) error {
	g, _, s, ch, err := c.peekChoice(p.version, dix.ActBuy)
	if err != nil {
		return err
	}
	if len(ch.Buyable) == 0 {
		return refuse(dix.ErrNotInMarket, "dix_err_nothing_to_buy", nil)
	}
	// 3.4: a market card may be paid with any number card, in solo too
	// (g.Capacity is the auction capacity, duplicates only in solo).
	c.ephemeral(dixview.MarketPrompt(c.lang, g, s, ch))
	return nil
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
	cd, err := dixview.Buyable(g, s, vals[0])
	if err != nil {
		return err
	}
	text, comps, pay, err := dixview.BuyPayStep(c.lang, g, s, cd)
	if err != nil {
		return err
	}
	embeds, files := c.b.buyPreview(c.lang, m, g, s, cd, pay, c.canAttach())
	c.update(text, embeds, comps, files...)
	return nil
}

// payer chooses the payment of price by seat s: the proposed one, or the
// one the player picked.
type payer func(g *dix.Game, s, price int) (dix.Payment, error)

func (c *call) buyPay(p parsedID) error { return c.buy(p, dixview.Proposed) }

// buy applies ActBuy of the card named in the custom id.
func (c *call) buy(p parsedID, payment payer) error {
	return c.play(p.version, func(g *dix.Game, s int) (dix.Action, error) {
		cd, err := dixview.Buyable(g, s, p.arg)
		if err != nil {
			return dix.Action{}, err
		}
		pay, err := payment(g, s, int(cd.Value)) // 3.4: a card costs its value
		if err != nil {
			return dix.Action{}, err
		}
		return dix.Action{Kind: dix.ActBuy, Card: cd, Payment: pay}, nil
	}, confirmText(func(lang string, a dix.Action) string {
		return locales.T(lang, "dix_done_buy", map[string]any{"Card": dixview.CardText(lang, a.Card), "CardName": dixview.CardName(lang, a.Card), "Payment": dixview.PaymentText(lang, a.Payment)})
	}))
}

// auctionPayPrompt opens the winner's payment prompt (3.5).
func (c *call) auctionPayPrompt(p parsedID) error {
	g, _, s, ch, err := c.peekChoice(p.version, dix.ActPay)
	if err != nil {
		return err
	}
	c.ephemeral(dixview.AuctionPayPrompt(c.lang, g, s, ch.Owe))
	return nil
}

func (c *call) auctionPay(p parsedID) error { return c.payAuction(p.version, dixview.Proposed) }

func (c *call) payAuction(version uint32, payment payer) error {
	return c.play(version, func(g *dix.Game, s int) (dix.Action, error) {
		ch, err := dixview.RequireChoice(g, s, dix.ActPay)
		if err != nil {
			return dix.Action{}, err
		}
		pay, err := payment(g, s, ch.Owe)
		if err != nil {
			return dix.Action{}, err
		}
		return dix.Action{Kind: dix.ActPay, Payment: pay}, nil
	}, confirmText(func(lang string, a dix.Action) string {
		return locales.T(lang, "dix_done_pay", map[string]any{"Payment": dixview.PaymentText(lang, a.Payment)})
	}))
}
