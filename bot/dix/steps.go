package dixview

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
	"github.com/dixgame/dixbot/picture"
	dixpicture "github.com/dixgame/dixbot/picture/dix"
)

// The steps of DIX's private prompts, by their drafts (present.Prompter):
//
//	""                 the decision open: the market, the bid or the payment
//	"c <colour>"       the market's cards of one colour, when it holds more than a menu
//	"b <card>"         the payment the engine proposes for a market card (R6)
//	"a <from>"         the bids from that amount on, when they are more than a menu
//	"p <pick>[.<page>]" the payment picker: a partial payment (Pick.Arg)
//	"hand"             the seat's hand, for any seat
//	"text"             the board as text, for any seat
//
// Every step is worked out again from the game on every click: a draft
// that is not a step of the seat's decision now is present.ErrBadDraft.
const (
	stepHand = "hand"
	stepText = "text"
)

// pickPage is how many cards a page of the picker's menu offers, besides
// its token entries and the way to the other pages.
const pickPage = 19

// Prompt is seat's private prompt in st at the step of draft, the
// seats named as the table t names them.
func (Presenter) Prompt(t present.Table, st engine.State, seat int, draft string) (present.Prompt, error) {
	lang := t.Lang
	g := gameOf(st)
	if g == nil || seat < 0 || seat >= len(g.Players) || g.IsAlix(seat) {
		return present.Prompt{}, present.ErrNoPrompt
	}
	switch draft {
	case stepHand:
		return handStep(t, g, seat), nil
	case stepText:
		v := promptView(t, g)
		e := BoardEmbedOf(v, g, false)
		e.Title = boardTitle(v, g)
		return present.Prompt{Embeds: []*discordgo.MessageEmbed{e}}, nil
	}
	if g.Phase == dix.PhaseOver {
		return present.Prompt{}, present.ErrNoPrompt
	}
	if to := g.ToAct(); to != seat && to >= 0 {
		// One seat decides at a time in DIX: the clicker is told whose
		// decision it is.
		return present.Prompt{}, &present.NoPromptError{Refusal: present.Refusal{Key: "dix_err_not_your_turn", Names: map[string]int{"Name": to}}}
	}
	if g.ToAct() != seat {
		return present.Prompt{}, present.ErrNoPrompt
	}
	kind, arg, _ := strings.Cut(draft, " ")
	bad := fmt.Errorf("%w: %q", present.ErrBadDraft, draft)
	ch := g.Choices(seat)
	switch {
	case draft == "" && HasAction(ch, dix.ActBuy) && len(ch.Buyable) > 0:
		return marketStep(lang, g, seat, ch, nil), nil
	case draft == "" && HasAction(ch, dix.ActBid):
		return bidStep(promptView(t, g), g, ch, ch.MinBid), nil
	case draft == "" && HasAction(ch, dix.ActPay):
		return auctionPayStep(lang, g, seat, ch.Owe), nil
	case kind == "c" && HasAction(ch, dix.ActBuy):
		c, err := dix.ParseColor(arg)
		if err != nil {
			return present.Prompt{}, bad
		}
		return marketStep(lang, g, seat, ch, &c), nil
	case kind == "b":
		cd, err := Buyable(g, seat, arg)
		if err != nil {
			return present.Prompt{}, bad
		}
		return buyStep(lang, g, seat, cd), nil
	case kind == "a" && HasAction(ch, dix.ActBid):
		from, err := strconv.Atoi(arg)
		if err != nil || from < ch.MinBid || from > ch.MaxBid || strconv.Itoa(from) != arg {
			return present.Prompt{}, bad
		}
		return bidStep(promptView(t, g), g, ch, from), nil
	case kind == "p":
		p, extra, err := ParsePick(arg)
		page := 0
		if err == nil && len(extra) == 1 {
			page, err = strconv.Atoi(extra[0])
		} else if err == nil && len(extra) > 1 {
			err = ErrBadPick
		}
		if err != nil {
			return present.Prompt{}, bad
		}
		pr, err := pickerStep(lang, g, seat, p, page)
		if err != nil {
			return present.Prompt{}, fmt.Errorf("%w: %v", bad, err)
		}
		return pr, nil
	}
	if draft == "" {
		return present.Prompt{}, present.ErrNoPrompt
	}
	return present.Prompt{}, bad
}

// promptView is the Table of this package for a prompt at table t: the
// seats named as t names them, or by number when t names none.
func promptView(t present.Table, g *dix.Game) Table {
	if len(t.Names) != len(g.Players) && !(g.Solo() && len(t.Names) == 1) {
		return Table{Lang: t.Lang, Names: namesOf(t.Lang, g)}
	}
	v := view(t, g)
	v.Log, v.TimeLeft = nil, nil
	return v
}

