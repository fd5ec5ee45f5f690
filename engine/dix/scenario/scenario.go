package scenario

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/engine/scenariofile"
)

// Error is a failed scenario line (see scenariofile.Error).
type Error = scenariofile.Error

// errExpect marks an expectation that was not met.
var errExpect = errors.New("expectation not met")

// Result is the outcome of a scenario that ran to its last line.
type Result struct {
	Game    *dix.Game
	Actions int // successful actions
	Expects int // expectations checked (including expected errors)
}

// sentinels names the errors an `expect error` line may cite.
var sentinels = dix.Rejections()

// scenario is the state of a running scenario.
type scenario struct {
	opts     dix.Options
	top      []dix.Card
	restNone bool
	placed   []placement
	money    map[int]int
	cons     map[int]int
	g        *dix.Game
	last     []dix.Event
	res      Result
}

type placement struct {
	seat  int // -1: the market, -2: the discard
	cards []dix.Card
}

// Run runs the scenario read from r. Every action is followed by
// Check, and a rejected action must leave the serialised state unchanged. It
// returns the final state, or an *Error naming the first line that
// failed (with the game as it stood in the result).
func Run(r io.Reader) (*Result, error) {
	s := &scenario{opts: dix.Options{Players: 2, FirstPlayer: 0}, money: map[int]int{}, cons: map[int]int{}}
	err := scenariofile.Read(r, func(text string) string {
		if i := strings.IndexByte(text, '#'); i >= 0 && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t') {
			return text[:i] // a comment: '#' at the start or after a blank (g# is a card)
		}
		return text
	}, s.line, s.start)
	s.res.Game = s.g
	return &s.res, err
}

func (s *scenario) line(f []string) error {
	if s.g == nil {
		done, err := s.header(f)
		if done || err != nil {
			return err
		}
		if err := s.start(); err != nil {
			return err
		}
	}
	if f[0] == "expect" {
		s.res.Expects++
		return s.expect(f[1:])
	}
	a, err := s.action(f)
	if err != nil {
		return err
	}
	return s.apply(a, nil)
}

// header handles the set-up lines; done is false for a line that is not one.
func (s *scenario) header(f []string) (done bool, err error) {
	arg := func(i int) (int, error) {
		if len(f) <= i {
			return 0, fmt.Errorf("%s needs a number", f[0])
		}
		return strconv.Atoi(f[i])
	}
	switch f[0] {
	case "players":
		s.opts.Players, err = arg(1)
		if s.opts.Players == 1 && s.opts.Difficulty == 0 {
			s.opts.Difficulty = dix.MinDifficulty
		}
	case "solo":
		s.opts.Players = 1
		s.opts.Difficulty, err = arg(1)
	case "first":
		s.opts.FirstPlayer, err = s.seat(f, 1)
	case "random-first":
		s.opts.FirstPlayer = -1
	case "seed":
		var v int
		v, err = arg(1)
		s.opts.Seed = int64(v)
	case "variant":
		if len(f) != 2 || f[1] != "bust" {
			return true, fmt.Errorf("unknown variant")
		}
		s.opts.BustVariant = true
	case "deck":
		var cards []dix.Card
		cards, err = dix.ParseCards(strings.Join(f[1:], " "))
		s.top = append(s.top, cards...)
	case "rest":
		switch {
		case len(f) == 2 && f[1] == "none":
			s.restNone = true
		case len(f) == 2 && f[1] == "shuffled":
			s.restNone = false
		default:
			return true, fmt.Errorf("rest none|shuffled")
		}
	case "collection", "market", "discard":
		p := placement{seat: -1}
		rest := f[1:]
		switch f[0] {
		case "collection":
			p.seat, err = s.seat(f, 1)
			rest = f[2:]
		case "discard":
			p.seat = -2
		}
		if err == nil {
			p.cards, err = dix.ParseCards(strings.Join(rest, " "))
			s.placed = append(s.placed, p)
		}
	case "money", "consolation":
		var seat, v int
		if seat, err = s.seat(f, 1); err == nil {
			v, err = arg(2)
		}
		if f[0] == "money" {
			s.money[seat] = v
		} else {
			s.cons[seat] = v
		}
	default:
		return false, nil
	}
	return true, err
}

