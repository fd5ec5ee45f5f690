package dix

import (
	"fmt"
	"image"
	"strconv"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/picture"
)

// Labels are the few words a picture shows, in the language of whoever
// reads it; the caller passes them localised. An empty label is left out.
type Labels struct {
	Market  string // "Market"
	Deck    string // "Deck", before the number of cards left
	Tableau string // "Tableau"
	Total   string // "total", before the tableau's running total
	Money   string // "money", before the tableau's money
	Auction string // "Auction"
	HighBid string // "high bid", before the amount and the bidder
	Score   string // "score", before a total score
	Paid    string // "you pay", before the cards a purchase would cost
}

// Board is the input of the board picture: the engine's view of a game (the
// deck's order, which View also holds, is never drawn: only its size), the
// players' display names and marks by seat, and the seat who must act now.
type Board struct {
	View   dix.View
	Names  []string       // by seat; a missing name is drawn as the seat number
	Marks  []picture.Mark // by seat; missing: picture.MarkNone
	Acting int            // the seat who must decide now; -1: nobody
	Labels Labels
}

// Picture geometry, in pixels. The width fits Discord's embed images (about
// 550 px shown) with little scaling.
const (
	pageW   = 600
	margin  = 8
	colGap  = 8
	blockW  = (pageW - 2*margin - colGap) / 2 // a player's area: 288
	labelH  = 22
	headerH = 30
)

// RenderBoard draws the public board: the market and the deck count, the
// tableau with its running total and money, the auction's wild and high bid
// when an auction is on, then every player's collection as runs per colour
// with the wilds where the scorer places them, score per colour and in all,
// money and consolation tokens, and a gold frame and arrow on the player who
// must act (a star marks the player whose turn it is), a robot before the
// name of a seat the computer plays and a moon before an absent player's
// (Marks). Runes the embedded fonts cannot draw are left out of the names
// (see Drawable). It returns PNG bytes,
// or ErrBadInput for a view whose cards cannot be read. Safe for concurrent
// use.
//
// The board is drawn by parts (picture.EncodeBands): the top (market,
// deck, tableau, auction), then each row of two players. A part drawn for
// an earlier board with the same input is not drawn again.
func RenderBoard(b Board) ([]byte, error) {
	p, err := boardBands(&b)
	if err != nil {
		return nil, err
	}
	return picture.EncodeBands(p)
}

type seatData struct {
	seat   int
	name   string
	coll   []dix.Card
	lay    *layout // of coll, worked out when drawn
	money  int
	cons   int
	acting bool
	active bool
	mark   picture.Mark
	rank   int // scoreboard only
}

// layout is p's collection laid out as the scorer places it.
func (p *seatData) layout() *layout {
	if p.lay == nil {
		p.lay = layoutOf(p.coll, nil)
	}
	return p.lay
}

func seats(v *dix.View, names []string, marks []picture.Mark, acting int) ([]seatData, error) {
	out := make([]seatData, len(v.Seats))
	for i, s := range v.Seats {
		coll, err := parseCards(s.Collection)
		if err != nil {
			return nil, err
		}
		name := strconv.Itoa(i + 1)
		if i < len(names) {
			if n := picture.Drawable(names[i]); n != "" {
				name = n
			}
		}
		out[i] = seatData{seat: i, name: name, coll: coll, money: s.Money, cons: s.Consolation,
			acting: i == acting, active: i == v.Active && v.Phase != dix.PhaseOver.String()}
		if i < len(marks) {
			out[i].mark = marks[i]
		}
	}
	return out, nil
}

// drawBoard draws the board on one canvas, every part of it.
func drawBoard(b *Board) (*image.Paletted, error) {
	p, err := boardBands(b)
	if err != nil {
		return nil, err
	}
	return drawBands(p)
}

// drawBands draws every band of p on one canvas.
func drawBands(p picture.Bands) (*image.Paletted, error) {
	h := 0
	for _, band := range p.List {
		h += band.H
	}
	c := newCanvas(p.W, h, picture.Table)
	for _, band := range p.List {
		if err := band.Draw(c.Canvas); err != nil {
			return nil, err
		}
	}
	return c.Img, nil
}

// topPart is what the board's top shows: the input of its key.
type topPart struct {
	Kind            string
	H               int
	Market, Tableau []string
	Deck            int
	Total, Money    int
	Auction         bool
	Wild            string
	HighBid         int
	Bidder          string // the high bidder's name as drawn; "": no bid shown
	Labels          Labels
}

