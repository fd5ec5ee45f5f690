package dixtable

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// clocked gives the harness's bot a clock the test moves, and the paces
// live=100s+10s (the others keep their defaults).
func clocked(h *harness) *time.Time {
	h.T.Helper()
	now := time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)
	paces, err := clock.ParsePaces("live=100s+10s")
	require.NoError(h.T, err)
	h.b.Paces = paces
	h.b.Now = func() time.Time { return now }
	return &now
}

// due runs the deadline and outbox work of the channel as of the bot's
// clock, as the scheduler would, and returns the calls it made.
func due(h *harness) []tabletest.Call {
	h.T.Helper()
	start := h.Rec.Count()
	require.NoError(h.T, h.b.RunDueOn(context.Background(), h.Rec, h.Channel, h.b.Now()))
	return h.Rec.Since(start)
}

func sends(calls []tabletest.Call) []tabletest.Call {
	var out []tabletest.Call
	for _, c := range calls {
		if c.Posted() {
			out = append(out, c)
		}
	}
	return out
}

func TestPaceSetsTheClockAndTheBoardCountsDown(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	now := clocked(h)
	startGameWith(h, []any{"pace", "live"}, "u1", "u2")
	rec, m := h.Record()
	require.NotNil(t, m.Clock)
	assert.Equal(t, "live", m.Clock.Pace.Name)
	assert.Equal(t, 100*time.Second, m.Clock.Pace.Bank)
	actor := dix.GameOf(rec.State).ToAct()
	assert.Equal(t, actor, m.Clock.Seat, "the clock runs for the player to act")
	deadline := now.Add(100 * time.Second)
	assert.Equal(t, deadline, m.Clock.Deadline())
	// The record is due at the first reminder, half of the time.
	assert.Equal(t, now.Add(50*time.Second), rec.Due)
	board := h.Board()
	assert.Contains(t, board.Embeds[0].Description, "<t:"+bot.Itoa(int(deadline.Unix()))+":R>", "the board counts down with a Discord timestamp")
	assert.Contains(t, board.Embeds[0].Footer.Text, "Live (1\u00a0min\u00a040\u00a0s + 10\u00a0s per decision)")

	// A decision made in 30 s costs 30 s and earns the increment.
	*now = now.Add(30 * time.Second)
	user := m.Seats[actor].ID
	h.ClickOn(user, board, h.MustFind(board, verbDraw))
	_, m = h.Record()
	assert.Equal(t, 80*time.Second, m.Clock.Banks[actor], "100 s − 30 s + 10 s")
}

func TestRemindersAtMostTwiceToThePlayerToAct(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	now := clocked(h)
	startGameWith(h, []any{"pace", "live"}, "u1", "u2", "u3")
	rec, m := h.Record()
	start := *now
	actor := m.Seats[dix.GameOf(rec.State).ToAct()].ID
	var reminders []tabletest.Call
	for _, at := range []time.Duration{10, 49, 50, 51, 70, 89, 90, 95, 99} {
		*now = start.Add(at * time.Second)
		reminders = append(reminders, sends(due(h))...)
	}
	require.Len(t, reminders, 2, "two reminders per decision, at half and nine tenths of the time")
	for _, r := range reminders {
		assert.Equal(t, []string{actor}, r.Send.AllowedMentions.Users, "only the player to act is notified")
		assert.Contains(t, r.Send.Content, "<@"+actor+">")
	}
	rec2, _ := h.Record()
	assert.Equal(t, dix.GameOf(rec.State).Seq, dix.GameOf(rec2.State).Seq, "no decision was taken before the deadline")
}

