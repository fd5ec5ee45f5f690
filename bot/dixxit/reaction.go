package dixxit

import (
	"math/rand/v2"
	"time"

	computer "github.com/dixgame/dixbot/computer/dixxit"
	"github.com/dixgame/dixbot/engine"
	rules "github.com/dixgame/dixbot/engine/dixxit"
)

// A computer guesser races like a person (X7; DISCORD-UX, Dixxit): it
// reads the clue and looks over the grid before its finger goes down,
// longer when it is unsure, so that a person who knows the picture and
// clicks first keeps the square. docs/dixxit-race.md measures the race.

// reaction is a level's reaction time at the live pace: at least least,
// plus up to unsure as the guesser is less sure (Sureness 1 adds
// nothing, 0 all of it), plus a draw in [0, spread).
type reaction struct {
	least, unsure, spread time.Duration
}

// reactions are the levels' reaction times at the live pace; a level not
// named here reacts as normal does.
var reactions = map[string]reaction{
	"easy":   {least: 4 * time.Second, unsure: 4 * time.Second, spread: 2 * time.Second},
	"normal": {least: 3 * time.Second, unsure: 3500 * time.Millisecond, spread: 1500 * time.Millisecond},
	"strong": {least: 2 * time.Second, unsure: 3 * time.Second, spread: time.Second},
}

// surenessDraws is how many guesses Sureness draws.
const surenessDraws = 16

// Sureness is how sure the computer guesser p is of its finger in v, a
// guesser's view: the share of surenessDraws guesses (Guess, with r) that
// land on its most frequent square. 1 when one picture stands out; near
// 1/n when the clue fits n pictures as well (or was said aloud, or v has
// no clue).
func Sureness(p computer.Player, v rules.View, r *rand.Rand) float64 {
	if v.Clue == "" && !v.Aloud {
		return 0
	}
	var count [rules.Squares + 1]int
	top := 0
	for range surenessDraws {
		sq := p.Guess(v, r)
		if sq >= 1 && sq <= rules.Squares {
			count[sq]++
			top = max(top, count[sq])
		}
	}
	return float64(top) / surenessDraws
}

// Reaction is how long the computer guesser of level playing seat takes
// to put its finger down in st, drawn with r: the level's reaction
// (reactions) as sure as Sureness says, scaled from the live pace's
// guessing time LiveGuess to clock, the guessing time of the table's pace.
// The clue-giver, and anyone outside the race, decides at once (0).
func Reaction(st engine.State, seat int, level string, clock time.Duration, r *rand.Rand) time.Duration {
	g := gameOf(st)
	if g == nil || g.Over() || g.Phase() != rules.PhaseGuess || seat == g.Active() {
		return 0
	}
	re, ok := reactions[level]
	if !ok {
		re = reactions[Level]
	}
	sure := Sureness(playerIn("en").(computer.Player), g.ViewOf(seat), r)
	d := re.least + time.Duration((1-sure)*float64(re.unsure))
	if re.spread > 0 {
		d += time.Duration(r.Int64N(int64(re.spread)))
	}
	if clock > 0 && clock != LiveGuess {
		d = time.Duration(float64(d) * float64(clock) / float64(LiveGuess))
	}
	return d.Round(time.Millisecond)
}