// namesOf are names for a prompt that knows no table: the seats by
// number, ALIX by her name.
func namesOf(lang string, g *dix.Game) []string {
	out := make([]string, len(g.Players))
	for s := range out {
		out[s] = "#" + strconv.Itoa(s+1)
		if g.IsAlix(s) {
			out[s] = locales.T(lang, "dix_alix_name", nil)
		}
	}
	return out
}

// handStep is seat's hand: the collection, the best runs, the tokens,
// and its picture.
func handStep(t present.Table, g *dix.Game, seat int) present.Prompt {
	lang := t.Lang
	v := promptView(t, g)
	e := HandEmbed(v, g, seat)
	e.Title = locales.T(lang, "dix_hand_title_yours", nil)
	pl := g.Players[seat]
	name := picture.Drawable(v.Name(seat)) // a seat by number, or ALIX
	if pn := pictureNames(t, g); len(t.Names) > 0 && seat < len(pn) && pn[seat] != "" {
		name = pn[seat] // as typed
	}
	in := dixpicture.Hand{Name: name, Collection: pl.Collection, Money: pl.Money, Consolation: pl.Consolation,
		Labels: PictureLabels(lang)}
	return present.Prompt{Embeds: []*discordgo.MessageEmbed{e}, Picture: handPicture(in)}
}

// handPicture is the picture of the hand in, for a prompt's step.
func handPicture(in dixpicture.Hand) *present.Picture {
	return &present.Picture{File: handFile, Draw: func() ([]byte, error) { return dixpicture.RenderHand(in) }}
}

// marketStep is the market: every card seat may buy, with its price and
// the payment the next step proposes, or, when they are more than a menu
// holds, their colours first (colour nil), then one colour's cards.
func marketStep(lang string, g *dix.Game, seat int, ch dix.Choices, colour *dix.Color) present.Prompt {
	p := present.Prompt{Content: locales.T(lang, "dix_prompt_buy", map[string]any{"Capacity": g.BuyCapacity(seat)}),
		Placeholder: locales.T(lang, "dix_select_buy", nil)}
	cards := ch.Buyable
	if colour != nil {
		cards = slices.DeleteFunc(slices.Clone(cards), func(c dix.Card) bool { return c.Color != *colour })
		p.Placeholder = locales.T(lang, "dix_select_buy_color", map[string]any{"Color": ColorName(lang, *colour), "Emoji": ColorEmoji(lang, *colour)})
		p.Buttons = []present.Button{backTo("", present.Button{Label: locales.T(lang, "dix_btn_back", nil), Style: discordgo.SecondaryButton})}
	}
	if len(cards) > present.MaxOptions && colour == nil {
		for _, c := range dix.Colors {
			n := 0
			for _, cd := range cards {
				if cd.Color == c {
					n++
				}
			}
			if n > 0 {
				p.Choices = append(p.Choices, present.Choice{Next: "c " + c.String(), Label: locales.N(lang, "dix_step_colour", n,
					map[string]any{"Emoji": ColorEmoji(lang, c), "Color": ColorName(lang, c), "Count": n})})
			}
		}
		return p
	}
	pay := Proposer(g, seat)
	for _, cd := range cards[:min(len(cards), present.MaxOptions)] {
		label := locales.T(lang, "dix_option_card", map[string]any{"CardName": CardName(lang, cd), "Price": int(cd.Value)})
		if pp, delta, ok := pay(cd); ok {
			label += " · " + locales.N(lang, "dix_option_card_pay", Abs(delta), map[string]any{"Payment": PaymentText(lang, pp), "Points": Signed(delta)})
		}
		p.Choices = append(p.Choices, present.Choice{Next: "b " + cd.String(),
			Label: present.Truncate(locales.T(lang, "dix_step_card", map[string]any{"Emoji": ColorEmoji(lang, cd.Color), "Label": label}), present.MaxOptionLabel)})
	}
	return p
}

