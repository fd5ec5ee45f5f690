package engine_test

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/enginetest"
)

// higher is a toy second game played through the contract: two seats each
// hold the numbers 1…N (option "numbers", default 5); every round both
// choose one of theirs at once, the higher number wins the round's point,
// and after N rounds the most points win. A seat's pending choice is
// private until both have chosen.
type higherGame struct{}

type higher struct {
	n       int
	left    [2]uint16 // bit k: number k still held
	pending [2]int    // this round's choice, 0 while undecided
	points  [2]int
	last    [2]int // the numbers revealed at the end of the last round
	seq     uint64
}

// Events of higher.
type (
	chose    struct{ Seat int }
	revealed struct {
		Numbers [2]int
		Winner  int // -1: a tie
	}
)

type higherSeat struct {
	Seat   int   `json:"seat" engine:"seat"`
	Points int   `json:"points"`
	Left   []int `json:"left"`
	Chosen bool  `json:"chosen"`
	Choice int   `json:"choice,omitempty" engine:"private"`
	Last   int   `json:"last,omitempty"`
}

type higherView struct {
	Numbers int          `json:"numbers"`
	Seats   []higherSeat `json:"seats"`
}

func (higherGame) Name() string { return "higher" }

func (higherGame) New(s engine.Setup) (engine.State, error) {
	n := 5
	if v, ok := s.Options["numbers"]; ok {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			return nil, fmt.Errorf("%w: numbers %q", engine.ErrBadOptions, v)
		}
	}
	if s.Players != 2 || n < 1 || n > 9 {
		return nil, fmt.Errorf("%w: %d players, %d numbers", engine.ErrBadOptions, s.Players, n)
	}
	all := uint16(1<<(n+1) - 2)
	return &higher{n: n, left: [2]uint16{all, all}}, nil
}

func (higherGame) Decode(data []byte) (engine.State, error) {
	v, err := engine.SchemaOf(data)
	if err != nil {
		return nil, err
	}
	if v > 1 {
		return nil, fmt.Errorf("%w: schema %d", engine.ErrSchemaTooNew, v)
	}
	h := &higher{}
	fields := []*int{&h.n, nil, nil, &h.pending[0], &h.pending[1], &h.points[0], &h.points[1], &h.last[0], &h.last[1]}
	b := data[1:]
	for i, f := range fields {
		x, k := binary.Uvarint(b)
		if k <= 0 || x > 1<<16 {
			return nil, fmt.Errorf("%w: field %d", engine.ErrCorrupt, i)
		}
		b = b[k:]
		if f != nil {
			*f = int(x)
		} else {
			h.left[i-1] = uint16(x)
		}
	}
	seq, k := binary.Uvarint(b)
	if k <= 0 || k != len(b) {
		return nil, fmt.Errorf("%w: seq", engine.ErrCorrupt)
	}
	h.seq = seq
	if err := h.Check(); err != nil {
		return nil, fmt.Errorf("%w: %v", engine.ErrCorrupt, err)
	}
	if string(h.Encode()) != string(data) {
		return nil, fmt.Errorf("%w: not canonical", engine.ErrCorrupt)
	}
	return h, nil
}

func (h *higher) Encode() []byte {
	b := []byte{1}
	for _, x := range []int{h.n, int(h.left[0]), int(h.left[1]), h.pending[0], h.pending[1], h.points[0], h.points[1], h.last[0], h.last[1]} {
		b = binary.AppendUvarint(b, uint64(x))
	}
	return binary.AppendUvarint(b, h.seq)
}

func (h *higher) Seq() uint64 { return h.seq }

func (h *higher) played(s int) int { return h.n - bits.OnesCount16(h.left[s]) }

func (h *higher) Over() bool { return h.left == [2]uint16{} && h.pending == [2]int{} }

func (h *higher) ToDecide() []int {
	var seats []int
	for s := range 2 {
		if h.left[s] != 0 && h.pending[s] == 0 {
			seats = append(seats, s)
		}
	}
	return seats
}

func (h *higher) deciding(seat int) bool {
	return seat >= 0 && seat < 2 && h.left[seat] != 0 && h.pending[seat] == 0
}

func (h *higher) Forced(seat int) (engine.Move, bool) {
	if !h.deciding(seat) || bits.OnesCount16(h.left[seat]) != 1 {
		return "", false
	}
	return engine.Move(strconv.Itoa(bits.TrailingZeros16(h.left[seat]))), true
}

