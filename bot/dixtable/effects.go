package dixtable

import (
	"github.com/dixgame/dixbot/bot"
	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// Who is notified, and when: the rules behind the ping effects of the
// outbox (outbox.go). At most one notification per player per decision,
// and none for a decision the player just saw appear because of their own
// click.

// human is the Discord user of seat s, "" for ALIX or an unknown seat.
func (m *dixTable) human(s int) string {
	if s < 0 || s >= len(m.Seats) {
		return ""
	}
	return m.Seats[s].ID
}

// present is the Discord user of seat s when that person plays the seat
// themselves: "" for ALIX, a computer player, and a person the computer
// plays for (absent, or gone for good), who is never notified of a
// decision the computer takes.
func (m *dixTable) present(s int) string {
	if m.handedOver(s) {
		return ""
	}
	return m.human(s)
}

// nextDeciders are the users a fresh board notifies: the player who must
// act, or in the final buy round every player who can still buy something
// (the others are skipped automatically), in order; never the clicker,
// nor a seat the computer plays.
func nextDeciders(m *dixTable, g *dix.Game, clicker string) []string {
	var seats []int
	if g.Phase == dix.PhaseFinalBuy && g.FinalNext < len(g.FinalOrder) {
		for _, s := range g.FinalOrder[g.FinalNext:] {
			if s == g.ToAct() || len(buyableNow(g, s)) > 0 {
				seats = append(seats, s)
			}
		}
	} else if a := g.ToAct(); a >= 0 {
		seats = append(seats, a)
	}
	var out []string
	for _, s := range seats {
		if u := m.present(s); u != "" && u != clicker && !bot.ContainsString(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// buyableNow is what seat could buy from the market now, whoever's turn it
// is: the market only shrinks during the final round, so a player who can
// buy nothing now will buy nothing then.
func buyableNow(g *dix.Game, s int) []dix.Card {
	var out []dix.Card
	capacity := g.BuyCapacity(s)
	for _, cd := range g.Market {
		if cd.Kind != dix.KindNumber || int(cd.Value) > capacity {
			continue
		}
		owned := false
		for _, c := range g.Players[s].Collection {
			if c == cd {
				owned = true
				break
			}
		}
		if !owned { // R5
			out = append(out, cd)
		}
	}
	return out
}

// pingEffect is the one ping a decision within a turn gets, if any:
//   - an auction opens: one message for every player who will be asked to
//     bid, can afford it and plays their seat themselves (never an absent
//     player or a seat the computer plays), except the active player, who
//     drew the wild;
//   - the auction is won by someone who did not just bid: they pay. When
//     the auction's own ping notified them already, that ping is edited to
//     say so (bidding and paying are one decision: no second notification).
//
// The active player is never pinged within their own turn (the board's
// post pinged them), nor anyone for a decision their own click opened.
func pingEffect(m *dixTable, g *dix.Game, out played, clicker, guild, channel string) (bot.Effect, bool) {
	a := g.Auction
	if a == nil || g.Phase == out.prevPhase {
		return bot.Effect{}, false
	}
	d := map[string]any{"Card": dixview.CardText(m.Lang, a.Wild), "CardName": dixview.CardName(m.Lang, a.Wild), "Amount": a.HighBid}
	var users []string
	key := ""
	switch g.Phase {
	case dix.PhaseAuction:
		key = "dix_ping_auction"
		min := a.HighBid + 1
		if g.Solo() {
			min = max(min, 5)
		}
		for k := a.Next; k < len(a.Order); k++ {
			s := a.Order[k]
			if u := m.present(s); u != "" && u != clicker && s != g.Active && g.Capacity(s) >= min && !bot.ContainsString(users, u) {
				users = append(users, u)
			}
		}
	case dix.PhaseAuctionPay:
		key = "dix_ping_pay"
		if u := m.present(g.ToAct()); u != "" && u != clicker {
			users = append(users, u)
		}
	}
	if len(users) == 0 {
		return bot.Effect{}, false
	}
	d["Mentions"] = bot.Mentions(users)
	if m.Board != "" {
		d["URL"] = bot.MessageURL(guild, channel, m.Board)
		key += "_link"
	}
	text := locales.T(m.Lang, key, d)
	if g.Phase == dix.PhaseAuctionPay && m.pinging(users[0]) {
		return bot.Effect{Kind: bot.EffPingEdit, Users: users, Text: text}, true
	}
	return bot.Effect{Kind: bot.EffPing, Users: users, Text: text}, true
}

// pinging reports whether the current ping notified user: the one posted,
// or one still owed in the outbox (its post has not landed yet; the edit,
// owed after it, finds it posted).
func (m *dixTable) pinging(user string) bool {
	for i := len(m.Outbox) - 1; i >= 0; i-- {
		switch e := m.Outbox[i]; e.Kind {
		case bot.EffPing:
			return bot.ContainsString(e.Users, user)
		case bot.EffPinged, bot.EffBoard:
			return false
		}
	}
	return m.Ping != "" && bot.ContainsString(m.PingUsers, user)
}
