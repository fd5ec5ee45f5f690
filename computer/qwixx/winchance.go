package qwixx

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dixgame/dixbot/engine/qwixx"
)

// A rollout of the search (search.go) need not be played to the end of
// the game: after searchHorizon rolls, the seat's chance of finishing
// first is read from the sheets by a logistic model (winModel) fitted on
// games of the strong level against normal players (FitWinModel,
// `dixsim winfit`). The rolls played take in what the next few rolls
// do to the candidates; the model stands for the rest of the game, which
// the seat's own rollout play (its table) would play worse than the strong
// level does, and with far more noise than a probability has. Where no
// model is fitted (searchHorizon 0) the rollouts go to the end.

// searchHorizon is, by seats, the rolls a rollout plays before the model
// reads it (0: to the end of the game). The package's notes
// (docs/computer-qwixx.md) say how they were chosen.
var searchHorizon = [qwixx.MaxPlayers + 1]int{3: 10, 4: 8, 5: 10}

// winFeatures is the number of a position's features (winFeaturesOf).
const winFeatures = 21

// winModel is the weights of a logistic model of the seat's chance of
// finishing first (alone or tied, Q10), one for each of winFeaturesOf's
// features.
type winModel [winFeatures]float64

// winModelOf returns the model of a table of players, nil where none is
// fitted.
func winModelOf(players int) *winModel {
	if players < 0 || players >= len(winModels) || searchHorizon[players] == 0 {
		return nil
	}
	return winModels[players]
}

// chance returns m's chance that sg's seat finishes first.
func (m *winModel) chance(sg *simGame) float64 {
	var x [winFeatures]float64
	sg.winFeaturesOf(&x)
	z := 0.0
	for i, v := range x {
		z += m[i] * v
	}
	return 1 / (1 + math.Exp(-z))
}

// potential returns seat s's points still to come by the solitaire
// table, unscaled: 0 once its game is over.
func (sg *simGame) potential(s int) float64 {
	st := &sg.seats[s]
	if st.lk >= 2 || st.p.Penalties >= qwixx.MaxPenalties {
		return 0
	}
	v := 0.0
	for _, code := range st.p.Rows {
		v += float64(compactTable[st.p.Penalties][min(st.lk, 1)][code])
	}
	return v
}

// winFeaturesOf writes the features of sg's position, from its seat's
// side, between two rolls. A seat's forecast is its points plus half its
// potential; the leader and the second are the other seats with the best
// forecasts (at two seats the second is the leader), points in tens:
//
//	0 1 (the intercept)
//	1 d: the seat's points less the most points of another seat
//	2 f: the seat's forecast less the leader's
//	3 f × the rows locked
//	4 f × the seat's marks / 20
//	5 d × the rows locked
//	6 d × the seat's marks / 20
//	7 the seat's potential / 10
//	8 the leader's potential / 10
//	9 the rows locked
//	10 the seat's penalties
//	11 the most penalties of another seat
//	12 t: 1 when a seat has five marks or more in an open row (it may lock it)
//	13 f × t
//	14 d × t
//	15 f2: the seat's forecast less the second's
//	16 d2: the seat's points less the second most points of another seat
//	17 f2 × s, with s the marks of every seat / (15 × seats)
//	18 d × s
//	19 f × s
//	20 s
func (sg *simGame) winFeaturesOf(x *[winFeatures]float64) {
	me := sg.me
	mine := float64(sg.seats[me].score)
	pot := sg.potential(me)
	fore := mine + pot/2
	f1, f2 := math.Inf(-1), math.Inf(-1) // the best two forecasts of the others
	p1, p2 := math.Inf(-1), math.Inf(-1) // the most points of the others, and the second
	leaderPot := 0.0
	pen, ready := 0, 0.0
	marks, all := 0, 0
	for s := range sg.n {
		for c, code := range sg.seats[s].p.Rows {
			if code == rowClosed {
				continue
			}
			all += int(rowCount[code])
			if s == me {
				marks += int(rowCount[code])
			}
			if !sg.locked[c] && rowCount[code] >= endReadyMarks {
				ready = 1
			}
		}
		if s == me {
			continue
		}
		pts := float64(sg.seats[s].score)
		switch {
		case pts > p1:
			p1, p2 = pts, p1
		case pts > p2:
			p2 = pts
		}
		sp := sg.potential(s)
		switch f := pts + sp/2; {
		case f > f1:
			f1, f2, leaderPot = f, f1, sp
		case f > f2:
			f2 = f
		}
		pen = max(pen, sg.seats[s].p.Penalties)
	}
	if sg.n == 2 {
		f2, p2 = f1, p1
	}
	d, f := (mine-p1)/10, (fore-f1)/10
	d2, fs := (mine-p2)/10, (fore-f2)/10
	locks := float64(sg.lockCount())
	m := float64(marks) / 20
	st := float64(all) / float64(15*sg.n)
	*x = [winFeatures]float64{
		1, d, f, f * locks, f * m, d * locks, d * m,
		pot / 10, leaderPot / 10, locks, float64(sg.seats[me].p.Penalties), float64(pen),
		ready, f * ready, d * ready,
		fs, d2, fs * st, d * st, f * st, st,
	}
}

