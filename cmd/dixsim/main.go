// Command dixsim scores collections, simulates and replays games of DIX,
// and simulates games of Qwixx and computes its solitaire optimum.
//
//	dixsim score                 read collections (SPEC §7 notation) on stdin, one per line; write JSON scores
//	dixsim sim -games N -players P|A..B [-seed S] [-check] [-difficulty D] [-variant] [-policy mix|simple|random|easy|normal|strong|oracle] [-analyse]
//	dixsim sim -game qwixx -games N -players P|A..B [-seed S] [-check] [-policy simple|easy|normal|strong|mix|p0,p1,…]
//	dixsim sim -game qwixx -solitaire -games N [-policy strong]   average score of one sheet active every roll
//	dixsim optimum [-games N] [-fit N] [-out FILE] [-table FILE]   exact Qwixx solitaire values (-table: encoded, as shipped); fit the compact table
//	dixsim replay FILE           run a scenario file (engine/dix/testdata/scenarios/README.md); print the final state as JSON
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = "usage: dixsim score | sim [-game dix|qwixx] -games N -players P|A..B [-seed S] [-check] | optimum | winfit | netfit | netplay FILE... | replay FILE"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs one subcommand and returns the exit code: 0 success, 1 failure,
// 2 bad usage.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "score":
		err = runScore(stdin, stdout)
	case "sim":
		err = runSim(args[1:], stdout, stderr)
	case "replay":
		err = runReplay(args[1:], stdout)
	case "optimum":
		err = runOptimum(args[1:], stdout, stderr)
	case "winfit":
		err = runWinFit(args[1:], stdout, stderr)
	case "netfit":
		err = runNetFit(args[1:], stdout, stderr)
	case "netplay":
		err = runNetPlay(args[1:], stdout, stderr)
	default:
		fmt.Fprintln(stderr, usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp), errors.Is(err, errUsage):
		fmt.Fprintln(stderr, err)
		return 2
	default:
		fmt.Fprintln(stderr, err)
		return 1
	}
}

// errUsage marks bad command-line arguments.
var errUsage = errors.New("dixsim: bad usage")
