package dix

import (
	"fmt"
	"image"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/picture"
)

// Scoreboard is the input of the final scoreboard: the view of a finished
// game (its Results filled in) and the display names by seat.
type Scoreboard struct {
	View   dix.View
	Names  []string
	Marks  []picture.Mark // by seat, as on the board
	Labels Labels         // unused for now: the scoreboard is numbers and names
}

// RenderScoreboard draws the final standings, best first: each player's rank
// (gold for the winners), mark, name and tokens (the first tie-break), their runs
// per colour with the wilds where the scorer placed them, the score of each
// colour and the total. It returns PNG bytes, or ErrBadInput for a view
// without results or with unreadable cards. Safe for concurrent use.
func RenderScoreboard(s Scoreboard) ([]byte, error) {
	img, err := drawScoreboard(&s)
	if err != nil {
		return nil, err
	}
	return picture.Encode(img)
}

func drawScoreboard(s *Scoreboard) (*image.Paletted, error) {
	v := &s.View
	if len(v.Results) == 0 || len(v.Results) != len(v.Seats) {
		return nil, fmt.Errorf("%w: %d results for %d seats", ErrBadInput, len(v.Results), len(v.Seats))
	}
	ps, err := seats(v, s.Names, s.Marks, -1)
	if err != nil {
		return nil, err
	}
	ordered := make([]seatData, 0, len(ps))
	for _, r := range v.Results {
		if r.Seat < 0 || r.Seat >= len(ps) {
			return nil, fmt.Errorf("%w: result for seat %d", ErrBadInput, r.Seat)
		}
		p := ps[r.Seat]
		p.rank = r.Rank
		ordered = append(ordered, p)
	}
	rows := (len(ordered) + 1) / 2
	bh := blockHeight()
	H := 2*margin + rows*bh + (rows-1)*colGap
	c := newCanvas(pageW, H, picture.Table)
	for i := range ordered {
		x := margin + (i%2)*(blockW+colGap)
		y := margin + (i/2)*(bh+colGap)
		c.drawBlock(x, y, bh, &ordered[i])
	}
	return c.Img, nil
}
