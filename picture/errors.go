package picture

import "errors"

// ErrBadInput is returned when the input names a card that cannot be read or
// a seat that does not exist.
var ErrBadInput = errors.New("picture: bad input")
