package bot

import (
	"fmt"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/locales"
)

// The kick vote: a person
// absent or out of time at least once may have their seat handed to the
// computer for the rest of the game, by the creator's click alone or by a
// majority of the other people still playing.

// kickable reports whether seat s may be handed to the computer by a vote.
func (td *tableData) kickable(s int) bool {
	if s < 0 || s >= len(td.Seats) {
		return false
	}
	st := td.Seats[s]
	return st.User != "" && st.Level == "" && (st.Away || st.Late > 0)
}

// othersPlaying counts the people who still play their seat, other than s.
func (td *tableData) othersPlaying(s int) int {
	n := 0
	for i, st := range td.Seats {
		if i != s && st.User != "" && st.Level == "" {
			n++
		}
	}
	return n
}

// lastPlaying reports whether user is the only person still playing
// their seat: the last one at the table.
func (td *tableData) lastPlaying(user string) bool {
	s := td.seatOf(user)
	return s >= 0 && user != "" && td.Seats[s].Level == "" && td.othersPlaying(s) == 0
}

// votesNeeded is the majority of the people playing other than seat s.
func (td *tableData) votesNeeded(s int) int { return td.othersPlaying(s)/2 + 1 }

// kickRow is the board's row of vote buttons, one per seat that may be
// handed to the computer (nil: none).
func kickRow(g *present.Game, td *tableData) discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	for s := range td.Seats {
		if !td.kickable(s) || len(out) == maxKickButtons {
			continue
		}
		out = append(out, discordgo.Button{Label: td.kickLabel(s), Style: discordgo.DangerButton,
			CustomID: buttonID(g.Rules.Name(), verbKick, 0, strconv.Itoa(s))})
	}
	if len(out) == 0 {
		return nil
	}
	return discordgo.ActionsRow{Components: out}
}

// kickLabel is the label of the vote on seat s: its votes so far and the
// votes it needs, or the creator's word alone.
func (td *tableData) kickLabel(s int) string {
	votes, need := len(td.Seats[s].Votes), td.votesNeeded(s)
	key := "btn_kick"
	creator := td.seatOf(td.Creator)
	switch {
	case creator < 0 || creator == s:
		key = "btn_kick_creator"
	case need == 1 && td.othersPlaying(s) == 1:
		key = "btn_kick_alone"
	case votes > 0:
		key = "btn_kick_votes"
	}
	// A button's label is plain text: the names as typed.
	d := map[string]any{"Votes": votes, "Name": td.Seats[s].Name}
	if creator >= 0 {
		d["Creator"] = td.Seats[creator].Name
	}
	return present.Truncate(locales.N(td.Lang, key, need, d), present.MaxButtonLabel)
}

// kickClick is a vote to hand seat arg to the computer.
func (c *Call) kickClick(g *present.Game, arg string) error {
	target, err := parseSeatArg(arg, g.MaxSeats)
	if err != nil {
		return err
	}
	r, _, err := c.changeTable(g, func(r *dixbot.Record, td *tableData) error {
		st, err := runningState(g, r)
		if err != nil {
			return err
		}
		voter := td.seatOf(c.User)
		if c.User != td.Creator && voter < 0 {
			return Refuse(ErrNotInGame, "table_err_not_seated", nil)
		}
		if target >= len(td.Seats) || target == voter || !td.kickable(target) {
			return ErrNoKick
		}
		if td.Paused != "" {
			return Refuse(ErrPaused, "table_err_paused", map[string]any{"Name": td.Paused, "Command": "/" + En(g.Rules.Name()+"_cmd_name")})
		}
		seat := &td.Seats[target]
		for _, v := range seat.Votes {
			if v == c.User {
				return ErrAlreadyVoted
			}
		}
		seat.Votes = append(seat.Votes, c.User)
		now := c.B.now()
		d := map[string]any{"Name": seat.text(), "Voter": present.Escape(c.Name), "Votes": len(seat.Votes), "Need": td.votesNeeded(target)}
		if c.User != td.Creator && len(seat.Votes) < td.votesNeeded(target) {
			td.addLog([]string{locales.T(td.Lang, "log_kick_vote", d)})
			td.oweChange(r, g, st, pingPlan{}, now, c.B.self)
			return nil
		}
		seat.Level, seat.Away, seat.Votes = g.Default, false, nil
		td.addLog([]string{locales.T(td.Lang, "log_kicked", d)})
		since := st.Seq() + 1
		evs, err := c.B.advance(g, st, td, now)
		if err != nil {
			return err
		}
		td.tell(g, evs)
		setTableDue(r, td, g, st)
		td.oweChange(r, g, st, planPings(st, td, since, voter, now), now, c.B.self)
		r.Data = st.Encode()
		return nil
	})
	if err != nil {
		return err
	}
	c.Ephemeral(locales.T(c.Lang, "kick_done", nil), nil)
	c.settleAnswer(r)
	return nil
}

// maxKickButtons bounds the vote buttons on the board (a row holds five,
// one is the hand's).
const maxKickButtons = 4

// parseSeatArg reads a seat number carried by a custom id, of a table of
// at most seats seats.
func parseSeatArg(s string, seats int) (int, error) {
	n, err := parseNumber(s, false, seats-1)
	if err != nil {
		return 0, fmt.Errorf("%w: seat %q", ErrBadCustomID, s)
	}
	return n, nil
}
