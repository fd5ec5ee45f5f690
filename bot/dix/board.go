package dixview

import (
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// boardLogLines is how many recent events the board shows.
const boardLogLines = 6

// BoardEmbedOf is boardEmbed, or with pictured the shorter text that goes
// with the board's picture (pictures.go): what happened, whose decision,
// the tableau and its risk, the auction, and each player's tokens and
// score; the market and the collections are left to the picture and to
// the board's "Board as text" button (boardText).
func BoardEmbedOf(t Table, g *dix.Game, pictured bool) *discordgo.MessageEmbed {
	lang := t.Lang
	e := &discordgo.MessageEmbed{Color: colorBoard}
	if g.Phase == dix.PhaseFinalBuy {
		e.Title = locales.T(lang, "dix_board_title_final", nil)
	} else if g.Phase == dix.PhaseOver {
		e.Title = locales.T(lang, "dix_board_title_over", nil)
		e.Color = colorOver
	} else {
		e.Title = locales.T(lang, "dix_board_title", map[string]any{"Turn": t.Turn, "Name": t.Name(g.Active)})
	}

	var desc []string
	desc = append(desc, StatusLine(t, g))
	if l := t.Clock; l != "" && g.Phase != dix.PhaseOver {
		desc = append(desc, l)
	}
	if len(t.Log) > 0 {
		desc = append(desc, "", locales.T(lang, "dix_board_last_events", nil))
		start := max(0, len(t.Log)-boardLogLines)
		for _, l := range t.Log[start:] {
			desc = append(desc, locales.T(lang, "dix_log_line", map[string]any{"Line": l}))
		}
	}
	e.Description = strings.Join(desc, "\n")

	// The tableau matters while cards are drawn; after the stop or a bust
	// it is empty and would only be noise.
	emptyAfterDraw := len(g.Tableau) == 0 && (g.Phase == dix.PhaseBuy || g.Phase == dix.PhaseBustChoice)
	if g.Phase != dix.PhaseFinalBuy && g.Phase != dix.PhaseOver && !emptyAfterDraw {
		total, money := TableauTotals(g.Tableau)
		val := CardsText(lang, g.Tableau)
		if r := RiskLine(lang, g); r != "" {
			val += "\n" + r
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{
			Name:  locales.T(lang, "dix_board_tableau", map[string]any{"Total": total, "Money": money}),
			Value: val,
		})
	}
	if a := g.Auction; a != nil {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{
			Name:  locales.T(lang, "dix_board_auction", map[string]any{"Card": CardText(lang, a.Wild), "CardName": CardName(lang, a.Wild)}),
			Value: auctionText(t, g),
		})
	}
	if !pictured {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{
			Name:  locales.N(lang, "dix_board_deck_market", len(g.Deck), nil),
			Value: ByColor(lang, g.Market, false),
		})
	}
	actor := g.ToAct()
	for s := range g.Players {
		marker := ""
		switch {
		case s == actor:
			marker = locales.T(lang, "dix_marker_to_act", nil)
		case s == g.Active && g.Phase != dix.PhaseFinalBuy && g.Phase != dix.PhaseOver:
			marker = locales.T(lang, "dix_marker_active", nil)
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{
			Name:   present.Truncate(locales.T(lang, "dix_board_player", map[string]any{"Marker": marker, "Name": t.Name(s)})+t.mark(s), 256),
			Value:  playerText(t, g, s, !pictured),
			Inline: true,
		})
	}
	e.Footer = &discordgo.MessageEmbedFooter{Text: FooterText(t, g) + "\n" + locales.T(lang, "dix_legend_markers", nil)}
	return e
}

// playerText is one player's public holdings (withCards: their collection
// by colour, else their score); ALIX's also says how far she draws
// (SPEC §5).
func playerText(t Table, g *dix.Game, s int, withCards bool) string {
	lang := t.Lang
	p := g.Players[s]
	head := locales.N(lang, "dix_player_tokens", p.Money, nil)
	if g.IsAlix(s) {
		head = locales.T(lang, "dix_alix_target", map[string]any{"Level": t.Diff}) + "\n" + head
	}
	if p.Consolation > 0 {
		head += locales.T(lang, "dix_list_sep", nil) + locales.N(lang, "dix_player_consolation", p.Consolation, nil)
	}
	if left := t.timeLeft(s); left != "" && g.Phase != dix.PhaseOver {
		// The time left of a player who is not deciding does not run.
		head += locales.T(lang, "dix_list_sep", nil) + locales.T(lang, "dix_player_time", map[string]any{"Left": left})
	}
	if !withCards {
		return head + "\n" + locales.N(lang, "dix_player_score", dix.BestScore(p.Collection).Total, nil)
	}
	if len(p.Collection) == 0 {
		return head + "\n" + locales.T(lang, "dix_no_cards", nil)
	}
	return head + "\n" + ByColor(lang, p.Collection, true)
}