func (h *higher) Apply(seat int, m engine.Move) ([]engine.Event, error) {
	if h.Over() {
		return nil, engine.ErrGameOver
	}
	k, err := strconv.Atoi(string(m))
	if err != nil || k < 1 || k > 9 {
		return nil, fmt.Errorf("%w: %q", engine.ErrBadMove, m)
	}
	if !h.deciding(seat) {
		return nil, fmt.Errorf("%w: seat %d", engine.ErrNotYourTurn, seat)
	}
	if h.left[seat]&(1<<k) == 0 {
		return nil, fmt.Errorf("%w: %d not held", engine.ErrIllegalMove, k)
	}
	h.seq++
	h.left[seat] &^= 1 << k
	h.pending[seat] = k
	evs := []engine.Event{chose{Seat: seat}}
	if h.pending[0] == 0 || h.pending[1] == 0 {
		return evs, nil
	}
	r := revealed{Numbers: h.pending, Winner: -1}
	switch {
	case h.pending[0] > h.pending[1]:
		r.Winner = 0
	case h.pending[1] > h.pending[0]:
		r.Winner = 1
	}
	if r.Winner >= 0 {
		h.points[r.Winner]++
	}
	h.last, h.pending = h.pending, [2]int{}
	return append(evs, r), nil
}

func (h *higher) View(seat int) any {
	v := higherView{Numbers: h.n}
	for s := range 2 {
		sv := higherSeat{Seat: s, Points: h.points[s], Chosen: h.pending[s] != 0, Last: h.last[s]}
		for k := 1; k <= h.n; k++ {
			if h.left[s]&(1<<k) != 0 || h.pending[s] == k {
				sv.Left = append(sv.Left, k) // the pending choice still shows as held
			}
		}
		if s == seat {
			sv.Choice = h.pending[s]
		}
		v.Seats = append(v.Seats, sv)
	}
	return v
}

func (h *higher) Results() []engine.Result {
	a, b := engine.Result{Seat: 0, Score: h.points[0], Rank: 1}, engine.Result{Seat: 1, Score: h.points[1], Rank: 1}
	switch {
	case a.Score > b.Score:
		b.Rank = 2
	case b.Score > a.Score:
		a, b = b, a
		b.Rank = 2
	}
	return []engine.Result{a, b}
}

func (h *higher) Check() error {
	fail := func(f string, args ...any) error {
		return fmt.Errorf("%w: %s", engine.ErrInvariant, fmt.Sprintf(f, args...))
	}
	if h.n < 1 || h.n > 9 {
		return fail("%d numbers", h.n)
	}
	round := min(h.played(0), h.played(1))
	for s := range 2 {
		if h.left[s]&^uint16(1<<(h.n+1)-2) != 0 {
			return fail("seat %d holds %b", s, h.left[s])
		}
		switch p := h.pending[s]; {
		case (p != 0) != (h.played(s) == round+1), h.played(s) > round+1:
			return fail("seat %d has played %d in round %d with choice %d", s, h.played(s), round, p)
		case p < 0 || p > h.n || (p != 0 && h.left[s]&(1<<p) != 0):
			return fail("seat %d chose %d", s, p)
		}
	}
	if h.points[0]+h.points[1] > round || h.points[0] < 0 || h.points[1] < 0 {
		return fail("points %v after %d rounds", h.points, round)
	}
	return nil
}

// higherPlayer chooses at random, and the lowest number at a timeout.
type higherPlayer struct{}

func (higherPlayer) choose(s engine.State, seat int, pick func(held []int) int) (engine.Move, error) {
	h, ok := s.(*higher)
	if !ok {
		return "", engine.ErrWrongGame
	}
	if !h.deciding(seat) {
		return "", engine.ErrNotYourTurn
	}
	var held []int
	for k := 1; k <= h.n; k++ {
		if h.left[seat]&(1<<k) != 0 {
			held = append(held, k)
		}
	}
	return engine.Move(strconv.Itoa(pick(held))), nil
}

func (p higherPlayer) Decide(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	return p.choose(s, seat, func(held []int) int { return held[r.IntN(len(held))] })
}

func (p higherPlayer) Timeout(s engine.State, seat int, _ *rand.Rand) (engine.Move, error) {
	return p.choose(s, seat, func(held []int) int { return held[0] })
}

