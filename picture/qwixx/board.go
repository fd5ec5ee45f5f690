package qwixx

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"strconv"

	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/picture"
)

// ErrBadInput is returned for a view that cannot be drawn: no sheets or
// more than five, a row, die or penalty count out of range.
var ErrBadInput = errors.New("picture: bad input")

// Labels are the few words a picture may show, in the language of whoever
// reads it; the caller passes them localised. An empty label is left out.
type Labels struct {
	Score string // before a sheet's total ("score")
}

// Board is the input of the board picture: the engine's view of a game,
// the players' display names and marks by seat.
type Board struct {
	View   rules.View
	Names  []string       // by seat; a missing name is drawn as the seat number
	Marks  []picture.Mark // by seat; missing: picture.MarkNone
	Labels Labels
}

// Geometry, in pixels. The width fits Discord's embed images (about 550 px
// shown) with little scaling.
const (
	pageW   = 600
	margin  = 8
	gap     = 6
	topH    = 52
	dieSize = 40
	headH   = 28
	rowsX   = 8 // the rows' left edge inside a block
	blockH  = headBandH + 3 + 4*(cellH+gapY) + 4
)

// RenderBoard draws the board: the roll on top (the white dice, their sum,
// the coloured dice, a die out of play greyed and crossed), then one block
// per seat: a gold arrow and frame on the seats that must decide, a small
// die before the name of the seat that rolled, a robot or a moon before a
// seat the computer plays or an absent player's, the final rank once the
// game is over, the penalty boxes and the score; then the four rows with
// their marks, the numbers passed over dimmed, each row's lock and points.
// Runes the embedded fonts cannot draw are left out of the names. It
// returns PNG bytes, or an error wrapping ErrBadInput. Safe for concurrent
// use.
//
// The board is drawn by parts (picture.EncodeBands): the roll, then each
// sheet. A part drawn for an earlier board with the same input is not
// drawn again: a mark redraws its own sheet alone.
func RenderBoard(b Board) ([]byte, error) {
	p, err := boardBands(&b)
	if err != nil {
		return nil, err
	}
	return picture.EncodeBands(p)
}

func checkView(v *rules.View) error {
	if len(v.Sheets) < 1 || len(v.Sheets) > rules.MaxPlayers {
		return fmt.Errorf("%w: %d sheets", ErrBadInput, len(v.Sheets))
	}
	for _, d := range v.Dice {
		if d > 6 {
			return fmt.Errorf("%w: a die shows %d", ErrBadInput, d)
		}
	}
	for _, s := range v.Sheets {
		if s.Penalties < 0 || s.Penalties > rules.MaxPenalties {
			return fmt.Errorf("%w: %d penalties", ErrBadInput, s.Penalties)
		}
		for c, r := range s.Rows {
			for _, n := range r.Marks {
				if rules.Pos(rules.Color(c), n) < 0 {
					return fmt.Errorf("%w: mark %d in row %s", ErrBadInput, n, rules.Color(c))
				}
			}
		}
	}
	return nil
}

// drawBoard draws the board on one canvas, every part of it.
func drawBoard(b *Board) (*image.Paletted, error) {
	p, err := boardBands(b)
	if err != nil {
		return nil, err
	}
	h := 0
	for _, band := range p.List {
		h += band.H
	}
	c := picture.NewWideCanvas(pageW, h, picture.Table)
	for _, band := range p.List {
		if err := band.Draw(c); err != nil {
			return nil, err
		}
	}
	return c.Img, nil
}

// rollPart is what the board's roll shows: the input of its key.
type rollPart struct {
	Kind     string
	Dice     rules.Roll
	Removed  [4]bool
	WhiteSum int
}

// sheetHead is what the head of one sheet shows (its name, markers,
// penalties and score, framed and tinted while the seat decides): the
// input of its key (headKey). It leaves out what a sheet does not draw
// (the seat's first decision of the roll, and the plan, which only the
// seat's own view holds).
type sheetHead struct {
	Penalties int
	Score     int
	Deciding  bool
	Rolled    bool // the seat rolled, in a game not over
	Name      string
	Mark      picture.Mark
	Rank      int
	Label     string
}

// The keys of a sheet's parts are written in binary rather than by
// picture.KeyOf's JSON: a board has up to 25 of them and every board
// works them all out. Each starts with two letters of its own, which no
// JSON text starts with, and says everything its part draws.

// headKey is the key of a sheet's head.
func headKey(h sheetHead) picture.Key {
	b := make([]byte, 0, 16+len(h.Name)+len(h.Label))
	b = append(b, 'q', 'h', byte(h.Mark), boolByte(h.Deciding), boolByte(h.Rolled))
	b = binary.AppendVarint(b, int64(h.Penalties))
	b = binary.AppendVarint(b, int64(h.Score))
	b = binary.AppendVarint(b, int64(h.Rank))
	b = binary.AppendUvarint(b, uint64(len(h.Name)))
	b = append(b, h.Name...)
	b = append(b, h.Label...) // last: its length is the rest's
	return sha256.Sum256(b)
}

