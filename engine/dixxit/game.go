package dixxit

import (
	"fmt"
	"math/rand/v2"

	"github.com/dixgame/dixbot/engine"
)

// Name is Dixxit's prefix in custom ids, commands and locale keys.
const Name = "dixxit"

// Squares is the number of squares of the grid, numbered 1–9 left to
// right, top to bottom (§1).
const Squares = 9

// Player counts (§2).
const (
	MinPlayers = 3
	MaxPlayers = 6
)

// MaxClue is the longest clue, in characters (X4).
const MaxClue = 100

// noCard is an empty square of the grid.
const noCard Card = 0

// Phase is where a game stands.
type Phase uint8

// The phases. The zero value is a turn waiting for its clue.
const (
	PhaseClue  Phase = iota // the active player gives the clue (§3.2)
	PhaseGuess              // the guessers race (§3.3)
	PhaseOver               // the grid could not be refilled (§4, X5)
)

var phaseNames = [...]string{"clue", "guess", "over"}

// String returns "clue", "guess" or "over".
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("phase(%d)", uint8(p))
}

// finger is one guesser's finger on a square (§3.3) at the time its move
// carried (X7).
type finger struct {
	seat   int
	square int // 0–8
	at     uint64
}

// Game is one game of Dixxit in progress, and its engine.State. A Game is
// not safe for concurrent use.
type Game struct {
	players int
	seed    int64
	first   int // the seat that started
	seq     uint64
	turn    uint64 // turns started so far; the target of a turn is drawn from seed and turn (X3)
	active  int
	phase   Phase
	target  int // 0–8: the target square of the turn (secret, X11)
	clue    string
	aloud   bool
	grid    [Squares]Card // noCard: empty (only once the game is over, X5)
	pile    []Card        // the draw pile, top first (secret order)
	aside   []Card        // set aside at setup (§2), never seen
	discard []Card
	won     [][]Card // the cards in front of each seat, in the order taken
	fingers []finger // in time order (X7)
	out     uint8    // guessers out of the turn (X9), one bit per seat
	last    *scored  // the latest turn scored, as it was scored; nil: none, or that turn was skipped
}

// scored is a turn as it stood when it was scored (§3.4), before the
// refill: public from then on (X11).
type scored struct {
	turn   uint64
	active int
	grid   [Squares]Card
	finger [Squares]int8 // by square: the seat whose finger counted there, −1 for none
	found  int           // the square (0–8) where the target was found, −1 when not found
	target int           // the target square (0–8)
}

// scoredNow is the turn as it stands now, to be scored: the fingers that
// count are down, none was removed from the grid yet.
func (g *Game) scoredNow(found int) *scored {
	s := &scored{turn: g.turn, active: g.active, grid: g.grid, found: found, target: g.target}
	for i := range s.finger {
		s.finger[i] = -1
	}
	for _, f := range g.fingers {
		s.finger[f.square] = int8(f.seat)
	}
	return s
}

var _ engine.State = (*Game)(nil)

// asideCount is the number of cards set aside for players (§2).
func asideCount(players int) int { return (MaxPlayers - players) * 10 }

// newGame deals a game: the face of every card (X1), the cards set aside
// and the draw pile from seed, the grid from the pile, the first player
// (X2, from seed when first is −1). It returns an error wrapping
// ErrBadOptions.
func newGame(players int, seed int64, first int) (*Game, error) {
	if players < MinPlayers || players > MaxPlayers {
		return nil, fmt.Errorf("%w: %d players, want %d–%d", ErrBadOptions, players, MinPlayers, MaxPlayers)
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x64697878697473))
	if first == -1 {
		first = r.IntN(players) // X2
	}
	if first < 0 || first >= players {
		return nil, fmt.Errorf("%w: first seat %d of %d", ErrBadOptions, first, players)
	}
	deck := make([]Card, Cards)
	for i, n := range r.Perm(Cards) {
		deck[i] = CardOf(n, r.IntN(2)) // X1
	}
	k := asideCount(players)
	g := &Game{
		players: players,
		seed:    seed,
		first:   first,
		active:  first,
		aside:   deck[:k:k],
		pile:    deck[k:],
		won:     make([][]Card, players),
	}
	copy(g.grid[:], g.pile[:Squares])
	g.pile = g.pile[Squares:]
	g.startTurn()
	return g, nil
}

// targetOf draws the target square of turn t (X3): uniform among the nine,
// independent of every other turn, from the seed alone.
func targetOf(seed int64, t uint64) int {
	return rand.New(rand.NewPCG(uint64(seed)^0x7461726765740000, t)).IntN(Squares)
}

// startTurn opens the next turn of the active player.
func (g *Game) startTurn() {
	g.turn++
	g.phase = PhaseClue
	g.target = targetOf(g.seed, g.turn)
	g.clue, g.aloud = "", false
	g.fingers = nil
	g.out = 0
}

// Players returns the number of seats.
func (g *Game) Players() int { return g.players }

// Active returns the active player's seat.
func (g *Game) Active() int { return g.active }

// Phase returns where the game stands.
func (g *Game) Phase() Phase { return g.phase }

// deciding reports whether seat must decide now.
func (g *Game) deciding(seat int) bool {
	switch g.phase {
	case PhaseClue:
		return seat == g.active
	case PhaseGuess:
		return seat >= 0 && seat < g.players && seat != g.active && g.out&(1<<seat) == 0 && g.fingerOf(seat) < 0
	}
	return false
}

// fingerOf returns the index in g.fingers of seat's finger, −1 when none.
func (g *Game) fingerOf(seat int) int {
	for i, f := range g.fingers {
		if f.seat == seat {
			return i
		}
	}
	return -1
}

// holderOf returns the index in g.fingers of the finger on square sq
// (0–8), −1 when none.
func (g *Game) holderOf(sq int) int {
	for i, f := range g.fingers {
		if f.square == sq {
			return i
		}
	}
	return -1
}
