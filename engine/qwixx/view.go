package qwixx

// View is what a seat sees of the game: everything but the seed (Q11: all
// is public but the order of future rolls). It is JSON-ready and shares
// nothing with the game.
type View struct {
	Players   int         `json:"players"`
	Solitaire bool        `json:"solitaire,omitempty"`
	Seq       uint64      `json:"seq"`
	Turn      int         `json:"turn"`
	Active    int         `json:"active"`
	Phase     string      `json:"phase"`
	Dice      Roll        `json:"dice"`      // W1 W2 r y g b; 0: removed
	Removed   [4]bool     `json:"removed"`   // by row: the die is out of play
	WhiteSum  int         `json:"white_sum"` //
	Locked    [4]bool     `json:"locked"`    // rows locked for everyone
	ToDecide  []int       `json:"to_decide"`
	Sheets    []SheetView `json:"sheets"`
	Seat      int         `json:"seat"`              // the seat seeing it; -1: public
	Options   []string    `json:"options,omitempty"` // that seat's legal moves now, passing last
	Over      bool        `json:"over,omitempty"`
	End       string      `json:"end,omitempty"`
	Results   []Result    `json:"results,omitempty"`
}

// SheetView is one seat's sheet in a View.
type SheetView struct {
	Seat      int        `json:"seat" engine:"seat"`
	Rows      [4]RowView `json:"rows"` // r y g b
	Penalties int        `json:"penalties"`
	Score     int        `json:"score"`
	Deciding  bool       `json:"deciding"`                        // the seat must decide now
	Action1   string     `json:"action1,omitempty"`               // this roll's action 1 decision: "" (none yet), "-" or a mark ("r7")
	Plan      string     `json:"plan,omitempty" engine:"private"` // the active seat's planned action 2 ("c b10"), in its own view only
}

// RowView is one row of a SheetView.
type RowView struct {
	Color  Color `json:"color"`
	Marks  []int `json:"marks"` // marked numbers, left to right
	Lock   bool  `json:"lock"`  // this sheet marked the lock
	Count  int   `json:"count"` // marks, the lock included (Q3)
	Points int   `json:"points"`
}

// View returns what seat sees (seat -1: the public view). Everything is
// public (Q11) but the active seat's planned action 2, which only its own
// view shows; Options are the seat's own.
func (g *Game) View(seat int) View {
	v := View{
		Players: g.Players, Solitaire: g.Solitaire, Seq: g.Seq, Turn: g.Turn, Active: g.Active,
		Phase: g.Phase.String(), Dice: g.Dice, WhiteSum: g.Dice.WhiteSum(), Locked: g.Locked,
		ToDecide: g.ToDecide(), Seat: -1, Over: g.Over(), End: g.Ended.String(),
	}
	if v.ToDecide == nil {
		v.ToDecide = []int{}
	}
	for _, c := range Colors {
		v.Removed[c] = !g.InPlay(DieOf(c))
	}
	if seat >= 0 && seat < g.Players {
		v.Seat = seat
		for _, a := range g.LegalActions(seat) {
			v.Options = append(v.Options, a.String())
		}
	}
	v.Sheets = make([]SheetView, g.Players)
	for s := range g.Sheets {
		sh := &g.Sheets[s]
		sv := SheetView{Seat: s, Penalties: sh.Penalties, Score: sh.Score(), Deciding: g.Deciding(s)}
		switch ch := g.Choices[s]; {
		case ch == ChoicePass:
			sv.Action1 = "-"
		case ch != ChoiceNone:
			c, _ := ch.Marked()
			sv.Action1 = Action{Kind: ActWhite, Color: c, Number: g.Dice.WhiteSum()}.String()[2:]
		}
		for _, c := range Colors {
			r := sh.Rows[c]
			marks := r.Numbers(c)
			if marks == nil {
				marks = []int{}
			}
			sv.Rows[c] = RowView{Color: c, Marks: marks, Lock: r.Locked(), Count: r.Count(), Points: RowPoints(r.Count())}
		}
		if p := g.plan; p.Set && s == g.Active && seat == s {
			sv.Plan = p.Action().String()
		}
		v.Sheets[s] = sv
	}
	if g.Over() {
		v.Results = g.Results()
	}
	return v
}
