package dix

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dixgame/dixbot/engine"
)

// This file makes DIX an engine.Game on top of the package's own API
// (New, UnmarshalBinary, ToAct, Choices, Apply, View, Results, Check),
// changing none of it: Rules is the definition and State a Game seen
// through the contract.

// Name is DIX's prefix in custom ids, commands and locale keys.
const Name = "dix"

// Option names of Setup.Options.
const (
	OptDifficulty = "difficulty" // solo only: 4–10 (SPEC §5)
	OptBust       = "bust"       // "on": the 3.3 variant
)

// Rules is DIX as an engine.Game. It is safe for concurrent use.
type Rules struct{}

var _ engine.Game = Rules{}

// Name returns "dix".
func (Rules) Name() string { return Name }

// New starts a game of setup: Players 1 (solo against ALIX) to 5, the
// options OptDifficulty and OptBust. It returns an error wrapping
// engine.ErrBadOptions (and ErrBadOptions).
func (Rules) New(s engine.Setup) (engine.State, error) {
	opts := Options{Players: s.Players, Seed: s.Seed, FirstPlayer: s.First}
	for k, v := range s.Options {
		var err error
		switch k {
		case OptDifficulty:
			opts.Difficulty, err = strconv.Atoi(v)
		case OptBust:
			switch v {
			case "on":
				opts.BustVariant = true
			case "off":
			default:
				err = errors.New("not on or off")
			}
		default:
			err = errors.New("unknown option")
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w: %s=%q: %v", engine.ErrBadOptions, ErrBadOptions, k, v, err)
		}
	}
	g, err := New(opts)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", engine.ErrBadOptions, err)
	}
	return State{g}, nil
}

// Decode reads what Game.MarshalBinary wrote (its first byte is the schema
// version, a one-byte uvarint). It returns an error wrapping
// engine.ErrSchemaTooNew or engine.ErrCorrupt (and the package's own).
func (Rules) Decode(data []byte) (engine.State, error) {
	var g Game
	if err := g.UnmarshalBinary(data); err != nil {
		if errors.Is(err, ErrSchemaTooNew) {
			return nil, fmt.Errorf("%w: %w", engine.ErrSchemaTooNew, err)
		}
		return nil, fmt.Errorf("%w: %w", engine.ErrCorrupt, err)
	}
	return State{&g}, nil
}

// State is a Game seen through engine.State. Its moves are FormatMove's
// notation. A State is not safe for concurrent use.
type State struct{ g *Game }

var _ engine.State = State{}

// StateOf returns g seen through the contract; both share g.
func StateOf(g *Game) State { return State{g} }

// Game returns the game behind s.
func (s State) Game() *Game { return s.g }

// Encode returns Game.MarshalBinary's bytes.
func (s State) Encode() []byte { return s.g.AppendBinary(nil) }

// Seq returns Game.Seq.
func (s State) Seq() uint64 { return uint64(s.g.Seq) }

// ToDecide returns the one seat of Game.ToAct, none once the game is over.
// DIX never asks two seats at once; ALIX decides inside Apply.
func (s State) ToDecide() []int {
	if seat := s.g.ToAct(); seat >= 0 && s.g.Phase != PhaseOver {
		return []int{seat}
	}
	return nil
}

// Forced returns seat's only answer when it decides nothing: stop with an
// empty deck, end a turn or skip a final buy with nothing buyable, pass an
// auction one cannot afford, pay a won auction that only one payment covers
// (R3).
func (s State) Forced(seat int) (engine.Move, bool) {
	g := s.g
	if seat < 0 || seat >= len(g.Players) || g.IsAlix(seat) {
		return "", false
	}
	ch := g.Choices(seat)
	if g.Phase == PhaseAuctionPay && slices.Contains(ch.Actions, ActPay) {
		if p, ok := onlyPayment(g, seat, ch.Owe); ok {
			return FormatMove(Action{Kind: ActPay, Player: seat, Payment: p}), true
		}
		return "", false
	}
	if len(ch.Actions) != 1 {
		return "", false
	}
	switch k := ch.Actions[0]; k {
	case ActStop, ActEndTurn, ActPass:
		return FormatMove(Action{Kind: k, Player: seat}), true
	}
	return "", false
}