func TestTimeoutIsTakenByTheComputerThenAbsentThenBack(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	now := clocked(h)
	startGameWith(h, []any{"pace", "live"}, "u1", "u2")
	rec, m := h.Record()
	s := dix.GameOf(rec.State).ToAct()
	user := m.Seats[s].ID
	seq := dix.GameOf(rec.State).Seq

	*now = now.Add(101 * time.Second)
	due(h)
	rec, m = h.Record()
	require.Greater(t, dix.GameOf(rec.State).Seq, seq, "the decision out of time was taken")
	assert.Equal(t, 1, m.Seats[s].Late)
	assert.False(t, m.Seats[s].Away)
	assert.Contains(t, strings.Join(m.Log, "\n"), locales.T("en", "log_timeout", map[string]any{"Name": m.name("en", s)}))
	assert.Contains(t, h.Board().Embeds[0].Description, "ran out of time", "the board says so")

	// Out of time again (the increment only: 10 s), in a row: absent.
	for i := 0; i < 10 && !m.Seats[s].Away; i++ {
		if dix.GameOf(rec.State).ToAct() == s {
			*now = now.Add(m.Clock.Remaining(s, *now) + time.Second)
		} else {
			// The other player decides at once.
			other := m.Seats[dix.GameOf(rec.State).ToAct()].ID
			require.True(t, stepAs(h, other))
		}
		due(h)
		rec, m = h.Record()
	}
	require.True(t, m.Seats[s].Away, "marked absent after two timeouts in a row")
	assert.NotEqual(t, s, dix.GameOf(rec.State).ToAct(), "the computer plays an absent player's seat at once")
	assert.Equal(t, -1, func() int {
		if m.Clock.Seat == s {
			return s
		}
		return -1
	}(), "an absent player's clock does not run")
	kick := tabletest.FindIDs(h.Board(), verbKick)
	assert.Len(t, kick, 1, "the others may vote to hand the seat over")

	// They click their hand: welcome back.
	h.ClickOn(user, h.Board(), bot.CustomID(verbHand, 0))
	_, m = h.Record()
	assert.False(t, m.Seats[s].Away)
	assert.Zero(t, m.Seats[s].Late)
	assert.Contains(t, strings.Join(m.Log, "\n"), "is back")
	assert.Empty(t, tabletest.FindIDs(h.Board(), verbKick), "no vote against a player who is back")
}

// stepAs plays one decision for user if it is theirs: the first board
// button of the simplest kind.
func stepAs(h *harness, user string) bool {
	h.T.Helper()
	board := h.Board()
	for _, verb := range []string{verbStop, verbNumbers, verbEndTurn, verbPass, verbConsol, verbDraw} {
		if id, ok := tabletest.FindID(board, verb); ok {
			r := h.ClickOn(user, board, id)
			return r.Response() != nil
		}
	}
	if id, ok := tabletest.FindID(board, verbPay); ok {
		prompt := h.ClickOn(user, board, id).Shown(board)
		h.ClickOn(user, prompt, h.MustFind(prompt, verbAuctPay))
		return true
	}
	return false
}

func TestKickVoteByMajorityOrByTheCreator(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	clocked(h)
	startGame(h, "u1", "u2", "u3", "u4")
	rec, m := h.Record()
	// Dan ran out of time once; Bob and Chloé vote, the creator abstains.
	target := m.seatOf("u4")
	_, err := h.St.Update(context.Background(), h.Channel, "", func(r2 *dixbot.Record) error {
		mm := mustDixTable(r2.Meta)
		mm.Seats[target].Late = 1
		r2.Meta = mm.Encode()
		return nil
	})
	require.NoError(t, err)
	id := bot.CustomID(verbKick, 0, bot.Itoa(target))

	r := h.ClickOn("u4", nil, id)
	assert.Contains(t, r.EphemeralText(), "cannot be handed", "nobody votes against themselves")
	r = h.ClickOn("u9", nil, id)
	assert.Contains(t, r.EphemeralText(), "not in this game")
	h.ClickOn("u2", nil, id)
	_, m = h.Record()
	assert.Equal(t, []string{"u2"}, m.Seats[target].Votes)
	assert.Empty(t, m.Seats[target].Gone, "one vote of three is no majority")
	r = h.ClickOn("u2", nil, id)
	assert.Contains(t, r.EphemeralText(), "already voted")
	h.ClickOn("u3", nil, id)
	rec, m = h.Record()
	assert.Equal(t, bot.GoneKicked, m.Seats[target].Gone, "two of the three others are a majority")
	assert.NotEqual(t, target, dix.GameOf(rec.State).ToAct(), "the computer plays the seat at once")
	assert.Contains(t, h.Board().Embeds[0].Fields[len(h.Board().Embeds[0].Fields)-4+target].Name, "🤖")

	// The kicked player can no longer act.
	r = h.ClickOn("u4", h.Board(), bot.CustomID(verbDraw, dix.GameOf(rec.State).Seq))
	assert.Equal(t, enT("err_handed_over", nil), r.EphemeralText())

	// The creator decides alone.
	h2 := newHarness(t)
	clocked(h2)
	startGame(h2, "u1", "u2", "u3")
	_, m2 := h2.Record()
	t2 := m2.seatOf("u3")
	_, err = h2.St.Update(context.Background(), h2.Channel, "", func(r2 *dixbot.Record) error {
		mm := mustDixTable(r2.Meta)
		mm.Seats[t2].Away = true
		r2.Meta = mm.Encode()
		return nil
	})
	require.NoError(t, err)
	h2.ClickOn("u1", nil, bot.CustomID(verbKick, 0, bot.Itoa(t2)))
	_, m2 = h2.Record()
	assert.Equal(t, bot.GoneKicked, m2.Seats[t2].Gone)
}

