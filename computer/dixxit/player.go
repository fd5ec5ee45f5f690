package dixxit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dixxit"
)

// Keywords returns the English and French words of one face of a card
// (card 0–70, face 0 or 1): its keywords, as the deck's deck.Keywords does,
// or its synonyms, as deck.Synonyms does.
type Keywords func(card, face int) (en, fr []string)

// Player is the computer player of Dixxit as an engine.Player. Keywords
// tells each picture's keywords and Synonyms (nil for none) its synonyms,
// which count for less in reading a clue; Lang is the language of its clues
// ("fr" for French, anything else English). It is safe for concurrent use.
type Player struct {
	Keywords Keywords
	Synonyms Keywords
	Lang     string
	m        *model // the deck's words, folded and indexed (NewPlayer); nil: built for each decision
}

// NewPlayer returns the player of the deck whose keywords kw and synonyms
// syn (nil for none) tell, giving its clues in lang, with the deck's words
// indexed once.
func NewPlayer(kw, syn Keywords, lang string) Player {
	return Player{Keywords: kw, Synonyms: syn, Lang: lang, m: build(kw, syn)}
}

// model returns the deck's words, indexed.
func (p Player) model() *model {
	if p.m != nil {
		return p.m
	}
	return build(p.Keywords, p.Synonyms)
}

// model is every face's keywords and synonyms, folded, and which faces
// carry each keyword.
type model struct {
	faces    [dixxit.NumCardFaces + 1]card // by dixxit.Card
	carriers map[string][]dixxit.Card      // a folded keyword, or a word of one, and the faces that carry it
	vocab    [2][]string                   // every keyword of the deck in English, in French
	prepared [2][]clue                     // each of vocab as a clue
	// shared counts the folded keywords two faces have in common.
	shared [dixxit.NumCardFaces + 1][dixxit.NumCardFaces + 1]uint8
}

func build(kw, syn Keywords) *model {
	m := &model{carriers: map[string][]dixxit.Card{}}
	if kw == nil {
		return m
	}
	seen := [2]map[string]bool{{}, {}}
	for n := range dixxit.Cards {
		for face := range 2 {
			c := dixxit.CardOf(n, face)
			en, fr := kw(n, face)
			var sen, sfr []string
			if syn != nil {
				sen, sfr = syn(n, face)
			}
			m.faces[c] = cardOf(en, fr, sen, sfr)
			for lang, ws := range [2][]string{en, fr} {
				for _, w := range ws {
					if !seen[lang][w] {
						seen[lang][w] = true
						m.vocab[lang] = append(m.vocab[lang], w)
					}
				}
			}
			for i, ph := range m.faces[c].kw.phrases {
				keys := append([]string{ph}, m.faces[c].kw.words[i]...)
				for _, k := range keys {
					if l := m.carriers[k]; len(l) == 0 || l[len(l)-1] != c {
						m.carriers[k] = append(l, c)
					}
				}
			}
		}
	}
	for lang, ws := range m.vocab {
		for _, w := range ws {
			m.prepared[lang] = append(m.prepared[lang], m.prepare(w))
		}
	}
	// Two faces share a keyword for each phrase both carry.
	byPhrase := map[string][]dixxit.Card{}
	for c := range m.faces {
		for _, ph := range m.faces[c].kw.phrases {
			byPhrase[ph] = append(byPhrase[ph], dixxit.Card(c))
		}
	}
	for _, cs := range byPhrase {
		for i, a := range cs {
			for _, b := range cs[:i] {
				if m.shared[a][b] < 255 {
					m.shared[a][b]++
					m.shared[b][a]++
				}
			}
		}
	}
	return m
}

// clue is a clue folded, with the faces of the deck whose keywords carry
// it or one of its words.
type clue struct {
	folded   string
	words    []string
	stems    []string
	carriers []dixxit.Card
}

// prepare folds text and finds its carriers.
func (m *model) prepare(text string) clue {
	f := Fold(text)
	cl := clue{folded: f, words: contentWords(strings.Fields(f))}
	cl.stems = stems(cl.words)
	for _, k := range append([]string{f}, cl.words...) {
		for _, o := range m.carriers[k] {
			if !slices.Contains(cl.carriers, o) {
				cl.carriers = append(cl.carriers, o)
			}
		}
	}
	return cl
}

// card returns the keywords of the face with deck id id (none for an
// empty square or an unknown id).
func (m *model) card(id string) (dixxit.Card, card) {
	c, err := dixxit.ParseCard(id)
	if err != nil {
		return 0, card{}
	}
	return c, m.faces[c]
}

// score is how well cl matches the picture c, x: its direct match
// (match) first, then its association: how many keywords x shares with
// the other pictures of the deck that carry the clue (a clue "moon" is
// near a picture of an owl when pictures of the moon also say "night").
func (m *model) score(cl clue, c dixxit.Card, x card) int {
	assoc := 0
	for _, o := range cl.carriers {
		if o != c {
			assoc += int(m.shared[o][c])
		}
	}
	return 100*match(cl, x) + min(assoc, 99)
}

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