// onlyPayment returns the payment of price by seat s when exactly one is
// accepted by CheckPayment (no superfluous unit, R3), so that paying
// decides nothing. Cards of the same colour and number are the same
// choice; the number cards are offered duplicates first, then the last
// copies (while a solo auction runs only duplicates, §5).
func onlyPayment(g *Game, s, price int) (Payment, bool) {
	var nums []Card
	for _, c := range g.Players[s].Collection {
		if c.Kind == KindNumber {
			nums = append(nums, c)
		}
	}
	slices.SortFunc(nums, func(a, b Card) int {
		if a.Color != b.Color {
			return int(a.Color) - int(b.Color)
		}
		return int(a.Value) - int(b.Value)
	})
	var list, last []Card
	for i, c := range nums {
		if i+1 < len(nums) && nums[i+1] == c {
			list = append(list, c)
		} else {
			last = append(last, c)
		}
	}
	if !g.soloAuction() {
		list = append(list, last...)
	}
	list = list[:min(len(list), 64)]
	distinct := map[Card]bool{}
	for _, c := range list {
		distinct[c] = true
	}
	pl := g.Players[s]
	var found Payment
	n := 0
	for m := 0; m <= pl.Money; m++ {
		for c := 0; c <= pl.Consolation; c++ {
			for k := 0; k <= len(list); k++ {
				if g.CheckPayment(s, price, Payment{Money: m, Consolation: c, Cards: list[:k]}) != nil {
					continue
				}
				if k > 0 && k < len(list) && len(distinct) > 1 {
					return Payment{}, false // several ways to choose the cards
				}
				if n++; n > 1 {
					return Payment{}, false
				}
				found = Payment{Money: m, Consolation: c, Cards: slices.Clone(list[:k])}
			}
		}
	}
	return found, n == 1
}

// Apply parses m (FormatMove's notation) as seat's action and applies it
// with Game.Apply. The error wraps the package's sentinel and the
// contract's: engine.ErrGameOver, engine.ErrBadMove (ErrUnknownAction,
// ErrBadCard), engine.ErrNotYourTurn (ErrNotYourTurn, ErrUnknownPlayer) or
// engine.ErrIllegalMove (every other rejection). The events are Event
// values.
func (s State) Apply(seat int, m engine.Move) ([]engine.Event, error) {
	if s.g.Phase == PhaseOver {
		return nil, fmt.Errorf("%w: %w", engine.ErrGameOver, ErrGameOver)
	}
	a, err := ParseMove(seat, m)
	if err != nil {
		return nil, err
	}
	evs, err := s.g.Apply(a)
	if err != nil {
		return nil, contractError(err)
	}
	out := make([]engine.Event, len(evs))
	for i, e := range evs {
		out[i] = e
	}
	return out, nil
}

// contractError wraps err, one of the package's rejections, in the
// contract's sentinel of the same meaning.
func contractError(err error) error {
	var sentinel error
	switch {
	case errors.Is(err, ErrGameOver):
		sentinel = engine.ErrGameOver
	case errors.Is(err, ErrNotYourTurn), errors.Is(err, ErrUnknownPlayer):
		sentinel = engine.ErrNotYourTurn
	case errors.Is(err, ErrUnknownAction), errors.Is(err, ErrBadCard):
		sentinel = engine.ErrBadMove
	default:
		sentinel = engine.ErrIllegalMove
	}
	return fmt.Errorf("%w: %w", sentinel, err)
}

// View returns Game.View without the order of the deck (View.Deck, which
// nobody may see; its size shows as DeckCount). Everything else in DIX is
// public, so every seat sees the same.
func (s State) View(int) any {
	v := s.g.View()
	v.Deck = nil
	return v
}

// Over reports whether the final scores are known.
func (s State) Over() bool { return s.g.Phase == PhaseOver }

