package qwixx

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/dixgame/dixbot/engine/qwixx"
)

// A value network reads, from a seat's side, its chance of finishing
// first (alone or tied, Q10) from the sheets between two rolls: one
// hidden layer of tanh units over the features of netFeaturesOf, and a
// logistic output. It is trained by temporal differences (FitValueNet,
// `dixsim netfit`): the seat plays games against normal players, each of
// its decisions the one after which the network expects the most
// (netRoll), and after each game every position it passed through is
// moved towards the λ-return of the positions that followed and of how
// the game ended. Where a network is shipped (valueNetOf: three seats),
// the strong level's search puts the decision the network rates highest
// first among those it plays out, and its rollouts read the network
// where they stop short of the end (search.go). The package's notes
// (docs/computer-qwixx.md) say how it was trained and what it wins.

// netSeatInputs is the inputs of one seat: each row's code (one of
// rowCodes), its penalties (0–4), its points, its points still to come
// by the solitaire table, its open rows with five marks or more, its
// marks in open rows, its rows closed.
const netSeatInputs = 4*rowCodes + 5 + 1 + 4

// netInputs returns the inputs of a network at a table of players: every
// seat's (the seat first, then the others in turn order), who rolls
// next, the seat's margins over the best and second best of the others,
// the rows locked, and a constant.
func netInputs(players int) int { return players*netSeatInputs + players + 4 }

// netMaxActive bounds the inputs of a position that are not zero.
const netMaxActive = 64

// netInput is a position's inputs that are not zero: their indexes and
// values.
type netInput struct {
	idx [netMaxActive]int32
	val [netMaxActive]float32
	k   int
}

func (x *netInput) add(i int, v float32) { x.idx[x.k], x.val[x.k] = int32(i), v; x.k++ }

// ValueNet is a network of a table of players (netInputs inputs) and
// hidden units.
type ValueNet struct {
	players, hidden int
	w1              []float32 // by input, then hidden unit
	b1, w2          []float32 // by hidden unit
	b2              float32
}

// netFeaturesOf sets x to sg's position from its seat's side, between
// two rolls (sg.active has just rolled).
func (sg *simGame) netFeaturesOf(x *netInput) {
	x.k = 0
	n := sg.n
	best, second := math.MinInt32, math.MinInt32
	for k := range n {
		s := (sg.me + k) % n
		st := &sg.seats[s]
		base := k * netSeatInputs
		for c := range 4 {
			x.add(base+c*rowCodes+int(st.p.Rows[c]), 1)
		}
		x.add(base+4*rowCodes+min(int(st.p.Penalties), 4), 1)
		x.add(base+4*rowCodes+5, float32(st.score)/50)
		ready, marks := 0, 0
		for c := range 4 {
			if st.p.Rows[c] != rowClosed {
				marks += int(rowCount[st.p.Rows[c]])
				if rowCount[st.p.Rows[c]] >= endReadyMarks {
					ready++
				}
			}
		}
		x.add(base+4*rowCodes+6, float32(sg.potential(s))/50)
		x.add(base+4*rowCodes+7, float32(ready))
		x.add(base+4*rowCodes+8, float32(marks)/20)
		x.add(base+4*rowCodes+9, float32(st.lk))
		if k > 0 {
			if st.score > best {
				best, second = st.score, best
			} else if st.score > second {
				second = st.score
			}
		}
	}
	g := n * netSeatInputs
	x.add(g+(sg.active+1-sg.me+2*n)%n, 1) // who rolls next, counted from the seat
	me := sg.seats[sg.me].score
	x.add(g+n, float32(me-best)/20)
	if n > 2 {
		x.add(g+n+1, float32(me-second)/20)
	}
	x.add(g+n+2, float32(sg.lockCount()))
	x.add(g+n+3, 1)
}

