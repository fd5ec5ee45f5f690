package dixtable

import (
	"math/rand/v2"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/clock"

	computer "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// autoMove is the decision the computer takes for a person: the strong
// computer player for a seat handed over for good, the timeout policy (an
// auction passed, a purchase skipped, a turn drawn or stopped as the strong
// player would) for an absent player or a decision whose time ran out.
// It is the one place to change that policy.
func autoMove(g *dix.Game, seat int, forGood bool, r *rand.Rand) dix.Action {
	if forGood {
		return computer.Decide(g, seat, computer.Strong, r)
	}
	return computer.Timeout(g, seat, r)
}

// tick runs the clock on after a change of g at now: the decision made
// (decided) is charged with its increment, and the next person's starts.
func (m *dixTable) tick(g *dix.Game, now time.Time, decided bool) {
	c := m.Clock
	if c == nil {
		return
	}
	if decided {
		c.Stop(now)
	}
	if a := g.ToAct(); g.Phase != dix.PhaseOver && m.clocked(a) {
		c.Start(a, now)
		return
	}
	c.Halt(now)
}

// newClock starts the clock of a game that begins at now, at the pace
// named by the table (the default pace when it names none the bot knows).
func newClock(b *bot.Bot, m *dixTable, g *dix.Game, now time.Time) {
	p, ok := clock.Find(b.Paces, m.Pace)
	if !ok {
		p, _ = clock.Find(b.Paces, clock.DefaultPace)
	}
	m.Pace = p.Name
	m.Clock = clock.New(p, len(g.Players))
	m.tick(g, now, false)
}

// onClock acts on the game's clock at now inside the store update of r: a
// decision out of time is taken by the computer, a reminder due is owed.
// It returns how late the deadline it acted on was (−1: none).
func onClock(b *bot.Bot, r *dixbot.Record, m *dixTable, now time.Time) (time.Duration, error) {
	g, c := dix.GameOf(r.State), m.Clock
	if g == nil || c == nil || g.Phase == dix.PhaseOver || m.PausedBy != "" {
		return -1, nil
	}
	if s := c.Seat; s >= 0 && s != g.ToAct() {
		m.tick(g, now, false) // the clock follows the game
		return -1, nil
	}
	s := c.Seat
	if s < 0 {
		return -1, nil
	}
	lang := m.Lang
	d := map[string]any{"Name": m.name(lang, s)}
	if c.Expired(now) {
		late := now.Sub(c.Deadline())
		c.Stop(now) // the bank is spent; the increment is what the next decision has
		m.Seats[s].Late++
		m.Seats[s].Auto++
		m.Seats[s].Outs++
		pre := []string{locales.T(lang, "log_timeout", d)}
		if m.Seats[s].Late >= 2 {
			m.Seats[s].Away = true
			pre = append(pre, locales.T(lang, "log_absent", d))
		}
		rnd := rand.New(rand.NewPCG(uint64(g.Seq), uint64(s)))
		a := autoMove(g, s, false, rnd)
		a.Player = s
		if _, err := advance(r, m, g, &a, pre, origin{guild: r.Guild, channel: r.Channel}, now); err != nil {
			return -1, err
		}
		return late, nil
	}
	if !c.Remind(now) {
		return -1, nil
	}
	user := m.Seats[s].ID
	d["Mentions"] = bot.Mentions([]string{user})
	d["Unix"] = c.Deadline().Unix()
	key := "ping_remind"
	if m.Board != "" {
		d["URL"] = bot.MessageURL(r.Guild, r.Channel, m.Board)
		key += "_link"
	}
	m.owe(r, bot.Effect{Kind: bot.EffRemind, Users: []string{user}, Text: locales.T(lang, key, d)})
	return -1, nil
}

// kickVote is a vote to hand a seat to the computer: the game's creator
// decides alone, the others by a majority of the people still playing.
func kickVote(c *bot.Call, p bot.ParsedID) error {
	target, err := bot.ParseSeatArg(p.Arg, maxPlayers)
	if err != nil {
		return err
	}
	var rec *dixbot.Record
	rec, err = changeTable(c, func(r *dixbot.Record, m *dixTable) error {
		g := dix.GameOf(r.State)
		if g == nil {
			return bot.ErrNotStarted
		}
		if g.Phase == dix.PhaseOver {
			return dix.ErrGameOver
		}
		voter := m.seatOf(c.User)
		if c.User != m.Creator && (voter < 0 || m.Seats[voter].Gone != "") {
			return bot.ErrNotInGame
		}
		if target >= len(m.Seats) || target == voter || !m.kickable(target) {
			return bot.ErrNoKick
		}
		if m.PausedBy != "" {
			return bot.Refuse(bot.ErrPaused, "err_paused", map[string]any{"Name": m.PausedBy})
		}
		st := &m.Seats[target]
		if bot.ContainsString(st.Votes, c.User) {
			return bot.ErrAlreadyVoted
		}
		st.Votes = append(st.Votes, c.User)
		d := map[string]any{"Name": m.name(m.Lang, target), "Voter": bot.Escape(c.Name), "Votes": len(st.Votes), "Need": m.votesNeeded(target)}
		if c.User != m.Creator && len(st.Votes) < m.votesNeeded(target) {
			m.addLog(locales.T(m.Lang, "log_kick_vote", d))
			m.owe(r, bot.Effect{Kind: bot.EffEdit})
			m.setDue(r, c.B.Now())
			return nil
		}
		st.Gone, st.Away, st.Votes = bot.GoneKicked, false, nil
		_, err := advance(r, m, g, nil, []string{locales.T(m.Lang, "log_kicked", d)}, origin{guild: c.I.GuildID, channel: c.I.ChannelID}, c.B.Now())
		return err
	})
	if err != nil {
		return err
	}
	c.Ephemeral(locales.T(c.Lang, "kick_done", nil), nil)
	settle(c, rec)
	return nil
}

// cmdLeave hands the user's own seat to the computer for the rest of the
// game (/dix leave). The last person at the table abandons instead.
func cmdLeave(c *bot.Call) error {
	rec, err := changeTable(c, func(r *dixbot.Record, m *dixTable) error {
		g := dix.GameOf(r.State)
		if g == nil {
			return bot.ErrLeaveLobby
		}
		if g.Phase == dix.PhaseOver {
			return dix.ErrGameOver
		}
		s := m.seatOf(c.User)
		if s < 0 || m.Seats[s].Gone != "" {
			return bot.ErrNotInGame
		}
		if m.othersPlaying(s) == 0 {
			return bot.ErrLastPlayer
		}
		m.Seats[s].Gone, m.Seats[s].Away, m.Seats[s].Votes = bot.GoneLeft, false, nil
		// Votes others cast with this player count no more.
		for i := range m.Seats {
			m.Seats[i].Votes = bot.RemoveString(m.Seats[i].Votes, c.User)
		}
		d := map[string]any{"Name": m.name(m.Lang, s)}
		_, err := advance(r, m, g, nil, []string{locales.T(m.Lang, "log_left", d)}, origin{guild: c.I.GuildID, channel: c.I.ChannelID}, c.B.Now())
		return err
	})
	if err != nil {
		return err
	}
	c.Ephemeral(locales.T(c.Lang, "leave_done", nil), nil)
	settle(c, rec)
	return nil
}

// cmdPause pauses (on) or resumes the game: the creator or a member who
// may manage the channel. While paused no clock runs and nobody acts.
func cmdPause(c *bot.Call, on bool) error {
	rec, err := changeTable(c, func(r *dixbot.Record, m *dixTable) error {
		if !c.Manages(m.Creator) {
			return bot.Refuse(bot.ErrNoPermission, "err_no_permission_pause", nil)
		}
		g := dix.GameOf(r.State)
		if g == nil {
			return bot.ErrNotStarted
		}
		if g.Phase == dix.PhaseOver {
			return dix.ErrGameOver
		}
		now := c.B.Now()
		key := "log_paused"
		switch {
		case on && m.PausedBy != "":
			return bot.Refuse(bot.ErrPaused, "err_already_paused", map[string]any{"Name": m.PausedBy})
		case !on && m.PausedBy == "":
			return bot.ErrNotPaused
		case on:
			m.PausedBy = bot.Escape(c.Name)
			if m.Clock != nil {
				m.Clock.Pause(now)
			}
		default:
			m.PausedBy = ""
			if m.Clock != nil && m.Missing == nil { // else it runs again with the board (notice.go)
				m.Clock.Resume(now)
			}
			// The game moves on from where the pause held it: the
			// computer plays the seats handed over meanwhile, and whoever
			// must act next is notified.
			line := locales.T(m.Lang, "log_resumed", map[string]any{"Name": bot.Escape(c.Name)})
			_, err := advance(r, m, g, nil, []string{line}, origin{guild: c.I.GuildID, channel: c.I.ChannelID}, now)
			return err
		}
		m.addLog(locales.T(m.Lang, key, map[string]any{"Name": bot.Escape(c.Name)}))
		m.owe(r, bot.Effect{Kind: bot.EffEdit})
		m.setDue(r, now)
		return nil
	})
	if err != nil {
		return err
	}
	key := "pause_done"
	if !on {
		key = "resume_done"
	}
	c.Ephemeral(locales.T(c.Lang, key, nil), nil)
	settle(c, rec)
	return nil
}

// handedOver reports whether the computer plays the person in seat s at
// once: they are absent, or gone for good.
func (m *dixTable) handedOver(s int) bool {
	if s < 0 || s >= len(m.Seats) || m.Seats[s].ID == "" {
		return false
	}
	return m.Seats[s].Away || m.Seats[s].Gone != ""
}

// clocked reports whether the decisions of seat s run on the clock: a
// person who plays their seat.
func (m *dixTable) clocked(s int) bool {
	return s >= 0 && s < len(m.Seats) && m.Seats[s].ID != "" && m.Seats[s].CPU == "" && !m.handedOver(s)
}

// setDue sets the record's Due time: the earliest of the outbox's (when it
// holds effects) and the clock's next reminder or deadline. While the
// board is missing the outbox is due at its next try (none after the
// last: a click tries), or sooner for a change's grace.
func (m *dixTable) setDue(r *dixbot.Record, now time.Time) {
	var due time.Time
	switch {
	case len(m.Outbox) == 0:
	case m.Missing != nil:
		due = r.Due
		if next := m.Missing.Next; due.IsZero() || !next.IsZero() && next.Before(due) {
			due = next
		}
	default:
		due = r.Due
		if due.IsZero() {
			due = now.Add(bot.OutboxGrace)
		}
	}
	if m.Clock != nil && m.PausedBy == "" {
		if w := m.Clock.Wake(); !w.IsZero() && (due.IsZero() || w.Before(due)) {
			due = w
		}
	}
	r.Due = due
}

// dixComeBack takes the seat of an absent player who clicks again back from
// the computer, in its own exactly-once update; the board says so. It
// returns the record as it is after (r when nothing changed).
func dixComeBack(c *bot.Call, r *dixbot.Record) *dixbot.Record {
	m, err := decodeDixTable(r.Meta)
	if err != nil || dix.GameOf(r.State) == nil {
		return r
	}
	if s := m.seatOf(c.User); s < 0 || !m.Seats[s].Away || m.Seats[s].Gone != "" {
		return r
	}
	ctx, cancel := c.StoreCtx()
	defer cancel()
	rec, err := c.B.Store.Update(ctx, r.Channel, "", onTable(func(r *dixbot.Record, m *dixTable) error {
		s := m.seatOf(c.User)
		if dix.GameOf(r.State) == nil || s < 0 || !m.Seats[s].Away {
			return bot.ErrNothingToDo
		}
		m.Seats[s].Away, m.Seats[s].Late, m.Seats[s].Votes = false, 0, nil
		m.addLog(locales.T(m.Lang, "log_back", map[string]any{"Name": m.name(m.Lang, s)}))
		m.tick(dix.GameOf(r.State), c.B.Now(), false)
		m.owe(r, bot.Effect{Kind: bot.EffEdit})
		m.setDue(r, c.B.Now())
		return nil
	}))
	if err != nil {
		return r
	}
	settle(c, rec)
	return rec
}

// clockLine is the board's line about the decision running: when it runs
// out, as a Discord timestamp that counts down on every client; or that the
// game is paused.
func clockLine(lang string, m *dixTable) string {
	if m.PausedBy != "" {
		return locales.T(lang, "status_paused", map[string]any{"Name": m.PausedBy})
	}
	if m.Clock == nil {
		return ""
	}
	d := m.Clock.Deadline()
	if d.IsZero() {
		return ""
	}
	return locales.T(lang, "status_clock", map[string]any{"Unix": d.Unix()})
}

// seatMark is what the board and the scoreboard add to the name of a
// person the computer plays for: absent, or gone for good.
func seatMark(lang string, m *dixTable, s int) string {
	switch {
	case s < 0 || s >= len(m.Seats):
		return ""
	case m.Seats[s].Gone != "":
		return locales.T(lang, "mark_gone", nil)
	case m.Seats[s].Away:
		return locales.T(lang, "mark_away", nil)
	}
	return ""
}

// kickable reports whether seat s may be handed to the computer by a vote:
// a person still playing it who is absent or ran out of time.
func (m *dixTable) kickable(s int) bool {
	if s < 0 || s >= len(m.Seats) {
		return false
	}
	st := m.Seats[s]
	return st.ID != "" && st.CPU == "" && st.Gone == "" && (st.Away || st.Late > 0)
}

// othersPlaying counts the people who still play their seat, other than s.
func (m *dixTable) othersPlaying(s int) int {
	n := 0
	for i, st := range m.Seats {
		if i != s && st.ID != "" && st.Gone == "" {
			n++
		}
	}
	return n
}

// lastPlaying reports whether user is the only person still playing
// their seat: the last one at the table.
func (m *dixTable) lastPlaying(user string) bool {
	s := m.seatOf(user)
	return s >= 0 && user != "" && m.Seats[s].Gone == "" && m.othersPlaying(s) == 0
}

// votesNeeded is the majority of the people playing other than seat s.
func (m *dixTable) votesNeeded(s int) int { return m.othersPlaying(s)/2 + 1 }

// kickButtons are the board's vote buttons, one per seat that may be handed
// to the computer.
func kickButtons(lang string, m *dixTable) []discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	for s := range m.Seats {
		if !m.kickable(s) || len(out) == bot.MaxKickButtons {
			continue
		}
		out = append(out, discordgo.Button{
			Label: kickLabel(lang, m, s),
			Style: discordgo.DangerButton, CustomID: bot.CustomID(verbKick, 0, bot.Itoa(s)),
		})
	}
	return out
}

