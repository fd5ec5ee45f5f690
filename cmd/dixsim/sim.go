package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	computer "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/engine/qwixx"
)

// simConfig is what `dixsim sim` was asked to do.
type simConfig struct {
	games, players, difficulty int
	seed                       int64
	check, variant, analyse    bool
	policy                     string
}

// simStats sums up the simulated games.
type simStats struct {
	games, actions, turns, busts int
	scoreSum                     []int // by seat
	wins                         []int // by seat: games the seat won (or shared, R9)
	winScoreSum                  int
	elapsed                      time.Duration
	analysis                     *analysis // with -analyse
}

// simViolation is the first failed Check of a -check run.
type simViolation struct {
	seed   int64
	action int // 1-based, within the game
	a      dix.Action
	err    error
}

func (v *simViolation) Error() string {
	return fmt.Sprintf("dixsim: seed %d, action %d (%s): %v", v.seed, v.action, dix.FormatAction(v.a), v.err)
}

func (v *simViolation) Unwrap() error { return v.err }

// runSim implements `dixsim sim`.
func runSim(args []string, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(errOut)
	var cfg simConfig
	fs.IntVar(&cfg.games, "games", 1000, "number of games")
	players := fs.String("players", "4", "players per game, 1–5 (1: solo against ALIX), or a range such as 1..5 (the games for each count)")
	fs.Int64Var(&cfg.seed, "seed", 1, "seed of the first game; game i uses seed+i")
	fs.BoolVar(&cfg.check, "check", false, "run Check after every action; stop at the first violation")
	fs.IntVar(&cfg.difficulty, "difficulty", 6, "solo difficulty, 4–10")
	fs.BoolVar(&cfg.variant, "variant", false, "play the bust variant")
	fs.BoolVar(&cfg.analyse, "analyse", false, "also print what each seat did per game (cards drawn and kept, busts, money gained and lost, purchases, wilds) and seat 0's score margin, and seat 0's win rate had it scored 1, 2 or 3 points more")
	game := fs.String("game", "dix", "the game: dix or qwixx")
	solitaire := fs.Bool("solitaire", false, "qwixx: solitaire analysis (one sheet, active every roll; -players is ignored; policy strong unless given)")
	fs.StringVar(&cfg.policy, "policy", "mix", "automatic players: one name for every seat, or one per seat separated by commas (the last repeats); names: random, simple, easy, normal, strong (computer players), oracle (the strong player seeing the deck's order when it draws: an analysis bound, not a fair player), or mix (simple and random by turns of seat); qwixx: simple (marks only what leaves no gap), easy, normal, strong, or mix (simple and normal by turns of seat)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	lo, hi, err := parsePlayers(*players)
	if fs.NArg() != 0 || cfg.games < 1 || err != nil {
		return fmt.Errorf("%w: sim -games N -players P|A..B [-seed S] [-check]", errUsage)
	}
	switch {
	case *game == "qwixx" && *solitaire:
		return runQwixxSim(cfg, true, out)
	case *game == "qwixx":
		if lo < qwixx.MinPlayers || hi > qwixx.MaxPlayers {
			return fmt.Errorf("%w: qwixx is played by %d–%d players (or -solitaire)", errUsage, qwixx.MinPlayers, qwixx.MaxPlayers)
		}
		for p := lo; p <= hi; p++ {
			cfg.players = p
			if err := runQwixxSim(cfg, false, out); err != nil {
				return err
			}
		}
		return nil
	case *game != "dix" || *solitaire:
		return fmt.Errorf("%w: -game dix or qwixx; -solitaire is qwixx's", errUsage)
	}
	for p := lo; p <= hi; p++ {
		cfg.players = p
		policies, names, err := simPolicies(cfg.policy, cfg.players)
		if err != nil {
			return err
		}
		st, err := simulate(cfg, policies, (*dix.Game).Check)
		if err != nil {
			return err
		}
		if err := printStats(out, cfg, names, st); err != nil {
			return err
		}
		if st.analysis != nil {
			if err := st.analysis.print(out, st.games, names, cfg.players == 1); err != nil {
				return err
			}
		}
	}
	return nil
}

// parsePlayers reads "P" or a range "A..B" of player counts within 1–5 (a
// single count is left to dix.New to judge, as before).
func parsePlayers(s string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(s, "..")
	if lo, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	hi = lo
	if isRange {
		if hi, err = strconv.Atoi(b); err != nil {
			return 0, 0, err
		}
	}
	if isRange && (lo < 1 || hi > 5 || hi < lo) {
		return 0, 0, fmt.Errorf("bad range %q", s)
	}
	return lo, hi, nil
}

// seatPolicies reads a policy spec: one name for every seat or a
// comma-separated list, one per seat (the last repeats); "mix" is simple
// and alt by turns of seat. It returns the name of each seat's policy.
func seatPolicies(spec string, seats int, alt string) []string {
	list := strings.Split(spec, ",")
	names := make([]string, seats)
	for i := range names {
		n := strings.TrimSpace(list[min(i, len(list)-1)])
		if n == "mix" {
			n = "simple"
			if i%2 == 1 {
				n = alt
			}
		}
		names[i] = n
	}
	return names
}

// simPolicies returns one policy per seat (a solo game has one human seat)
// from a name for every seat or a comma-separated list, one per seat.
func simPolicies(name string, players int) ([]dix.Policy, []string, error) {
	var pol []dix.Policy
	var names []string
	for _, n := range seatPolicies(name, max(players, 1), "random") {
		switch n {
		case "simple":
			pol = append(pol, dix.SimplePolicy)
		case "random":
			pol = append(pol, dix.RandomPolicy)
		case "oracle":
			pol = append(pol, oraclePolicy)
		default:
			lvl, err := computer.ParseLevel(n)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: policy %q (mix, simple, random, easy, normal, strong, oracle)", errUsage, n)
			}
			pol = append(pol, computer.Policy(lvl))
		}
		names = append(names, n)
	}
	return pol, names, nil
}