// seatHead is what the head of one player's area shows: a row's heads
// are the input of its key.
type seatHead struct {
	Name           string
	Money, Cons    int
	Acting, Active bool
	Mark           picture.Mark
	Rank           int
}

func headOf(p *seatData) seatHead {
	return seatHead{Name: p.name, Money: p.money, Cons: p.cons, Acting: p.acting, Active: p.active, Mark: p.mark, Rank: p.rank}
}

// boardBands are the parts of the board b: its top, then its rows of two
// players.
func boardBands(b *Board) (picture.Bands, error) {
	v := &b.View
	if b.Acting >= len(v.Seats) {
		return picture.Bands{}, fmt.Errorf("%w: acting seat %d of %d", ErrBadInput, b.Acting, len(v.Seats))
	}
	ps, err := seats(v, b.Names, b.Marks, b.Acting)
	if err != nil {
		return picture.Bands{}, err
	}
	market, err := parseCards(v.Market)
	if err != nil {
		return picture.Bands{}, err
	}
	tableau, err := parseCards(v.Tableau)
	if err != nil {
		return picture.Bands{}, err
	}
	var wild dix.Card
	if v.Auction != nil {
		if wild, err = dix.ParseCard(v.Auction.Wild); err != nil {
			return picture.Bands{}, errBad(err)
		}
	}

	// Heights first.
	mcount := countNumbers(market)
	var mrows []int // the colours present in the market
	for k := range 4 {
		for n := range 9 {
			if mcount[k][n] > 0 {
				mrows = append(mrows, k)
				break
			}
		}
	}
	marketH := labelH + max(1, len(mrows))*gridSmall.rowH
	tabRows := max(1, (len(tableau)+7)/8)
	rightH := labelH + tabRows*(medium.h+4)
	if v.Auction != nil {
		rightH += 8 + labelH + medium.h + 4
	}
	topH := max(marketH, rightH)

	top := topPart{Kind: "dix board top", H: topH, Market: v.Market, Tableau: v.Tableau, Deck: v.DeckCount,
		Total: v.TableauTotal, Money: v.TableauMoney, Labels: b.Labels}
	if a := v.Auction; a != nil {
		top.Auction, top.Wild, top.HighBid = true, a.Wild, a.HighBid
		if a.HighBid > 0 && a.HighBidder >= 0 && a.HighBidder < len(ps) {
			top.Bidder = ps[a.HighBidder].name
		}
	}
	topKey, err := picture.KeyOf(top)
	if err != nil {
		return picture.Bands{}, err
	}
	drawIt := func(pc *picture.Canvas) error {
		drawTop(&canvas{pc}, b, &top, market, tableau, tabRows, mcount, mrows, wild)
		return nil
	}
	// The top in two parts: the rows of the labels, the tableau and the
	// auction, which most moves change; below them, the market's rows
	// alone, which a card drawn leaves as they were.
	upper := margin + rightH
	bands := []picture.Band{{H: upper, Key: topKey, Draw: drawIt}}
	lowerKey, err := picture.KeyOf(struct {
		Kind      string
		Market    []string
		From, Top int
	}{"dix board market below the tableau", v.Market, upper, topH})
	if err != nil {
		return picture.Bands{}, err
	}
	bands = append(bands, picture.Band{H: margin + topH + colGap - upper, Key: lowerKey, Draw: drawIt})

	// The players, two by two, each row in two bands: the heads, which
	// show who acts and change with every turn, and the collections,
	// which change with a purchase.
	rows := (len(ps) + 1) / 2
	bh := blockHeight()
	y := margin + topH + colGap
	for r := range rows {
		row := ps[2*r : min(2*r+2, len(ps))]
		heads := struct {
			Kind  string
			Seats []seatHead
		}{Kind: "dix board seat heads"}
		bodies := struct {
			Kind        string
			Collections [][]string
			H           int
		}{Kind: "dix board seat collections"}
		h := bh + colGap
		if r == rows-1 {
			h = bh + margin
		}
		for i := range row {
			heads.Seats = append(heads.Seats, headOf(&row[i]))
			bodies.Collections = append(bodies.Collections, v.Seats[row[i].seat].Collection)
		}
		bodies.H = h
		hk, err := picture.KeyOf(heads)
		if err != nil {
			return picture.Bands{}, err
		}
		ck, err := picture.KeyOf(bodies)
		if err != nil {
			return picture.Bands{}, err
		}
		by := y
		bands = append(bands, picture.Band{H: headH, Key: hk, Draw: func(pc *picture.Canvas) error {
			c := &canvas{pc}
			for i := range row {
				c.drawHead(margin+i*(blockW+colGap), by, &row[i])
			}
			return nil
		}}, picture.Band{H: h - headH, Key: ck, Draw: func(pc *picture.Canvas) error {
			c := &canvas{pc}
			for i := range row {
				c.drawBody(margin+i*(blockW+colGap), by, bh, &row[i])
			}
			return nil
		}})
		y += h
	}
	return picture.Bands{W: pageW, Palette: picture.Palette, BG: picture.IndexOf(picture.Table), List: bands, Codes: codes}, nil
}

