package main

import (
	"errors"
	"io"
)

// runScore implements `dixsim score`.
func runScore(in io.Reader, out io.Writer) error { return errors.New("dixsim: score not implemented") }