func FooterText(t Table, g *dix.Game) string {
	lang := t.Lang
	var parts []string
	if t.Solo {
		parts = append(parts, locales.T(lang, "dix_footer_solo", map[string]any{"Level": t.Diff, "LevelName": locales.T(lang, "dix_difficulty_"+itoa(t.Diff), nil)}))
	} else {
		parts = append(parts, locales.N(lang, "dix_footer_players", len(g.Players), nil))
	}
	if t.Bust {
		parts = append(parts, locales.T(lang, "dix_variant_bust", nil))
	}
	if t.Pace != "" {
		parts = append(parts, locales.T(lang, "dix_footer_pace", map[string]any{"Pace": t.Pace}))
	}
	parts = append(parts, locales.T(lang, "dix_footer_version", map[string]any{"Seq": g.Seq}))
	return strings.Join(parts, locales.T(lang, "dix_footer_sep", nil)) + "\n" + locales.T(lang, "dix_legend", nil)
}

func auctionText(t Table, g *dix.Game) string {
	lang := t.Lang
	a := g.Auction
	var lines []string
	if a.HighBidder >= 0 && a.HighBid > 0 {
		lines = append(lines, locales.T(lang, "dix_auction_high", map[string]any{"Amount": a.HighBid, "Name": t.Name(a.HighBidder)}))
	} else {
		lines = append(lines, locales.T(lang, "dix_auction_no_bid", nil))
	}
	if g.Phase == dix.PhaseAuction {
		if actor := g.ToAct(); actor >= 0 {
			lines = append(lines, locales.T(lang, "dix_auction_to_bid", map[string]any{"Name": t.Name(actor)}))
		}
	}
	return strings.Join(lines, "\n")
}

// RiskLine says in plain words which next card busts the active player
// (3.1): a number n busts when total+n ≥ 11, a currency c when money+c ≥ 11.
func RiskLine(lang string, g *dix.Game) string {
	if g.Phase != dix.PhaseDraw || g.Drawn == 0 {
		return ""
	}
	if len(g.Deck) == 0 {
		return locales.T(lang, "dix_risk_deck_empty", nil)
	}
	total, money := TableauTotals(g.Tableau)
	var num, cur string
	switch n := 11 - total; {
	case n <= 1:
		num = locales.T(lang, "dix_risk_num_any", nil)
	case n <= 9:
		num = locales.T(lang, "dix_risk_num_min", map[string]any{"N": n})
	}
	switch c := 11 - money; {
	case c <= 1:
		cur = locales.T(lang, "dix_risk_cur_any", nil)
	case c == 5:
		cur = locales.T(lang, "dix_risk_cur_exact", map[string]any{"N": c})
	case c < 5:
		cur = locales.T(lang, "dix_risk_cur_min", map[string]any{"N": c})
	}
	switch {
	case num != "" && cur != "":
		return locales.T(lang, "dix_risk_both", map[string]any{"A": num, "B": cur})
	case num != "":
		return locales.T(lang, "dix_risk_one", map[string]any{"A": num})
	case cur != "":
		return locales.T(lang, "dix_risk_one", map[string]any{"A": cur})
	}
	return locales.T(lang, "dix_risk_none", nil)
}

// StatusLine says whose decision it is and what it is.
func StatusLine(t Table, g *dix.Game) string {
	lang := t.Lang
	actor := g.ToAct()
	d := map[string]any{"Name": t.Name(actor)}
	switch g.Phase {
	case dix.PhaseDraw:
		if g.Drawn == 0 {
			return locales.T(lang, "dix_status_draw_first", d)
		}
		if len(g.Deck) == 0 {
			return locales.T(lang, "dix_status_must_stop", d)
		}
		return locales.T(lang, "dix_status_draw", d)
	case dix.PhaseChoose:
		return locales.T(lang, "dix_status_choose", d)
	case dix.PhaseBuy:
		if len(g.Choices(actor).Buyable) == 0 {
			return locales.T(lang, "dix_status_buy_none", d)
		}
		return locales.T(lang, "dix_status_buy", d)
	case dix.PhaseBustChoice:
		return locales.T(lang, "dix_status_bust_choice", d)
	case dix.PhaseAuction:
		if g.Auction != nil {
			d["Card"] = CardText(lang, g.Auction.Wild)
		}
		return locales.T(lang, "dix_status_auction", d)
	case dix.PhaseAuctionPay:
		if g.Auction != nil {
			d["Card"] = CardText(lang, g.Auction.Wild)
			d["Amount"] = g.Auction.HighBid
		}
		return locales.T(lang, "dix_status_auction_pay", d)
	case dix.PhaseFinalBuy:
		return locales.T(lang, "dix_status_final_buy", d)
	case dix.PhaseOver:
		return locales.T(lang, "dix_status_over", nil)
	}
	return ""
}

