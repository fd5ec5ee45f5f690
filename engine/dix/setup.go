package dix

import (
	"fmt"
	"math/rand/v2"
)

// SchemaVersion is the version of the serialised form written by MarshalBinary.
const SchemaVersion = 1

// Start values (SPEC §1.2, §5).
const (
	StartMoney       = 5    // money tokens each player starts with
	MoneyLimit       = 10   // most money tokens a player may hold
	ConsolationValue = 3    // what one consolation token is worth
	BustLimit        = 11   // a tableau total or money of this much busts (3.1)
	SoloMinBid       = 5    // smallest bid in a solo auction (§5)
	MinDifficulty    = 4    // easiest solo difficulty (§5)
	MaxDifficulty    = 10   // hardest solo difficulty (§5)
	maxDeck          = 1024 // NewWithDeck: largest deck accepted
)

// Alix is ALIX's seat in a solo game (SPEC §5).
const Alix = 1

// Solo reports whether the game is a solo game against ALIX.
func (g *Game) Solo() bool { return g.Opts.Players == 1 }

// IsAlix reports whether seat is ALIX's (solo games only).
func (g *Game) IsAlix(seat int) bool { return g.Opts.Players == 1 && seat == Alix }

// seatsFor is the number of Players entries: Opts.Players, or 2 in solo.
func seatsFor(players int) int {
	if players == 1 {
		return 2
	}
	return players
}

// New deals a new game: the deck for the player count (R1) shuffled with
// opts.Seed, 5 money tokens each, the first player (random from the seed
// when opts.FirstPlayer is -1; always the human in solo). Returns
// ErrBadOptions.
func New(opts Options) (*Game, error) {
	if err := CheckOptions(&opts); err != nil {
		return nil, err
	}
	deck, err := BuildDeck(opts.Players)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(uint64(opts.Seed), uint64(opts.Seed)^0x9e3779b97f4a7c15))
	r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	first := opts.FirstPlayer
	if first < 0 {
		first = r.IntN(seatsFor(opts.Players))
	}
	return newGame(opts, deck, first), nil
}

// NewWithDeck is New with a given deck order (top first), for scenarios and
// tests. The deck may be any non-empty list of valid cards (at most 1024, at
// most 255 copies of one card); card conservation (SPEC §6) is then checked
// against this deck. When opts.FirstPlayer is -1 the first player is drawn
// from the seed as in New. The deck slice is copied. Returns ErrBadOptions.
func NewWithDeck(opts Options, deck []Card) (*Game, error) {
	if err := CheckOptions(&opts); err != nil {
		return nil, err
	}
	if len(deck) == 0 || len(deck) > maxDeck {
		return nil, fmt.Errorf("%w: deck of %d cards", ErrBadOptions, len(deck))
	}
	var counts [numCardIndex]int
	for _, c := range deck {
		i := cardIndex(c)
		if i < 0 {
			return nil, fmt.Errorf("%w: invalid card in deck", ErrBadOptions)
		}
		counts[i]++
		if counts[i] > 255 {
			return nil, fmt.Errorf("%w: too many copies of %s", ErrBadOptions, c)
		}
	}
	first := opts.FirstPlayer
	if first < 0 {
		r := rand.New(rand.NewPCG(uint64(opts.Seed), uint64(opts.Seed)^0x9e3779b97f4a7c15))
		first = r.IntN(seatsFor(opts.Players))
	}
	return newGame(opts, append([]Card(nil), deck...), first), nil
}

// CheckOptions validates opts and normalises what does not apply (the
// difficulty outside solo, the first player in solo). Returns ErrBadOptions.
func CheckOptions(opts *Options) error {
	if opts.Players < 1 || opts.Players > 5 {
		return fmt.Errorf("%w: %d players (1–5)", ErrBadOptions, opts.Players)
	}
	if opts.Players == 1 {
		if opts.Difficulty < MinDifficulty || opts.Difficulty > MaxDifficulty {
			return fmt.Errorf("%w: difficulty %d (4–10)", ErrBadOptions, opts.Difficulty)
		}
		// §5: the human plays first.
		if opts.FirstPlayer != -1 && opts.FirstPlayer != 0 {
			return fmt.Errorf("%w: in solo the human (seat 0) starts", ErrBadOptions)
		}
		opts.FirstPlayer = 0
		return nil
	}
	opts.Difficulty = 0
	if opts.FirstPlayer < -1 || opts.FirstPlayer >= opts.Players {
		return fmt.Errorf("%w: first player %d", ErrBadOptions, opts.FirstPlayer)
	}
	return nil
}

func newGame(opts Options, deck []Card, first int) *Game {
	n := seatsFor(opts.Players)
	g := &Game{
		Opts:    opts,
		Players: make([]Player, n),
		Deck:    deck,
		Active:  first,
		Phase:   PhaseDraw,
		// Room to grow without copying in most games.
		Tableau: make([]Card, 0, 16),
		Market:  make([]Card, 0, 32),
		Discard: make([]Card, 0, len(deck)),
	}
	for i := range g.Players {
		g.Players[i].Money = StartMoney
		g.Players[i].Collection = make([]Card, 0, 32)
	}
	for _, c := range deck {
		g.setup[cardIndex(c)]++
	}
	// §5: ALIX never starts, but run her should a future option let her.
	g.advance(nil)
	return g
}
