package dixxit

import (
	"fmt"
	"image"

	"github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/picture"
)

// Holding is one row of the final scoreboard: a player and the cards in
// front of them (§4).
type Holding struct {
	Name   string
	Mark   picture.Mark // who plays the seat: a robot or a moon before the name
	Cards  []string     // deck ids, in the order taken
	Rank   int          // the final rank (X6: tied players share it); 0: none drawn
	Winner bool         // ranked first (X6: tied players share the victory)
}

// Scoreboard layout, in pixels.
const (
	Thumb      = 64 // a card on the scoreboard
	perLine    = 12 // cards on one line of a row
	boardWidth = 2*margin + perLine*(Thumb+6) - 6
	rowHead    = 34 // a row's name and count
)

// Scoreboard draws the final scoreboard: one row per player, in the order
// given, with their rank in a disc, a robot or a moon before the name of
// a seat the computer plays or an absent player's (as every game's
// pictures mark them), their name, their number of cards and each card as
// a small picture (twelve to a line), the winners' rows marked in gold.
// Its error comes from the PNG encoder only.
func (r *Renderer) Scoreboard(rows []Holding) ([]byte, error) {
	h := margin
	for _, row := range rows {
		h += rowHead + lines(len(row.Cards))*(Thumb+6) + gap
	}
	h += margin - gap
	h = max(h, 2*margin)
	img := &image.Paletted{Pix: make([]uint8, boardWidth*h), Stride: boardWidth,
		Rect: image.Rect(0, 0, boardWidth, h), Palette: palette}
	fill(img, img.Rect, table)
	y := margin
	for _, row := range rows {
		rh := rowHead + lines(len(row.Cards))*(Thumb+6)
		bg := panel
		if row.Winner {
			fill(img, image.Rect(margin-6, y-4, boardWidth-margin+6, y+rh), gold)
			fill(img, image.Rect(margin-3, y-1, boardWidth-margin+3, y+rh-3), panel)
		} else {
			fill(img, image.Rect(margin-6, y-4, boardWidth-margin+6, y+rh), bg)
		}
		count := text(fmt.Sprint(len(row.Cards)), picture.FontKey{Bold: true, Size: 22}, picture.Gold, picture.Panel)
		draw(img, count, boardWidth-margin-count.W, y+2)
		x := margin
		if row.Rank > 0 {
			draw(img, headTile(rankKey(row.Rank), 24, func(p *picture.Pen) { p.RankDisc(row.Rank) }), x, y+3)
			x += 24 + 6
		}
		if row.Mark != picture.MarkNone {
			draw(img, headTile(row.Mark, 20, func(p *picture.Pen) { p.SeatMark(row.Mark, panel) }), x, y+5)
			x += 20 + 5
		}
		name := picture.Fit(picture.Drawable(row.Name), nameFont, boardWidth-margin-x-count.W-20)
		draw(img, text(name, nameFont, picture.White, picture.Panel), x, y+4)
		for i, id := range row.Cards {
			x := margin + (i%perLine)*(Thumb+6)
			ty := y + rowHead + (i/perLine)*(Thumb+6)
			if t := r.tile(id, Thumb); t != nil {
				copyRows(img, t, x, ty)
			}
		}
		y += rh + gap
	}
	return picture.Encode(img)
}

type rankKey int

type headKey struct {
	key  any
	side int
}

// headTile is the side×side tile that paint draws over a row's panel
// (a rank's disc, a seat's mark), in the package's palette and cached
// under key.
func headTile(key any, side int, paint func(p *picture.Pen)) *picture.Tile {
	return picture.Cached(headKey{key, side}, func() *picture.Tile {
		dst := image.NewRGBA(image.Rect(0, 0, side, side))
		for i := 0; i < len(dst.Pix); i += 4 {
			dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = panel.R, panel.G, panel.B, 255
		}
		paint(picture.NewPen(dst))
		return quantise(dst)
	})
}

// lines is the number of lines of thumbnails n cards take (at least one,
// so that a player with no card still has a row of their own).
func lines(n int) int { return max(1, (n+perLine-1)/perLine) }

// HoldingsOf returns the scoreboard rows of a finished game's view, best
// first (View.Results) with their ranks, naming each seat by names[seat]
// ("?" when missing) and marking it by marks[seat] (none when missing).
// A view of a game not over gives the rows in seat order, no rank, no
// winner.
func HoldingsOf(v dixxit.View, names []string, marks []picture.Mark) []Holding {
	order := make([]int, 0, len(v.Holdings))
	ranks := map[int]int{}
	for _, res := range v.Results {
		order = append(order, res.Seat)
		ranks[res.Seat] = res.Rank
	}
	if len(order) != len(v.Holdings) {
		order = order[:0]
		for s := range v.Holdings {
			order = append(order, s)
		}
		clear(ranks)
	}
	rows := make([]Holding, 0, len(order))
	for _, s := range order {
		if s < 0 || s >= len(v.Holdings) {
			continue
		}
		name := "?"
		if s < len(names) {
			name = names[s]
		}
		var mark picture.Mark
		if s < len(marks) {
			mark = marks[s]
		}
		rows = append(rows, Holding{Name: name, Mark: mark, Cards: v.Holdings[s], Rank: ranks[s], Winner: ranks[s] == 1})
	}
	return rows
}