// numbersLabel is the label of the button that takes the tableau's
// number cards: 3.2, the others gain the money; in solo, that is ALIX.
func numbersLabel(lang string, g *dix.Game) string {
	_, money := TableauTotals(g.Tableau)
	key := "dix_btn_take_numbers"
	switch {
	case money == 0:
		key = "dix_btn_take_numbers_free"
	case g.Solo():
		key = "dix_btn_take_numbers_solo"
	}
	return present.Truncate(locales.N(lang, key, dix.CountNumbers(g.Tableau), map[string]any{"Gain": money}), present.MaxButtonLabel)
}

// moneyLabel is the label of the button by which actor takes the
// tableau's money: what they really gain, tokens beyond 10 being lost
// (1.2), and the number cards sent to the market (3.2).
func moneyLabel(lang string, g *dix.Game, actor int) string {
	_, money := TableauTotals(g.Tableau)
	gain := min(money, dix.MoneyLimit-g.Players[actor].Money)
	d, suffix := map[string]any{"Gain": gain}, ""
	if gain < money {
		suffix = "_capped"
	}
	if n := dix.CountNumbers(g.Tableau); n > 0 {
		return present.Truncate(locales.N(lang, "dix_btn_take_money_cards"+suffix, n, d), present.MaxButtonLabel)
	}
	return present.Truncate(locales.T(lang, "dix_btn_take_money"+suffix, d), present.MaxButtonLabel)
}

// orderedActions is the order of the board's buttons.
var orderedActions = []dix.ActionKind{
	dix.ActDraw, dix.ActStop, dix.ActTakeNumbers, dix.ActTakeMoney,
	dix.ActBuy, dix.ActEndTurn, dix.ActConsolation, dix.ActBustBuy,
	dix.ActBid, dix.ActPass, dix.ActPay,
}

func HasAction(ch dix.Choices, k dix.ActionKind) bool {
	for _, a := range ch.Actions {
		if a == k {
			return true
		}
	}
	return false
}

// ScoreboardEmbed renders the final standings (4.1, 4.2).
func ScoreboardEmbed(t Table, g *dix.Game) *discordgo.MessageEmbed {
	lang := t.Lang
	res := g.Results()
	e := &discordgo.MessageEmbed{Title: locales.T(lang, "dix_score_title", nil), Color: colorOver}
	var desc []string
	var winners []string
	for _, r := range res {
		if r.Rank == 1 {
			winners = append(winners, t.Name(r.Player))
		}
	}
	switch {
	case len(winners) == 1:
		desc = append(desc, locales.T(lang, "dix_score_winner", map[string]any{"Name": winners[0]}))
	case len(winners) > 1:
		desc = append(desc, locales.T(lang, "dix_score_shared", map[string]any{"Names": strings.Join(winners, locales.T(lang, "dix_list_sep", nil))}))
	}
	if len(res) > 1 && res[0].Score.Total == res[1].Score.Total {
		a, b := res[0], res[1]
		d := map[string]any{"A": t.Name(a.Player), "B": t.Name(b.Player)}
		switch {
		case a.Rank == b.Rank:
			desc = append(desc, locales.T(lang, "dix_score_tie_shared", d))
		case a.Money != b.Money:
			d["MoneyA"], d["MoneyB"] = a.Money, b.Money
			desc = append(desc, locales.T(lang, "dix_score_tie_money", d)) // 4.2, R9
		default:
			d["CardsA"], d["CardsB"] = a.Cards, b.Cards
			desc = append(desc, locales.T(lang, "dix_score_tie_cards", d))
		}
	}
	e.Description = strings.Join(desc, "\n")
	for _, r := range res {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{
			Name: present.Truncate(locales.N(lang, "dix_score_player", r.Score.Total, map[string]any{
				"Rank": r.Rank, "Name": t.Name(r.Player) + t.mark(r.Player), "Medal": medal(lang, r.Rank)}), 256),
			Value: present.Truncate(ScoreText(lang, r.Score)+"\n"+locales.T(lang, "dix_score_money_cards", map[string]any{"Money": r.Money, "Cards": r.Cards})+t.auto(r.Player), 1024),
		})
	}
	e.Footer = &discordgo.MessageEmbedFooter{Text: FooterText(t, g)}
	return e
}

