package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
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
		b, err := os.ReadFile(*from)
		if err != nil {
			return err
		}
		if f.From, err = computer.DecodeValueNet(bytes.NewReader(b)); err != nil {
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