// buyStep is the payment step of a market card: its price, the payment
// the engine proposes (R6), and Pay, Choose another payment, Back; or,
// when no payment covers it, why, and Back.
func buyStep(lang string, g *dix.Game, seat int, cd dix.Card) present.Prompt {
	back := present.Button{Label: locales.T(lang, "dix_btn_back", nil), Style: discordgo.SecondaryButton}
	text, _, pay, err := BuyPayStep(lang, g, seat, cd)
	if err != nil {
		return present.Prompt{Content: refusalText(lang, err), Buttons: []present.Button{backTo("", back)}}
	}
	// The picture of the collection after paying: cd where it goes, the
	// cards paid apart.
	pl := g.Players[seat]
	preview := &discordgo.MessageEmbed{Color: colorPrompt, Title: present.Truncate(locales.T(lang, "dix_buy_preview",
		map[string]any{"Card": CardText(lang, cd), "CardName": CardName(lang, cd)}), 256)}
	in := dixpicture.Hand{Collection: pl.Collection, Money: pl.Money, Consolation: pl.Consolation, Candidate: &cd, Pay: pay.Cards,
		Labels: PictureLabels(lang)}
	pic := handPicture(in)
	pic.Framed = true
	return present.Prompt{Content: text, Embeds: []*discordgo.MessageEmbed{preview}, Picture: pic, Buttons: []present.Button{
		{Label: locales.T(lang, "dix_btn_pay", nil), Style: discordgo.SuccessButton, Move: dix.FormatMove(dix.Action{Kind: dix.ActBuy, Card: cd, Payment: pay})},
		{Label: locales.T(lang, "dix_btn_other_payment", nil), Style: discordgo.SecondaryButton, Next: "p " + Pick{Target: cd.String()}.Arg()},
		backTo("", back),
	}}
}

// backTo is the Back button b to the step of draft: the first step ("")
// is shown by the prompt's own button (a Next of "" is no step), so Back
// to it opens the prompt again.
func backTo(draft string, b present.Button) present.Button {
	if draft == "" {
		b.Prompt = true
		return b
	}
	b.Next = draft
	return b
}

// bidStep is the bid (3.5): what is auctioned and the bid so far, the
// amounts from from on (a menu's worth, then the way to the next ones),
// the quick amounts and Pass as buttons.
func bidStep(v Table, g *dix.Game, ch dix.Choices, from int) present.Prompt {
	lang := v.Lang
	text, _ := BidPrompt(v, g, ch)
	p := present.Prompt{Content: text, Placeholder: locales.T(lang, "dix_select_bid", nil)}
	bid := func(n int) engine.Move { return dix.FormatMove(dix.Action{Kind: dix.ActBid, Amount: n}) }
	if from > ch.MinBid {
		p.Choices = append(p.Choices, present.Choice{Label: locales.T(lang, "dix_step_amounts", map[string]any{"From": ch.MinBid, "To": from - 1}),
			Next: "a " + strconv.Itoa(max(ch.MinBid, from-(present.MaxOptions-2)))})
	}
	// The amounts that fit, one entry kept for the way to the next ones
	// when they do not all fit.
	last := ch.MaxBid
	if room := present.MaxOptions - len(p.Choices); ch.MaxBid-from+1 > room {
		last = from + room - 2
	}
	for n := from; n <= last; n++ {
		p.Choices = append(p.Choices, present.Choice{Label: locales.T(lang, "dix_btn_bid_amount", map[string]any{"Amount": n}), Move: bid(n)})
	}
	if last < ch.MaxBid {
		p.Choices = append(p.Choices, present.Choice{Label: locales.T(lang, "dix_step_amounts", map[string]any{"From": last + 1, "To": ch.MaxBid}),
			Next: "a " + strconv.Itoa(last+1)})
	}
	for _, n := range BidAmounts(ch.MinBid, ch.MaxBid) {
		if len(p.Buttons) == present.MaxRowButtons-1 {
			break
		}
		p.Buttons = append(p.Buttons, present.Button{Label: locales.T(lang, "dix_btn_bid_amount", map[string]any{"Amount": n}), Move: bid(n),
			Style: discordgo.PrimaryButton})
	}
	if HasAction(ch, dix.ActPass) {
		p.Buttons = append(p.Buttons, present.Button{Label: locales.T(lang, "dix_btn_pass", nil), Move: dix.FormatMove(dix.Action{Kind: dix.ActPass}),
			Style: discordgo.SecondaryButton})
	}
	return p
}

// auctionPayStep is the payment of the auction won (3.5): the wild won,
// the payment the engine proposes, and Pay and Choose another payment.
func auctionPayStep(lang string, g *dix.Game, seat, owe int) present.Prompt {
	text, _ := AuctionPayPrompt(lang, g, seat, owe)
	p := present.Prompt{Content: text}
	if pay, ok := g.ProposePayment(seat, owe); ok {
		p.Buttons = append(p.Buttons, present.Button{Label: locales.T(lang, "dix_btn_pay", nil), Style: discordgo.SuccessButton,
			Move: dix.FormatMove(dix.Action{Kind: dix.ActPay, Payment: pay})})
	}
	p.Buttons = append(p.Buttons, present.Button{Label: locales.T(lang, "dix_btn_other_payment", nil), Style: discordgo.SecondaryButton,
		Next: "p " + Pick{Target: PickAuction}.Arg()})
	return p
}

