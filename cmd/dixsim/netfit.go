package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	computer "github.com/dixgame/dixbot/computer/qwixx"
)

// runNetFit implements `dixsim netfit`: a value network of the strong
// Qwixx level trained by temporal differences (computer.FitValueNet),
// written where -out says (computer/qwixx/valuenet3.bin ships).
func runNetFit(args []string, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("netfit", flag.ContinueOnError)
	fs.SetOutput(errOut)
	players := fs.Int("players", 3, "the table size (2 to 5)")
	games := fs.Int("games", 1_500_000, "games played")
	seed := fs.Uint64("seed", 6, "seed of the games' dice and of the first weights")
	hidden := fs.Int("hidden", 64, "hidden units")
	rate := fs.Float64("rate", 0.02, "learning rate at the start")
	decay := fs.Float64("decay", 300_000, "games over which the learning rate halves (0: constant)")
	lambda := fs.Float64("lambda", 0.7, "λ of the λ-returns")
	from := fs.String("from", "", "a network to go on training (written by netfit)")
	every := fs.Int("every", 0, "every this many games, the share won by the network so far over 4,000 games (seeds 99)")
	outFile := fs.String("out", "", "write the network to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 || *outFile == "" {
		return fmt.Errorf("%w: netfit [-players 3] [-games N] [-seed S] [-hidden H] [-rate R] [-decay D] [-lambda L] [-from FILE] [-every N] -out FILE", errUsage)
	}
	f := computer.NetFit{Players: *players, Games: *games, Seed: *seed, Hidden: *hidden, Rate: *rate, Decay: *decay, Lambda: *lambda}
	if *from != "" {
		var err error
		if f.From, err = readNet(*from); err != nil {
			return err
		}
	}
	start := time.Now()
	net, err := computer.FitValueNet(f, *every, func(games int, net *computer.ValueNet) {
		fmt.Fprintf(out, "%d games: seat 0 finishes first in %.1f%% (%s)\n", games, 100*computer.PlayByNet(net, 4000, 99), time.Since(start).Round(time.Second))
	})
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := net.Encode(&b); err != nil {
		return err
	}
	fmt.Fprintf(out, "%d games trained in %s\n", *games, time.Since(start).Round(time.Second))
	return os.WriteFile(*outFile, b.Bytes(), 0o644)
}

// runNetPlay implements `dixsim netplay`: for each network file, the
// share of games its seat 0 finishes first (alone or tied) playing one
// roll ahead by the network against normal players (computer.PlayByNet),
// every file on the same seeds.
func runNetPlay(args []string, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("netplay", flag.ContinueOnError)
	fs.SetOutput(errOut)
	games := fs.Int("games", 20_000, "games played by each network")
	seed := fs.Uint64("seed", 12345, "seed of the games' dice")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 || *games < 1 {
		return fmt.Errorf("%w: netplay [-games N] [-seed S] FILE...", errUsage)
	}
	for _, file := range fs.Args() {
		net, err := readNet(file)
		if err != nil {
			return err
		}
		won := computer.PlayByNet(net, *games, *seed)
		se := math.Sqrt(won * (1 - won) / float64(*games))
		fmt.Fprintf(out, "%s: seat 0 finishes first in %.2f%% (95%% CI %.1f–%.1f%%) of %d games\n", file, 100*won, 100*(won-1.96*se), 100*(won+1.96*se), *games)
	}
	return nil
}

// readNet reads a network written by netfit.
func readNet(file string) (*computer.ValueNet, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	net, err := computer.DecodeValueNet(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return net, nil
}
