package engine

import "errors"

// errTODO marks what is not implemented yet. This file disappears once the
// engine is complete.
var errTODO = errors.New("engine: not implemented")

// SchemaVersion is the version of the serialised form written by MarshalBinary.
const SchemaVersion = 1

// New deals a new game: the deck for the player count (R1) shuffled with
// opts.Seed, 5 money tokens each, the first player. Returns ErrBadOptions.
func New(opts Options) (*Game, error) { return nil, errTODO }

// NewWithDeck is New with a given deck order (top first), for scenarios and tests.
func NewWithDeck(opts Options, deck []Card) (*Game, error) { return nil, errTODO }

// Apply applies one action. On success it returns what happened; on failure it
// returns a typed error (see errors.go) and leaves g unchanged. In solo, ALIX's
// decisions that follow are applied too and appear in the events.
func (g *Game) Apply(a Action) ([]Event, error) { return nil, errTODO }

// ToAct returns the seat whose decision it is, or -1 when the game is over.
func (g *Game) ToAct() int { return -1 }

// Choices returns the decisions open to player now.
func (g *Game) Choices(player int) Choices { return Choices{} }

// Capacity is what player could pay now (3.5; solo: SPEC §5).
func (g *Game) Capacity(player int) int { return 0 }

// CheckPayment reports whether p is a valid payment of price by player.
func (g *Game) CheckPayment(player, price int, p Payment) error { return errTODO }

// ProposePayment returns the payment of price that loses player the least
// (R6), and false when player cannot pay it.
func (g *Game) ProposePayment(player, price int) (Payment, bool) { return Payment{}, false }

// Results returns the final standings, best first. Meaningful in PhaseOver;
// before that it ranks the current collections.
func (g *Game) Results() []Result { return nil }

// Clone returns a deep copy.
func (g *Game) Clone() *Game { return nil }

// MarshalBinary returns the compact, versioned serialised form.
func (g *Game) MarshalBinary() ([]byte, error) { return nil, errTODO }

// UnmarshalBinary reads what MarshalBinary wrote. Returns ErrSchemaTooNew or ErrCorrupt.
func (g *Game) UnmarshalBinary(b []byte) error { return errTODO }

// Check verifies the invariants of SPEC §6 and returns the first violation.
func (g *Game) Check() error { return errTODO }
