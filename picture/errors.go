package picture

import "errors"

// ErrBadInput is returned for a picture that cannot be encoded as asked:
// no pixels, a band of no rows, more than 256 colours.
var ErrBadInput = errors.New("picture: bad input")
