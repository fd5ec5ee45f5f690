package dix

import "errors"

// Sentinel errors. Every rejected action wraps exactly one of these; the bot
// maps each to a message.
var (
	ErrBadOptions    = errors.New("engine: bad game options")
	ErrGameOver      = errors.New("engine: the game is over")
	ErrNotYourTurn   = errors.New("engine: not this player's decision")
	ErrWrongPhase    = errors.New("engine: action not allowed now")
	ErrUnknownPlayer = errors.New("engine: no such player")
	ErrUnknownAction = errors.New("engine: unknown action")
	ErrMustDraw      = errors.New("engine: draw at least one card before stopping")
	ErrDeckEmpty     = errors.New("engine: the deck is empty")
	ErrBidTooLow     = errors.New("engine: bid not higher than the current bid")
	ErrBidTooHigh    = errors.New("engine: bid above the player's capacity")
	ErrNotInMarket   = errors.New("engine: card not in the market")
	ErrIdenticalCard = errors.New("engine: player already owns an identical card")
	ErrPaymentShort  = errors.New("engine: payment does not cover the price")
	ErrNotOwned      = errors.New("engine: payment names tokens or cards the player does not have")
	ErrWildPayment   = errors.New("engine: wilds are never payment")
	// ErrSuperfluousPayment: a unit of the payment could be left out and the
	// rest would still cover the price (R3).
	ErrSuperfluousPayment = errors.New("engine: payment holds a superfluous unit")
	ErrSoloPayment        = errors.New("engine: in solo only duplicate cards may pay")
	ErrCannotAfford       = errors.New("engine: the player cannot afford this")
	ErrBadCard            = errors.New("engine: bad card notation")
	ErrSchemaTooNew       = errors.New("engine: state written by a newer schema")
	ErrCorrupt            = errors.New("engine: corrupt serialised state")
	ErrInvariant          = errors.New("engine: invariant violated")
)

// Rejections returns, by Go name, the sentinel errors a rejected action may
// wrap (every one above but those of decoding and Check), for the tools that
// cite them by name. The map is new on every call.
func Rejections() map[string]error {
	return map[string]error{
		"ErrBadOptions": ErrBadOptions, "ErrGameOver": ErrGameOver, "ErrNotYourTurn": ErrNotYourTurn,
		"ErrWrongPhase": ErrWrongPhase, "ErrUnknownPlayer": ErrUnknownPlayer, "ErrUnknownAction": ErrUnknownAction,
		"ErrMustDraw": ErrMustDraw, "ErrDeckEmpty": ErrDeckEmpty, "ErrBidTooLow": ErrBidTooLow,
		"ErrBidTooHigh": ErrBidTooHigh, "ErrNotInMarket": ErrNotInMarket, "ErrIdenticalCard": ErrIdenticalCard,
		"ErrPaymentShort": ErrPaymentShort, "ErrNotOwned": ErrNotOwned, "ErrWildPayment": ErrWildPayment,
		"ErrSoloPayment": ErrSoloPayment, "ErrSuperfluousPayment": ErrSuperfluousPayment, "ErrCannotAfford": ErrCannotAfford, "ErrBadCard": ErrBadCard,
	}
}
