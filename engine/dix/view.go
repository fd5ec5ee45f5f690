package dix

// View is a plain, JSON-ready picture of a game with cards in SPEC §7
// notation, for tools and logs (`dixsim replay`). It shows everything,
// including the order of the deck (Deck, which State.View leaves out).
type View struct {
	Players      int          `json:"players"`
	Solo         bool         `json:"solo,omitempty"`
	Difficulty   int          `json:"difficulty,omitempty"`
	BustVariant  bool         `json:"bust_variant,omitempty"`
	Seq          uint32       `json:"seq"`
	Phase        string       `json:"phase"`
	Active       int          `json:"active"`
	ToAct        int          `json:"to_act"`
	DeckCount    int          `json:"deck_count"`
	Deck         []string     `json:"deck" engine:"private"` // the order of the deck: nobody may see it
	Tableau      []string     `json:"tableau"`
	TableauTotal int          `json:"tableau_total"`
	TableauMoney int          `json:"tableau_money"`
	Market       []string     `json:"market"`
	Discard      []string     `json:"discard"`
	Seats        []SeatView   `json:"seats"`
	Auction      *AuctionView `json:"auction,omitempty"`
	EndTriggered bool         `json:"end_triggered,omitempty"`
	FinalOrder   []int        `json:"final_order,omitempty"`
	FinalNext    int          `json:"final_next,omitempty"`
	Results      []ResultView `json:"results,omitempty"`
}

// SeatView is one seat of a View.
type SeatView struct {
	Seat        int      `json:"seat"`
	Alix        bool     `json:"alix,omitempty"`
	Money       int      `json:"money"`
	Consolation int      `json:"consolation"`
	Capacity    int      `json:"capacity"`
	Collection  []string `json:"collection"`
	Score       int      `json:"score"`
}

// AuctionView is the auction of a View.
type AuctionView struct {
	Wild       string `json:"wild"`
	HighBid    int    `json:"high_bid"`
	HighBidder int    `json:"high_bidder"`
	Order      []int  `json:"order"`
	Next       int    `json:"next"`
}

// ResultView is one final standing of a View.
type ResultView struct {
	Seat       int         `json:"seat"`
	Rank       int         `json:"rank"`
	Score      int         `json:"score"`
	Money      int         `json:"money"`
	Cards      int         `json:"cards"`
	Placements []PlaceView `json:"wilds,omitempty"`
}

// PlaceView says what a wild stands for in a ResultView.
type PlaceView struct {
	Card  string `json:"card"`
	Color string `json:"color,omitempty"`
	Value int    `json:"value,omitempty"`
	Used  bool   `json:"used"`
}

// View returns the picture of g. Results are filled in once the game is
// over.
func (g *Game) View() View {
	total, money := g.tableauSums()
	v := View{
		Players:      g.Opts.Players,
		Solo:         g.Solo(),
		Difficulty:   g.Opts.Difficulty,
		BustVariant:  g.Opts.BustVariant,
		Seq:          g.Seq,
		Phase:        g.Phase.String(),
		Active:       g.Active,
		ToAct:        g.ToAct(),
		DeckCount:    len(g.Deck),
		Deck:         cardStrings(g.Deck),
		Tableau:      cardStrings(g.Tableau),
		TableauTotal: total,
		TableauMoney: money,
		Market:       cardStrings(g.Market),
		Discard:      cardStrings(g.Discard),
		EndTriggered: g.EndTriggered,
		FinalOrder:   append([]int(nil), g.FinalOrder...), // a picture: never the state's own slices
		FinalNext:    g.FinalNext,
	}
	for i, p := range g.Players {
		v.Seats = append(v.Seats, SeatView{
			Seat: i, Alix: g.IsAlix(i), Money: p.Money, Consolation: p.Consolation,
			Capacity: g.Capacity(i), Collection: cardStrings(p.Collection),
			Score: BestScore(p.Collection).Total,
		})
	}
	if a := g.Auction; a != nil {
		v.Auction = &AuctionView{Wild: a.Wild.String(), HighBid: a.HighBid, HighBidder: a.HighBidder, Order: append([]int(nil), a.Order...), Next: a.Next}
	}
	if g.Phase == PhaseOver {
		for _, r := range g.Results() {
			rv := ResultView{Seat: r.Player, Rank: r.Rank, Score: r.Score.Total, Money: r.Money, Cards: r.Cards}
			for _, p := range r.Score.Placements {
				pv := PlaceView{Card: p.Wild.String(), Value: int(p.Value), Used: p.Used}
				if p.Color != NoColor {
					pv.Color = p.Color.String()
				}
				rv.Placements = append(rv.Placements, pv)
			}
			v.Results = append(v.Results, rv)
		}
	}
	return v
}

func cardStrings(cards []Card) []string {
	s := make([]string, len(cards))
	for i, c := range cards {
		s[i] = c.String()
	}
	return s
}
