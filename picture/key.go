package picture

import (
	"crypto/sha256"
	"github.com/segmentio/encoding/json"
)

// Key names a picture, or a part of one, by what it shows.
type Key [sha256.Size]byte

// KeyOf is the key of a picture drawn from in alone: the SHA-256 of its
// JSON (as encoding/json writes it, by a faster encoder), so in must say
// everything the picture shows (and may say more).
func KeyOf(in any) (Key, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return Key{}, err
	}
	return sha256.Sum256(b), nil
}
