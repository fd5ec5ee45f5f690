// Package enginetest is the conformance test of the engine contract: it
// plays games to their end through nothing but engine.Game, engine.State
// and an engine.Player, and checks on every state it reaches what the
// contract promises. Every game runs it against its own rules. It also
// holds what the games' own tests share: checks of refused moves (Refuses)
// and the runner of a game's scenario files (Scenarios, ScenariosCover).
//
// It imports only the engine contract and the standard library.
package enginetest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/dixgame/dixbot/engine"
)

// Config says what to play.
type Config struct {
	Game     engine.Game
	Setups   []engine.Setup // each played Seeds times, with seeds Seed, Seed+1, …
	Seeds    int
	Player   engine.Player // decides for every seat
	MaxMoves int           // a game longer than this fails (0: 10,000)
}

// Run plays every game of c as a subtest and fails on the first broken
// promise of the contract in each.
func Run(t *testing.T, c Config) {
	t.Helper()
	for _, setup := range c.Setups {
		for i := range c.Seeds {
			s := setup
			s.Seed += int64(i)
			t.Run(fmt.Sprintf("players=%d/options=%v/seed=%d", s.Players, s.Options, s.Seed), func(t *testing.T) {
				if err := Play(c.Game, s, c.Player, c.MaxMoves); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// Play plays one game of setup to its end and returns the first broken
// promise of the contract: at every step Check holds, the deciding seats
// are valid, a forced move applies, a move not understood or sent by a seat
// not deciding is refused with the right error and changes nothing, Seq
// grows with every move, the bytes decode to the same state (and play goes
// on from the decoded copy), a changed schema version is refused, the views
// encode as JSON, the public view holds no private field and a seat's view
// none but its own (see LeakTo). Seats decide
// in a random order drawn from the setup's seed; one decision in ten is
// the player's Timeout.
func Play(g engine.Game, setup engine.Setup, p engine.Player, maxMoves int) error {
	if maxMoves <= 0 {
		maxMoves = 10000
	}
	st, err := g.New(setup)
	if err != nil {
		return fmt.Errorf("new: %w", err)
	}
	r := rand.New(rand.NewPCG(uint64(setup.Seed), 0x656e67696e65))
	for n := 0; ; n++ {
		if err := checkState(g, st, setup.Players); err != nil {
			return fmt.Errorf("after %d moves: %w", n, err)
		}
		if st.Over() {
			return checkOver(st, setup.Players)
		}
		if n == maxMoves {
			return fmt.Errorf("not over after %d moves", n)
		}
		seats := st.ToDecide()
		seat := seats[r.IntN(len(seats))]
		before := st.Encode()
		m, forced := st.Forced(seat)
		switch {
		case forced:
		case r.IntN(10) == 0:
			m, err = p.Timeout(st, seat, r)
		default:
			m, err = p.Decide(st, seat, r)
		}
		if err != nil {
			return fmt.Errorf("move %d: player of seat %d: %w", n+1, seat, err)
		}
		if !bytes.Equal(st.Encode(), before) {
			return fmt.Errorf("move %d: the player of seat %d changed the state", n+1, seat)
		}
		if err := checkRefusals(st, seats, setup.Players, m, r); err != nil {
			return fmt.Errorf("after %d moves: %w", n, err)
		}
		seq := st.Seq()
		if _, err := st.Apply(seat, m); err != nil {
			return fmt.Errorf("move %d: seat %d %q (forced %v): %w", n+1, seat, m, forced, err)
		}
		if st.Seq() <= seq {
			return fmt.Errorf("move %d: seq %d after %d", n+1, st.Seq(), seq)
		}
		// Play goes on from the decoded copy: what the table does on every
		// update.
		if st, err = g.Decode(st.Encode()); err != nil {
			return fmt.Errorf("move %d: decode: %w", n+1, err)
		}
	}
}

// checkState checks one state of a game in progress or over.
func checkState(g engine.Game, st engine.State, players int) error {
	if err := st.Check(); err != nil {
		return err
	}
	data := st.Encode()
	if _, err := engine.SchemaOf(data); err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	back, err := g.Decode(data)
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	if !bytes.Equal(back.Encode(), data) {
		return errors.New("encode, decode, encode changes the bytes")
	}
	if back.Seq() != st.Seq() || !slices.Equal(back.ToDecide(), st.ToDecide()) || back.Over() != st.Over() {
		return errors.New("the decoded state differs in seq, seats deciding or end")
	}
	if _, err := g.Decode(data[:len(data)-1]); err == nil {
		return errors.New("a truncated state decodes")
	}
	newer := binary.AppendUvarint(nil, 1<<40)
	if _, err := g.Decode(append(newer, data[len(binary.AppendUvarint(nil, mustSchema(data))):]...)); !errors.Is(err, engine.ErrSchemaTooNew) {
		return fmt.Errorf("a state of schema 1<<40 decodes with error %v, want ErrSchemaTooNew", err)
	}
	seats := st.ToDecide()
	if st.Over() != (len(seats) == 0) {
		return fmt.Errorf("over %v with seats %v to decide", st.Over(), seats)
	}
	for i, s := range seats {
		if s < 0 || s >= players || (i > 0 && seats[i-1] >= s) {
			return fmt.Errorf("seats to decide %v", seats)
		}
	}
	pub := st.View(engine.Public)
	if path := Leak(pub); path != "" {
		return fmt.Errorf("the public view shows the private field %s", path)
	}
	if !reflect.DeepEqual(jsonOf(pub), jsonOf(back.View(engine.Public))) {
		return errors.New("the decoded state has another public view")
	}
	for s := range players {
		v := st.View(s)
		if _, err := json.Marshal(v); err != nil {
			return fmt.Errorf("view of seat %d: %w", s, err)
		}
		if path := LeakTo(v, s); path != "" {
			return fmt.Errorf("the view of seat %d shows the field %s, not its own", s, path)
		}
	}
	return nil
}

func mustSchema(data []byte) uint64 {
	v, _ := engine.SchemaOf(data)
	return v
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

// checkRefusals sends moves that must be refused and checks that they
// change nothing: a move no game understands, and m, a deciding seat's
// move, sent by a seat that is not deciding (when there is one).
func checkRefusals(st engine.State, seats []int, players int, m engine.Move, r *rand.Rand) error {
	before, seq := st.Encode(), st.Seq()
	unchanged := func(what string) error {
		if !bytes.Equal(st.Encode(), before) || st.Seq() != seq {
			return fmt.Errorf("%s changed the state", what)
		}
		return nil
	}
	if _, err := st.Apply(seats[0], "\x00 no such move"); !errors.Is(err, engine.ErrBadMove) {
		return fmt.Errorf("a garbage move gives %v, want ErrBadMove", err)
	}
	if err := unchanged("a garbage move"); err != nil {
		return err
	}
	for _, s := range r.Perm(players) {
		if slices.Contains(seats, s) {
			continue
		}
		// The move about to be played, sent by a seat that is not deciding.
		if _, err := st.Apply(s, m); !errors.Is(err, engine.ErrNotYourTurn) {
			return fmt.Errorf("seat %d, not deciding, sends %q: %v, want ErrNotYourTurn", s, m, err)
		}
		return unchanged("a move out of turn")
	}
	return nil
}

// checkOver checks a finished game: nobody decides, every move is refused
// with ErrGameOver, and the results rank every seat once.
func checkOver(st engine.State, players int) error {
	for s := range players {
		if _, ok := st.Forced(s); ok {
			return fmt.Errorf("seat %d has a forced move after the end", s)
		}
	}
	if _, err := st.Apply(0, "x"); !errors.Is(err, engine.ErrGameOver) {
		return fmt.Errorf("a move after the end gives %v, want ErrGameOver", err)
	}
	res := st.Results()
	if len(res) < players {
		return fmt.Errorf("%d results for %d players", len(res), players)
	}
	seen := map[int]bool{}
	for i, x := range res {
		if seen[x.Seat] {
			return fmt.Errorf("seat %d ranked twice", x.Seat)
		}
		seen[x.Seat] = true
		switch {
		case i == 0 && x.Rank != 1:
			return fmt.Errorf("first result ranked %d", x.Rank)
		case i > 0 && x.Rank != res[i-1].Rank && x.Rank != i+1:
			return fmt.Errorf("result %d ranked %d after rank %d", i+1, x.Rank, res[i-1].Rank)
		}
	}
	return nil
}

// Leak returns the path of the first field tagged `engine:"private"` that
// holds a non-zero value anywhere in v ("" when none does): what a public
// view must never show. It is LeakTo(v, engine.Public).
func Leak(v any) string { return LeakTo(v, engine.Public) }

// LeakTo returns the path of the first field of v that seat may not see
// ("" when none): a non-zero field tagged `engine:"private"` belongs to the
// seat named by the int field tagged `engine:"seat"` of the nearest struct
// around it that has one (only that seat may see it), or to nobody when no
// struct around it has one. Every seat may see everything else.
func LeakTo(v any, seat int) string {
	return leak(reflect.ValueOf(v), "view", seat, noOwner)
}

// noOwner marks a private field that no seat may see.
const noOwner = -1 << 31

func leak(v reflect.Value, path string, seat, owner int) string {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return ""
		}
		return leak(v.Elem(), path, seat, owner)
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if f := t.Field(i); f.Tag.Get("engine") == "seat" && v.Field(i).CanInt() {
				owner = int(v.Field(i).Int())
			}
		}
		for i := range v.NumField() {
			f := t.Field(i)
			p := path + "." + f.Name
			if f.Tag.Get("engine") == "private" && !v.Field(i).IsZero() && (seat == engine.Public || owner != seat) {
				return p
			}
			if f.IsExported() {
				if l := leak(v.Field(i), p, seat, owner); l != "" {
					return l
				}
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if l := leak(v.Index(i), fmt.Sprintf("%s[%d]", path, i), seat, owner); l != "" {
				return l
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if l := leak(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), seat, owner); l != "" {
				return l
			}
		}
	}
	return ""
}
