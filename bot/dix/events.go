package dixview

import (
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// Events turns what the engine reports into lines in lang. Runs of
// draws by the same player (ALIX's turns) become one line.
func Events(t Table, evs []dix.Event) []string {
	lang := t.Lang
	var lines []string
	for i := 0; i < len(evs); i++ {
		ev := evs[i]
		d := map[string]any{"Name": t.Name(ev.Player), "Card": CardText(lang, ev.Card),
			"CardName": CardName(lang, ev.Card), "Amount": ev.Amount}
		switch ev.Kind {
		case dix.EvTurnStarted:
			lines = append(lines, locales.T(lang, "dix_ev_turn_started", d))
		case dix.EvDrew:
			cards := []dix.Card{ev.Card}
			for i+1 < len(evs) && evs[i+1].Kind == dix.EvDrew && evs[i+1].Player == ev.Player {
				i++
				cards = append(cards, evs[i].Card)
			}
			d["Cards"] = CardsText(lang, cards)
			lines = append(lines, locales.N(lang, "dix_ev_drew", len(cards), d))
		case dix.EvBust:
			if ev.Bust == dix.BustMoney {
				lines = append(lines, locales.T(lang, "dix_ev_bust_money", d))
			} else {
				lines = append(lines, locales.T(lang, "dix_ev_bust_total", d))
			}
		case dix.EvStopped:
			lines = append(lines, locales.T(lang, "dix_ev_stopped", d))
		case dix.EvTookNumbers:
			if len(ev.Cards) == 0 {
				lines = append(lines, locales.T(lang, "dix_ev_took_no_numbers", d))
				continue
			}
			d["Cards"] = CardsText(lang, ev.Cards)
			lines = append(lines, locales.N(lang, "dix_ev_took_numbers", len(ev.Cards), d))
		case dix.EvTookMoney:
			lines = append(lines, locales.T(lang, "dix_ev_took_money", d))
		case dix.EvGained:
			if ev.Amount == 0 && ev.Lost == 0 {
				continue
			}
			line := locales.N(lang, "dix_ev_gained", ev.Amount, d)
			if ev.Lost > 0 {
				line += " " + locales.N(lang, "dix_ev_lost", ev.Lost, nil)
			}
			lines = append(lines, line)
		case dix.EvBustBuy:
			lines = append(lines, locales.T(lang, "dix_ev_bust_buy", d))
		case dix.EvConsolation:
			lines = append(lines, locales.T(lang, "dix_ev_consolation", d))
		case dix.EvToMarket:
			if len(ev.Cards) == 0 {
				continue
			}
			d["Cards"] = CardsText(lang, ev.Cards)
			lines = append(lines, locales.N(lang, "dix_ev_to_market", len(ev.Cards), d))
		case dix.EvToDiscard:
			// Currency cards and payments go to the discard every turn:
			// saying so adds noise, not information (EvPaid says what was paid).
		case dix.EvAuctionStarted:
			lines = append(lines, locales.T(lang, "dix_ev_auction_started", d))
		case dix.EvBid:
			lines = append(lines, locales.T(lang, "dix_ev_bid", d))
		case dix.EvPassed:
			lines = append(lines, locales.T(lang, "dix_ev_passed", d))
		case dix.EvAuctionWon:
			lines = append(lines, locales.T(lang, "dix_ev_auction_won", d))
		case dix.EvWildDiscarded:
			lines = append(lines, locales.T(lang, "dix_ev_wild_discarded", d))
		case dix.EvPaid:
			d["Payment"] = PaymentText(lang, ev.Payment)
			if i+1 < len(evs) && evs[i+1].Kind == dix.EvBought && evs[i+1].Player == ev.Player {
				// A purchase reads as one line: what was bought, for how much.
				i++
				d["Card"] = CardText(lang, evs[i].Card)
				lines = append(lines, locales.T(lang, "dix_ev_bought_paid", d))
				continue
			}
			lines = append(lines, locales.T(lang, "dix_ev_paid", d))
		case dix.EvBought:
			lines = append(lines, locales.T(lang, "dix_ev_bought", d))
		case dix.EvTurnEnded:
			// The next EvTurnStarted or the new board says it.
		case dix.EvEndTriggered:
			lines = append(lines, locales.T(lang, "dix_ev_end_triggered", d))
		case dix.EvFinalBuyStarted:
			lines = append(lines, locales.T(lang, "dix_ev_final_buy_started", d))
		case dix.EvFinalBuySkipped:
			lines = append(lines, locales.T(lang, "dix_ev_final_buy_skipped", d))
		case dix.EvGameOver:
			lines = append(lines, locales.T(lang, "dix_ev_game_over", d))
		}
	}
	return lines
}
