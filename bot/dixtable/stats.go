package dixtable

import (
	"cmp"
	"slices"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
)

// dixResult is the result of a finished DIX game (nil: not over, or not
// on a server). Its id is the channel and the interaction that opened the
// table; a table without one is told apart by its final state.
func dixResult(b *bot.Bot, rec *dixbot.Record, m *dixTable) *dixbot.Result {
	g := dix.GameOf(rec.State)
	if g == nil || g.Phase != dix.PhaseOver || rec.Guild == "" {
		return nil
	}
	id := m.Origin
	if id == "" {
		bin, err := g.MarshalBinary()
		if err != nil {
			return nil
		}
		id = bot.StateID(bin)
	}
	r := &dixbot.Result{Guild: rec.Guild, Game: bot.DixGame, ID: rec.Channel + ":" + id, At: b.Now().UTC(), Pace: m.Pace}
	if m.Solo {
		r.Solo = m.Diff
	}
	for _, res := range g.Results() {
		if res.Player < 0 || res.Player >= len(m.Seats) {
			continue
		}
		s := m.Seats[res.Player]
		rs := dixbot.ResultSeat{User: s.ID, Name: s.Name, Level: s.CPU, Score: res.Score.Total, Rank: res.Rank}
		if m.Solo && s.ID == "" {
			rs.Level, rs.Name = dixbot.LevelALIX, "ALIX"
		}
		r.Seats = append(r.Seats, rs)
	}
	slices.SortStableFunc(r.Seats, func(a, b dixbot.ResultSeat) int { return cmp.Compare(a.Rank, b.Rank) })
	return r
}

// dixOver reports whether rec holds a DIX game that is over, and its
// result for the statistics (nil: none to record).
func dixOver(b *bot.Bot, rec *dixbot.Record) (*dixbot.Result, bool) {
	if dix.GameOf(rec.State) == nil || dix.GameOf(rec.State).Phase != dix.PhaseOver {
		return nil, false
	}
	m, err := decodeDixTable(rec.Meta)
	if err != nil {
		return nil, true
	}
	return dixResult(b, rec, m), true
}