// start deals the game: the given top of the deck, then (unless "rest
// none") the rest of the standard deck shuffled with the seed; the cards
// placed in collections, the market or the discard come out of the deck.
func (s *scenario) start() error {
	if s.g != nil {
		return nil
	}
	opts := s.opts
	if err := dix.CheckOptions(&opts); err != nil {
		return err
	}
	deck := slices.Clone(s.top)
	var placed []dix.Card
	for _, p := range s.placed {
		placed = append(placed, p.cards...)
	}
	if !s.restNone {
		rest, err := dix.BuildDeck(opts.Players)
		if err != nil {
			return err
		}
		for _, c := range append(slices.Clone(s.top), placed...) {
			i := slices.Index(rest, c)
			if i < 0 {
				return fmt.Errorf("%s: no more copies in the %d-player deck", c, opts.Players)
			}
			rest = slices.Delete(rest, i, i+1)
		}
		r := rand.New(rand.NewPCG(uint64(opts.Seed), uint64(opts.Seed)^0x9e3779b97f4a7c15))
		r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		deck = append(deck, rest...)
	}
	// The placed cards sit at the bottom until they are dealt out.
	deck = append(deck, placed...)
	g, err := dix.NewWithDeck(opts, deck)
	if err != nil {
		return err
	}
	g.Deck = g.Deck[:len(g.Deck)-len(placed)]
	if len(g.Deck) == 0 {
		return fmt.Errorf("the deck is empty once the placed cards are out")
	}
	for _, p := range s.placed {
		switch {
		case p.seat >= 0 && p.seat < len(g.Players):
			g.Players[p.seat].Collection = append(g.Players[p.seat].Collection, p.cards...)
		case p.seat == -1:
			g.Market = append(g.Market, p.cards...)
		case p.seat == -2:
			g.Discard = append(g.Discard, p.cards...)
		default:
			return fmt.Errorf("%w: seat %d", dix.ErrUnknownPlayer, p.seat)
		}
	}
	for seat, v := range s.money {
		if seat >= len(g.Players) {
			return fmt.Errorf("%w: seat %d", dix.ErrUnknownPlayer, seat)
		}
		g.Players[seat].Money = v
	}
	for seat, v := range s.cons {
		if seat >= len(g.Players) {
			return fmt.Errorf("%w: seat %d", dix.ErrUnknownPlayer, seat)
		}
		g.Players[seat].Consolation = v
	}
	if err := g.Check(); err != nil {
		return err
	}
	s.g = g
	return nil
}

// seat reads a seat ("p0" … "p4", or "alix" for seat 1) from f[i].
func (s *scenario) seat(f []string, i int) (int, error) {
	if len(f) <= i {
		return 0, fmt.Errorf("missing seat")
	}
	t := f[i]
	if t == "alix" {
		return dix.Alix, nil
	}
	if len(t) >= 2 && t[0] == 'p' {
		if n, err := strconv.Atoi(t[1:]); err == nil {
			return n, nil
		}
	}
	return 0, fmt.Errorf("bad seat %q (p0, p1 … or alix)", t)
}

var actionKinds = func() map[string]dix.ActionKind {
	m := map[string]dix.ActionKind{"skip": dix.ActEndTurn}
	for k := dix.ActDraw; k <= dix.ActPay; k++ {
		m[k.String()] = k
	}
	return m
}()

// action parses "pN verb [args]".
func (s *scenario) action(f []string) (dix.Action, error) {
	seat, err := s.seat(f, 0)
	if err != nil {
		return dix.Action{}, err
	}
	if len(f) < 2 {
		return dix.Action{}, fmt.Errorf("missing action")
	}
	a := dix.Action{Player: seat}
	k, ok := actionKinds[f[1]]
	if !ok {
		return dix.Action{}, fmt.Errorf("unknown action %q", f[1])
	}
	a.Kind = k
	rest := f[2:]
	switch k {
	case dix.ActBid:
		if len(rest) != 1 {
			return a, fmt.Errorf("bid needs an amount")
		}
		a.Amount, err = strconv.Atoi(rest[0])
		return a, err
	case dix.ActBuy:
		if len(rest) < 1 {
			return a, fmt.Errorf("buy needs a card")
		}
		if a.Card, err = dix.ParseCard(rest[0]); err != nil {
			return a, err
		}
		if len(rest) < 2 || rest[1] != "pay" {
			return a, fmt.Errorf("buy CARD pay …")
		}
		a.Payment, err = s.payment(seat, int(a.Card.Value), rest[2:], false)
		return a, err
	case dix.ActPay:
		price := 0
		if s.g.Auction != nil {
			price = s.g.Auction.HighBid
		}
		a.Payment, err = s.payment(seat, price, rest, s.g.Solo())
		return a, err
	}
	if len(rest) != 0 {
		return a, fmt.Errorf("unexpected %q", strings.Join(rest, " "))
	}
	return a, nil
}