// Absent returns the move taken for seat when its person is absent (X10):
// the computer gives the active player's clue, as for a computer seat, so
// that a table whose people all went away still plays to its end (X9's
// skip would leave the grid as it is, turn after turn); a guesser is out,
// as when out of time (X9), since a finger placed at once would beat the
// people racing. Errors as Decide.
func (p Player) Absent(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	m, err := p.Timeout(s, seat, r)
	if err != nil || m != "skip" {
		return m, err
	}
	return p.Decide(s, seat, r)
}

// card is one picture's keywords and synonyms, folded for matching.
type card struct {
	kw  phrases // its keywords in both languages
	syn phrases // its synonyms in both languages, but those that are keywords
}

// phrases are words or short phrases of a picture, folded for matching.
type phrases struct {
	phrases []string        // every phrase, folded
	words   [][]string      // the words of each phrase
	exact   map[string]bool // every word of a phrase
	// byHead holds the words of four letters or more by their first four
	// bytes: two words of the same stem, or one the beginning of the
	// other, begin with the same four.
	byHead map[string][]string
}

// add adds the phrase w unless it folds to nothing or to a phrase of p or
// of skip.
func (p *phrases) add(w string, skip *phrases) {
	f := Fold(w)
	if f == "" || slices.Contains(p.phrases, f) || (skip != nil && slices.Contains(skip.phrases, f)) {
		return
	}
	if p.exact == nil {
		p.exact, p.byHead = map[string]bool{}, map[string][]string{}
	}
	ws := strings.Fields(f)
	p.phrases = append(p.phrases, f)
	p.words = append(p.words, ws)
	for _, w := range ws {
		if !p.exact[w] {
			p.exact[w] = true
			if len(w) >= 4 {
				p.byHead[w[:4]] = append(p.byHead[w[:4]], w)
			}
		}
	}
}

// word returns how well a clue's word cw, of stem cs, matches a word of
// p: 2 for a word equal to it, 1 for one of the same stem (words of four
// letters or more), 0 for none.
func (p *phrases) word(cw, cs string) int {
	switch {
	case p.exact[cw]:
		return 2
	case cs == "":
		return 0
	}
	for _, w := range p.byHead[cw[:4]] {
		if stem(w) == cs || strings.HasPrefix(w, cw) || strings.HasPrefix(cw, w) {
			return 1
		}
	}
	return 0
}

// cardOf folds the keywords and synonyms of one face.
func cardOf(en, fr, sen, sfr []string) card {
	var k card
	for _, w := range slices.Concat(en, fr) {
		k.kw.add(w, nil)
	}
	for _, w := range slices.Concat(sen, sfr) {
		k.syn.add(w, &k.kw)
	}
	return k
}