func TestLeaveHandsTheSeatOverAndTheScoreboardSaysSo(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	clocked(h)
	startGame(h, "u1", "u2")
	r := h.Command("u2", "leave")
	assert.Contains(t, r.EphemeralText(), "left the game")
	_, m := h.Record()
	s := m.seatOf("u2")
	assert.Equal(t, bot.GoneLeft, m.Seats[s].Gone)
	r = h.Command("u1", "leave")
	assert.Contains(t, r.EphemeralText(), "last player", "the last person at the table abandons instead")

	// Alice plays on against the computer to the end.
	for i := 0; i < 2000; i++ {
		rec, err := h.St.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		if rec.Finished {
			break
		}
		require.True(t, stepAs(h, "u1"))
	}
	var board string
	for _, c := range h.Rec.Calls {
		if c.Posted() && len(c.Send.Embeds) > 0 && c.Send.Embeds[0].Title == locales.T("en", "dix_score_title", nil) {
			for _, f := range c.Send.Embeds[0].Fields {
				board += f.Name + "\n" + f.Value + "\n"
			}
		}
	}
	assert.Contains(t, board, "Bob 🤖")
	assert.Contains(t, board, "Seat finished by the computer")
}

func TestPauseStopsClocksAndPlay(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	now := clocked(h)
	startGame(h, "u1", "u2", "u3")
	rec, m := h.Record()
	actor := m.Seats[dix.GameOf(rec.State).ToAct()].ID

	r := h.Command("u2", "pause")
	if m.Creator != "u2" {
		assert.Contains(t, r.EphemeralText(), "pause or resume")
	}
	h.Command("u1", "pause")
	rec, m = h.Record()
	assert.NotEmpty(t, m.PausedBy)
	assert.True(t, rec.Due.IsZero() || len(m.Outbox) > 0, "no deadline while paused")
	board := h.Board()
	assert.Contains(t, board.Embeds[0].Description, "Paused by Alice")
	_, drawOK := tabletest.FindID(board, verbDraw)
	assert.False(t, drawOK, "no game buttons while paused")
	r = h.ClickOn(actor, board, bot.CustomID(verbDraw, dix.GameOf(rec.State).Seq))
	assert.Contains(t, r.EphemeralText(), "paused")

	*now = now.Add(10 * time.Hour)
	due(h)
	rec2, _ := h.Record()
	assert.Equal(t, dix.GameOf(rec.State).Seq, dix.GameOf(rec2.State).Seq, "nothing times out while paused")

	h.Command("u1", "resume")
	rec, m = h.Record()
	assert.Empty(t, m.PausedBy)
	assert.Equal(t, now.Add(clock.Evening.Bank), m.Clock.Deadline(), "the decision has its whole time again")
	r = h.Command("u1", "resume")
	assert.Contains(t, r.EphemeralText(), "not paused")

}

func TestAnyClickOfAnAbsentPlayerBringsThemBack(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	clocked(h)
	startGame(h, "u1", "u2", "u3")
	rec, m := h.Record()
	away := (dix.GameOf(rec.State).ToAct() + 1) % 3
	user := m.Seats[away].ID
	_, err := h.St.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
		mm := mustDixTable(r.Meta)
		mm.Seats[away].Away, mm.Seats[away].Late = true, 2
		r.Meta = mm.Encode()
		return nil
	})
	require.NoError(t, err)
	// A button of another player's turn: refused, yet they are back.
	r := h.ClickOn(user, h.Board(), bot.CustomID(verbDraw, dix.GameOf(rec.State).Seq))
	assert.Equal(t, enT("err_not_your_turn", map[string]any{"Name": m.Seats[dix.GameOf(rec.State).ToAct()].Name}), r.EphemeralText())
	_, m = h.Record()
	assert.False(t, m.Seats[away].Away)
	assert.Zero(t, m.Seats[away].Late)
}