// forward returns net's chance for the inputs x, leaving the hidden
// units' outputs in h (net.hidden long).
func (net *ValueNet) forward(x *netInput, h []float32) float64 {
	H := net.hidden
	copy(h, net.b1)
	for t := range x.k {
		w := net.w1[int(x.idx[t])*H : int(x.idx[t])*H+H]
		v := x.val[t]
		for j := range h {
			h[j] += v * w[j]
		}
	}
	z := float64(net.b2)
	for j := range h {
		a := float32(math.Tanh(float64(h[j])))
		h[j] = a
		z += float64(net.w2[j] * a)
	}
	return 1 / (1 + math.Exp(-z))
}

// netMaxHidden bounds a network's hidden units.
const netMaxHidden = 256

// chance returns net's chance that sg's seat finishes first.
func (net *ValueNet) chance(sg *simGame) float64 {
	var x netInput
	var h [netMaxHidden]float32
	sg.netFeaturesOf(&x)
	return net.forward(&x, h[:net.hidden])
}

// learn moves net's chance for x towards y by one step of gradient
// descent on the log-loss, at rate lr; h is a buffer of net.hidden.
func (net *ValueNet) learn(x *netInput, y float64, lr float32, h []float32) {
	p := net.forward(x, h)
	d := float32(p - y)
	H := net.hidden
	for j := range H {
		dh := d * net.w2[j] * (1 - h[j]*h[j])
		net.w2[j] -= lr * d * h[j]
		net.b1[j] -= lr * dh
		h[j] = dh
	}
	net.b2 -= lr * d
	for t := range x.k {
		w := net.w1[int(x.idx[t])*H : int(x.idx[t])*H+H]
		v := x.val[t] * lr
		for j := range w {
			w[j] -= v * h[j]
		}
	}
}

// netRoll plays sg's current roll with its seat deciding by net (the
// others by their rule, as turn): of every decision open to the seat
// (on its own roll, a white sum and a colour sum together), the one after
// which the game ended with the seat first, or net expects the most. It
// reports whether the game ended, and the value of the decision taken.
func (sg *simGame) netRoll(net *ValueNet) (bool, float64) {
	me := sg.me
	choice := sg.whitesWith(me, qwixx.Action{Pass: true})
	var x netInput
	var hb [netMaxHidden]float32
	h := hb[:net.hidden]
	bestV := -1.0
	var bestSG simGame
	bestEnd := false
	try := func(s2 *simGame, ended bool) {
		var v float64
		if ended {
			v = s2.won()
		} else {
			s2.netFeaturesOf(&x)
			v = net.forward(&x, h)
		}
		if v > bestV+1e-12 {
			bestV, bestSG, bestEnd = v, *s2, ended
		}
	}
	q := sg.seats[me].p
	for w := -1; w < 4; w++ {
		if w >= 0 && (sg.seats[me].lk >= 2 || !markTab[q.Rows[w]][sg.wpos[w]].ok) {
			continue
		}
		choice[me] = w
		s1 := *sg
		if sg.active != me {
			try(&s1, s1.afterWhite(&choice))
			continue
		}
		if s1.whiteAction(&choice) {
			try(&s1, true)
			continue
		}
		s1.colours(w >= 0, try)
	}
	*sg = bestSG
	return bestEnd, bestV
}

// after returns net's value of seat's decision a at g (pre: the sheets
// as public): the rest of the roll played with it, others by their rule;
// on the seat's own white sum, with the colour sum to follow that net
// rates highest. A decision that ends the game is worth 1 when the seat
// finishes first, else 0.
func (net *ValueNet) after(g *qwixx.Game, seat int, pre []qwixx.Sheet, a qwixx.Action) float64 {
	sg := newSimGame(g, seat, pre)
	if a.Kind != qwixx.ActWhite || g.Active != seat {
		if sg.first(a) {
			return sg.won()
		}
		return net.chance(&sg)
	}
	choice := sg.whitesWith(seat, a)
	if sg.whiteAction(&choice) {
		return sg.won()
	}
	best := math.Inf(-1)
	sg.colours(!a.Pass, func(next *simGame, ended bool) {
		if ended {
			best = max(best, next.won())
		} else {
			best = max(best, net.chance(next))
		}
	})
	return best
}