// simulate plays cfg.games games; with cfg.check it calls check after every
// action and returns a *simViolation at the first failure.
func simulate(cfg simConfig, policies []dix.Policy, check func(*dix.Game) error) (simStats, error) {
	st := simStats{}
	var c dix.Choices
	var evs []dix.Event
	start := time.Now()
	if cfg.analyse {
		st.analysis = &analysis{}
	}
	for i := range cfg.games {
		seed := cfg.seed + int64(i)
		opts := dix.Options{Players: cfg.players, Seed: seed, FirstPlayer: -1, BustVariant: cfg.variant}
		if cfg.players == 1 {
			opts.Difficulty = cfg.difficulty
		}
		g, err := dix.New(opts)
		if err != nil {
			return st, fmt.Errorf("%w: %v", errUsage, err)
		}
		if st.scoreSum == nil {
			st.scoreSum = make([]int, len(g.Players))
			st.wins = make([]int, len(g.Players))
		}
		r := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
		n := 0
		for g.Phase != dix.PhaseOver {
			seat := g.ToAct()
			g.ChoicesInto(seat, &c)
			if len(c.Actions) == 0 {
				return st, &simViolation{seed: seed, action: n + 1, err: fmt.Errorf("%w: seat %d has no choice", dix.ErrInvariant, seat)}
			}
			a := policies[seat%len(policies)](g, seat, &c, r)
			phase := g.Phase
			evs, err = g.ApplyInto(evs[:0], a)
			n++
			if err != nil {
				return st, &simViolation{seed: seed, action: n, a: a, err: err}
			}
			if st.analysis != nil {
				st.analysis.observe(g, phase, evs)
			}
			for k := range evs {
				switch evs[k].Kind {
				case dix.EvTurnEnded:
					st.turns++
				case dix.EvBust:
					st.busts++
				}
			}
			if cfg.check {
				if err := check(g); err != nil {
					return st, &simViolation{seed: seed, action: n, a: a, err: err}
				}
			}
		}
		st.actions += n
		st.games++
		if st.analysis != nil {
			st.analysis.finish(g)
		}
		for k, res := range g.Results() {
			st.scoreSum[res.Player] += res.Score.Total
			if res.Rank == 1 {
				st.wins[res.Player]++
			}
			if k == 0 {
				st.winScoreSum += res.Score.Total
			}
		}
	}
	st.elapsed = time.Since(start)
	return st, nil
}