// pinged are the users the posted messages among calls notified.
func pinged(calls []tabletest.Call) []string {
	var out []string
	for _, c := range calls {
		if c.Posted() && c.Send.AllowedMentions != nil {
			out = append(out, c.Send.AllowedMentions.Users...)
		}
	}
	return out
}

func TestLeaveWhilePausedMovesNothingUntilResume(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	now := clocked(h)
	startGame(h, "u1", "u2", "u3")
	rec, m := h.Record()
	actor := dix.GameOf(rec.State).ToAct()
	leaver := m.Seats[actor].ID
	h.Command("u1", "pause")
	rec, m = h.Record()
	seq, banks := dix.GameOf(rec.State).Seq, append([]time.Duration(nil), m.Clock.Banks...)

	start := h.Rec.Count()
	r := h.Command(leaver, "leave")
	assert.Contains(t, r.EphemeralText(), "left the game")
	*now = now.Add(5 * time.Hour)
	due(h)
	calls := h.Rec.Since(start)
	rec, m = h.Record()
	assert.Equal(t, bot.GoneLeft, m.Seats[actor].Gone, "the seat is handed over")
	assert.Equal(t, seq, dix.GameOf(rec.State).Seq, "the computer plays nothing while paused")
	assert.Equal(t, actor, dix.GameOf(rec.State).ToAct())
	assert.Equal(t, banks, m.Clock.Banks, "no clock runs while paused")
	assert.Empty(t, pinged(calls), "nobody is notified while paused")
	assert.Contains(t, h.Board().Embeds[0].Description, "Paused by Alice")

	// Resumed: the computer plays the seat at once and the next person is
	// notified.
	start = h.Rec.Count()
	h.Command("u1", "resume")
	calls = h.Rec.Since(start)
	rec, m = h.Record()
	assert.Greater(t, dix.GameOf(rec.State).Seq, seq, "the computer plays the seat once the game runs again")
	assert.NotEqual(t, actor, dix.GameOf(rec.State).ToAct())
	next := m.Seats[dix.GameOf(rec.State).ToAct()].ID
	assert.Contains(t, pinged(calls), next, "the player to act next is notified")
	assert.NotContains(t, pinged(calls), leaver)
	assert.Equal(t, dix.GameOf(rec.State).ToAct(), m.Clock.Seat, "the next player's clock runs")
}

