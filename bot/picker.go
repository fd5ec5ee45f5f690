package bot

import (
	"fmt"
	"strconv"

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
		if st.Money, err = one(); err != nil {
			return err
		}
	case verbPickCons:
		if st.Cons, err = one(); err != nil {
			return err
		}
	case verbPickCards:
		if len(extra) != 1 {
			return fmt.Errorf("%w: no card group", ErrBadCustomID)
		}
		k, err := strconv.Atoi(extra[0])
		if err != nil || k < 0 || k*25 >= dixview.MaxSpendable {
			return fmt.Errorf("%w: card group %q", ErrBadCustomID, extra[0])
		}
		for i := k * 25; i < (k+1)*25 && i < dixview.MaxSpendable; i++ {
			st.Cards &^= 1 << uint(i)
		}
		for _, v := range vals {
			i, err := strconv.Atoi(v)
			if err != nil || i < k*25 || i >= (k+1)*25 || i >= dixview.MaxSpendable {
				return ErrBadInput
			}
			st.Cards |= 1 << uint(i)
		}
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
	payer := func(g *dix.Game, s, price int) (dix.Payment, error) {
		list, _ := dixview.Spendable(g, s)
		pay, err := st.Payment(list)
		if err != nil {
			return pay, err
		}
		return pay, dixview.CheckPick(g, s, price, pay)
	}
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