func printStats(out io.Writer, cfg simConfig, names []string, st simStats) error {
	g := float64(st.games)
	var sb strings.Builder
	mode := fmt.Sprintf("%d players", cfg.players)
	if cfg.players == 1 {
		mode = fmt.Sprintf("solo against ALIX, difficulty %d", cfg.difficulty)
	}
	fmt.Fprintf(&sb, "games:          %d (%s, policies %s, seeds %d…%d", st.games, mode, strings.Join(names, " "), cfg.seed, cfg.seed+int64(st.games)-1)
	if cfg.variant {
		sb.WriteString(", bust variant")
	}
	if cfg.check {
		sb.WriteString(", checked")
	}
	sb.WriteString(")\n")
	fmt.Fprintf(&sb, "games/second:   %.0f\n", g/max(st.elapsed.Seconds(), 1e-9))
	fmt.Fprintf(&sb, "actions/game:   %.1f\n", float64(st.actions)/g)
	fmt.Fprintf(&sb, "turns/game:     %.1f\n", float64(st.turns)/g)
	fmt.Fprintf(&sb, "bust rate:      %.1f%% of turns\n", 100*float64(st.busts)/max(float64(st.turns), 1))
	sb.WriteString("average score:  ")
	for seat, s := range st.scoreSum {
		label := fmt.Sprintf("p%d", seat)
		if cfg.players == 1 && seat == dix.Alix {
			label = "alix"
		}
		fmt.Fprintf(&sb, "%s %.2f  ", label, float64(s)/g)
	}
	sb.WriteString("\n")
	fmt.Fprintf(&sb, "winning score:  %.2f\n", float64(st.winScoreSum)/g)
	// Each seat's win rate (a shared victory counts for every winner),
	// with the Wilson score interval at 95%.
	for seat, w := range st.wins {
		if cfg.players == 1 && seat == dix.Alix {
			continue // the human's rate says it: ALIX wins the rest (or shares)
		}
		label := fmt.Sprintf("p%d %s", seat, names[min(seat, len(names)-1)])
		if cfg.players == 1 {
			label = "human " + names[0] + " vs ALIX"
		}
		lo, hi := wilson(w, st.games)
		fmt.Fprintf(&sb, "win rate:       %s %.1f%% (95%% CI %.1f–%.1f%%), average score %.2f\n",
			label, 100*float64(w)/g, 100*lo, 100*hi, float64(st.scoreSum[seat])/g)
	}
	_, err := io.WriteString(out, sb.String())
	return err
}

// wilson is the Wilson score interval at 95% of k successes in n trials.
func wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959964
	p, nf := float64(k)/float64(n), float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return max(0, mid-half), min(1, mid+half)
}

// oraclePolicy is an analysis device, never a player: the strong computer
// player, except that it sees the order of the deck when it draws (it
// draws exactly while the next card does not bust it). What it reaches
// bounds what any fair player can hope for against ALIX.
func oraclePolicy(g *dix.Game, seat int, c *dix.Choices, r *rand.Rand) dix.Action {
	has := func(k dix.ActionKind) bool { return slices.Contains(c.Actions, k) }
	if g.Phase == dix.PhaseDraw && has(dix.ActDraw) && has(dix.ActStop) && len(g.Deck) > 0 {
		number, currency := g.BustAt()
		next := g.Deck[0]
		busts := next.Kind == dix.KindNumber && number > 0 && int(next.Value) >= number ||
			next.Kind == dix.KindCurrency && currency > 0 && int(next.Value) >= currency
		if busts {
			return dix.Action{Kind: dix.ActStop, Player: seat}
		}
		return dix.Action{Kind: dix.ActDraw, Player: seat}
	}
	return computer.Decide(g, seat, computer.Strong, r)
}