// drawTop draws the board's top: the market by colour and number like a
// collection with the deck's count, the tableau with its sums, and the
// auction.
func drawTop(c *canvas, b *Board, top *topPart, market, tableau []dix.Card, tabRows int, mcount [4][9]int, mrows []int, wild dix.Card) {
	x, y := margin, margin
	if b.Labels.Market != "" {
		c.Row(x, y, labelH, 0, picture.Text(b.Labels.Market, fLabel, picture.Muted, picture.Table))
	}
	deck := picture.Text(strconv.Itoa(top.Deck), fLabel, picture.White, picture.Table)
	dx := x + gridSmall.width() - deck.W - 2
	c.Blit(deck, dx, y+(labelH-deck.H)/2)
	if b.Labels.Deck != "" {
		t := picture.Text(b.Labels.Deck, fLabel, picture.Muted, picture.Table)
		c.Blit(t, dx-5-t.W, y+(labelH-t.H)/2)
	}
	if len(mrows) == 0 {
		c.Blit(slotTile(0, small, picture.Table), x, y+labelH+2*gridSmall.stack)
	}
	for i, k := range mrows {
		c.drawRow(x, y+labelH+i*gridSmall.rowH, k, &layout{count: mcount}, gridStyle{sz: small, cellW: gridSmall.cellW, rowH: gridSmall.rowH, stack: 2}, picture.Table)
	}

	// The tableau and its sums.
	x = margin + blockW + colGap
	var parts []*picture.Tile
	if b.Labels.Tableau != "" {
		parts = append(parts, picture.Text(b.Labels.Tableau, fLabel, picture.Muted, picture.Table))
	}
	if b.Labels.Total != "" {
		parts = append(parts, picture.Text(b.Labels.Total, fLabel, picture.Muted, picture.Table))
	}
	parts = append(parts, picture.Text(strconv.Itoa(top.Total), fName, picture.White, picture.Table))
	if b.Labels.Money != "" {
		parts = append(parts, picture.Text(b.Labels.Money, fLabel, picture.Muted, picture.Table))
	}
	parts = append(parts, picture.Text(strconv.Itoa(top.Money), fName, picture.Gold, picture.Table))
	c.Row(x, y, labelH, 6, parts...)
	ty := y + labelH + 2
	for i, card := range tableau {
		c.Blit(cardTile(card, dix.NoColor, 0, medium, picture.Table), x+(i%8)*(medium.w+4), ty+(i/8)*(medium.h+4))
	}
	if len(tableau) == 0 {
		c.Blit(slotTile(0, medium, picture.Table), x, ty)
	}
	// The auction.
	if top.Auction {
		ay := ty + tabRows*(medium.h+4) + 8
		if b.Labels.Auction != "" {
			c.Row(x, ay, labelH, 0, picture.Text(b.Labels.Auction, fLabel, picture.Gold, picture.Table))
		}
		ay += labelH
		c.Blit(cardTile(wild, dix.NoColor, 0, medium, picture.Table), x, ay)
		var bid []*picture.Tile
		if b.Labels.HighBid != "" {
			bid = append(bid, picture.Text(b.Labels.HighBid, fLabel, picture.Muted, picture.Table))
		}
		if top.Bidder != "" {
			bid = append(bid, picture.Text(strconv.Itoa(top.HighBid), fName, picture.Gold, picture.Table))
			c.Row(x+medium.w+10, ay, medium.h/2, 6, bid...)
			name := picture.Fit(top.Bidder, fName, blockW-medium.w-14)
			c.Row(x+medium.w+10, ay+medium.h/2, medium.h/2, 0, picture.Text(name, fName, picture.White, picture.Table))
		} else {
			bid = append(bid, picture.Text("–", fName, picture.White, picture.Table))
			c.Row(x+medium.w+10, ay, medium.h, 6, bid...)
		}
	}
}