// Results returns Game.Results as the contract's: rank and score of every
// seat, ALIX's included in solo.
func (s State) Results() []engine.Result {
	res := s.g.Results()
	out := make([]engine.Result, len(res))
	for i, r := range res {
		out[i] = engine.Result{Seat: r.Player, Rank: r.Rank, Score: r.Score.Total}
	}
	return out
}

// Check returns Game.Check, wrapping engine.ErrInvariant too.
func (s State) Check() error {
	if err := s.g.Check(); err != nil {
		return fmt.Errorf("%w: %w", engine.ErrInvariant, err)
	}
	return nil
}

// FormatMove writes a as a move: the action's name as scenario files spell
// it ("draw", "stop", "numbers", "money", "end", "consolation", "bustbuy",
// "pass"), "bid 3", "buy g7" and "pay" followed by the payment: "m2" for
// two money tokens, "c1" for one consolation token, then the cards
// ("buy g7 m2 c1 g1 b3", "pay m5"). The seat is not part of the move.
func FormatMove(a Action) engine.Move {
	var sb strings.Builder
	sb.WriteString(a.Kind.String())
	switch a.Kind {
	case ActBid:
		fmt.Fprintf(&sb, " %d", a.Amount)
	case ActBuy:
		sb.WriteString(" " + a.Card.String())
	}
	if a.Kind == ActBuy || a.Kind == ActPay {
		if a.Payment.Money != 0 {
			fmt.Fprintf(&sb, " m%d", a.Payment.Money)
		}
		if a.Payment.Consolation != 0 {
			fmt.Fprintf(&sb, " c%d", a.Payment.Consolation)
		}
		for _, c := range a.Payment.Cards {
			sb.WriteString(" " + c.String())
		}
	}
	return engine.Move(sb.String())
}

// maxMove bounds what ParseMove reads: the longest payment of a real game
// is far shorter.
const maxMove = 512

// ParseMove reads FormatMove's notation as seat's action. It returns an
// error wrapping engine.ErrBadMove and ErrUnknownAction or ErrBadCard.
func ParseMove(seat int, m engine.Move) (Action, error) {
	bad := func(why string) (Action, error) {
		return Action{}, fmt.Errorf("%w: %w: %q: %s", engine.ErrBadMove, ErrUnknownAction, m, why)
	}
	if len(m) > maxMove {
		return bad("too long")
	}
	f := strings.Fields(string(m))
	if len(f) == 0 {
		return bad("empty")
	}
	a := Action{Player: seat}
	for k := ActDraw; k <= ActPay; k++ {
		if f[0] == k.String() {
			a.Kind = k
		}
	}
	rest := f[1:]
	switch a.Kind {
	case ActInvalid:
		return bad("unknown action")
	case ActBid:
		if len(rest) != 1 {
			return bad("a bid is one amount")
		}
		n, err := strconv.Atoi(rest[0])
		if err != nil || n < 0 || n > 1<<20 {
			return bad("bad amount")
		}
		a.Amount = n
		return a, nil
	case ActBuy:
		if len(rest) == 0 {
			return bad("buy what")
		}
		c, err := ParseCard(rest[0])
		if err != nil {
			return Action{}, fmt.Errorf("%w: %w", engine.ErrBadMove, err)
		}
		a.Card, rest = c, rest[1:]
	case ActPay:
	default:
		if len(rest) != 0 {
			return bad("takes no argument")
		}
		return a, nil
	}
	for _, w := range rest {
		if len(w) > 1 && (w[0] == 'm' || w[0] == 'c') {
			n, err := strconv.Atoi(w[1:])
			if err != nil || n <= 0 || n > 1<<20 {
				return bad("bad token count " + w)
			}
			if w[0] == 'm' {
				a.Payment.Money += n
			} else {
				a.Payment.Consolation += n
			}
			continue
		}
		c, err := ParseCard(w)
		if err != nil {
			return Action{}, fmt.Errorf("%w: %w", engine.ErrBadMove, err)
		}
		a.Payment.Cards = append(a.Payment.Cards, c)
	}
	return a, nil
}