// firstOf returns cands with the decision of opts that net rates highest
// (after; the first of them on a tie) put first.
func (net *ValueNet) firstOf(g *qwixx.Game, seat int, pre []qwixx.Sheet, opts []Option, cands []qwixx.Action) []qwixx.Action {
	best, bv := 0, math.Inf(-1)
	for i, o := range opts {
		if v := net.after(g, seat, pre, o.Action); v > bv+1e-12 {
			best, bv = i, v
		}
	}
	a := opts[best].Action
	if k := slices.Index(cands, a); k >= 0 {
		cands = slices.Delete(cands, k, k+1)
	}
	return append([]qwixx.Action{a}, cands...)
}

// netMagic starts an encoded network.
const netMagic = "QXVN"

// Encode writes net: netMagic, its players, inputs and hidden units
// (uint32), then its weights (float32), all little-endian.
func (net *ValueNet) Encode(w io.Writer) error {
	var b bytes.Buffer
	b.WriteString(netMagic)
	for _, v := range []any{[3]uint32{uint32(net.players), uint32(netInputs(net.players)), uint32(net.hidden)}, net.w1, net.b1, net.w2, net.b2} {
		if err := binary.Write(&b, binary.LittleEndian, v); err != nil {
			return err
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// errBadNet is returned for an encoded network that is not one.
var errBadNet = errors.New("qwixx: not a value network")

// DecodeValueNet reads a network written by Encode.
func DecodeValueNet(r io.Reader) (*ValueNet, error) {
	magic := make([]byte, len(netMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != netMagic {
		return nil, errBadNet
	}
	var dims [3]uint32
	if err := binary.Read(r, binary.LittleEndian, &dims); err != nil {
		return nil, errBadNet
	}
	players, in, hidden := int(dims[0]), int(dims[1]), int(dims[2])
	if players < qwixx.MinPlayers || players > qwixx.MaxPlayers || in != netInputs(players) || hidden < 1 || hidden > netMaxHidden {
		return nil, fmt.Errorf("%w: %d seats, %d inputs, %d hidden units", errBadNet, players, in, hidden)
	}
	net := newValueNet(players, hidden)
	for _, v := range []any{net.w1, net.b1, net.w2, &net.b2} {
		if err := binary.Read(r, binary.LittleEndian, v); err != nil {
			return nil, errBadNet
		}
	}
	return net, nil
}

// newValueNet returns a network of players and hidden units, its weights
// zero.
func newValueNet(players, hidden int) *ValueNet {
	in := netInputs(players)
	return &ValueNet{players: players, hidden: hidden,
		w1: make([]float32, in*hidden), b1: make([]float32, hidden), w2: make([]float32, hidden)}
}

//go:embed valuenet3.bin
var valueNet3 []byte

// valueNets holds the shipped networks by table size, decoded at the
// first search.
var valueNets = sync.OnceValue(func() (n [qwixx.MaxPlayers + 1]*ValueNet) {
	net, err := DecodeValueNet(bytes.NewReader(valueNet3))
	if err != nil || net.players != 3 {
		panic(fmt.Sprintf("qwixx: the shipped value network: %v", err))
	}
	n[3] = net
	return n
})

// valueNetOf returns the network of a table of players, nil where none
// is shipped.
func valueNetOf(players int) *ValueNet {
	if players < 0 || players > qwixx.MaxPlayers {
		return nil
	}
	return valueNets()[players]
}

// FirstByNetwork reports whether the strong level at a table of players
// puts first, among the decisions it plays out, the one its value network
// rates highest (rather than the best by points): where a network is
// shipped.
func FirstByNetwork(players int) bool { return valueNetOf(players) != nil }

// NetFit is how FitValueNet trains: games played, the seed of their dice
// and of the first weights, the hidden units, the learning rate at the
// start and the games over which it halves (Decay; 0: constant), λ, and
// the network to start from (nil: random weights).
type NetFit struct {
	Players, Games, Hidden int
	Seed                   uint64
	Rate, Decay, Lambda    float64
	From                   *ValueNet
}

// FitValueNet trains a network by temporal differences as described at
// the top of this file; the same NetFit gives the same network. The seat
// is seat 0, the first seat drawn each game. progress, when not nil, is
// called with the games played every every games.
func FitValueNet(f NetFit, every int, progress func(games int, net *ValueNet)) (*ValueNet, error) {
	if f.Players < qwixx.MinPlayers || f.Players > qwixx.MaxPlayers || f.Games < 1 || f.Hidden < 1 || f.Hidden > netMaxHidden {
		return nil, fmt.Errorf("qwixx: FitValueNet: %d players, %d games, %d hidden units", f.Players, f.Games, f.Hidden)
	}
	if f.From != nil && (f.From.players != f.Players || f.From.hidden != f.Hidden) {
		return nil, fmt.Errorf("qwixx: FitValueNet: a network of %d seats and %d hidden units to start from", f.From.players, f.From.hidden)
	}
	r := rand.New(rand.NewPCG(f.Seed, 7))
	net := newValueNet(f.Players, f.Hidden)
	for i := range net.w1 { // drawn even when From replaces them, so that a seed plays the same games
		net.w1[i] = float32(r.NormFloat64() * 0.1)
	}
	for j := range net.w2 {
		net.w2[j] = float32(r.NormFloat64() * 0.1)
	}
	if f.From != nil {
		copy(net.w1, f.From.w1)
		copy(net.b1, f.From.b1)
		copy(net.w2, f.From.w2)
		net.b2 = f.From.b2
	}
	h := make([]float32, f.Hidden)
	xs := make([]netInput, 0, maxRolls)
	vs := make([]float64, 0, maxRolls)
	for gi := 1; gi <= f.Games; gi++ {
		sg := newNetGame(f.Players, r)
		xs, vs = xs[:0], vs[:0]
		for range maxRolls {
			sg.next(r)
			if ended, _ := sg.netRoll(net); ended {
				break
			}
			var x netInput
			sg.netFeaturesOf(&x)
			xs = append(xs, x)
			vs = append(vs, net.forward(&x, h))
		}
		rate := float32(f.Rate)
		if f.Decay > 0 {
			rate = float32(f.Rate) / float32(1+float64(gi)/f.Decay)
		}
		g := sg.won()
		for k := len(xs) - 1; k >= 0; k-- {
			if k < len(xs)-1 {
				g = (1-f.Lambda)*vs[k+1] + f.Lambda*g
			}
			net.learn(&xs[k], g, rate, h)
		}
		if progress != nil && every > 0 && gi%every == 0 {
			progress(gi, net)
		}
	}
	return net, nil
}

// newNetGame returns a new game of players for FitValueNet and PlayByNet,
// the seat seat 0, the first seat to roll drawn from r.
func newNetGame(players int, r *rand.Rand) simGame {
	sg := simGame{n: players, t: simTablesOf(players)}
	sg.active = (r.IntN(players) + players - 1) % players // next() passes the dice on first
	return sg
}

// PlayByNet plays games (the seeds' dice, the first seat drawn) with
// seat 0 deciding by net (netRoll) and the others by the normal level's
// rule, and returns the share seat 0 finished first in.
func PlayByNet(net *ValueNet, games int, seed uint64) float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	won := 0.0
	for range games {
		sg := newNetGame(net.players, r)
		for range maxRolls {
			sg.next(r)
			if ended, _ := sg.netRoll(net); ended {
				break
			}
		}
		won += sg.won()
	}
	return won / float64(games)
}
