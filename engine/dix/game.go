package dix

// Player is one seat's holdings. Everything here is public information.
type Player struct {
	Money       int    // money tokens, 0–10
	Consolation int    // consolation tokens
	Collection  []Card // number cards and wilds, in the order gained
}

// Auction is a wild up for auction (3.5).
type Auction struct {
	Wild       Card
	HighBid    int   // 0: no bid yet
	HighBidder int   // -1: no bid yet
	Order      []int // seats in bidding order; the active player is last (solo: SPEC §5)
	Next       int   // index into Order of the seat to decide
}

// Game is the whole state of one game of DIX. Its fields are exported for
// reading (rendering, tests); change it only through Apply. A Game is not safe
// for concurrent use.
type Game struct {
	Opts         Options
	Players      []Player // by seat; in solo, seat 0 is the human and seat 1 is ALIX
	Deck         []Card   // face down, top first
	Tableau      []Card   // the active player's drawn number and currency cards
	Market       []Card
	Discard      []Card
	Active       int // the seat whose turn it is
	Phase        Phase
	Drawn        int      // cards drawn this turn (R2: Stop needs at least one)
	Auction      *Auction // non-nil in PhaseAuction and PhaseAuctionPay
	EndTriggered bool     // the last card was drawn (4)
	FinalOrder   []int    // PhaseFinalBuy: seats in final-buy order
	FinalNext    int      // PhaseFinalBuy: index into FinalOrder
	Bought       bool     // the active player has bought this turn
	Seq          uint32   // number of actions applied; changes with every successful Apply

	setup [numCardIndex]uint8 // the deck built at setup, as counts by cardIndex (SPEC §6)
	arena []Card              // where event card lists are copied (see keep); never serialised
}
