package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/dixgame/dixbot/engine/dix/scenario"
)

// runReplay implements `dixsim replay FILE`: it runs the scenario and prints
// the final state as JSON. An illegal action or a failed expectation is an
// error naming the line.
func runReplay(args []string, out io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("%w: replay FILE", errUsage)
	}
	f, err := os.Open(args[0])
	if err != nil {
		return fmt.Errorf("dixsim: %w", err)
	}
	defer f.Close()
	res, err := scenario.Run(f)
	if err != nil {
		return fmt.Errorf("dixsim: %s: %w", args[0], err)
	}
	b, err := json.MarshalIndent(res.Game.View(), "", "  ")
	if err != nil {
		return fmt.Errorf("dixsim: %w", err)
	}
	_, err = fmt.Fprintf(out, "%s\n", b)
	return err
}
