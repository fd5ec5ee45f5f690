package bot

import (
	"fmt"

	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// The handlers of the payment picker, whose view and picks are bot/dix's
// (dixview.PickerView, dixview.Pick).

// showPicker answers by turning the prompt into the picker for p.
func (c *call) showPicker(version uint32, p dixview.Pick, refusal string) error {
	g, _, s, err := c.peek(version)
	if err != nil {
		return err
	}
	text, comps, err := dixview.PickerView(c.lang, g, s, p, refusal)
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
		target = dixview.PickAuction
	}
	if target == "" {
		return fmt.Errorf("%w: no target", ErrBadCustomID)
	}
	return c.showPicker(p.version, dixview.Pick{Target: target}, "")
}

// pickChange applies one menu's new values to the pick carried by its id.
func (c *call) pickChange(p parsedID) error {
	st, extra, err := dixview.ParsePick(p.arg)
	if err != nil {
		return err
	}
	if st, err = st.Change(p.verb, extra, c.values()); err != nil {
		return err
	}
	return c.showPicker(p.version, st, "")
}

// pickConfirm pays with the pick. A refusal redraws the picker with the
// reason instead of adding a message.
func (c *call) pickConfirm(p parsedID) error {
	st, _, err := dixview.ParsePick(p.arg)
	if err != nil {
		return err
	}
	payer := st.Pays
	if st.Target == dixview.PickAuction {
		err = c.payAuction(p.version, payer)
	} else {
		err = c.buy(parsedID{verb: verbBuyPay, version: p.version, arg: st.Target}, payer)
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
	if p.arg == dixview.PickAuction {
		g, _, s, ch, err := c.peekChoice(p.version, dix.ActPay)
		if err != nil {
			return err
		}
		c.updateOrReply(dixview.AuctionPayPrompt(c.lang, g, s, ch.Owe))
		return nil
	}
	g, _, s, ch, err := c.peekChoice(p.version, dix.ActBuy)
	if err != nil {
		return err
	}
	if len(ch.Buyable) == 0 {
		return refuse(dix.ErrNotInMarket, "dix_err_nothing_to_buy", nil)
	}
	c.updateOrReply(dixview.MarketPrompt(c.lang, g, s, ch))
	return nil
}