// payment parses "auto" (ProposePayment) or "[money N] [consolation N]
// [cards C…]" ("nothing" for an empty payment).
func (s *scenario) payment(seat, price int, f []string, dupOnly bool) (dix.Payment, error) {
	var p dix.Payment
	if len(f) == 1 && f[0] == "auto" {
		if seat < 0 || seat >= len(s.g.Players) {
			return p, fmt.Errorf("%w: seat %d", dix.ErrUnknownPlayer, seat)
		}
		p, ok := s.g.ProposePaymentWith(seat, price, dupOnly)
		if !ok {
			return p, fmt.Errorf("%w: no payment of %d", dix.ErrCannotAfford, price)
		}
		return p, nil
	}
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "nothing":
		case "money", "consolation":
			if i+1 >= len(f) {
				return p, fmt.Errorf("%s needs a number", f[i])
			}
			v, err := strconv.Atoi(f[i+1])
			if err != nil {
				return p, err
			}
			if f[i] == "money" {
				p.Money = v
			} else {
				p.Consolation = v
			}
			i++
		case "cards":
			for i+1 < len(f) && f[i+1] != "money" && f[i+1] != "consolation" {
				c, err := dix.ParseCard(f[i+1])
				if err != nil {
					return p, err
				}
				p.Cards = append(p.Cards, c)
				i++
			}
		default:
			return p, fmt.Errorf("bad payment %q", f[i])
		}
	}
	return p, nil
}

// apply applies a; want is the sentinel an `expect error` line demands.
func (s *scenario) apply(a dix.Action, want error) error {
	g := s.g
	before, _ := g.MarshalBinary()
	evs, err := g.Apply(a)
	if err != nil {
		after, _ := g.MarshalBinary()
		if string(before) != string(after) {
			return fmt.Errorf("%w: a rejected action changed the state", dix.ErrInvariant)
		}
		if want != nil && errors.Is(err, want) {
			return nil
		}
		if want != nil {
			return fmt.Errorf("%w: error %v, want %v", errExpect, err, want)
		}
		return err
	}
	if want != nil {
		return fmt.Errorf("%w: the action was accepted, want %v", errExpect, want)
	}
	s.res.Actions++
	s.last = evs
	return g.Check()
}

