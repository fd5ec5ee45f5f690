package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	computer "github.com/dixgame/dixbot/computer/qwixx"
	"github.com/dixgame/dixbot/engine/qwixx"
)

// qwixxPolicy decides for the seats it plays.
type qwixxPolicy func(g *qwixx.Game, seat int, r *rand.Rand) (qwixx.Action, error)

// qwixxPolicies returns one policy per seat from a name for every seat or
// a comma-separated list, one per seat (the last repeats): easy, normal,
// strong (the computer player's levels), simple, table:F (the strong
// level's decisions with its solitaire table's values times F, to measure
// the factors it uses) or seer (a player that sees the next roll: a bound
// to measure the strong level against); mix is simple and normal by turns
// of seat.
func qwixxPolicies(spec string, seats int) ([]qwixxPolicy, []string, error) {
	var pol []qwixxPolicy
	var names []string
	pols := &pol
	for _, n := range seatPolicies(spec, seats, "normal") {
		if k, ok := strings.CutPrefix(n, "table:"); ok {
			f, err := strconv.ParseFloat(k, 64)
			if err != nil || f <= 0 {
				return nil, nil, fmt.Errorf("%w: policy %q (table:F, F > 0)", errUsage, n)
			}
			pol = append(pol, func(g *qwixx.Game, seat int, _ *rand.Rand) (qwixx.Action, error) {
				return computer.DecideUnder(g, seat, computer.TableFuture(g, seat, f))
			})
		} else if n == "simple" {
			pol = append(pol, simpleQwixx)
		} else if n == "seer" {
			pol = append(pol, seerQwixx(pols))
		} else {
			lvl, err := computer.ParseLevel(n)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: policy %q (mix, simple, easy, normal, strong)", errUsage, n)
			}
			pol = append(pol, func(g *qwixx.Game, seat int, r *rand.Rand) (qwixx.Action, error) {
				return computer.Decide(g, seat, lvl, r)
			})
		}
		names = append(names, n)
	}
	return pol, names, nil
}

// seerQwixx returns the policy of a player that sees the next roll, a
// bound on what looking ahead can gain: for each decision open to it, it
// plays a copy of the game (the copy rolls the real dice) to the next
// roll, every other seat deciding by its own policy of pols and itself by
// the strong level, and takes the decision after which the strong level's
// best decision on that roll expects the most points (its final score
// when the game ended first).
func seerQwixx(pols *[]qwixxPolicy) qwixxPolicy {
	return func(g *qwixx.Game, seat int, r *rand.Rand) (qwixx.Action, error) {
		acts := g.LegalActions(seat)
		if len(acts) == 0 {
			return qwixx.Action{}, fmt.Errorf("dixsim: seat %d has nothing to decide", seat)
		}
		best, bv := acts[0], math.Inf(-1)
		for _, a := range acts {
			h := g.Clone()
			if _, err := h.Apply(seat, a); err != nil {
				return a, err
			}
			for !h.Over() && h.Turn == g.Turn {
				for _, s := range h.ToDecide() {
					var b qwixx.Action
					var err error
					if s == seat {
						b, err = computer.Decide(h, s, computer.Strong, r)
					} else {
						b, err = (*pols)[s](h, s, r)
					}
					if err != nil {
						return a, err
					}
					if _, err := h.Apply(s, b); err != nil {
						return a, err
					}
				}
			}
			v := float64(h.Sheets[seat].Score())
			if !h.Over() {
				v = math.Inf(-1)
				for _, o := range computer.Options(h, seat) {
					v = max(v, o.Points)
				}
			}
			if v > bv+1e-9 {
				best, bv = a, v
			}
		}
		return best, nil
	}
}

// simpleQwixx marks a number only when it leaves no gap (it is the box
// right after the row's last mark, or the row's first box), the white sum
// in the first such row, a colour sum likewise; otherwise it passes (and
// takes the penalty that follows).
func simpleQwixx(g *qwixx.Game, seat int, _ *rand.Rand) (qwixx.Action, error) {
	acts := g.LegalActions(seat)
	if len(acts) == 0 {
		return qwixx.Action{}, fmt.Errorf("dixsim: seat %d has nothing to decide", seat)
	}
	for _, a := range acts {
		if !a.Pass && qwixx.Pos(a.Color, a.Number) == g.Sheets[seat].Rows[a.Color].Right()+1 {
			return a, nil
		}
	}
	return acts[len(acts)-1], nil // the pass comes last
}

// qwixxStats sums up simulated games of Qwixx.
type qwixxStats struct {
	games, rolls, byLocks int
	scoreSum, scoreSq     []float64 // by seat
	wins, penalties       []int     // by seat: games won or shared (Q10), penalties
	byTurn                []int     // by place in the turn order (0: the first active seat): games won or shared
	seat0Turn             [][2]int  // by seat 0's place in the turn order: games, games won or shared
	minScore, maxScore    int       // seat 0
	slowest               []time.Duration
	elapsed               time.Duration
}