// playOutTo plays sg from the next roll until the game ends or horizon
// rolls are played (0: to the end), and returns the seat's chance of
// finishing first (1 or 0 when the game ended; m's reading otherwise)
// and the rolls played.
func (sg *simGame) playOutTo(r *rand.Rand, horizon int, m chanceModel) (float64, int) {
	if horizon <= 0 || m == nil {
		return sg.playOut(r)
	}
	for n := range horizon {
		sg.next(r)
		if sg.turn() {
			return sg.won(), n + 1
		}
	}
	return m.chance(sg), horizon
}

// FitWinModel fits the model of the seat's chance of finishing first at
// a table of players (2 to 5): it plays games (seeds seed, seed+1, …, the
// first seat drawn) with seat 0 at the strong level, its rollouts played
// to the end of the game, and the others at the normal level, takes seat
// 0's features at the start of every roll, each labelled 1 when seat 0
// finished first, and fits the weights by iteratively reweighted least
// squares. It returns the weights, the mean log-loss of the fit on those
// positions (nats) and their number.
func FitWinModel(players, games int, seed int64) (weights [winFeatures]float64, logLoss float64, positions int, err error) {
	if players < 2 || players > qwixx.MaxPlayers || games < 1 {
		return weights, 0, 0, fmt.Errorf("qwixx: FitWinModel: %d players, %d games", players, games)
	}
	var xs [][winFeatures]float64
	var ys []float64
	for i := range games {
		g, err := qwixx.New(qwixx.Options{Players: players, Seed: seed + int64(i), First: -1})
		if err != nil {
			return weights, 0, 0, err
		}
		first, turn := len(xs), 0
		for !g.Over() {
			if g.Phase == qwixx.PhaseWhite && g.Turn != turn {
				turn = g.Turn
				sg := newSimGame(g, 0, g.Sheets)
				xs = append(xs, [winFeatures]float64{})
				sg.winFeaturesOf(&xs[len(xs)-1])
			}
			for _, seat := range g.ToDecide() {
				a, ok := bestOption(g, seat, normalFuture(g))
				if seat == 0 {
					a, ok = decideStrongToEnd(g, seat)
				}
				if !ok {
					return weights, 0, 0, fmt.Errorf("qwixx: FitWinModel: seed %d: seat %d has no decision", seed+int64(i), seat)
				}
				if _, err := g.Apply(seat, a); err != nil {
					return weights, 0, 0, err
				}
			}
		}
		won := 1.0
		for s := 1; s < players; s++ {
			if g.Sheets[s].Score() > g.Sheets[0].Score() {
				won = 0
			}
		}
		for range len(xs) - first {
			ys = append(ys, won)
		}
	}
	w, ll := fitLogistic(xs, ys)
	return w, ll, len(xs), nil
}

// fitLogistic returns the weights of the logistic regression of ys on xs
// (Newton's method, 25 steps) and the mean log-loss at them.
func fitLogistic(xs [][winFeatures]float64, ys []float64) ([winFeatures]float64, float64) {
	const n = winFeatures
	var w [n]float64
	ll := 0.0
	for range 25 {
		a := make([]float64, n*n)
		b := make([]float64, n)
		ll = 0
		for k, x := range xs {
			z := 0.0
			for i, v := range x {
				z += w[i] * v
			}
			p := min(max(1/(1+math.Exp(-z)), 1e-12), 1-1e-12)
			ll -= ys[k]*math.Log(p) + (1-ys[k])*math.Log(1-p)
			q := p * (1 - p)
			for i, v := range x {
				b[i] += v * (ys[k] - p)
				for j, u := range x {
					a[i*n+j] += q * v * u
				}
			}
		}
		for i := range n {
			a[i*n+i] += 1e-6 // a feature constant over the data leaves the system solvable
		}
		step := solve(a, b, n)
		for i := range w {
			w[i] += step[i]
		}
	}
	return w, ll / float64(max(len(xs), 1))
}