func TestHigherConformance(t *testing.T) {
	var setups []engine.Setup
	for _, n := range []string{"1", "2", "5", "9"} {
		setups = append(setups, engine.Setup{Players: 2, Seed: 1, First: -1, Options: map[string]string{"numbers": n}})
	}
	enginetest.Run(t, enginetest.Config{Game: higherGame{}, Setups: setups, Seeds: 25, Player: higherPlayer{}})
}

func TestHigherBothDecideAtOnceAndTheChoiceStaysHidden(t *testing.T) {
	st, err := higherGame{}.New(engine.Setup{Players: 2, First: -1})
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1}, st.ToDecide())

	evs, err := st.Apply(1, "4")
	require.NoError(t, err)
	assert.Equal(t, []engine.Event{chose{Seat: 1}}, evs)
	assert.Equal(t, []int{0}, st.ToDecide())

	_, err = st.Apply(1, "5")
	assert.ErrorIs(t, err, engine.ErrNotYourTurn)

	public, err := json.Marshal(st.View(engine.Public))
	require.NoError(t, err)
	other, err := json.Marshal(st.View(0))
	require.NoError(t, err)
	own, err := json.Marshal(st.View(1))
	require.NoError(t, err)
	assert.NotContains(t, string(public), `"choice"`)
	assert.NotContains(t, string(other), `"choice"`)
	assert.Contains(t, string(own), `"choice":4`)
	assert.Equal(t, "", enginetest.Leak(st.View(engine.Public)))
	assert.Equal(t, "view.Seats[1].Choice", enginetest.Leak(st.View(1)))
	assert.Equal(t, "", enginetest.LeakTo(st.View(1), 1))
	assert.Equal(t, "view.Seats[1].Choice", enginetest.LeakTo(st.View(1), 0))

	evs, err = st.Apply(0, "3")
	require.NoError(t, err)
	assert.Equal(t, []engine.Event{chose{Seat: 0}, revealed{Numbers: [2]int{3, 4}, Winner: 1}}, evs)
	assert.Equal(t, []int{0, 1}, st.ToDecide())
	assert.Equal(t, uint64(2), st.Seq())
}

func TestHigherForcesTheLastNumber(t *testing.T) {
	st, err := higherGame{}.New(engine.Setup{Players: 2, Options: map[string]string{"numbers": "2"}})
	require.NoError(t, err)
	_, ok := st.Forced(0)
	assert.False(t, ok, "two numbers left: a choice")
	for _, s := range []int{0, 1} {
		_, err := st.Apply(s, "2")
		require.NoError(t, err)
	}
	m, ok := st.Forced(0)
	assert.True(t, ok)
	assert.Equal(t, engine.Move("1"), m)
}

func TestHigherRefusals(t *testing.T) {
	st, err := higherGame{}.New(engine.Setup{Players: 2})
	require.NoError(t, err)
	enginetest.Refuses(t, st, []enginetest.Refusal{
		{Name: "not a number", Seat: 0, Move: "seven", Want: []error{engine.ErrBadMove}},
		{Name: "out of range", Seat: 0, Move: "12", Want: []error{engine.ErrBadMove}},
		{Name: "not held", Seat: 0, Move: "7", Want: []error{engine.ErrIllegalMove}},
		{Name: "no such seat", Seat: 2, Move: "1", Want: []error{engine.ErrNotYourTurn}},
		{Name: "public seat", Seat: engine.Public, Move: "1", Want: []error{engine.ErrNotYourTurn}},
	})
}

// TestRefusalCheck checks that a refusal check fails on a move accepted
// and on a refusal with the wrong error, and that Refused knows the
// contract's sentinels only.
func TestRefusalCheck(t *testing.T) {
	st, err := higherGame{}.New(engine.Setup{Players: 2})
	require.NoError(t, err)
	assert.ErrorContains(t, enginetest.Refusal{Seat: 0, Move: "not held", Want: []error{engine.ErrIllegalMove}}.Check(st), "want")
	assert.NoError(t, enginetest.Refusal{Seat: 0, Move: "x", Want: []error{engine.ErrBadMove}}.Check(st))
	assert.ErrorContains(t, enginetest.Refusal{Seat: 0, Move: "3", Want: []error{engine.ErrBadMove}}.Check(st), "accepted")

	for _, e := range []error{engine.ErrBadMove, engine.ErrNotYourTurn, engine.ErrIllegalMove, engine.ErrGameOver} {
		assert.True(t, enginetest.Refused(fmt.Errorf("seat 1: %w", e)), "%v", e)
	}
	assert.False(t, enginetest.Refused(engine.ErrCorrupt))
	assert.False(t, enginetest.Refused(nil))
}

