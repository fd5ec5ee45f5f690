// Package computer holds what the games' computer players share: the
// levels a table chooses from. Each game's player lives in a package of its
// own below it (computer/dix, computer/qwixx, computer/dixxit).
package computer

import (
	"errors"
	"fmt"
	"strings"
)

// Level is how well the computer plays. The zero value is not a level.
type Level uint8

const (
	Easy Level = iota + 1
	Normal
	Strong
)

// Levels lists the levels, weakest first.
var Levels = []Level{Easy, Normal, Strong}

var levelNames = [...]string{Easy: "easy", Normal: "normal", Strong: "strong"}

// String is the level's name: easy, normal or strong.
func (l Level) String() string {
	if l < Easy || l > Strong {
		return fmt.Sprintf("level(%d)", uint8(l))
	}
	return levelNames[l]
}

// ErrLevel is returned by ParseLevel for an unknown name.
var ErrLevel = errors.New("computer: unknown level")

// ParseLevel reads a level name (any case). It returns ErrLevel otherwise.
func ParseLevel(s string) (Level, error) {
	for _, l := range Levels {
		if strings.EqualFold(s, l.String()) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("%w: %q (want easy, normal or strong)", ErrLevel, s)
}