// expect checks one expectation.
func (s *scenario) expect(f []string) error {
	g := s.g
	if len(f) == 0 {
		return fmt.Errorf("empty expect")
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{errExpect}, args...)...)
	}
	num := func(i int) (int, error) {
		if len(f) <= i {
			return 0, fmt.Errorf("%s needs a number", f[0])
		}
		return strconv.Atoi(f[i])
	}
	cards := func(from int) ([]dix.Card, error) { return dix.ParseCards(strings.Join(f[from:], " ")) }
	seatArg := func() (int, error) {
		seat, err := s.seat(f, 1)
		if err == nil && (seat < 0 || seat >= len(g.Players)) {
			err = fmt.Errorf("%w: seat %d", dix.ErrUnknownPlayer, seat)
		}
		return seat, err
	}
	switch f[0] {
	case "error":
		if len(f) < 3 {
			return fmt.Errorf("expect error ErrX ACTION")
		}
		want, ok := sentinels[f[1]]
		if !ok {
			return fmt.Errorf("unknown error %q", f[1])
		}
		a, err := s.action(f[2:])
		if err != nil {
			if errors.Is(err, want) {
				return nil // e.g. ErrBadCard while parsing
			}
			return err
		}
		return s.apply(a, want)
	case "money", "consolation", "capacity", "buycapacity", "score", "rank", "cards":
		seat, err := seatArg()
		if err != nil {
			return err
		}
		want, err := num(2)
		if err != nil {
			return err
		}
		var got int
		switch f[0] {
		case "money":
			got = g.Players[seat].Money
		case "consolation":
			got = g.Players[seat].Consolation
		case "capacity":
			got = g.Capacity(seat)
		case "buycapacity":
			got = g.BuyCapacity(seat)
		case "cards":
			got = len(g.Players[seat].Collection)
		case "score", "rank":
			for _, r := range g.Results() {
				if r.Player == seat {
					got = r.Score.Total
					if f[0] == "rank" {
						got = r.Rank
					}
				}
			}
		}
		if got != want {
			return fail("%s of p%d is %d, want %d", f[0], seat, got, want)
		}
	case "collection":
		seat, err := seatArg()
		if err != nil {
			return err
		}
		want, err := cards(2)
		if err != nil {
			return err
		}
		if !sameCards(g.Players[seat].Collection, want) {
			return fail("collection of p%d is %q, want %q", seat, dix.FormatCards(g.Players[seat].Collection), dix.FormatCards(want))
		}
	case "market", "discard":
		want, err := cards(1)
		if err != nil {
			return err
		}
		got := g.Market
		if f[0] == "discard" {
			got = g.Discard
		}
		if !sameCards(got, want) {
			return fail("%s is %q, want %q", f[0], dix.FormatCards(got), dix.FormatCards(want))
		}
	case "tableau":
		if len(f) == 5 && f[1] == "total" && f[3] == "money" {
			wt, err1 := strconv.Atoi(f[2])
			wm, err2 := strconv.Atoi(f[4])
			if err := errors.Join(err1, err2); err != nil {
				return err
			}
			if t, m := g.TableauSums(); t != wt || m != wm {
				return fail("tableau total %d money %d, want %d and %d", t, m, wt, wm)
			}
			return nil
		}
		want, err := cards(1)
		if err != nil {
			return err
		}
		if dix.FormatCards(g.Tableau) != dix.FormatCards(want) {
			return fail("tableau is %q, want %q", dix.FormatCards(g.Tableau), dix.FormatCards(want))
		}
	case "deck":
		want, err := num(1)
		if err != nil {
			return err
		}
		if len(g.Deck) != want {
			return fail("%d cards in the deck, want %d", len(g.Deck), want)
		}
	case "phase":
		if len(f) != 2 || g.Phase.String() != f[1] {
			return fail("phase %s, want %s", g.Phase, strings.Join(f[1:], " "))
		}
	case "turn", "active":
		want, err := seatArg()
		if err != nil {
			return err
		}
		got := g.ToAct()
		if f[0] == "active" {
			got = g.Active
		}
		if got != want {
			return fail("%s is p%d, want p%d", f[0], got, want)
		}
	case "over":
		if g.Phase != dix.PhaseOver {
			return fail("phase %s, want over", g.Phase)
		}
	case "winner":
		var want []int
		for i := 1; i < len(f); i++ {
			seat, err := s.seat(f, i)
			if err != nil {
				return err
			}
			want = append(want, seat)
		}
		slices.Sort(want)
		got := g.Winners()
		slices.Sort(got)
		if !slices.Equal(got, want) {
			return fail("winners %v, want %v", got, want)
		}
	case "choices":
		seat, err := seatArg()
		if err != nil {
			return err
		}
		var got []string
		for _, k := range g.Choices(seat).Actions {
			got = append(got, k.String())
		}
		if !slices.Equal(got, f[2:]) {
			return fail("choices of p%d are %v, want %v", seat, got, f[2:])
		}
	case "buyable":
		seat, err := seatArg()
		if err != nil {
			return err
		}
		want, err := cards(2)
		if err != nil {
			return err
		}
		if got := g.Choices(seat).Buyable; dix.FormatCards(got) != dix.FormatCards(want) {
			return fail("p%d may buy %q, want %q", seat, dix.FormatCards(got), dix.FormatCards(want))
		}
	case "bid":
		seat, err := seatArg()
		if err != nil {
			return err
		}
		lo, err1 := num(2)
		hi, err2 := num(3)
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		if c := g.Choices(seat); c.MinBid != lo || c.MaxBid != hi {
			return fail("p%d bids %d–%d, want %d–%d", seat, c.MinBid, c.MaxBid, lo, hi)
		}
	case "owe":
		seat, err := seatArg()
		if err != nil {
			return err
		}
		want, err := num(2)
		if err != nil {
			return err
		}
		if c := g.Choices(seat); c.Owe != want {
			return fail("p%d owes %d, want %d", seat, c.Owe, want)
		}
	case "propose":
		// expect propose pN PRICE none | expect propose pN PRICE [money N] [consolation N] [cards …]
		seat, err := seatArg()
		if err != nil {
			return err
		}
		price, err := num(2)
		if err != nil {
			return err
		}
		got, ok := g.ProposePayment(seat, price)
		if len(f) == 4 && f[3] == "none" {
			if ok {
				return fail("proposed %s, want none", formatPayment(got))
			}
			return nil
		}
		want, err := s.payment(seat, price, f[3:], false)
		if err != nil {
			return err
		}
		if !ok || got.Money != want.Money || got.Consolation != want.Consolation || !sameCards(got.Cards, want.Cards) {
			return fail("proposed %s (ok %v), want %s", formatPayment(got), ok, formatPayment(want))
		}
	case "event":
		return s.expectEvent(f[1:])
	case "seq":
		want, err := num(1)
		if err != nil {
			return err
		}
		if int(g.Seq) != want {
			return fail("seq %d, want %d", g.Seq, want)
		}
	default:
		return fmt.Errorf("unknown expectation %q", f[0])
	}
	return nil
}

