package dix

import (
	"image"
	"image/color"
	"strconv"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/picture"
)

// This file lays a collection out as the scorer sees it: one row per colour,
// one column per number 1–9, so the gaps in a run are empty places; copies of
// a number are stacked, their count in a disc on the front copy; each wild stands in the place the scorer gives it
// (dix.BestScore), and the wilds that add nothing are listed apart.

// layout is a collection arranged for drawing.
type layout struct {
	count  [4][9]int      // number cards per colour and number
	wild   [4][9]dix.Card // the wild standing in for that place (Kind 0: none)
	cand   [4][9]bool     // the candidate card's place
	unused []dix.Card     // wilds that add nothing
	score  dix.Score
}

func layoutOf(coll []dix.Card, cand *dix.Card) *layout {
	l := &layout{}
	all := coll
	if cand != nil {
		all = append(append(make([]dix.Card, 0, len(coll)+1), coll...), *cand)
	}
	l.score = dix.BestScore(all)
	for _, c := range all {
		if c.Kind == dix.KindNumber && c.Valid() {
			l.count[c.Color-dix.Blue][c.Value-1]++
		}
	}
	if cand != nil && cand.Kind == dix.KindNumber && cand.Valid() {
		l.cand[cand.Color-dix.Blue][cand.Value-1] = true
	}
	for _, p := range l.score.Placements {
		if p.Used {
			l.wild[p.Color-dix.Blue][p.Value-1] = p.Wild
		} else {
			l.unused = append(l.unused, p.Wild)
		}
	}
	return l
}

// gridStyle says how big a grid is drawn.
type gridStyle struct {
	sz        cardSize
	cellW     int // column width (card width + room for stacked copies)
	rowH      int // row height
	stack     int // offset of each stacked copy
	scoreW    int // width of the score column; 0: none
	scoreFont picture.FontKey
	frameWild bool // a gold frame around placed wilds
	runBar    bool // a bar under each colour's best run
}

var (
	gridSmall = gridStyle{sz: small, cellW: 28, rowH: 40, stack: 2, scoreW: 26, scoreFont: picture.FontKey{Bold: true, Size: 17}, runBar: true}
	gridLarge = gridStyle{sz: large, cellW: 52, rowH: 72, stack: 4, scoreW: 52, scoreFont: picture.FontKey{Bold: true, Size: 26}, frameWild: true, runBar: true}
)

func (st gridStyle) width() int  { return 9*st.cellW + st.scoreW }
func (st gridStyle) height() int { return 4 * st.rowH }

// drawGrid draws l with its top-left corner at (x, y) over bg.
func (c *canvas) drawGrid(x, y int, l *layout, st gridStyle, bg color.RGBA) {
	for k := range dix.Colors {
		c.drawRow(x, y+k*st.rowH, k, l, st, bg)
	}
}

// drawRow draws the row of colour index k of l with its top-left corner at
// (x, y) over bg.
func (c *canvas) drawRow(x, y, k int, l *layout, st gridStyle, bg color.RGBA) {
	sz := st.sz
	col := dix.Colors[k]
	{
		ry := y + 2*st.stack // room for two stacked copies above
		for n := range 9 {
			cx := x + n*st.cellW
			cnt, w := l.count[k][n], l.wild[k][n]
			switch {
			case w.Kind != 0:
				if st.frameWild {
					c.Frame(image.Rect(cx-2, ry-2, cx+sz.w+2, ry+sz.h+2), 2, picture.Gold)
				}
				c.Blit(cardTile(w, col, uint8(n+1), sz, bg), cx, ry)
			case cnt > 0:
				card := dix.Card{Kind: dix.KindNumber, Color: col, Value: uint8(n + 1)}
				t := cardTile(card, dix.NoColor, 0, sz, bg)
				for i := cnt - 1; i >= 0; i-- {
					o := min(i, 2) * st.stack
					if i < cnt-1 {
						// A line of table between a copy and the one behind it.
						c.Fill(image.Rect(cx+o-1, ry-o-1, cx+o+sz.w+1, ry-o+sz.h+1), bg)
					}
					c.Blit(t, cx+o, ry-o)
				}
				if cnt > 1 {
					// The copies stack by a few pixels only: say how many,
					// centred a little inside the front copy's top-right
					// corner, clear of its symbol and its number.
					r := countRadius(sz)
					c.Blit(countTile(cnt, sz, bg), cx+sz.w-3-r-1, ry+3-r-1)
				}
				if l.cand[k][n] {
					c.Frame(image.Rect(cx-3, ry-3-min(cnt-1, 2)*st.stack, cx+sz.w+3+min(cnt-1, 2)*st.stack, ry+sz.h+3), 3, picture.White)
				}
			default:
				c.Blit(slotTile(uint8(n+1), sz, bg), cx, ry)
			}
		}
		cs := l.score.Colors[k]
		if st.runBar && cs.Score > 0 {
			bx := x + int(cs.Lo-1)*st.cellW
			ex := x + int(cs.Hi-1)*st.cellW + sz.w
			by := ry + sz.h + 2
			c.Fill(image.Rect(bx, by, ex, by+max(2, st.stack)), faceColor(col))
		}
		if st.scoreW > 0 {
			fg := picture.White
			if cs.Bonus > 0 {
				fg = picture.Gold
			}
			s := "–"
			if cs.Score > 0 {
				s = strconv.Itoa(cs.Score)
			}
			t := picture.Text(s, st.scoreFont, fg, bg)
			c.Blit(t, x+9*st.cellW+st.scoreW-t.W-2, ry+(sz.h-t.H)/2)
		}
	}
}

// parseCards reads cards in SPEC §7 notation. Returns ErrBadInput.
func parseCards(s []string) ([]dix.Card, error) {
	out := make([]dix.Card, 0, len(s))
	for _, x := range s {
		c, err := dix.ParseCard(x)
		if err != nil {
			return nil, errBad(err)
		}
		out = append(out, c)
	}
	return out, nil
}