func countNumbers(cards []dix.Card) (n [4][9]int) {
	for _, c := range cards {
		if c.Kind == dix.KindNumber && c.Valid() {
			n[c.Color-dix.Blue][c.Value-1]++
		}
	}
	return n
}

// blockHeight is the height of a player's area.
func blockHeight() int {
	return bodyY + gridSmall.height() + footerH + 4
}

var footerH = small.h + 6

// A player's area: its head (headH rows, framed in gold and tinted while
// the player acts), then its collection from bodyY.
const (
	headH  = headerH + 4
	bodyY  = headH + 3
	frameW = 3
)

// drawBlock draws one player's area.
func (c *canvas) drawBlock(x, y, h int, p *seatData) {
	c.drawHead(x, y, p)
	c.drawBody(x, y, h, p)
}

// drawHead draws the head of a player's area at (x, y): its rank and
// markers, its name, its tokens.
func (c *canvas) drawHead(x, y int, p *seatData) {
	bg := picture.Panel
	if p.acting {
		bg = picture.PanelAct
	}
	r := image.Rect(x, y, x+blockW, y+headH)
	c.Fill(r, bg)
	if p.acting {
		c.Frame(r, frameW, picture.Gold)
	}
	hx, hy := x+8, y+4
	var right []*picture.Tile
	right = append(right, tokenTile(tokMoney, p.money, 26, bg))
	if p.cons > 0 {
		right = append(right, tokenTile(tokConsolation, p.cons, 26, bg))
	}
	rw := 0
	for _, t := range right {
		rw += t.W + 4
	}
	c.Row(x+blockW-8-rw+4, hy, headerH-4, 4, right...)
	if p.rank > 0 {
		hx = c.Row(hx, hy, headerH-4, 0, picture.RankTile(p.rank, bg, false)) + 6
	}
	if p.acting {
		hx = c.Row(hx, hy, headerH-4, 0, markTile(true, bg)) + 5
	}
	if p.active {
		hx = c.Row(hx, hy, headerH-4, 0, markTile(false, bg)) + 5
	}
	if p.mark != picture.MarkNone {
		hx = c.Row(hx, hy, headerH-4, 0, picture.SeatMarkTile(p.mark, bg, false)) + 5
	}
	name := picture.Fit(p.name, fName, x+blockW-8-rw-hx-4)
	c.Row(hx, hy, headerH-4, 0, picture.Text(name, fName, picture.White, bg))
}

// drawBody draws the rest of a player's area of height h at (x, y): the
// collection's grid, its unused wilds and its total.
func (c *canvas) drawBody(x, y, h int, p *seatData) {
	bg := picture.Panel
	c.Fill(image.Rect(x, y+headH, x+blockW, y+h), bg)
	gx, gy := x+5, y+bodyY
	lay := p.layout()
	c.drawGrid(gx, gy, lay, gridSmall, bg)
	// Footer: unused wilds, then the total under the score column.
	fy := gy + gridSmall.height() + 2
	for i, w := range lay.unused {
		c.Blit(cardTile(w, dix.NoColor, 0, small, bg), gx+i*(small.w+4), fy)
	}
	sx := gx + 9*gridSmall.cellW
	c.Fill(image.Rect(sx+4, fy, sx+gridSmall.scoreW, fy+2), picture.Muted)
	t := picture.Text(strconv.Itoa(lay.score.Total), picture.FontKey{Bold: true, Size: 21}, picture.White, bg)
	c.Blit(t, sx+gridSmall.scoreW-t.W-2, fy+4+(small.h-4-t.H)/2)
}

// Key names the board picture b draws: boards with the same key are drawn
// alike. The view's sequence number, which every action moves on, is not
// drawn and is left out, so a change the picture does not show (a pass
// that moves only the text's clock, say) keeps the key.
func (b Board) Key() (picture.Key, error) {
	b.View.Seq = 0
	return picture.KeyOf(struct {
		Kind  string
		Board Board
	}{"dix board", b})
}

// Key names the hand picture h draws.
func (h Hand) Key() (picture.Key, error) {
	return picture.KeyOf(struct {
		Kind string
		Hand Hand
	}{"dix hand", h})
}

// Key names the scoreboard picture s draws.
func (s Scoreboard) Key() (picture.Key, error) {
	s.View.Seq = 0
	return picture.KeyOf(struct {
		Kind       string
		Scoreboard Scoreboard
	}{"dix scoreboard", s})
}
