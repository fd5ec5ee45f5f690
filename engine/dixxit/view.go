package dixxit

import "github.com/dixgame/dixbot/engine"

// View is what one seat (or everyone, engine.Public) may see of a game: a
// JSON-ready value sharing nothing with the game. Before the turn is
// scored nothing in it depends on the target but Secret, which only the
// active player's view holds (X11); the order of the draw pile and the set
// aside cards show only as counts.
type View struct {
	Players  int             `json:"players"`
	Seq      uint64          `json:"seq"`
	Turn     uint64          `json:"turn"`
	Phase    string          `json:"phase"`
	Active   int             `json:"active"`
	Deciding []int           `json:"deciding"`
	Grid     [9]string       `json:"grid"` // deck ids by square 1–9; "" for an empty square
	Pile     int             `json:"pile"` // cards in the draw pile
	Aside    int             `json:"aside"`
	Discard  []string        `json:"discard"`
	Holdings [][]string      `json:"holdings"` // the cards in front of each seat, in the order taken
	Clue     string          `json:"clue,omitempty"`
	Aloud    bool            `json:"aloud,omitempty"`
	Fingers  []FingerView    `json:"fingers"` // in time order (X7); each one a "no" (X8)
	Out      []int           `json:"out"`     // guessers out of the turn (X9)
	Secret   *Secret         `json:"secret,omitempty"`
	Last     *Scored         `json:"last,omitempty"`    // the latest turn scored; nil when none, or when it was skipped
	Results  []engine.Result `json:"results,omitempty"` // once over
}

// FingerView is one finger down on the grid.
type FingerView struct {
	Seat   int `json:"seat"`
	Square int `json:"square"` // 1–9
}

// Scored is a turn as it stood when it was scored (§3.4), before the
// refill; its target is public then (X11).
type Scored struct {
	Turn    uint64       `json:"turn"`
	Active  int          `json:"active"`
	Grid    [9]string    `json:"grid"`    // deck ids by square 1–9
	Fingers []FingerView `json:"fingers"` // the fingers that counted, by square
	Found   int          `json:"found"`   // 1–9: the square where the target was found; 0: not found
	Target  int          `json:"target"`  // 1–9
}

// Secret is what only the active player knows: the target of the turn.
type Secret struct {
	Seat   int    `json:"seat" engine:"seat"`
	Target int    `json:"target" engine:"private"` // 1–9
	Card   string `json:"card" engine:"private"`
}

// View returns what seat may see; engine.Public (or any seat but the
// active player's) gets the same public view.
func (g *Game) View(seat int) any { return g.ViewOf(seat) }

// ViewOf is View with its concrete type.
func (g *Game) ViewOf(seat int) View {
	v := View{
		Players:  g.players,
		Seq:      g.seq,
		Turn:     g.turn,
		Phase:    g.phase.String(),
		Active:   g.active,
		Deciding: g.ToDecide(),
		Pile:     len(g.pile),
		Aside:    len(g.aside),
		Discard:  cardStrings(g.discard),
		Holdings: make([][]string, g.players),
		Clue:     g.clue,
		Aloud:    g.aloud,
		Fingers:  make([]FingerView, len(g.fingers)),
		Out:      []int{},
	}
	if v.Deciding == nil {
		v.Deciding = []int{}
	}
	for sq, c := range g.grid {
		v.Grid[sq] = c.String()
	}
	for s, w := range g.won {
		v.Holdings[s] = cardStrings(w)
	}
	for i, f := range g.fingers {
		v.Fingers[i] = FingerView{Seat: f.seat, Square: f.square + 1}
	}
	for s := range g.players {
		if g.out&(1<<s) != 0 {
			v.Out = append(v.Out, s)
		}
	}
	if g.phase != PhaseOver && seat == g.active {
		v.Secret = &Secret{Seat: seat, Target: g.target + 1, Card: g.grid[g.target].String()}
	}
	if g.phase == PhaseOver {
		v.Results = g.Results()
	}
	if l := g.last; l != nil {
		v.Last = &Scored{Turn: l.turn, Active: l.active, Fingers: []FingerView{}, Found: l.found + 1, Target: l.target + 1}
		for sq, c := range l.grid {
			v.Last.Grid[sq] = c.String()
			if l.finger[sq] >= 0 {
				v.Last.Fingers = append(v.Last.Fingers, FingerView{Seat: int(l.finger[sq]), Square: sq + 1})
			}
		}
	}
	return v
}
