package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/locales"
)

// pingCount is how much a game notified its players.
type pingCount struct {
	turns         int // turns played (the board's turn counter at the end)
	messages      int // public messages that notified someone
	notifications int // users notified, summed over those messages
	deleted       int // notifying messages that were later deleted
}

func (p pingCount) perTurn() float64 { return float64(p.messages) / float64(p.turns) }

// countPings reads the channel's transcript: every public message that
// notified someone, and whether it is still there.
func (tb *table) countPings() pingCount {
	tb.t.Helper()
	var p pingCount
	for _, m := range tb.fake.Transcript(tb.channel.ID) {
		if m.Ephemeral() || len(m.Pinged) == 0 {
			continue
		}
		p.messages++
		p.notifications += len(m.Pinged)
		if m.Deleted {
			p.deleted++
		}
	}
	p.turns = tb.turns
	require.Positive(tb.t, p.turns)
	return p
}

// TestPingsPerTurn plays 3-player games by clicks and counts the
// notifications per turn, and checks that no notifying message is ever
// deleted (a notification must never point to
// a missing message).
func TestPingsPerTurn(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)
	// The same shuffles on every run, so the figure is reproducible.
	var seed atomic.Int64
	w.cfg.Seed = func() int64 { return seed.Add(1) }
	w.restart(t)
	var total pingCount
	for _, names := range [][]string{{"Alice", "Bob", "Chloe"}, {"Dan", "Eve", "Fay"}, {"Gus", "Hal", "Ivy"}, {"Jo", "Kim", "Lea"}, {"Max", "Ned", "Ola"}} {
		tb := w.table(t, "en-US", names...)
		tb.lobby("/dix start")
		tb.playToEnd()
		tb.checkScoreboard(names)
		p := tb.countPings()
		t.Logf("%v: %d turns, %d notifying messages (%.2f per turn), %d notifications, %d deleted",
			names, p.turns, p.messages, p.perTurn(), p.notifications, p.deleted)
		total.turns += p.turns
		total.messages += p.messages
		total.notifications += p.notifications
		total.deleted += p.deleted
	}
	t.Logf("all games: %d turns, %.2f notifying messages per turn, %.2f notifications per turn, %d deleted",
		total.turns, total.perTurn(), float64(total.notifications)/float64(total.turns), total.deleted)
	assert.Zero(t, total.deleted, "a notifying message was deleted")
	// At most 1.3 notifying messages per turn. People who clicked within
	// the last minute are at the board and are not pinged (the table's
	// rule for every game), so at this pace a game notifies little more
	// than its end.
	assert.LessOrEqual(t, total.perTurn(), 1.30, "notifying messages per turn (the target)")
}

// TestNoPingsForComputerPlayedSeats plays 3-player games in which one
// player leaves at once (/dix leave: the computer plays the seat to the
// end): once they left, nothing but the end of the game (which names every
// person seated once) notifies them, neither an auction nor the final buy
// round.
func TestNoPingsForComputerPlayedSeats(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false)
	var seed atomic.Int64
	w.cfg.Seed = func() int64 { return seed.Add(1) }
	w.restart(t)
	var total pingCount
	toLeaver := 0
	for _, names := range [][]string{{"Alice", "Bob", "Chloe"}, {"Dan", "Eve", "Fay"}, {"Gus", "Hal", "Ivy"}} {
		tb := w.table(t, "en-US", names...)
		tb.lobby("/dix start")
		leaver := tb.users[2]
		// The start's work (its board and pings) is done before the
		// leave: what it posts was true when it went out.
		require.NoError(t, waitUntil(waitCtx(t), tb.fake, func() bool {
			var m struct {
				Outbox []json.RawMessage `json:"ob"`
			}
			return json.Unmarshal(tb.record().Meta, &m) == nil && len(m.Outbox) == 0
		}), "the start's work is done")
		left := tb.command(leaver, "/dix leave")
		require.True(t, left.Ephemeral())
		tb.playToEnd()
		tb.checkScoreboard(names)
		p := tb.countPings()
		n := 0
		over := strings.SplitN(locales.T("en", "table_over_ping", nil), " ", 2)[0]
		for _, m := range tb.fake.Transcript(tb.channel.ID) {
			// The end of the game is told to every person seated, those
			// who left included, once.
			final := strings.HasPrefix(m.Content, over)
			if !m.Ephemeral() && !final && m.Timestamp.After(left.At) && slices.Contains(m.Pinged, leaver.ID) {
				n++
			}
		}
		t.Logf("%v, %s left: %d turns, %d notifying messages (%.2f per turn), %d of them to %s",
			names, leaver.Username, p.turns, p.messages, p.perTurn(), n, leaver.Username)
		total.turns += p.turns
		total.messages += p.messages
		toLeaver += n
	}
	t.Logf("all games: %d turns, %.2f notifying messages per turn, %d to a seat the computer plays",
		total.turns, total.perTurn(), toLeaver)
	assert.Zero(t, toLeaver, "a seat the computer plays is never notified of a decision")
}
