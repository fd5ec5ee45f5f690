package bot

import (
	"math/rand/v2"
	"time"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
)

// Reaction times of computer seats (present.Game.Reaction). A computer
// seat of a game that races (Dixxit's guessers) does not decide inside the
// update that opens its decision: it takes a time drawn when the decision
// opens, kept in tableData.Wake, and the record's Due brings the game back
// then (setTableDue, runTableDue); any update that finds the time
// passed (a click, the due poller) makes the decision. Its move carries
// that time as its click (Stamper), so that a person whose click Discord
// received earlier keeps what they clicked.

// reactionStream is the random stream, under the game's seed, of the
// computer's reaction times (apart from its decisions').
const reactionStream = 0x7265616374696f6e

// wake returns when the computer playing seat makes its current decision
// in st (Unix ms), drawing it when it is not drawn yet, and whether the
// seat takes a reaction time at all (false: it decides at once).
func (td *tableData) wake(g *present.Game, st engine.State, seat int, now time.Time) (int64, bool) {
	if g.Reaction == nil || seat < 0 || seat >= len(td.Seats) || td.Seats[seat].Level == "" {
		return 0, false
	}
	if seat < len(td.Wake) && td.Wake[seat] != 0 {
		return td.Wake[seat], true
	}
	opened := now.UnixMilli()
	if seat < len(td.OpenAt) && td.OpenAt[seat] != 0 {
		opened = td.OpenAt[seat]
	}
	var open uint64
	if seat < len(td.Open) {
		open = td.Open[seat]
	}
	r := rand.New(rand.NewPCG(uint64(td.Seed)^reactionStream, open*8+uint64(seat)))
	clock, _ := td.decisionTime(g, st, seat)
	d := g.Reaction(st, seat, td.Seats[seat].Level, clock, r)
	if d <= 0 {
		return 0, false
	}
	if len(td.Wake) < len(td.Seats) {
		td.Wake = append(td.Wake, make([]int64, len(td.Seats)-len(td.Wake))...)
	}
	td.Wake[seat] = opened + d.Milliseconds()
	return td.Wake[seat], true
}

// nextWake is the earliest time a computer seat deciding in st has drawn
// to decide (zero: none).
func (td *tableData) nextWake(st engine.State) time.Time {
	var at int64
	for _, s := range st.ToDecide() {
		if s < len(td.Wake) && td.Wake[s] != 0 && s < len(td.Seats) && td.Seats[s].Level != "" && (at == 0 || td.Wake[s] < at) {
			at = td.Wake[s]
		}
	}
	if at == 0 {
		return time.Time{}
	}
	return time.UnixMilli(at)
}

// stampAt passes a computer seat's move m made at t through the game's
// Stamper, as a click Discord received at t.
func stampAt(g *present.Game, m engine.Move, t time.Time) (engine.Move, error) {
	sp, ok := g.Presenter.(present.Stamper)
	if !ok {
		return m, nil
	}
	return sp.Stamp(m, snowflakeAt(t))
}

// discordEpochMs is the first millisecond of 2015 (Unix ms), the origin of
// snowflake times (https://discord.com/developers/docs/reference#snowflakes).
const discordEpochMs = 1420070400000

// snowflakeAt is the smallest snowflake of the millisecond t: a click
// Discord received at t has this id or a larger one.
func snowflakeAt(t time.Time) uint64 {
	ms := t.UnixMilli() - discordEpochMs
	if ms < 0 {
		return 0
	}
	return uint64(ms) << 22
}
