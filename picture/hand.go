package picture

import (
	"fmt"
	"image"
	"strconv"

	"github.com/dixgame/dixbot/engine"
)

// Hand is the input of the hand picture: one player's collection and
// tokens. Candidate, when set, is a number card the player could buy: it is
// drawn where it would go, framed in white, and the scores count it.
type Hand struct {
	Name        string
	Collection  []engine.Card
	Money       int
	Consolation int
	Candidate   *engine.Card
	Labels      Labels // uses Score
}

const handW = 2*10 + 9*52 + 52 // 540

// RenderHand draws one player's collection as runs per colour with large
// cards: every wild in the place the scorer gives it, framed in gold, the
// unused wilds apart, the score of each colour (gold for a full run) and the
// total, and the player's tokens. With a Candidate the total is followed by
// what the card adds. It returns PNG bytes, or ErrBadInput for an invalid
// card or a candidate that is not a number card. Safe for concurrent use.
func RenderHand(h Hand) ([]byte, error) {
	img, err := drawHand(&h)
	if err != nil {
		return nil, err
	}
	return encode(img)
}

func drawHand(h *Hand) (*image.Paletted, error) {
	for _, c := range h.Collection {
		if !c.Valid() || c.Kind == engine.KindCurrency {
			return nil, fmt.Errorf("%w: card %s in a collection", ErrBadInput, c)
		}
	}
	if h.Candidate != nil && (!h.Candidate.Valid() || h.Candidate.Kind != engine.KindNumber) {
		return nil, fmt.Errorf("%w: candidate %s", ErrBadInput, *h.Candidate)
	}
	l := layoutOf(h.Collection, h.Candidate)
	const hdr = 40
	st := gridLarge
	footer := large.h + 12
	H := 10 + hdr + st.height() + footer + 6
	c := newCanvas(handW, H, cPanel)
	x, y := 10, 8

	// Header: name, tokens.
	var right []*tile
	right = append(right, tokenTile(tokMoney, h.Money, 32, cPanel))
	if h.Consolation > 0 {
		right = append(right, tokenTile(tokConsolation, h.Consolation, 32, cPanel))
	}
	rw := -6
	for _, t := range right {
		rw += t.w + 6
	}
	c.row(handW-10-rw, y, hdr-8, 6, right...)
	nf := fontKey{true, 22}
	c.row(x, y, hdr-8, 0, text(fit(h.Name, nf, handW-30-rw), nf, cWhite, cPanel))

	gy := y + hdr
	c.drawGrid(x, gy, l, st, cPanel)

	// Footer: unused wilds, the total (and what the candidate adds).
	fy := gy + st.height() + 4
	for i, w := range l.unused {
		c.blit(cardTile(w, engine.NoColor, 0, large, cPanel), x+i*(large.w+8), fy)
	}
	sx := x + 9*st.cellW
	c.fill(image.Rect(sx+6, fy, sx+st.scoreW, fy+2), cMuted)
	tot := text(strconv.Itoa(l.score.Total), fontKey{true, 30}, cWhite, cPanel)
	tx := sx + st.scoreW - tot.w - 2
	ty := fy + 4 + (large.h-4-tot.h)/2
	c.blit(tot, tx, ty)
	left := tx - 8
	if h.Candidate != nil {
		before := engine.BestScore(h.Collection).Total
		d := l.score.Total - before
		t := text(fmt.Sprintf("%+d", d), fontKey{true, 24}, cGold, cPanel)
		left -= t.w
		c.blit(t, left, ty+(tot.h-t.h)/2)
		left -= 10
	}
	if h.Labels.Score != "" {
		t := text(h.Labels.Score, fLabel, cMuted, cPanel)
		c.blit(t, left-t.w, ty+(tot.h-t.h)/2)
	}
	return c.img, nil
}
