package dix

// This file holds the engine's public types: the contract the store and the
// bot are written against. Implementations live in the other files of the
// package, one file per concept.

// Color is the colour of a number card or of a colour wild. The zero value
// means "no colour" (black wilds, the super wild, currency cards).
type Color uint8

const (
	NoColor Color = iota
	Blue
	Green
	Orange
	Pink
)

// Colors lists the four colours in display order.
var Colors = [4]Color{Blue, Green, Orange, Pink}

// Kind says what a card is. The zero value is not a valid card.
type Kind uint8

const (
	KindInvalid   Kind = iota
	KindNumber         // a coloured number card 1–9
	KindColorWild      // "#": fixed colour, any number
	KindBlackWild      // fixed number 1–9, any colour
	KindSuperWild      // any number, any colour
	KindCurrency       // a currency card 1–5
)

// Card is one card. Cards that share kind, colour and value are identical and
// interchangeable (SPEC §1.1). Its text form is the notation of SPEC §7:
// "g7", "g#", "*7", "**", "$3".
type Card struct {
	Kind  Kind
	Color Color // Blue…Pink for KindNumber and KindColorWild, NoColor otherwise
	Value uint8 // 1–9 for numbers and black wilds, 1–5 for currency, 0 otherwise
}

// Phase is where the game stands. The zero value is PhaseDraw.
type Phase uint8

const (
	PhaseDraw       Phase = iota // active player must draw (or may stop once a card was drawn this turn)
	PhaseChoose                  // active player stopped: take numbers or take money (3.2)
	PhaseBuy                     // active player may buy one market card or end the turn (3.4)
	PhaseBustChoice              // bust variant: consolation token or one buy phase (3.3)
	PhaseAuction                 // a wild is up for auction; Bidder must bid or pass (3.5)
	PhaseAuctionPay              // the auction winner must pay their bid
	PhaseFinalBuy                // end of game: Bidder-like seat order, each may buy once or skip (4)
	PhaseOver                    // final scores are known
)

// ActionKind is a player decision. The zero value is not a valid action.
type ActionKind uint8

const (
	ActInvalid     ActionKind = iota
	ActDraw                   // draw the top card
	ActStop                   // stop drawing (not bust)
	ActTakeNumbers            // reward: numbers (3.2)
	ActTakeMoney              // reward: money (3.2)
	ActBuy                    // buy Action.Card paying Action.Payment (3.4, also final buy round)
	ActEndTurn                // skip the buy (ends the turn, or skips a final buy)
	ActConsolation            // bust variant: take the consolation token instead of buying
	ActBustBuy                // bust variant: take a buy phase instead of the token
	ActBid                    // bid Action.Amount in the auction
	ActPass                   // pass in the auction
	ActPay                    // auction winner pays Action.Payment
)

// Payment is what a player spends: money tokens, consolation tokens and number
// cards from their own collection (never wilds, R4).
type Payment struct {
	Money       int
	Consolation int
	Cards       []Card
}

// Action is one decision by the player in seat Player.
type Action struct {
	Kind    ActionKind
	Player  int
	Amount  int     // ActBid
	Card    Card    // ActBuy: the market card bought
	Payment Payment // ActBuy, ActPay
}

// EventKind says what happened. Events are what the bot renders; the engine
// never formats text. Each kind lists the Event fields it sets; fields not
// named are zero. Player is always a seat (−1 for EvGameOver).
type EventKind uint8

const (
	EvInvalid         EventKind = iota
	EvTurnStarted               // Player's turn starts
	EvDrew                      // Player drew Card (into the tableau, or a wild to auction)
	EvBust                      // Player busted; Bust says A (total) or B (money); Amount = the total (A) or money (B) that busted; Cards = the tableau
	EvStopped                   // Player stopped drawing
	EvTookNumbers               // Player took Cards (number cards) into their collection (numbers reward, or ALIX after her bust B)
	EvTookMoney                 // Player took the money reward worth Amount (see EvGained for what they got)
	EvGained                    // Player gained Amount money tokens (Lost: tokens lost to the limit of 10); only when Amount+Lost > 0
	EvConsolation               // Player gained one consolation token
	EvToMarket                  // Cards went to the market (Player: the active player); only when there were some
	EvToDiscard                 // Cards (currency) went from the tableau to the discard (Player: the active player); only when there were some
	EvAuctionStarted            // Card is up for auction; Player is the active player
	EvBid                       // Player bid Amount
	EvPassed                    // Player passed
	EvAuctionWon                // Player won Card for Amount, and must now pay it (EvPaid follows, at once for ALIX)
	EvWildDiscarded             // nobody bid: Card went to the discard (Player: the active player)
	EvPaid                      // Player paid Payment (Amount = the value paid; cards to the discard, tokens to the reserve)
	EvBought                    // Player bought Card from the market
	EvTurnEnded                 // Player's turn ended
	EvEndTriggered              // Player drew the last card: the game ends after this turn (4)
	EvFinalBuyStarted           // the final buy round starts (Player: the active player, who buys last)
	EvFinalBuySkipped           // Player skipped their final buy
	EvGameOver                  // final scores are known (see Game.Results); Player is −1
	EvBustBuy                   // bust variant: Player chose a buy phase instead of the consolation token
)

// BustKind tells the two kinds of bust apart (3.1).
type BustKind uint8

const (
	NoBust    BustKind = iota
	BustTotal          // A: tableau total ≥ 11
	BustMoney          // B: tableau money ≥ 11
)

// Event is one thing that happened while applying an action.
type Event struct {
	Kind    EventKind
	Player  int
	Card    Card
	Cards   []Card
	Amount  int
	Lost    int // EvGained: tokens lost to the cap of 10
	Bust    BustKind
	Payment Payment
}

// Options configure a new game.
type Options struct {
	Players     int   // 1–5; 1 means the solo game against ALIX (seat 0 human, seat 1 ALIX)
	Difficulty  int   // solo only: 4–10 (SPEC §5)
	BustVariant bool  // 3.3 variant: a bust may take a buy phase instead of the token
	Seed        int64 // shuffle and first player; same seed, same game
	FirstPlayer int   // -1: random from Seed; otherwise the seat that starts (solo: always 0)
}

// Choices says exactly which decisions are open to one player now. The bot
// builds its buttons from it. A player with nothing to decide gets a zero
// Choices (empty Actions).
type Choices struct {
	Actions []ActionKind // the action kinds this player may send now
	MinBid  int          // ActBid: smallest legal bid
	MaxBid  int          // ActBid: largest legal bid (the player's capacity)
	Buyable []Card       // ActBuy: distinct market cards this player may buy (R5), sorted
	Owe     int          // ActPay: the amount the auction winner must pay
}

// Placement says what one wild stands for in the best arrangement (4.1).
type Placement struct {
	Wild  Card
	Color Color
	Value uint8
	Used  bool // false: the wild adds nothing in the best arrangement
}

// ColorScore is the longest run of one colour in the best arrangement.
type ColorScore struct {
	Color  Color
	Lo, Hi uint8 // the run's first and last number; 0,0 when the colour is empty
	Length int
	Bonus  int // 1 for a full run 1–9
	Score  int // Length + Bonus
}

// Score is the optimal score of a collection and how it is reached.
type Score struct {
	Total      int
	Colors     [4]ColorScore // in the order of Colors
	Placements []Placement   // one per wild of the collection, in collection order
}

// Result is one player's final standing (4.2).
type Result struct {
	Player int
	Score  Score
	Money  int // money tokens + 3 × consolation tokens (R9)
	Cards  int // number cards + wilds in the collection
	Rank   int // 1 for the winners; tied players share a rank
}