// pickerStep is the payment picker at pick p, on the page of its cards:
// the running total against the price, one menu entry per card (taking it
// in or out of the payment) and per token (one more, one fewer), Confirm
// once the engine accepts the payment, and Back.
func pickerStep(lang string, g *dix.Game, seat int, p Pick, page int) (present.Prompt, error) {
	pl := g.Players[seat]
	list, dups := Spendable(g, seat)
	if p.Money > pl.Money || p.Cons > pl.Consolation || page < 0 || page*pickPage > max(0, len(list)-1) {
		return present.Prompt{}, ErrBadPick
	}
	text, _, err := PickerView(lang, g, seat, p, "")
	if err != nil {
		return present.Prompt{}, err
	}
	pr := present.Prompt{Content: text, Placeholder: locales.T(lang, "dix_pick_placeholder", nil)}
	next := func(q Pick, page int) string {
		if page == 0 {
			return "p " + q.Arg()
		}
		return "p " + q.Arg(strconv.Itoa(page))
	}
	token := func(key string, from, to int, q Pick) {
		pr.Choices = append(pr.Choices, present.Choice{Label: locales.T(lang, key, map[string]any{"From": from, "To": to}), Next: next(q, page)})
	}
	if p.Money < pl.Money {
		token("dix_pick_money_more", p.Money, p.Money+1, Pick{Target: p.Target, Money: p.Money + 1, Cons: p.Cons, Cards: p.Cards})
	}
	if p.Money > 0 {
		token("dix_pick_money_more", p.Money, p.Money-1, Pick{Target: p.Target, Money: p.Money - 1, Cons: p.Cons, Cards: p.Cards})
	}
	if p.Cons < pl.Consolation {
		token("dix_pick_cons_more", p.Cons, p.Cons+1, Pick{Target: p.Target, Money: p.Money, Cons: p.Cons + 1, Cards: p.Cards})
	}
	if p.Cons > 0 {
		token("dix_pick_cons_more", p.Cons, p.Cons-1, Pick{Target: p.Target, Money: p.Money, Cons: p.Cons - 1, Cards: p.Cards})
	}
	lo, hi := page*pickPage, min(len(list), (page+1)*pickPage)
	for i := lo; i < hi; i++ {
		cd := list[i]
		key, kind := "dix_pick_toggle_off", "dix_pick_kind_last"
		if p.Cards&(1<<uint(i)) != 0 {
			key = "dix_pick_toggle_on"
		}
		if i < dups {
			kind = "dix_pick_kind_dup"
		}
		q := p
		q.Cards ^= 1 << uint(i)
		pr.Choices = append(pr.Choices, present.Choice{Next: next(q, page), Label: present.Truncate(locales.T(lang, key, map[string]any{
			"Emoji": ColorEmoji(lang, cd.Color), "Card": CardName(lang, cd), "Kind": locales.T(lang, kind, nil)}), present.MaxOptionLabel)})
	}
	for _, other := range []int{page - 1, page + 1} {
		if other >= 0 && other*pickPage < len(list) {
			pr.Choices = append(pr.Choices, present.Choice{Next: next(p, other), Label: locales.T(lang, "dix_pick_page", map[string]any{
				"From": other*pickPage + 1, "To": min(len(list), (other+1)*pickPage), "Of": len(list)})})
		}
	}
	price, _ := PickPrice(g, seat, p.Target)
	if pay, err := p.Pays(g, seat, price); err == nil {
		a := dix.Action{Kind: dix.ActPay, Payment: pay}
		if p.Target != PickAuction {
			cd, _ := dix.ParseCard(p.Target)
			a = dix.Action{Kind: dix.ActBuy, Card: cd, Payment: pay}
		}
		pr.Buttons = append(pr.Buttons, present.Button{Label: locales.T(lang, "dix_btn_pick_confirm", map[string]any{"Paid": pay.Value()}),
			Style: discordgo.SuccessButton, Move: dix.FormatMove(a)})
	}
	back := present.Button{Label: locales.T(lang, "dix_btn_back", nil), Style: discordgo.SecondaryButton}
	if p.Target == PickAuction {
		pr.Buttons = append(pr.Buttons, backTo("", back))
	} else {
		pr.Buttons = append(pr.Buttons, backTo("b "+p.Target, back))
	}
	return pr, nil
}
