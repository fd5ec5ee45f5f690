package dixxit

import (
	"fmt"
	"math/rand/v2"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dixxit"
)

// Stats is what Simulate measured over the turns with a text clue.
type Stats struct {
	Turns      int // turns played with a text clue
	FirstFound int // turns whose first finger was on the target
	Found      int // turns whose target was found
}

// FirstRate returns the share of turns whose first finger found the target.
func (s Stats) FirstRate() float64 {
	if s.Turns == 0 {
		return 0
	}
	return float64(s.FirstFound) / float64(s.Turns)
}

// Simulate plays games of players computer seats, seeds seed, seed+1, …,
// until turns turns have been played, and counts how often the first
// finger of a turn lands on the target. Clues come from p; guessers are p
// too, or pick a free square at random when random is set. The guessers of
// a turn put their fingers down one after the other, in an order drawn
// anew every turn. It returns an error only for a move the rules refuse.
func Simulate(p Player, players int, seed int64, turns int, random bool) (Stats, error) {
	var st Stats
	for g := int64(0); st.Turns < turns; g++ {
		s, err := dixxit.Rules{}.New(engine.Setup{Players: players, Seed: seed + g, First: -1})
		if err != nil {
			return st, err
		}
		game := s.(*dixxit.Game)
		r := rand.New(rand.NewPCG(uint64(seed+g), 0x73696d))
		for !game.Over() && st.Turns < turns {
			active := game.Active()
			target := game.ViewOf(active).Secret.Target
			m, err := p.Decide(game, active, r)
			if err != nil {
				return st, err
			}
			if _, err := game.Apply(active, m); err != nil {
				return st, fmt.Errorf("clue %q: %w", m, err)
			}
			st.Turns++
			first := true
			turn := game.ViewOf(engine.Public).Turn
			for game.ViewOf(engine.Public).Turn == turn && !game.Over() {
				seats := game.ToDecide()
				seat := seats[r.IntN(len(seats))]
				v := game.ViewOf(seat)
				sq := p.Guess(v, r)
				if random {
					fr := free(v)
					sq = fr[r.IntN(len(fr))]
				}
				if first {
					first = false
					if sq == target {
						st.FirstFound++
					}
				}
				evs, err := game.Apply(seat, engine.Move(fmt.Sprintf("f %d", sq)))
				if err != nil {
					return st, fmt.Errorf("finger on %d: %w", sq, err)
				}
				for _, e := range evs {
					if e.(dixxit.Event).Kind == dixxit.EvFound {
						st.Found++
					}
				}
			}
		}
	}
	return st, nil
}