// nbsp is s with its spaces non-breaking.
func nbsp(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") }

func TestBoardShowsTimeLeftCompactAndNeverMoreThanTheBank(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	now := clocked(h)
	startGameWith(h, []any{"pace", "live"}, "u1", "u2")
	// Quick decisions do not pile time up beyond the 100 s bank.
	for range 12 {
		rec, m := h.Record()
		*now = now.Add(time.Second)
		require.True(t, stepAs(h, m.Seats[dix.GameOf(rec.State).ToAct()].ID))
	}
	rec, m := h.Record()
	for s, b := range m.Clock.Banks {
		assert.LessOrEqual(t, b, 100*time.Second, "seat %d", s)
	}
	waiting := 1 - dix.GameOf(rec.State).ToAct()
	require.Greater(t, m.Clock.Banks[waiting], time.Minute)
	field := h.Board().Embeds[0].Fields[len(h.Board().Embeds[0].Fields)-2+waiting].Value
	assert.Contains(t, field, "⏳\u00a01\u00a0min", "the time left of the player waiting, to the minute")
	assert.NotRegexp(t, `\d\s+s\b`, field, "never in seconds")
}

// clockShown reports whether msg shows a clock: a countdown, a time left
// or the pause's status line.
func clockShown(msg *tabletest.Message) bool {
	text := msg.Content
	for _, e := range msg.Embeds {
		text += e.Description
		for _, f := range e.Fields {
			text += f.Name + f.Value
		}
	}
	return strings.Contains(text, "⏳") || strings.Contains(text, "<t:") || strings.Contains(text, "Paused by")
}

func TestAbandonedBoardShowsNoClock(t *testing.T) {
	t.Parallel()
	for _, paused := range []bool{false, true} {
		h := newHarness(t)
		clocked(h)
		startGameWith(h, []any{"pace", "live"}, "u1", "u2", "u3")
		if paused {
			h.Command("u1", "pause")
		}
		board := h.Board()
		require.True(t, clockShown(board), "a running game shows its clock")
		prompt := h.Command("u1", "abandon").Shown(nil)
		h.ClickOn("u1", prompt, h.MustFind(prompt, verbAbandonYes))
		require.Equal(t, enT("dix_board_title_abandoned", nil), board.Embeds[0].Title)
		assert.False(t, clockShown(board), "paused %v: %s", paused, board.Embeds[0].Description)
		assert.Contains(t, board.Embeds[0].Footer.Text, "Pace: Live", "the pace it was played at stays")
	}
}

func TestFinishedGameShowsNoClock(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	now := clocked(h)
	startGameWith(h, []any{"pace", "live"}, "u1", "u2")
	h.Command("u2", "leave")
	for range 2000 {
		rec, err := h.St.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		if rec.Finished {
			break
		}
		*now = now.Add(time.Second)
		require.True(t, stepAs(h, "u1"))
	}
	rec, err := h.St.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.True(t, rec.Finished)
	h.Rec.Mu.Lock()
	defer h.Rec.Mu.Unlock()
	for id, msg := range h.Rec.Msgs {
		if !msg.Ephemeral && len(msg.Embeds) > 0 {
			assert.False(t, clockShown(msg), "message %s: %s", id, msg.Embeds[0].Title)
		}
	}
}

// kickButtonLabel is the label of the board's vote button for seat s.
func kickButtonLabel(t *testing.T, msg *tabletest.Message, s int) string {
	t.Helper()
	want := bot.CustomID(verbKick, 0, bot.Itoa(s))
	for _, c := range msg.Components {
		for _, cc := range c.(discordgo.ActionsRow).Components {
			if b, ok := cc.(discordgo.Button); ok && b.CustomID == want {
				return b.Label
			}
		}
	}
	t.Fatalf("no vote button for seat %d", s)
	return ""
}

func TestKickButtonSaysWhatDecides(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "fr"} {
		h := newHarness(t)
		h.Lang = lang
		clocked(h)
		startGameWith(h, []any{"language", lang}, "u1", "u2", "u3", "u4")
		_, m := h.Record()
		dan, alice := m.seatOf("u4"), m.seatOf("u1")
		setSeats(h, func(s []seat) { s[dan].Late, s[alice].Late = 1, 1 })
		h.Command("u1", "board")
		want := map[string][3]string{
			"en": {"Hand Dan's seat to the computer (Alice's click or 2 votes)",
				"Hand Dan's seat to the computer (Alice's click or 2 votes: 1 so far)",
				"Hand Alice's seat to the computer (0 of 2 votes)"},
			"fr": {"Remplacer Dan par l'ordinateur (Alice en un clic, ou 2 voix)",
				"Remplacer Dan par l'ordinateur (Alice en un clic, ou 2 voix : 1 pour l'instant)",
				"Remplacer Alice par l'ordinateur (0 voix sur 2)"},
		}[lang]
		assert.Equal(t, want[0], kickButtonLabel(t, h.Board(), dan), "the creator decides alone, or a majority")
		assert.Equal(t, want[2], kickButtonLabel(t, h.Board(), alice), "the creator's own seat: votes only")
		h.ClickOn("u2", nil, bot.CustomID(verbKick, 0, bot.Itoa(dan)))
		assert.Equal(t, want[1], kickButtonLabel(t, h.Board(), dan))
	}
	// Two players: the creator's click is the only way.
	h := newHarness(t)
	clocked(h)
	startGame(h, "u1", "u2")
	_, m := h.Record()
	bob := m.seatOf("u2")
	setSeats(h, func(s []seat) { s[bob].Away = true })
	h.Command("u1", "board")
	assert.Equal(t, "Hand Bob's seat to the computer (Alice's click)", kickButtonLabel(t, h.Board(), bob))
}

func TestKickButtonLabelFitsWithALongName(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Names["u4"] = strings.Repeat("Longname", 4)
	clocked(h)
	startGame(h, "u1", "u2", "u3", "u4")
	_, m := h.Record()
	dan := m.seatOf("u4")
	setSeats(h, func(s []seat) { s[dan].Late = 1 })
	h.Command("u1", "board")
	label := kickButtonLabel(t, h.Board(), dan)
	assert.LessOrEqual(t, len([]rune(label)), 80, "Discord's limit for a button label")
	assert.True(t, strings.HasSuffix(label, "(Alice's click or 2 votes)"), "the name gives way, not what decides: %q", label)
}
