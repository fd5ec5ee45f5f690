package dixtable

import (
	"fmt"

	"github.com/dixgame/dixbot/bot"
	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// The handlers of the payment picker, whose view and picks are bot/dix's
// (dixview.PickerView, dixview.Pick).

// showPicker answers by turning the prompt into the picker for p.
func showPicker(c *bot.Call, version uint32, p dixview.Pick, refusal string) error {
	g, _, s, err := peek(c, version)
	if err != nil {
		return err
	}
	text, comps, err := dixview.PickerView(c.Lang, g, s, p, refusal)
	if err != nil {
		return err
	}
	c.UpdateOrReply(text, comps)
	return nil
}

// pickOpen opens the picker, empty, for a buy (arg: the card) or the
// auction payment (no arg).
func pickOpen(c *bot.Call, p bot.ParsedID) error {
	target := p.Arg
	if p.Verb == verbAuctOther {
		target = dixview.PickAuction
	}
	if target == "" {
		return fmt.Errorf("%w: no target", bot.ErrBadCustomID)
	}
	return showPicker(c, p.Version, dixview.Pick{Target: target}, "")
}

// pickChange applies one menu's new values to the pick carried by its id.
func pickChange(c *bot.Call, p bot.ParsedID) error {
	st, extra, err := dixview.ParsePick(p.Arg)
	if err != nil {
		return err
	}
	if st, err = st.Change(p.Verb, extra, c.Values()); err != nil {
		return err
	}
	return showPicker(c, p.Version, st, "")
}

// pickConfirm pays with the pick. A refusal redraws the picker with the
// reason instead of adding a message.
func pickConfirm(c *bot.Call, p bot.ParsedID) error {
	st, _, err := dixview.ParsePick(p.Arg)
	if err != nil {
		return err
	}
	payer := st.Pays
	if st.Target == dixview.PickAuction {
		err = payAuction(c, p.Version, payer)
	} else {
		err = buy(c, bot.ParsedID{Verb: verbBuyPay, Version: p.Version, Arg: st.Target}, payer)
	}
	if err == nil {
		return nil
	}
	if key, data, outcome, _ := bot.Classify(err); outcome == bot.OutcomeRefused && !c.Responded {
		if showPicker(c, p.Version, st, locales.T(c.Lang, key, data)) == nil {
			return nil
		}
	}
	return err
}

// pickBack goes back one step: from a buy's payment to the market, from
// the auction picker to the proposed payment.
func pickBack(c *bot.Call, p bot.ParsedID) error {
	if p.Arg == dixview.PickAuction {
		g, _, s, ch, err := peekChoice(c, p.Version, dix.ActPay)
		if err != nil {
			return err
		}
		c.UpdateOrReply(dixview.AuctionPayPrompt(c.Lang, g, s, ch.Owe))
		return nil
	}
	g, _, s, ch, err := peekChoice(c, p.Version, dix.ActBuy)
	if err != nil {
		return err
	}
	if len(ch.Buyable) == 0 {
		return bot.Refuse(dix.ErrNotInMarket, "dix_err_nothing_to_buy", nil)
	}
	c.UpdateOrReply(dixview.MarketPrompt(c.Lang, g, s, ch))
	return nil
}