// runQwixxSim implements `dixsim sim -game qwixx`: players 2–5, or
// solitaire (one sheet, active every roll).
func runQwixxSim(cfg simConfig, solitaire bool, out io.Writer) error {
	players := cfg.players
	if solitaire {
		players = 1
	}
	if cfg.policy == "" || cfg.policy == "mix" && solitaire {
		cfg.policy = "strong"
	}
	pol, names, err := qwixxPolicies(cfg.policy, players)
	if err != nil {
		return err
	}
	st := qwixxStats{
		scoreSum: make([]float64, players), scoreSq: make([]float64, players),
		wins: make([]int, players), penalties: make([]int, players), slowest: make([]time.Duration, players),
		byTurn: make([]int, players), seat0Turn: make([][2]int, players),
		minScore: math.MaxInt, maxScore: math.MinInt,
	}
	start := time.Now()
	var buf [10]qwixx.Action
	for i := range cfg.games {
		seed := cfg.seed + int64(i)
		g, err := qwixx.New(qwixx.Options{Players: players, Seed: seed, First: -1, Solitaire: solitaire})
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		r := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
		for !g.Over() {
			for _, seat := range g.ToDecide() {
				t0 := time.Now()
				a, err := pol[seat](g, seat, r)
				st.slowest[seat] = max(st.slowest[seat], time.Since(t0))
				if err != nil {
					return fmt.Errorf("dixsim: seed %d, roll %d, seat %d: %w", seed, g.Turn, seat, err)
				}
				if _, err := g.Apply(seat, a); err != nil {
					return fmt.Errorf("dixsim: seed %d, roll %d, seat %d, %s (legal: %v): %w", seed, g.Turn, seat, a, g.AppendLegal(buf[:0], seat), err)
				}
				if cfg.check {
					if err := g.Check(); err != nil {
						return fmt.Errorf("dixsim: seed %d, roll %d, seat %d, %s: %w", seed, g.Turn, seat, a, err)
					}
				}
			}
		}
		st.tally(g)
	}
	st.elapsed = time.Since(start)
	return printQwixxStats(out, cfg, solitaire, names, st)
}

// tally adds the finished game g to st.
func (st *qwixxStats) tally(g *qwixx.Game) {
	players := len(st.wins)
	st.games++
	st.rolls += g.Turn
	if g.Ended == qwixx.EndLocks {
		st.byLocks++
	}
	for s := range players {
		sc := g.Sheets[s].Score()
		st.scoreSum[s] += float64(sc)
		st.scoreSq[s] += float64(sc * sc)
		st.penalties[s] += g.Sheets[s].Penalties
		if s == 0 {
			st.minScore, st.maxScore = min(st.minScore, sc), max(st.maxScore, sc)
		}
	}
	place := func(s int) int { return (s - g.First + players) % players }
	st.seat0Turn[place(0)][0]++
	for _, w := range g.Winners() {
		st.wins[w]++
		st.byTurn[place(w)]++
		if w == 0 {
			st.seat0Turn[place(0)][1]++
		}
	}
}

// printQwixxStats writes the report of a run of runQwixxSim.
func printQwixxStats(out io.Writer, cfg simConfig, solitaire bool, names []string, st qwixxStats) error {
	g := float64(st.games)
	var sb strings.Builder
	mode := fmt.Sprintf("qwixx, %d players", len(names))
	if solitaire {
		mode = "qwixx solitaire"
	}
	fmt.Fprintf(&sb, "games:          %d (%s, policies %s, seeds %d…%d", st.games, mode, strings.Join(names, " "), cfg.seed, cfg.seed+int64(st.games)-1)
	if cfg.check {
		sb.WriteString(", checked")
	}
	sb.WriteString(")\n")
	fmt.Fprintf(&sb, "games/second:   %.0f\n", g/max(st.elapsed.Seconds(), 1e-9))
	fmt.Fprintf(&sb, "rolls/game:     %.1f\n", float64(st.rolls)/g)
	fmt.Fprintf(&sb, "ended by locks: %.1f%% (the rest by a fourth penalty)\n", 100*float64(st.byLocks)/g)
	for seat := range names {
		mean := st.scoreSum[seat] / g
		sd := math.Sqrt(max(st.scoreSq[seat]/g-mean*mean, 0))
		half := 1.959964 * sd / math.Sqrt(g)
		if solitaire {
			fmt.Fprintf(&sb, "average score:  %s %.2f ± %.2f (95%%), min %d, max %d, penalties %.2f\n", names[seat], mean, half, st.minScore, st.maxScore, float64(st.penalties[seat])/g)
			break
		}
		lo, hi := wilson(st.wins[seat], st.games)
		fmt.Fprintf(&sb, "win rate:       p%d %s %.1f%% (95%% CI %.1f–%.1f%%), average score %.2f ± %.2f, penalties %.2f\n",
			seat, names[seat], 100*float64(st.wins[seat])/g, 100*lo, 100*hi, mean, half, float64(st.penalties[seat])/g)
	}
	if !solitaire {
		// Every seat holds each place in the turn order as often, over
		// many games (the first active seat is drawn): with one policy
		// at every seat, the wins by place say what moving first is worth.
		sb.WriteString("by turn order:  wins")
		for place, w := range st.byTurn {
			lo, hi := wilson(w, st.games)
			fmt.Fprintf(&sb, " %s %.1f%% (%.1f–%.1f%%)", ordinal(place+1), 100*float64(w)/g, 100*lo, 100*hi)
		}
		fmt.Fprintf(&sb, "; p0 %s", names[0])
		for place, c := range st.seat0Turn {
			if c[0] > 0 {
				fmt.Fprintf(&sb, " %s %.1f%% of %d", ordinal(place+1), 100*float64(c[1])/float64(c[0]), c[0])
			}
		}
		sb.WriteString("\n")
	}
	sb.WriteString("slowest decision:")
	for seat := range names {
		fmt.Fprintf(&sb, " p%d %s %s", seat, names[seat], st.slowest[seat].Round(time.Microsecond))
	}
	sb.WriteString(" (wall clock, this machine)\n")
	_, err := io.WriteString(out, sb.String())
	return err
}

// ordinal writes n (1–5) as an English ordinal: 1st, 2nd, 3rd, 4th, 5th.
func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return strconv.Itoa(n) + "th"
}