func TestLeak(t *testing.T) {
	type inner struct {
		Secret string `engine:"private"`
		Open   string
	}
	type owned struct {
		Seat int `engine:"seat"`
		Hand inner
	}
	type outer struct {
		Ptr   *inner
		List  []inner
		Map   map[string]inner
		Any   any
		Empty inner
		Seats []owned
	}
	tests := []struct {
		name string
		v    any
		seat int
		want string
	}{
		{"nothing private set", outer{Ptr: &inner{Open: "x"}, List: []inner{{Open: "y"}}}, engine.Public, ""},
		{"through a pointer", outer{Ptr: &inner{Secret: "s"}}, engine.Public, "view.Ptr.Secret"},
		{"in a slice", outer{List: []inner{{}, {Secret: "s"}}}, engine.Public, "view.List[1].Secret"},
		{"in a map", outer{Map: map[string]inner{"k": {Secret: "s"}}}, engine.Public, "view.Map[k].Secret"},
		{"in an interface", outer{Any: &inner{Secret: "s"}}, engine.Public, "view.Any.Secret"},
		{"nil", nil, engine.Public, ""},
		{"nobody's, to a seat", outer{Ptr: &inner{Secret: "s"}}, 0, "view.Ptr.Secret"},
		{"a seat's own", outer{Seats: []owned{{Seat: 0}, {Seat: 1, Hand: inner{Secret: "s"}}}}, 1, ""},
		{"another seat's", outer{Seats: []owned{{Seat: 0}, {Seat: 1, Hand: inner{Secret: "s"}}}}, 0, "view.Seats[1].Hand.Secret"},
		{"a seat's, in public", outer{Seats: []owned{{Seat: 1, Hand: inner{Secret: "s"}}}}, engine.Public, "view.Seats[0].Hand.Secret"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, enginetest.LeakTo(tc.v, tc.seat))
		})
	}
}

// leaky is higher with a view that shows a pending choice to whom it must
// not: seat 0's in the public view, or every seat's to every seat.
type leakyGame struct {
	higherGame
	toSeats bool
}

type leaky struct {
	*higher
	toSeats bool
}

func (g leakyGame) New(s engine.Setup) (engine.State, error) {
	st, err := g.higherGame.New(s)
	if err != nil {
		return nil, err
	}
	return leaky{st.(*higher), g.toSeats}, nil
}

func (g leakyGame) Decode(data []byte) (engine.State, error) {
	st, err := g.higherGame.Decode(data)
	if err != nil {
		return nil, err
	}
	return leaky{st.(*higher), g.toSeats}, nil
}

func (l leaky) View(seat int) any {
	if !l.toSeats && seat == engine.Public {
		seat = 0
	}
	v := l.higher.View(seat).(higherView)
	if l.toSeats && seat != engine.Public {
		for s := range v.Seats {
			v.Seats[s].Choice = l.pending[s]
		}
	}
	return v
}

type leakyPlayer struct{ higherPlayer }

func (p leakyPlayer) Decide(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	return p.higherPlayer.Decide(s.(leaky).higher, seat, r)
}

func (p leakyPlayer) Timeout(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	return p.higherPlayer.Timeout(s.(leaky).higher, seat, r)
}

func TestPlayFindsALeak(t *testing.T) {
	tests := []struct {
		name    string
		toSeats bool
		want    string
	}{
		{"in the public view", false, "the public view shows the private field view.Seats[0].Choice"},
		{"to another seat", true, "shows the field view.Seats"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := enginetest.Play(leakyGame{toSeats: tc.toSeats}, engine.Setup{Players: 2, Seed: 3}, leakyPlayer{}, 0)
			require.Error(t, err)
			assert.True(t, strings.Contains(err.Error(), tc.want), "got %v", err)
		})
	}
}

func TestSchemaOf(t *testing.T) {
	v, err := engine.SchemaOf([]byte{3, 9})
	require.NoError(t, err)
	assert.Equal(t, uint64(3), v)
	_, err = engine.SchemaOf(nil)
	assert.True(t, errors.Is(err, engine.ErrCorrupt))
}