// expectEvent checks that the last action produced an event of the given
// kind with the given fields: "expect event KIND [pN] [amount N] [lost N]
// [bust A|B] [card C] [cards C…]".
func (s *scenario) expectEvent(f []string) error {
	if len(f) == 0 {
		return fmt.Errorf("expect event KIND …")
	}
	match := func(e dix.Event) (bool, error) {
		if e.Kind.String() != f[0] {
			return false, nil
		}
		for i := 1; i < len(f); i++ {
			key := f[i]
			if seat, err := s.seat(f, i); err == nil {
				if e.Player != seat {
					return false, nil
				}
				continue
			}
			if key == "cards" {
				want, err := dix.ParseCards(strings.Join(f[i+1:], " "))
				if err != nil {
					return false, err
				}
				got := e.Cards
				if e.Kind == dix.EvPaid {
					got = e.Payment.Cards
				}
				return sameCards(got, want), nil
			}
			if i+1 >= len(f) {
				return false, fmt.Errorf("%s needs a value", key)
			}
			val := f[i+1]
			i++
			switch key {
			case "amount", "lost":
				n, err := strconv.Atoi(val)
				if err != nil {
					return false, err
				}
				if (key == "amount" && e.Amount != n) || (key == "lost" && e.Lost != n) {
					return false, nil
				}
			case "bust":
				if e.Bust.String() != val {
					return false, nil
				}
			case "card":
				c, err := dix.ParseCard(val)
				if err != nil {
					return false, err
				}
				if e.Card != c {
					return false, nil
				}
			default:
				return false, fmt.Errorf("unknown event field %q", key)
			}
		}
		return true, nil
	}
	var kinds []string
	for _, e := range s.last {
		ok, err := match(e)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		kinds = append(kinds, e.Kind.String())
	}
	return fmt.Errorf("%w: no such event among %v", errExpect, kinds)
}

// sameCards compares two card lists as multisets; an invalid card matches
// nothing.
func sameCards(a, b []dix.Card) bool {
	if len(a) != len(b) {
		return false
	}
	n := make(map[dix.Card]int, len(a))
	for _, c := range a {
		if c.Valid() {
			n[c]++
		}
	}
	for _, c := range b {
		if !c.Valid() || n[c] == 0 {
			return false
		}
		n[c]--
	}
	return true
}

func formatPayment(p dix.Payment) string {
	return fmt.Sprintf("money %d consolation %d cards [%s]", p.Money, p.Consolation, dix.FormatCards(p.Cards))
}