// rowKey is the key of row col of a sheet, r, whose colour is out of play
// when locked.
func rowKey(col rules.Color, r rules.RowView, locked bool) picture.Key {
	var buf [48]byte
	b := append(buf[:0], 'q', 'r', byte(col), byte(r.Color), boolByte(locked), boolByte(r.Lock))
	b = binary.AppendVarint(b, int64(r.Count))
	b = binary.AppendVarint(b, int64(r.Points))
	b = binary.AppendUvarint(b, uint64(len(r.Marks)))
	for _, m := range r.Marks {
		b = binary.AppendVarint(b, int64(m))
	}
	return sha256.Sum256(b)
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// headBandH is the height of a sheet's head, framed while the seat
// decides; its rows start 3 pixels below it (rowsY).
const (
	headBandH = headH + 2
	rowsY     = headBandH + 3
)

// boardBands are the parts of the board b: the roll, then every sheet in
// five bands, its head and its four rows. A seat that is asked to decide,
// or decides and marks nothing, changes its sheet's head alone (framed
// and tinted while it decides); a mark changes the head (the score) and
// the row it is in.
func boardBands(b *Board) (picture.Bands, error) {
	v := &b.View
	if err := checkView(v); err != nil {
		return picture.Bands{}, err
	}
	rk, err := picture.KeyOf(rollPart{Kind: "qwixx roll", Dice: v.Dice, Removed: v.Removed, WhiteSum: v.WhiteSum})
	if err != nil {
		return picture.Bands{}, err
	}
	bands := []picture.Band{{H: margin + topH + gap, Key: rk, Draw: func(c *picture.Canvas) error {
		drawRoll(c, v)
		return nil
	}}}
	ranks := map[int]int{}
	for _, r := range v.Results {
		ranks[r.Seat] = r.Rank
	}
	y := margin + topH + gap
	for s := range v.Sheets {
		name := strconv.Itoa(s + 1)
		if s < len(b.Names) {
			if n := picture.Drawable(b.Names[s]); n != "" {
				name = n
			}
		}
		var mark picture.Mark
		if s < len(b.Marks) {
			mark = b.Marks[s]
		}
		after := gap
		if s == len(v.Sheets)-1 {
			after = margin
		}
		sb, err := sheetBands(v, s, y, after, sheetHead{Penalties: v.Sheets[s].Penalties,
			Score: v.Sheets[s].Score, Deciding: v.Sheets[s].Deciding, Rolled: s == v.Active && !v.Over,
			Name: name, Mark: mark, Rank: ranks[s], Label: b.Labels.Score})
		if err != nil {
			return picture.Bands{}, err
		}
		bands = append(bands, sb...)
		y += blockH + after
	}
	return picture.Bands{W: pageW, Palette: picture.WidePalette, BG: picture.IndexOf(picture.Table), List: bands, Codes: codes}, nil
}

// sheetBands are the bands of seat s's sheet, whose block starts at row y
// and is followed by after rows of the table: its head, then each row.
func sheetBands(v *rules.View, s, y, after int, head sheetHead) ([]picture.Band, error) {
	hk := headKey(head)
	block := image.Rect(margin, y, pageW-margin, y+blockH)
	bands := []picture.Band{{H: headBandH, Key: hk, Draw: func(c *picture.Canvas) error {
		drawSheetHead(c, block, head)
		return nil
	}}}
	top := y + headBandH // the first row's band holds the space above it
	for i, col := range rules.Colors {
		k := rowKey(col, v.Sheets[s].Rows[col], v.Locked[col])
		ry := y + rowsY + i*(cellH+gapY)
		end := ry + cellH + gapY
		if i == len(rules.Colors)-1 {
			end = block.Max.Y + after
		}
		band := image.Rect(block.Min.X, top, block.Max.X, min(end, block.Max.Y))
		bands = append(bands, picture.Band{H: end - top, Key: k, Draw: func(c *picture.Canvas) error {
			c.Fill(band, picture.Panel)
			drawSheetRow(c, block.Min.X, ry, v, s, col)
			return nil
		}})
		top = end
	}
	return bands, nil
}

// drawRoll draws the dice: W1, W2, the white sum, then red, yellow, green
// and blue (grey and crossed when out of play).
func drawRoll(c *picture.Canvas, v *rules.View) {
	y := margin + (topH-dieSize)/2
	x := margin
	for _, d := range []rules.Die{rules.W1, rules.W2} {
		c.Blit(dieTile(picture.White, picture.Ink, int(v.Dice[d]), dieSize, picture.Table), x, y)
		x += dieSize + gap
	}
	x = c.Row(x+4, margin, topH, 0, sumTile(v.WhiteSum, picture.Table)) + 24
	for _, col := range rules.Colors {
		val := int(v.Dice[rules.DieOf(col)])
		if v.Removed[col] {
			val = 0
		}
		c.Blit(dieTile(faceOf(col), inkOf(col), val, dieSize, picture.Table), x, y)
		x += dieSize + gap
	}
}

// drawSheet draws seat s's whole block at (x, y), as its bands do.
func drawSheet(c *picture.Canvas, x, y int, v *rules.View, s int, name string, mark picture.Mark, rank int, l Labels) {
	sh := &v.Sheets[s]
	block := image.Rect(x, y, pageW-x, y+blockH)
	drawSheetHead(c, block, sheetHead{Penalties: sh.Penalties, Score: sh.Score, Deciding: sh.Deciding,
		Rolled: s == v.Active && !v.Over, Name: name, Mark: mark, Rank: rank, Label: l.Score})
	c.Fill(image.Rect(block.Min.X, y+headBandH, block.Max.X, block.Max.Y), picture.Panel)
	for i, col := range rules.Colors {
		drawSheetRow(c, x, y+rowsY+i*(cellH+gapY), v, s, col)
	}
}

// drawSheetHead draws a sheet's head, the top of block:
// tinted and framed while the seat decides; the rank, the markers and the
// name; on the right the penalties and the score.
func drawSheetHead(c *picture.Canvas, block image.Rectangle, h sheetHead) {
	bg := picture.Panel
	if h.Deciding {
		bg = picture.PanelAct
	}
	x, y := block.Min.X, block.Min.Y
	part := image.Rect(block.Min.X, y, block.Max.X, y+headBandH)
	c.Fill(part, bg)
	if h.Deciding {
		c.Frame(part, 3, picture.Gold)
	}
	right := []*picture.Tile{}
	for i := range rules.MaxPenalties {
		right = append(right, penaltyTile(i < h.Penalties, bg))
	}
	score := []*picture.Tile{}
	if h.Label != "" {
		score = append(score, picture.Text(h.Label, fLabel, picture.Muted, bg))
	}
	score = append(score, picture.Text(strconv.Itoa(h.Score), fScore, picture.White, bg))
	sw := 0
	for i, t := range score {
		sw += t.W
		if i > 0 {
			sw += 5
		}
	}
	rx := block.Max.X - 10 - sw
	c.Row(rx, y+2, headH, 5, score...)
	pw := len(right)*18 + (len(right)-1)*3
	px := rx - 14 - pw
	c.Row(px, y+2, headH, 3, right...)

	hx := x + 8
	if h.Rank > 0 {
		hx = c.Row(hx, y+2, headH, 0, picture.RankTile(h.Rank, bg, true)) + 6
	}
	if h.Deciding {
		hx = c.Row(hx, y+2, headH, 0, markTile(0, bg)) + 5
	}
	if h.Rolled {
		hx = c.Row(hx, y+2, headH, 0, markTile(1, bg)) + 5
	}
	if h.Mark != picture.MarkNone {
		hx = c.Row(hx, y+2, headH, 0, picture.SeatMarkTile(h.Mark, bg, true)) + 5
	}
	name := picture.Fit(h.Name, fName, px-hx-10)
	c.Row(hx, y+2, headH, 0, picture.Text(name, fName, picture.White, bg))
}

// drawSheetRow draws the row of colour col of seat s's sheet from
// (x, y): its marks, the numbers passed over dimmed, its lock and points.
func drawSheetRow(c *picture.Canvas, x, y int, v *rules.View, s int, col rules.Color) {
	bg := picture.Panel
	rv := &v.Sheets[s].Rows[col]
	right := -1
	marked := [rules.RowCells]bool{}
	for _, n := range rv.Marks {
		p := rules.Pos(col, n)
		marked[p] = true
		right = max(right, p)
	}
	cx := x + rowsX
	for p := range rules.RowCells {
		st := cellOpen
		switch {
		case marked[p]:
			st = cellMarked
		case p < right || v.Locked[col]:
			st = cellSkipped
		}
		c.Blit(cellTile(col, p, st, bg), cx, y)
		cx += cellW + gapX
	}
	st := cellOpen
	switch {
	case rv.Lock:
		st = cellMarked
	case v.Locked[col]:
		st = cellSkipped
	}
	c.Blit(cellTile(col, rules.LockPos, st, bg), cx, y)
	pts := picture.Text(strconv.Itoa(rv.Points), fCell, pointsColor(rv.Points), bg)
	c.Blit(pts, x+pageW-2*margin-10-pts.W, y+(cellH-pts.H)/2)
}

// pointsColor is the colour of a row's points: muted while zero.
func pointsColor(n int) color.RGBA {
	if n == 0 {
		return picture.Muted
	}
	return picture.White
}