func medal(lang string, rank int) string {
	if rank >= 1 && rank <= 3 {
		return locales.T(lang, "dix_medal_"+itoa(rank), nil)
	}
	return locales.T(lang, "dix_medal_other", nil)
}

// ScoreText renders one Score: the run of each colour with the wilds
// placed in that colour (4.1: what each wild stands for), then the wilds
// that add nothing.
func ScoreText(lang string, s dix.Score) string {
	var lines []string
	var unused []dix.Card
	placed := map[dix.Color][]string{}
	for _, p := range s.Placements {
		if !p.Used {
			unused = append(unused, p.Wild)
			continue
		}
		placed[p.Color] = append(placed[p.Color], locales.T(lang, "dix_wild_as", map[string]any{"Wild": CardText(lang, p.Wild), "Value": int(p.Value)}))
	}
	for _, cs := range s.Colors {
		d := map[string]any{"Emoji": ColorEmoji(lang, cs.Color), "Color": ColorName(lang, cs.Color),
			"Lo": int(cs.Lo), "Hi": int(cs.Hi), "Length": cs.Length, "Score": cs.Score}
		var run string
		switch {
		case cs.Length == 0:
			run = locales.T(lang, "dix_run_empty", d)
		case cs.Bonus > 0:
			run = locales.T(lang, "dix_run_full", d)
		case cs.Length == 1:
			run = locales.T(lang, "dix_run_single", d)
		default:
			run = locales.N(lang, "dix_run_line", cs.Length, d)
		}
		if w := placed[cs.Color]; len(w) > 0 {
			run = locales.T(lang, "dix_run_with_wilds", map[string]any{"Run": run, "Wilds": strings.Join(w, locales.T(lang, "dix_list_sep", nil))})
		}
		lines = append(lines, run)
	}
	if len(unused) > 0 {
		lines = append(lines, locales.N(lang, "dix_wilds_unused", len(unused), map[string]any{"Cards": CardsText(lang, unused)}))
	}
	return strings.Join(lines, "\n")
}

// HandEmbed is a player's private view (/dix hand): collection, best runs
// now, where the scorer would put the wilds, capacity to pay. With a
// picture it stays whole: the collection in text is what a screen reader
// reads, and the copies that can pay are in it.
func HandEmbed(t Table, g *dix.Game, s int) *discordgo.MessageEmbed {
	lang := t.Lang
	p := g.Players[s]
	sc := dix.BestScore(p.Collection)
	e := &discordgo.MessageEmbed{Title: locales.T(lang, "dix_hand_title", map[string]any{"Name": t.Name(s)}), Color: colorPrompt}
	e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: locales.N(lang, "dix_hand_collection", len(p.Collection), nil), Value: present.Truncate(ByColor(lang, p.Collection, true), 1024)})
	e.Fields = append(e.Fields,
		&discordgo.MessageEmbedField{Name: locales.N(lang, "dix_hand_score", sc.Total, nil), Value: present.Truncate(ScoreText(lang, sc), 1024)},
		&discordgo.MessageEmbedField{Name: locales.T(lang, "dix_hand_tokens", nil), Value: PlayerTokens(lang, p) + "\n" + CapacityText(lang, g, s)},
	)
	return e
}

// CapacityText says how much the player could pay. In solo a market card
// may be paid with any collection card but a bid only with duplicates
// (SPEC §5), so both amounts are shown.
func CapacityText(lang string, g *dix.Game, s int) string {
	if g.Solo() {
		return locales.T(lang, "dix_hand_capacity_buy", map[string]any{"Amount": g.BuyCapacity(s)}) + "\n" +
			locales.T(lang, "dix_hand_capacity_bid", map[string]any{"Amount": g.Capacity(s)})
	}
	return locales.T(lang, "dix_hand_capacity", map[string]any{"Amount": g.BuyCapacity(s)})
}

func PlayerTokens(lang string, p dix.Player) string {
	return locales.N(lang, "dix_player_tokens", p.Money, nil) + locales.T(lang, "dix_list_sep", nil) + locales.N(lang, "dix_player_consolation", p.Consolation, nil)
}

// RulesEmbed is the summary of DIX's rules (/dix rules).
func RulesEmbed(lang string) *discordgo.MessageEmbed {
	return &discordgo.MessageEmbed{
		Title: locales.T(lang, "dix_rules_title", nil), Description: locales.T(lang, "dix_rules_body", nil), Color: colorPrompt,
	}
}