// kickLabel is the label of the vote to hand seat s to the computer: what
// decides it, the creator's click or a majority of votes (votes only when
// the seat is the creator's own, the click only when the creator is the
// one other person playing), and the votes cast so far. A long name
// is shortened so that what decides always shows.
func kickLabel(lang string, m *dixTable, s int) string {
	votes, need := len(m.Seats[s].Votes), m.votesNeeded(s)
	key := "btn_kick"
	creator := m.seatOf(m.Creator)
	switch {
	case creator < 0 || creator == s:
		key = "btn_kick_creator"
	case need == 1 && m.othersPlaying(s) == 1 && m.Seats[creator].Gone == "":
		key = "btn_kick_alone" // the creator is the one other person playing
	case votes > 0:
		key = "btn_kick_votes"
	}
	name := []rune(m.name(lang, s))
	d := map[string]any{"Votes": votes}
	if creator >= 0 {
		d["Creator"] = m.name(lang, creator)
	}
	for {
		d["Name"] = string(name)
		label := locales.N(lang, key, need, d)
		over := len([]rune(label)) - bot.MaxLabel
		if over <= 0 || len(name) <= 1 {
			return bot.Truncate(label, bot.MaxLabel)
		}
		name = append(name[:max(len(name)-over-1, 1)], '…')
	}
}

// autoText is the scoreboard's line on how much the computer played a
// person's seat ("" when it never did).
func autoText(lang string, m *dixTable, s int) string {
	if s < 0 || s >= len(m.Seats) || m.Seats[s].ID == "" || m.Seats[s].CPU != "" {
		return ""
	}
	switch st := m.Seats[s]; {
	case st.Gone != "":
		return "\n" + locales.N(lang, "score_gone", st.Auto, nil)
	case st.Auto > 0:
		return "\n" + locales.N(lang, "score_auto", st.Auto, nil)
	}
	return ""
}
