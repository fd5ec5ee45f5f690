package dixtable

import (
	"math/rand/v2"
	"strconv"

	"github.com/dixgame/dixbot/bot"
	computer "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine/dix"
)

// cpuMemo keeps computer players' decisions worked out before a store
// update, by the exact game they were taken in (its encoding), the seat
// and the level: inside the update, a decision of the same game is taken
// from the memo, so the update's deadline is spent on the store, not on
// the computer's thinking. A decision is a function of the game alone (its
// randomness comes from the state), so a memo entry is the decision the
// update would take; a game changed in between has other entries, and is
// decided inside the update as before. Exactly-once is the update's alone.
type cpuMemo map[string]dix.Action

// cpuDecide is the computer player's decision (computer.Decide); a test
// watches where it runs.
var cpuDecide = computer.Decide

// foreseeOff turns foresee off (a test compares the game without it).
var foreseeOff bool

func cpuKey(g *dix.Game, seat int, lvl computer.Level) string {
	return strconv.Itoa(seat) + "/" + strconv.Itoa(int(lvl)) + "/" + string(g.AppendBinary(nil))
}

// decide is seat's decision at level lvl in g, from the memo when it holds
// it (a nil memo holds nothing); a memo being filled (record) keeps it.
func (cm cpuMemo) decide(g *dix.Game, seat int, lvl computer.Level, r *rand.Rand, record bool) dix.Action {
	if cm == nil {
		return cpuDecide(g, seat, lvl, r)
	}
	k := cpuKey(g, seat, lvl)
	if a, ok := cm[k]; ok && !record {
		return a
	}
	a := cpuDecide(g, seat, lvl, r)
	if record {
		cm[k] = a
	}
	return a
}

// foresee plays the click of c on a copy of the channel's game as it is
// now, outside any store update, and returns the computer players'
// decisions that followed (nil: none, or the game could not be read).
// Best effort: the update checks and decides everything again.
func foresee(c *bot.Call, version uint32, build func(g *dix.Game, seat int) (dix.Action, error), o origin) (memo cpuMemo) {
	defer func() {
		if recover() != nil {
			memo = nil
		}
	}()
	if foreseeOff {
		return nil
	}
	r, err := c.B.Peek(c.Ctx, c.I.ChannelID)
	if err != nil || r.Finished || dix.GameOf(r.State) == nil || r.Game != c.Game {
		return nil
	}
	m, err := decodeDixTable(r.Meta)
	if err != nil {
		return nil
	}
	cp := *r
	cp.State = dix.GameOf(r.State).Clone()
	if !m.playsComputer() {
		return nil
	}
	g, m, s, err := seatFor(c, &cp, m, version)
	if err != nil {
		return nil
	}
	a, err := build(g, s)
	if err != nil {
		return nil
	}
	a.Player = s
	m.Seats[s].Late = 0
	o.memo, o.foresee = cpuMemo{}, true
	if _, err := advance(&cp, m, g, &a, nil, o, c.B.Now()); err != nil || len(o.memo) == 0 {
		return nil
	}
	return o.memo
}

// playsComputer reports whether a seat of the table is a computer player's.
func (m *dixTable) playsComputer() bool {
	for _, s := range m.Seats {
		if s.CPU != "" {
			return true
		}
	}
	return false
}
