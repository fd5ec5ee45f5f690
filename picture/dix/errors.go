package dix

import (
	"errors"
	"fmt"
)

// ErrBadInput is returned when the input names a card that cannot be read or
// a seat that does not exist.
var ErrBadInput = errors.New("picture: bad input")

func errBad(err error) error { return fmt.Errorf("%w: %w", ErrBadInput, err) }
