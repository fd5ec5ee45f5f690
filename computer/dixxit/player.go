package dixxit

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dixxit"
)

// Keywords returns the English and French keywords of one face of a card
// (card 0–70, face 0 or 1), as the deck's deck.Keywords does.
type Keywords func(card, face int) (en, fr []string)

// Player is the computer player of Dixxit as an engine.Player. Lang is the
// language of its clues ("fr" for French, anything else English). It is
// safe for concurrent use.
type Player struct {
	Keywords Keywords
	Lang     string
}

var _ engine.Player = Player{}

// view returns seat's view of s, or the contract's error.
func view(s engine.State, seat int) (dixxit.View, error) {
	g, ok := s.(*dixxit.Game)
	if !ok {
		return dixxit.View{}, fmt.Errorf("%w: %T", engine.ErrWrongGame, s)
	}
	v := g.ViewOf(seat)
	if !slices.Contains(v.Deciding, seat) {
		return dixxit.View{}, fmt.Errorf("%w: seat %d", engine.ErrNotYourTurn, seat)
	}
	return v, nil
}

// Decide returns the clue of the active player (a keyword of its target,
// ambiguous as the package documentation says) or a guesser's finger on the
// square that best matches the clue. It returns an error wrapping
// engine.ErrWrongGame for another game's state and engine.ErrNotYourTurn
// when seat has nothing to decide.
func (p Player) Decide(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	v, err := view(s, seat)
	if err != nil {
		return "", err
	}
	if v.Phase == dixxit.PhaseClue.String() {
		return p.clue(v, r), nil
	}
	return engine.Move(fmt.Sprintf("f %d", p.Guess(v, r))), nil
}

// Timeout returns the move taken when seat's time runs out (X9): "skip"
// for the active player, "out" for a guesser. Errors as Decide.
func (Player) Timeout(s engine.State, seat int, _ *rand.Rand) (engine.Move, error) {
	v, err := view(s, seat)
	if err != nil {
		return "", err
	}
	if v.Phase == dixxit.PhaseClue.String() {
		return "skip", nil
	}
	return "out", nil
}

// card is one picture's keywords, folded for matching.
type card struct {
	phrases []string   // every keyword of both languages, folded
	words   [][]string // the words of each phrase
}

// cardOf returns the keywords of the face with deck id id ("" for an empty
// square: no keyword).
func (p Player) cardOf(id string) card {
	c, err := dixxit.ParseCard(id)
	if err != nil || p.Keywords == nil {
		return card{}
	}
	en, fr := p.Keywords(c.Number(), c.Face())
	var k card
	for _, w := range slices.Concat(en, fr) {
		f := fold(w)
		if f == "" || slices.Contains(k.phrases, f) {
			continue
		}
		k.phrases = append(k.phrases, f)
		k.words = append(k.words, strings.Fields(f))
	}
	return k
}

// fold lowers s, drops its accents and turns every run of characters that
// are not letters or digits into one space.
func fold(s string) string {
	var b strings.Builder
	space := false
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		default:
			space = true
		}
	}
	return b.String()
}

// stem is the first letters of a word that match its inflections
// ("chats", "chat"; "sailing", "sail").
func stem(w string) string {
	r := []rune(w)
	if len(r) > 5 {
		r = r[:5]
	}
	return string(r)
}

// Match scores how well a clue matches a picture: 4 for a keyword equal to
// the whole clue, plus per word of the clue 2 for a keyword word equal to
// it and 1 for one of the same stem (words of four letters or more). 0 is
// no match.
func match(clue string, k card) int {
	clue = fold(clue)
	if clue == "" {
		return 0
	}
	score := 0
	if slices.Contains(k.phrases, clue) {
		score += 4
	}
	for _, cw := range strings.Fields(clue) {
		best := 0
		for _, ws := range k.words {
			for _, w := range ws {
				switch {
				case w == cw:
					best = 2
				case best < 1 && len(cw) >= 4 && len(w) >= 4 && stem(w) == stem(cw):
					best = 1
				}
			}
		}
		score += best
	}
	return score
}

// free returns the squares (1–9) with a card and no finger.
func free(v dixxit.View) []int {
	var sqs []int
	for sq := 1; sq <= dixxit.Squares; sq++ {
		if v.Grid[sq-1] != "" && !slices.ContainsFunc(v.Fingers, func(f dixxit.FingerView) bool { return f.Square == sq }) {
			sqs = append(sqs, sq)
		}
	}
	return sqs
}

// Guess returns the free square (1–9) whose picture best matches the
// clue of v, drawing among equals with r; at random when the clue was said
// aloud. v is a guesser's view: it holds no target.
func (p Player) Guess(v dixxit.View, r *rand.Rand) int {
	sqs := free(v)
	if v.Aloud || v.Clue == "" {
		return sqs[r.IntN(len(sqs))]
	}
	var best []int
	top := -1
	for _, sq := range sqs {
		switch s := match(v.Clue, p.cardOf(v.Grid[sq-1])); {
		case s > top:
			top, best = s, []int{sq}
		case s == top:
			best = append(best, sq)
		}
	}
	return best[r.IntN(len(best))]
}

// Clue returns the clue the active player gives for its target in v (its
// own view, which holds the target): a keyword of the target in the
// player's language (the other language when it has none) that as many as
// one or two other pictures of the grid match as well as the target; short
// of that, the keyword matched as well by the fewest others but at least
// one; short of that, any keyword of the target. A picture with no
// keyword gets its deck id, which matches nothing.
func (p Player) Clue(v dixxit.View, r *rand.Rand) string {
	if v.Secret == nil {
		return ""
	}
	tc, err := dixxit.ParseCard(v.Secret.Card)
	if err != nil || p.Keywords == nil {
		return v.Secret.Card
	}
	en, fr := p.Keywords(tc.Number(), tc.Face())
	words := en
	if p.Lang == "fr" {
		words = fr
	}
	if len(words) == 0 {
		words = slices.Concat(en, fr)
	}
	if len(words) == 0 {
		return v.Secret.Card
	}
	target := p.cardOf(v.Secret.Card)
	var others []card
	for sq, id := range v.Grid {
		if sq+1 != v.Secret.Target && id != "" {
			others = append(others, p.cardOf(id))
		}
	}
	// Rank each keyword by how many others match it as well as the target.
	type cand struct {
		word string
		amb  int
	}
	var cands []cand
	for _, w := range words {
		ts := match(w, target)
		amb := 0
		for _, o := range others {
			if match(w, o) >= ts {
				amb++
			}
		}
		cands = append(cands, cand{w, amb})
	}
	rank := func(c cand) int {
		switch {
		case c.amb == 1 || c.amb == 2:
			return 0
		case c.amb > 2:
			return c.amb
		}
		return 100 // obvious: nobody else matches
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return rank(a) - rank(b) })
	n := 1
	for n < len(cands) && rank(cands[n]) == rank(cands[0]) {
		n++
	}
	return cands[r.IntN(n)].word
}

func (p Player) clue(v dixxit.View, r *rand.Rand) engine.Move {
	text := p.Clue(v, r)
	if rs := []rune(strings.TrimSpace(text)); len(rs) > dixxit.MaxClue {
		text = string(rs[:dixxit.MaxClue])
	}
	if _, err := dixxit.ParseMove(dixxit.ClueMove(text)); err != nil {
		return "aloud" // a keyword that is no valid clue: say it aloud
	}
	return dixxit.ClueMove(text)
}
