package dix

import (
	"fmt"
	"image"
	"slices"
	"strconv"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/picture"
)

// Hand is the input of the hand picture: one player's collection and
// tokens. Candidate, when set, is a number card the player could buy: it is
// drawn where it would go, framed in white, and the scores count it. Pay
// are the number cards of the collection that would pay for it: the grid
// shows the collection after paying (without them), they are drawn apart
// under the Paid label, and the score change counts them.
type Hand struct {
	Name        string
	Collection  []dix.Card
	Money       int
	Consolation int
	Candidate   *dix.Card
	Pay         []dix.Card
	Labels      Labels // uses Score and Paid
}

// Scores are the totals the picture of h shows: the collection's score as
// it is (before) and as drawn, after the purchase and its payment (after;
// equal to before without a Candidate). It returns ErrBadInput when a
// card of Pay is not a number card of the collection.
func (h Hand) Scores() (before, after int, err error) {
	drawn, err := h.drawn()
	if err != nil {
		return 0, 0, err
	}
	return dix.BestScore(h.Collection).Total, layoutOf(drawn, h.Candidate).score.Total, nil
}

// drawn is the collection as the grid shows it: without the cards of Pay.
func (h *Hand) drawn() ([]dix.Card, error) {
	if len(h.Pay) == 0 {
		return h.Collection, nil
	}
	out := slices.Clone(h.Collection)
	for _, c := range h.Pay {
		i := slices.Index(out, c)
		if i < 0 || c.Kind != dix.KindNumber {
			return nil, fmt.Errorf("%w: paying with %s, not a number card of the collection", ErrBadInput, c)
		}
		out = slices.Delete(out, i, i+1)
	}
	return out, nil
}

const handW = 2*10 + 9*52 + 52 // 540

// RenderHand draws one player's collection as runs per colour with large
// cards: every wild in the place the scorer gives it, framed in gold, the
// unused wilds apart, the score of each colour (gold for a full run) and the
// total, and the player's tokens. With a Candidate the grid and the total
// are those after the purchase (the cards of Pay gone, drawn apart), and
// the total is preceded by the change. It returns PNG bytes, or
// ErrBadInput for an invalid card, a candidate that is not a number card
// or a payment card the collection lacks. Safe for concurrent use.
func RenderHand(h Hand) ([]byte, error) {
	img, err := drawHand(&h)
	if err != nil {
		return nil, err
	}
	return picture.Encode(img)
}

func drawHand(h *Hand) (*image.Paletted, error) {
	for _, c := range h.Collection {
		if !c.Valid() || c.Kind == dix.KindCurrency {
			return nil, fmt.Errorf("%w: card %s in a collection", ErrBadInput, c)
		}
	}
	if h.Candidate != nil && (!h.Candidate.Valid() || h.Candidate.Kind != dix.KindNumber) {
		return nil, fmt.Errorf("%w: candidate %s", ErrBadInput, *h.Candidate)
	}
	coll, err := h.drawn()
	if err != nil {
		return nil, err
	}
	l := layoutOf(coll, h.Candidate)
	const hdr = 40
	st := gridLarge
	footer := large.h + 12
	H := 10 + hdr + st.height() + footer + 6
	c := newCanvas(handW, H, picture.Panel)
	x, y := 10, 8

	// Header: name, tokens.
	var right []*picture.Tile
	right = append(right, tokenTile(tokMoney, h.Money, 32, picture.Panel))
	if h.Consolation > 0 {
		right = append(right, tokenTile(tokConsolation, h.Consolation, 32, picture.Panel))
	}
	rw := -6
	for _, t := range right {
		rw += t.W + 6
	}
	c.Row(handW-10-rw, y, hdr-8, 6, right...)
	nf := picture.FontKey{Bold: true, Size: 22}
	c.Row(x, y, hdr-8, 0, picture.Text(picture.Fit(picture.Drawable(h.Name), nf, handW-30-rw), nf, picture.White, picture.Panel))

	gy := y + hdr
	c.drawGrid(x, gy, l, st, picture.Panel)

	// Footer: unused wilds, the total (and what the candidate adds).
	fy := gy + st.height() + 4
	fx := x
	for _, w := range l.unused {
		c.Blit(cardTile(w, dix.NoColor, 0, large, picture.Panel), fx, fy)
		fx += large.w + 8
	}
	sx := x + 9*st.cellW
	c.Fill(image.Rect(sx+6, fy, sx+st.scoreW, fy+2), picture.Muted)
	tot := picture.Text(strconv.Itoa(l.score.Total), picture.FontKey{Bold: true, Size: 30}, picture.White, picture.Panel)
	tx := sx + st.scoreW - tot.W - 2
	ty := fy + 4 + (large.h-4-tot.H)/2
	c.Blit(tot, tx, ty)
	left := tx - 8
	if h.Candidate != nil {
		before := dix.BestScore(h.Collection).Total
		d := l.score.Total - before
		t := picture.Text(signed(d), picture.FontKey{Bold: true, Size: 24}, picture.Gold, picture.Panel)
		left -= t.W
		c.Blit(t, left, ty+(tot.H-t.H)/2)
		left -= 10
	}
	if h.Labels.Score != "" {
		t := picture.Text(h.Labels.Score, fLabel, picture.Muted, picture.Panel)
		left -= t.W
		c.Blit(t, left, ty+(tot.H-t.H)/2)
	}
	if len(h.Pay) > 0 {
		c.drawPaid(fx, fy, left-12, h.Pay, h.Labels.Paid)
	}
	return c.Img, nil
}

// drawPaid draws the cards paid after the label, from x to at most right
// (the cards overlap when they do not fit side by side).
func (c *canvas) drawPaid(x, y, right int, pay []dix.Card, label string) {
	cy := y + (large.h-medium.h)/2
	if label != "" {
		t := picture.Text(label, fLabel, picture.Muted, picture.Panel)
		c.Blit(t, x, cy+(medium.h-t.H)/2)
		x += t.W + 8
	}
	step := medium.w + 4
	if n := len(pay); n > 1 && x+n*step-4 > right {
		step = max(8, (right-x-medium.w)/(n-1))
	}
	for i, cd := range pay {
		c.Blit(cardTile(cd, dix.NoColor, 0, medium, picture.Panel), x+i*step, cy)
	}
}

// signed writes a score change with its sign: +2, +0, −1.
func signed(n int) string {
	if n < 0 {
		return "−" + strconv.Itoa(-n)
	}
	return "+" + strconv.Itoa(n)
}
