// Command dixsim scores collections, simulates and replays games of DIX.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "score" {
		if err := runScore(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	fmt.Fprintln(os.Stderr, "usage: dixsim score|sim|replay")
	os.Exit(2)
}
