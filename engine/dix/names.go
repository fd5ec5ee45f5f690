package dix

import "strconv"

var phaseNames = [...]string{
	PhaseDraw: "draw", PhaseChoose: "choose", PhaseBuy: "buy", PhaseBustChoice: "bust-choice",
	PhaseAuction: "auction", PhaseAuctionPay: "auction-pay", PhaseFinalBuy: "final-buy", PhaseOver: "over",
}

// String returns the phase's name ("draw", "auction-pay" …), the form used
// by scenario files.
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase(" + strconv.Itoa(int(p)) + ")"
}

var actionNames = [...]string{
	ActInvalid: "invalid", ActDraw: "draw", ActStop: "stop", ActTakeNumbers: "numbers", ActTakeMoney: "money",
	ActBuy: "buy", ActEndTurn: "end", ActConsolation: "consolation", ActBustBuy: "bustbuy",
	ActBid: "bid", ActPass: "pass", ActPay: "pay",
}

// String returns the action kind's name as scenario files spell it ("draw",
// "numbers", "bid" …).
func (k ActionKind) String() string {
	if int(k) < len(actionNames) {
		return actionNames[k]
	}
	return "action(" + strconv.Itoa(int(k)) + ")"
}

var eventNames = [...]string{
	EvInvalid: "invalid", EvTurnStarted: "turn-started", EvDrew: "drew", EvBust: "bust", EvStopped: "stopped",
	EvTookNumbers: "took-numbers", EvTookMoney: "took-money", EvGained: "gained", EvConsolation: "consolation",
	EvToMarket: "to-market", EvToDiscard: "to-discard", EvAuctionStarted: "auction-started", EvBid: "bid",
	EvPassed: "passed", EvAuctionWon: "auction-won", EvWildDiscarded: "wild-discarded", EvPaid: "paid",
	EvBought: "bought", EvTurnEnded: "turn-ended", EvEndTriggered: "end-triggered",
	EvFinalBuyStarted: "final-buy-started", EvFinalBuySkipped: "final-buy-skipped", EvGameOver: "game-over",
	EvBustBuy: "bust-buy",
}

// String returns the event kind's name ("drew", "auction-won" …).
func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "event(" + strconv.Itoa(int(k)) + ")"
}

// String returns "A" (total), "B" (money) or "" (no bust), as the rulebook
// names the two busts.
func (b BustKind) String() string {
	switch b {
	case BustTotal:
		return "A"
	case BustMoney:
		return "B"
	}
	return ""
}
