package qwixx

import (
	"fmt"
	"image"
	"strconv"

	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/picture"
)

// Scoreboard is the input of the final scoreboard: the view of a finished
// game (its Results filled in), the display names and marks by seat.
type Scoreboard struct {
	View   rules.View
	Names  []string
	Marks  []picture.Mark
	Labels Labels
}

// RenderScoreboard draws the final standings, best first: each seat's
// sheet as on the board (marks, locks, penalties, points per row and the
// score) with its rank, gold for the winners (ties share a rank, Q10),
// without the dice. It returns PNG bytes, or an error wrapping ErrBadInput
// for a view without results or one the board cannot draw. Safe for
// concurrent use.
func RenderScoreboard(s Scoreboard) ([]byte, error) {
	img, err := drawScoreboard(&s)
	if err != nil {
		return nil, err
	}
	return picture.Encode(img)
}

func drawScoreboard(s *Scoreboard) (*image.Paletted, error) {
	v := &s.View
	if err := checkView(v); err != nil {
		return nil, err
	}
	if len(v.Results) != len(v.Sheets) {
		return nil, fmt.Errorf("%w: %d results for %d sheets", ErrBadInput, len(v.Results), len(v.Sheets))
	}
	h := 2*margin + len(v.Sheets)*(blockH+gap) - gap
	c := picture.NewWideCanvas(pageW, h, picture.Table)
	y := margin
	for _, r := range v.Results {
		if r.Seat < 0 || r.Seat >= len(v.Sheets) || r.Rank < 1 {
			return nil, fmt.Errorf("%w: result for seat %d, rank %d", ErrBadInput, r.Seat, r.Rank)
		}
		name := strconv.Itoa(r.Seat + 1)
		if r.Seat < len(s.Names) {
			if n := picture.Drawable(s.Names[r.Seat]); n != "" {
				name = n
			}
		}
		var mark picture.Mark
		if r.Seat < len(s.Marks) {
			mark = s.Marks[r.Seat]
		}
		drawSheet(c, margin, y, v, r.Seat, name, mark, r.Rank, s.Labels)
		y += blockH + gap
	}
	return c.Img, nil
}
