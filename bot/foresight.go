package bot

import (
	"bytes"
	"math/rand/v2"
	"strconv"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
)

// Foresight (present.Game.Foresight): for a game whose computer takes
// long to decide, the table plays a person's move on a copy of the game
// as this process last saw it, outside any store update, and keeps the
// computer's decisions that followed; the move's update takes them from
// there, so its deadline is spent on the store, not on the computer's
// thinking. A decision is a function of the state, the seat, the level,
// the game's language and seed (its randomness comes from the seed and the
// state's version), so a decision kept is the one the update would take;
// a game changed in between has other keys, and is decided inside the
// update as before. Exactly-once is the update's alone.

// foresight holds the computer's decisions worked out on a copy of the
// game of seed, in lang. It is not safe for concurrent use.
type foresight struct {
	seed   int64
	lang   string
	record bool // filling: every decision taken is kept
	moves  map[string]engine.Move
}

// of is f for the game td describes: nil when f is nil or was worked out
// for another game (another seed or language).
func (f *foresight) of(td *tableData) *foresight {
	if f == nil || f.seed != td.Seed || f.lang != td.Lang {
		return nil
	}
	return f
}

// player is p, the computer player of level, its decisions taken from f
// when f holds them and kept in f while f is being filled. A nil f is p.
func (f *foresight) player(p engine.Player, level string) engine.Player {
	if f == nil {
		return p
	}
	return foreseen{p: p, level: level, f: f}
}

// foreseen is a computer player whose decisions go through a foresight.
type foreseen struct {
	p     engine.Player
	level string
	f     *foresight
}

func (fp foreseen) Decide(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	return fp.f.decide("d", fp.level, s, seat, func() (engine.Move, error) { return fp.p.Decide(s, seat, r) })
}

func (fp foreseen) Timeout(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	return fp.f.decide("t", fp.level, s, seat, func() (engine.Move, error) { return fp.p.Timeout(s, seat, r) })
}

func (fp foreseen) Absent(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	return fp.f.decide("a", fp.level, s, seat, func() (engine.Move, error) { return engine.AbsentMove(fp.p, s, seat, r) })
}

// decide is the decision of kind ("d" Decide, "t" Timeout, "a" Absent) of seat at
// level in s: f's when it holds it, else decided now (and kept while f is
// being filled).
func (f *foresight) decide(kind, level string, s engine.State, seat int, now func() (engine.Move, error)) (engine.Move, error) {
	k := kind + "/" + level + "/" + strconv.Itoa(seat) + "/" + string(s.Encode())
	if m, ok := f.moves[k]; ok && !f.record {
		return m, nil
	}
	m, err := now()
	if err == nil && f.record {
		f.moves[k] = m
	}
	return m, err
}

// foresee plays seat's move m (made on a board of version n) on a copy of
// the game as this process last saw it, outside any store update, and
// returns the computer's decisions that followed (nil: none, the game
// plays no computer, or the move could not be played). Best effort: the
// update checks and decides everything again.
func (c *Call) foresee(g *present.Game, n uint64, m engine.Move) (f *foresight) {
	if !g.Foresight {
		return nil
	}
	defer func() {
		if recover() != nil {
			f = nil
		}
	}()
	r, err := c.B.peek(c.ctx, c.I.ChannelID)
	if err != nil || r.Finished || r.Game != g.Rules.Name() || r.Data == nil || !mayPlayComputer(r.Meta) {
		return nil
	}
	td, err := decodeTableData(r.Meta)
	if err != nil || td.Paused != "" || !td.playsComputer() {
		return nil
	}
	seat := td.seatOf(c.User)
	if seat < 0 || td.Seats[seat].Away {
		return nil
	}
	st, err := g.Rules.Decode(r.Data)
	if err != nil || n > st.Seq() || seat < len(td.Open) && n < td.Open[seat] {
		return nil
	}
	now := c.B.now()
	if _, err := applyOpen(g, st, td, seat, m, now, true); err != nil {
		return nil
	}
	f = &foresight{seed: td.Seed, lang: td.Lang, record: true, moves: map[string]engine.Move{}}
	if _, err := c.B.advanceWith(g, st, td, now, f); err != nil || len(f.moves) == 0 {
		return nil
	}
	f.record = false
	return f
}

// computerSeat and awaySeat are how a computer seat and an absent
// person's seat show in table data's JSON (tableSeat's Level and Away):
// no text in the JSON holds them unescaped.
var computerSeat, awaySeat = []byte(`"cpu":"`), []byte(`"aw":true`)

// mayPlayComputer reports, from table data's JSON without decoding it,
// whether the computer may decide for a seat (playsComputer): false for a
// table of people all present, the usual click's.
func mayPlayComputer(meta []byte) bool {
	return bytes.Contains(meta, computerSeat) || bytes.Contains(meta, awaySeat)
}

// startPlan is what the lobby's Start works out before its store update:
// the new game's seed and the computer's decisions of its first turns
// (f nil: none, the update draws the seed and decides).
type startPlan struct {
	seed int64
	f    *foresight
}

// foreseeStart works out, for the lobby's Start clicked by its creator,
// the computer's decisions the game's first turns lead to: it starts the
// game, with a seed drawn now, on a copy of the lobby as this process
// last saw it, outside any store update (foresee does the same for a
// move). Best effort: the update starts the game again with that seed.
func (c *Call) foreseeStart(g *present.Game) (plan startPlan) {
	if !g.Foresight {
		return startPlan{}
	}
	defer func() {
		if recover() != nil {
			plan = startPlan{}
		}
	}()
	r, err := c.B.peek(c.ctx, c.I.ChannelID)
	if err != nil || r.Finished || r.Game != g.Rules.Name() || r.Data != nil || !mayPlayComputer(r.Meta) {
		return startPlan{}
	}
	td, err := decodeTableData(r.Meta)
	if err != nil || td.Creator != c.User || len(td.Seats) < g.MinSeats || !td.playsComputer() {
		return startPlan{}
	}
	plan.seed = c.B.seed()
	f := &foresight{seed: plan.seed, lang: td.Lang, record: true, moves: map[string]engine.Move{}}
	cp := *r
	if _, err := c.B.startTableWith(g, &cp, td, c.B.now(), startPlan{seed: plan.seed, f: f}); err != nil {
		return startPlan{}
	}
	f.record = false
	plan.f = f
	return plan
}

// playsComputer reports whether the computer decides for a seat: a
// computer seat, or an absent person's.
func (td *tableData) playsComputer() bool {
	for _, s := range td.Seats {
		if s.Level != "" || s.Away {
			return true
		}
	}
	return false
}
