package dixtable

import (
	"fmt"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot"
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
func bidPrompt(c *bot.Call, p bot.ParsedID) error {
	g, m, _, ch, err := peekChoice(c, p.Version, dix.ActBid)
	if err != nil {
		return err
	}
	if g.Auction == nil {
		return dix.ErrWrongPhase
	}
	c.Ephemeral(dixview.BidPrompt(m.names(c.Lang), g, ch))
	return nil
}

// placeBid applies a bid after checking it against the open range.
func placeBid(c *bot.Call, version uint32, amount int) error {
	return play(c, version, func(g *dix.Game, s int) (dix.Action, error) {
		ch, err := dixview.RequireChoice(g, s, dix.ActBid)
		if err != nil {
			return dix.Action{}, err
		}
		if amount < ch.MinBid {
			return dix.Action{}, bot.Refuse(dix.ErrBidTooLow, "dix_err_bid_range", map[string]any{"Min": ch.MinBid, "Max": ch.MaxBid})
		}
		if amount > ch.MaxBid {
			return dix.Action{}, bot.Refuse(dix.ErrBidTooHigh, "dix_err_bid_range", map[string]any{"Min": ch.MinBid, "Max": ch.MaxBid})
		}
		return dix.Action{Kind: dix.ActBid, Amount: amount}, nil
	}, func(lang string, a dix.Action, g *dix.Game, m *dixTable, s int) (string, []discordgo.MessageComponent) {
		return dixview.BidDone(lang, g, s, a.Amount)
	})
}

func bidAmount(c *bot.Call, p bot.ParsedID) error {
	n, err := strconv.Atoi(p.Arg)
	if err != nil || n < 0 || n > maxNumber {
		return fmt.Errorf("%w: bid %q", bot.ErrBadCustomID, p.Arg)
	}
	return placeBid(c, p.Version, n)
}

// bidCustom opens the "custom amount" modal.
func bidCustom(c *bot.Call, p bot.ParsedID) error {
	g, m, _, ch, err := peekChoice(c, p.Version, dix.ActBid)
	if err != nil {
		return err
	}
	c.Modal(bot.CustomID(verbBidModal, m.version(g)), locales.T(c.Lang, "dix_modal_bid_title", nil), []discordgo.TextInput{{
		CustomID: fieldAmount, Style: discordgo.TextInputShort, Required: true, MaxLength: 3,
		Label:       bot.Truncate(locales.T(c.Lang, "dix_modal_bid_label", map[string]any{"Min": ch.MinBid, "Max": ch.MaxBid}), 45),
		Placeholder: bot.Itoa(ch.MinBid),
	}})
	return nil
}

func bidModal(c *bot.Call, p bot.ParsedID) error {
	n, err := bot.ParseNumber(c.ModalValues()[fieldAmount], false, maxNumber)
	if err != nil {
		return err
	}
	return placeBid(c, p.Version, n)
}

// buyPrompt opens the private market prompt: a select of the cards this
// player may buy (R5), one select per colour beyond 25 choices.
func buyPrompt(c *bot.Call, p bot.ParsedID) error {
	g, _, s, ch, err := peekChoice(c, p.Version, dix.ActBuy)
	if err != nil {
		return err
	}
	if len(ch.Buyable) == 0 {
		return bot.Refuse(dix.ErrNotInMarket, "dix_err_nothing_to_buy", nil)
	}
	// 3.4: a market card may be paid with any number card, in solo too
	// (g.Capacity is the auction capacity, duplicates only in solo).
	c.Ephemeral(dixview.MarketPrompt(c.Lang, g, s, ch))
	return nil
}

// buySelect shows the payment step for the chosen card.
func buySelect(c *bot.Call, p bot.ParsedID) error {
	vals := c.Values()
	if len(vals) != 1 {
		return bot.ErrBadInput
	}
	g, m, s, err := peek(c, p.Version)
	if err != nil {
		return err
	}
	cd, err := dixview.Buyable(g, s, vals[0])
	if err != nil {
		return err
	}
	text, comps, pay, err := dixview.BuyPayStep(c.Lang, g, s, cd)
	if err != nil {
		return err
	}
	embeds, files := buyPreview(c.B, c.Lang, m, g, s, cd, pay, c.CanAttach())
	c.Update(text, embeds, comps, files...)
	return nil
}

// payer chooses the payment of price by seat s: the proposed one, or the
// one the player picked.
type payer func(g *dix.Game, s, price int) (dix.Payment, error)

func buyPay(c *bot.Call, p bot.ParsedID) error { return buy(c, p, dixview.Proposed) }

// buy applies ActBuy of the card named in the custom id.
func buy(c *bot.Call, p bot.ParsedID, payment payer) error {
	return play(c, p.Version, func(g *dix.Game, s int) (dix.Action, error) {
		cd, err := dixview.Buyable(g, s, p.Arg)
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
func auctionPayPrompt(c *bot.Call, p bot.ParsedID) error {
	g, _, s, ch, err := peekChoice(c, p.Version, dix.ActPay)
	if err != nil {
		return err
	}
	c.Ephemeral(dixview.AuctionPayPrompt(c.Lang, g, s, ch.Owe))
	return nil
}

func auctionPay(c *bot.Call, p bot.ParsedID) error { return payAuction(c, p.Version, dixview.Proposed) }

func payAuction(c *bot.Call, version uint32, payment payer) error {
	return play(c, version, func(g *dix.Game, s int) (dix.Action, error) {
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