// stopWords are the folded words of English and French that say nothing
// of a picture ("the", "of", "le", "d"): a clue's other words are matched.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of and or to in on at as is are be it its my your his her our their
		this that these those for with by from i you me we he she they what who how not no so s t
		le la les l un une des de du d et ou a au aux en dans sur pour par avec ce c cet cette ces
		mon ma mes ton ta tes son sa ses notre nos votre vos leur leurs qui que qu est il elle je j
		tu on ne n pas se s y m t`) {
		m[w] = true
	}
	return m
}()

// contentWords returns the words of a folded clue that are not stop
// words; all of them when every one is.
func contentWords(words []string) []string {
	var out []string
	for _, w := range words {
		if !stopWords[w] {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return words
	}
	return out
}

// stems returns the stem of each word of four letters or more, "" for the
// others.
func stems(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		if len(w) >= 4 {
			out[i] = stem(w)
		}
	}
	return out
}

// Fold lowers s, drops its accents, writes the ligatures œ and æ as two
// letters ("vœu" is "voeu") and turns every run of characters that are not
// letters or digits into one space.
func Fold(s string) string {
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
			switch r {
			case 'œ':
				b.WriteString("oe")
			case 'æ':
				b.WriteString("ae")
			default:
				b.WriteRune(r)
			}
		default:
			space = true
		}
	}
	return b.String()
}

// stem is the first letters of a word that match its inflections
// ("chats", "chat"; "sailing", "sail"). Two words of four letters or more
// also share a stem when one begins with the other ("wish", "wishes").
func stem(w string) string {
	r := []rune(w)
	if len(r) > 5 {
		r = r[:5]
	}
	return string(r)
}

// keywordWeight is how many times more a keyword counts than a synonym in
// match.
const keywordWeight = 2

// match scores how well a clue matches a picture directly: 4 for a synonym
// equal to the whole clue, plus per word of the clue 2 for a synonym word
// equal to it and 1 for one of the same stem (words of four letters or
// more); a keyword counts keywordWeight times as much, and the best of
// keyword and synonym counts for the whole clue and for each word. 0 is no
// match.
func match(cl clue, k card) int {
	if cl.folded == "" {
		return 0
	}
	score := 0
	switch {
	case slices.Contains(k.kw.phrases, cl.folded):
		score += keywordWeight * 4
	case slices.Contains(k.syn.phrases, cl.folded):
		score += 4
	}
	for i, cw := range cl.words {
		score += max(keywordWeight*k.kw.word(cw, cl.stems[i]), k.syn.word(cw, cl.stems[i]))
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
// clue of v (model.score), drawing among equals with r; at random when
// the clue was said aloud. v is a guesser's view: it holds no target.
func (p Player) Guess(v dixxit.View, r *rand.Rand) int {
	best := p.bestSquares(v)
	return best[r.IntN(len(best))]
}

// bestSquares returns the free squares Guess draws among: those whose
// pictures match the clue of v best; every free square when the clue was
// said aloud.
func (p Player) bestSquares(v dixxit.View) []int {
	sqs := free(v)
	if v.Aloud || v.Clue == "" {
		return sqs
	}
	m := p.model()
	cl := m.prepare(v.Clue)
	var best []int
	top := -1
	for _, sq := range sqs {
		c, k := m.card(v.Grid[sq-1])
		switch s := m.score(cl, c, k); {
		case s > top:
			top, best = s, []int{sq}
		case s == top:
			best = append(best, sq)
		}
	}
	return best
}

// Clue returns the clue the active player gives for its target in v (its
// own view, which holds the target), chosen so that guessers ranking the
// grid as Guess does find the target on their first finger about two times
// in five. The candidates are the target's keywords in the player's
// language (the other language when it has none), the words of those
// keywords, and the deck's other keywords the target is associated with
// (model.score). For each, the grid in v tells how many pictures rank
// equal to the target (the guessers draw among them) or above it, hence
// the chance that the first finger finds the target; the clue kept is one
// whose chance is nearest 5/12, which one or two other pictures matching
// as well as the target give equally (one in two, one in three), with at
// most two pictures above the target: neither obvious (only the target
// matches) nor hopeless. Equals are drawn with r. A picture with no
// keyword gets its deck id, which matches nothing.
func (p Player) Clue(v dixxit.View, r *rand.Rand) string {
	if v.Secret == nil {
		return ""
	}
	m := p.model()
	tc, target := m.card(v.Secret.Card)
	lang := 0
	if p.Lang == "fr" {
		lang = 1
	}
	en, fr := []string(nil), []string(nil)
	if p.Keywords != nil && tc.Valid() {
		en, fr = p.Keywords(tc.Number(), tc.Face())
	}
	words := [2][]string{en, fr}[lang]
	if len(words) == 0 {
		words = slices.Concat(en, fr)
	}
	var cands []string
	var prepared []clue
	add := func(w string, cl clue) {
		if !slices.Contains(cands, w) {
			cands = append(cands, w)
			prepared = append(prepared, cl)
		}
	}
	for _, w := range words {
		add(w, m.prepare(w))
		if f := strings.Fields(w); len(f) > 1 {
			for _, x := range f {
				if len([]rune(x)) >= 4 {
					add(x, m.prepare(x))
				}
			}
		}
	}
	for i, w := range m.vocab[lang] {
		if cl := m.prepared[lang][i]; match(cl, target) == 0 && m.score(cl, tc, target) > 0 {
			add(w, cl)
		}
	}
	if len(cands) == 0 {
		return v.Secret.Card
	}
	type other struct {
		c dixxit.Card
		k card
	}
	var others []other
	for sq, id := range v.Grid {
		if sq+1 != v.Secret.Target && id != "" {
			c, k := m.card(id)
			others = append(others, other{c, k})
		}
	}
	const aim = 5.0 / 12 // between one in three and one in two: both are as near
	cost := func(cl clue) float64 {
		ts := m.score(cl, tc, target)
		if ts == 0 {
			return 10
		}
		better, equal := 0, 0
		for _, o := range others {
			switch s := m.score(cl, o.c, o.k); {
			case s > ts:
				better++
			case s == ts:
				equal++
			}
		}
		switch {
		case better > 2:
			return 5 // hopeless: three pictures or more rank above the target
		case better > 0:
			return aim + 0.1*float64(better) // never first, found soon after
		}
		return math.Abs(1/float64(1+equal) - aim)
	}
	best, low := []string{}, math.Inf(1)
	for i, c := range cands {
		switch k := cost(prepared[i]); {
		case k < low-1e-9:
			best, low = []string{c}, k
		case k < low+1e-9:
			best = append(best, c)
		}
	}
	return best[r.IntN(len(best))]
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
