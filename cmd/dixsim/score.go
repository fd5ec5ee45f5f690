package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/dixgame/dixbot/engine/dix"
)

// Errors of `dixsim score`, reported per line as {"line":n,"error":"…"}.
var (
	errCurrency    = errors.New("dixsim: a collection holds no currency cards")
	errTooMany     = errors.New("dixsim: more copies than the deck holds")
	errLineTooLong = errors.New("dixsim: line too long")
)

// maxScoreLine bounds one input line; a longer line is reported and skipped.
const maxScoreLine = 64 << 10

// scoreOut is one scored collection.
type scoreOut struct {
	Total  int        `json:"total"`
	Colors []runOut   `json:"colors"` // blue, green, orange, pink
	Wilds  []placeOut `json:"wilds"`  // in collection order
}

// runOut is the best run of one colour; lo and hi are 0 for an empty colour.
type runOut struct {
	Color  string `json:"color"`
	Lo     uint8  `json:"lo"`
	Hi     uint8  `json:"hi"`
	Length int    `json:"length"`
	Bonus  int    `json:"bonus"`
	Score  int    `json:"score"`
}

// placeOut is what one wild stands for; color and value are left out for a
// wild that adds nothing.
type placeOut struct {
	Card  string `json:"card"`
	Color string `json:"color,omitempty"`
	Value uint8  `json:"value,omitempty"`
	Used  bool   `json:"used"`
}

// errorOut is a line that could not be scored.
type errorOut struct {
	Line  int    `json:"line"`
	Error string `json:"error"`
}

// deckCopies is how many copies of each card the largest deck (4–5 players)
// holds: a collection can never hold more.
var deckCopies = func() map[dix.Card]int {
	deck, err := dix.BuildDeck(5)
	if err != nil {
		panic(err) // the deck table is a constant of the engine
	}
	m := make(map[dix.Card]int)
	for _, c := range deck {
		m[c]++
	}
	return m
}()

// runScore implements `dixsim score`: it reads collections from in, one per
// line in SPEC §7 notation ("b3 g# *7 **"), and writes one JSON object per
// line to out with the optimal total, each colour's best run and the
// placement of every wild (dix.BestScore). An empty line is an empty
// collection. A line that is not a collection — bad notation, a currency
// card, more copies of a card than the deck holds, longer than 64 KiB — gets
// {"line":n,"error":"…"} and the next line is read. runScore returns only
// read and write errors.
func runScore(in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, maxScoreLine)
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for n := 1; ; n++ {
		line, err := r.ReadSlice('\n')
		tooLong := errors.Is(err, bufio.ErrBufferFull)
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = r.ReadSlice('\n') // skip the rest of the line
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("dixsim: reading line %d: %w", n, err)
		}
		if len(line) == 0 && errors.Is(err, io.EOF) {
			break
		}
		var v any
		if tooLong {
			v = errorOut{Line: n, Error: errLineTooLong.Error()}
		} else if sc, perr := scoreLine(string(line)); perr != nil {
			v = errorOut{Line: n, Error: perr.Error()}
		} else {
			v = sc
		}
		if werr := enc.Encode(v); werr != nil {
			return fmt.Errorf("dixsim: writing line %d: %w", n, werr)
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("dixsim: writing: %w", err)
	}
	return nil
}

// scoreLine parses and scores one collection. Returns dix.ErrBadCard,
// errCurrency or errTooMany.
func scoreLine(line string) (scoreOut, error) {
	cards, err := dix.ParseCards(line) // Fields drops "\r\n" and blanks
	if err != nil {
		return scoreOut{}, err
	}
	count := make(map[dix.Card]int)
	for _, c := range cards {
		if c.Kind == dix.KindCurrency {
			return scoreOut{}, fmt.Errorf("%w: %v", errCurrency, c)
		}
		count[c]++
		if count[c] > deckCopies[c] {
			return scoreOut{}, fmt.Errorf("%w: %d × %v (at most %d)", errTooMany, count[c], c, deckCopies[c])
		}
	}
	sc := dix.BestScore(cards)
	o := scoreOut{Total: sc.Total, Colors: make([]runOut, 0, 4), Wilds: make([]placeOut, 0, len(sc.Placements))}
	for _, cs := range sc.Colors {
		o.Colors = append(o.Colors, runOut{
			Color: cs.Color.String(), Lo: cs.Lo, Hi: cs.Hi,
			Length: cs.Length, Bonus: cs.Bonus, Score: cs.Score,
		})
	}
	for _, p := range sc.Placements {
		po := placeOut{Card: p.Wild.String(), Used: p.Used}
		if p.Used {
			po.Color, po.Value = p.Color.String(), p.Value
		}
		o.Wilds = append(o.Wilds, po)
	}
	return o, nil
}
