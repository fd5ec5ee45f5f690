package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/locales"
	"github.com/dixgame/dixbot/store"
)

// clockSeat is the part of the table's data about a seat's clock.
type clockSeat struct {
	User  string `json:"u"`
	Away  bool   `json:"aw"`
	Level string `json:"cpu"`
}

func clockSeats(t *testing.T, r *dixbot.Record) []clockSeat {
	t.Helper()
	var m struct {
		Seats []clockSeat `json:"s"`
	}
	require.NoError(t, json.Unmarshal(r.Meta, &m))
	return m.Seats
}

// timedOut counts, in the channel's game log (English or French), the
// decisions of each of names the computer took once their time ran out.
func timedOut(t *testing.T, st dixbot.Store, channel string, names ...string) int {
	t.Helper()
	return timedOutIn(logLines(t, st, channel), names...)
}

// timedOutIn counts, in the lines of a game log, the decisions of each of
// names the computer took once their time ran out.
func timedOutIn(lines []string, names ...string) int {
	n := 0
	for _, line := range lines {
		for _, name := range names {
			for _, lang := range []string{"en", "fr"} {
				if line == locales.T(lang, "table_timed_out", map[string]any{"Name": name}) {
					n++
				}
			}
		}
	}
	return n
}

// logLines are the lines of the channel's game log, with those the table
// has not written to it yet (its data's unlogged lines, the last of its
// numbered lines).
func logLines(t *testing.T, st dixbot.Store, channel string) []string {
	t.Helper()
	var lines []string
	logged := 0                                  // the table's lines the log has had
	r, err := st.Get(waitCtx(t), channel+"/log") // the game log's record
	if !errors.Is(err, dixbot.ErrNotFound) {
		require.NoError(t, err)
		var l struct {
			Lines []string `json:"l"`
			N     int      `json:"n"`
		}
		require.NoError(t, json.Unmarshal(r.Meta, &l))
		lines, logged = l.Lines, l.N
	}
	if r, err := getRecord(waitCtx(t), st, channel); err == nil && !r.Finished {
		var td struct {
			Lines    int      `json:"gn"`
			Unlogged []string `json:"gu"`
		}
		require.NoError(t, json.Unmarshal(r.Meta, &td))
		if skip := max(0, logged-(td.Lines-len(td.Unlogged))); skip < len(td.Unlogged) {
			lines = append(lines, td.Unlogged[skip:]...)
		}
	}
	return lines
}

var lateRE = regexp.MustCompile(`late_ms=(\d+)`)

// TestClockedGameWithTwoProcesses plays a 3-player game at a pace of
// seconds (DIX_PACES) with two bot processes on one Redis. Alice and Bob
// answer at once; Chloe never answers a decision: each one runs out of time
// and the computer takes it, twice in a row marks her absent, and she comes
// back by clicking her hand (E2E_CLOCK_CYCLES times; then she stays away and
// the computer plays her seat to the end). Both processes are stopped once
// while her time runs, and one started after her deadline acts on it at
// once. Checked: every deadline is acted on exactly once (the processes'
// logs against her count of decisions out of time), only Chloe is reminded
// and at most twice per decision, the game ends with the scoreboard saying
// the computer played for her. The lateness of the deadlines is logged.
func TestClockedGameWithTwoProcesses(t *testing.T) {
	t.Parallel()
	cycles := 3
	if v, err := strconv.Atoi(os.Getenv("E2E_CLOCK_CYCLES")); err == nil && v > 0 {
		cycles = v
	}
	// The paces here are seconds where real ones are minutes or hours,
	// while Discord's rate-limit windows cannot be compressed alike: every
	// deadline's board and reminder (posted with the bot token, no click
	// causing them) would hit a channel's bucket at a rate no real game
	// reaches. So this test runs with the rate limits off.
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true, DisableRateLimits: true})
	redisURL := redistest.Start(t).URL()
	env := []string{
		"DISCORD_TOKEN=" + fake.Token(),
		"DISCORD_API_URL=" + fake.URL(),
		"REDIS_URL=" + redisURL,
		"REDIS_PREFIX=clock:",
		"DIX_PACES=live=2s+2s",
		"LOG_LEVEL=info",
	}
	// Two gateway shards: the game's server belongs to one, yet both
	// processes do the due work of every game.
	var procs []*process
	start := func(shard int) *process {
		p := startProcess(t, append(env, "SHARD_COUNT=2", "SHARD_ID="+strconv.Itoa(shard)))
		procs = append(procs, p)
		return p
	}
	running := []*process{start(0), start(1)}

	st, err := store.OpenRedis(context.Background(), store.Options{URL: redisURL, Prefix: "clock:"})
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	tb := newTable(t, fake, "en-US", "Alice", "Bob", "Chloe")
	tb.store = func() dixbot.Store { return st }
	chloe := tb.users[2]
	gid, err := strconv.ParseUint(tb.guild.ID, 10, 64)
	require.NoError(t, err)
	home := int((gid >> 22) % 2) // the shard of the game's server
	tb.lobby("/dix start pace:live")

	backs, restarted := 0, false
	// A loaded machine can hold a board back for seconds, at these paces
	// a whole decision's time: then Alice's or Bob's decision is taken by
	// the computer before the test could click. Each such decision is
	// counted here (never one of Chloe's, who does not answer anyway).
	othersOuts := func() int { return timedOut(t, st, tb.channel.ID, "Alice", "Bob") }
	excused := 0
	var restartGap time.Duration
	deadline := time.Now().Add(4 * time.Minute)
	for {
		require.True(t, time.Now().Before(deadline), "the game did not finish in time")
		// The log before the record: a decision of Alice's or Bob's taken
		// out of time after this read is counted below, even one taken
		// before the record is read.
		outs := othersOuts()
		rec := tb.record()
		if rec.Finished || dixOf(rec).Phase == dix.PhaseOver {
			break
		}
		ss := clockSeats(t, rec)
		if ss[2].Away && backs < cycles {
			// Chloe clicks her hand on the latest board: she is back. (Not
			// the board of rec: the computer plays her seat at once, so
			// that board may already be retired.)
			r := tb.clickHand(chloe)
			if r == nil {
				continue // the game ended first
			}
			// Her hand privately, or the board she clicked on redrawn
			// when the computer's move made it outdated: either way she
			// is back.
			t.Logf("her click: %s", describe(r))
			require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return !clockSeats(t, tb.record())[2].Away }))
			backs++
			continue
		}
		actor := dixOf(rec).ToAct()
		if ss[actor].User != chloe.ID {
			// Alice's or Bob's decision, taken by the click unless the
			// board came too late; the driver checks that a decision it
			// clicked was applied or taken out of time.
			tb.decideInTime(rec)
			excused += othersOuts() - outs
			continue
		}
		seq := dixOf(rec).Seq
		if !restarted && backs == 1 {
			// Both processes die while her time runs; the one of the
			// other shard comes back after her deadline and acts on it
			// at once.
			before := othersOuts()
			for _, p := range running {
				require.NoError(t, p.cmd.Process.Signal(syscall.SIGKILL))
				<-p.done
			}
			require.Equal(t, seq, dixOf(tb.record()).Seq, "her time was still running when the processes stopped")
			time.Sleep(4500 * time.Millisecond) // past her deadline (at most 4 s: the bank or two increments)
			t0 := time.Now()
			running = []*process{start(1 - home)}
			require.NoError(t, waitUntil(waitCtx(t), fake, func() bool { return dixOf(tb.record()).Seq != seq }))
			restartGap = time.Since(t0)
			running = append(running, start(home))
			// While the game's shard has no process, no click reaches it.
			excused += othersOuts() - before
			restarted = true
			continue
		}
		// Chloe does not answer: the computer decides once her time is out.
		err := waitUntil(waitCtx(t), fake, func() bool { return dixOf(tb.record()).Seq != seq })
		require.NoError(t, err, "her decision out of time was never taken")
	}
	require.True(t, restarted, "the game lasted until the restart")
	assert.Equal(t, cycles, backs, "Chloe came back %d times", cycles)
	assert.Less(t, restartGap, 5*time.Second+waitSlack, "a deadline passed while no process ran is acted on at start-up")

	// Exactly once: one log line per decision out of time, across
	// processes, and one line of the game's log.
	var late []time.Duration
	for _, p := range procs {
		for _, m := range lateRE.FindAllStringSubmatch(p.log(), -1) {
			ms, _ := strconv.Atoi(m[1])
			late = append(late, time.Duration(ms)*time.Millisecond)
		}
	}
	chloeOuts := timedOut(t, st, tb.channel.ID, "Chloe")
	require.Positive(t, chloeOuts)
	assert.Len(t, late, othersOuts()+chloeOuts, "each decision out of time taken once, by one process")
	assert.Equal(t, excused, othersOuts(), "Alice and Bob answered in time whenever they could click")

	// Reminders go only with decisions of 10 minutes or more (the table's
	// rule for every game): none at this pace.
	reminders := 0
	for _, m := range fake.Transcript(tb.channel.ID) {
		if !m.Ephemeral() && len(m.Pinged) > 0 && strings.HasPrefix(m.Content, "⏰") {
			reminders++
		}
	}
	assert.Zero(t, reminders, "no reminder at a pace of seconds")

	board := tb.checkScoreboard([]string{"Alice", "Bob", "Chloe"})
	var text string
	for _, f := range board.Embeds[0].Fields {
		text += f.Name + "\n" + f.Value + "\n"
	}
	assert.Contains(t, text, "Chloe"+locales.T("en", "mark_away", nil), "the scoreboard marks the seat the computer played")
	noViolations(t, fake)

	slices.Sort(late)
	pct := func(p float64) time.Duration { return late[min(len(late)-1, int(p*float64(len(late))))] }
	t.Logf("deadlines: %d acted on by %d processes (%d of Alice's and Bob's, their board late); lateness p50 %v, p99 %v, max %v; restart acted after %v",
		len(late), len(procs), excused, pct(0.50), pct(0.99), late[len(late)-1], restartGap)
}

// hasHand reports whether m has a hand button.
func hasHand(m fakediscord.Message) bool {
	for _, c := range components(m) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == "st" && id.arg == "hand" {
			return true
		}
	}
	return false
}

// clickHand clicks, as user, the hand button of the latest board. A board
// replaced between being read and clicked (the computer plays on at once)
// loses its buttons: the click goes to the board that replaced it, as a
// person's next click would. It returns nil when the game ended first.
func (tb *table) clickHand(user fakediscord.User) *fakediscord.Response {
	tb.t.Helper()
	ctx := waitCtx(tb.t)
	for {
		if rec := tb.record(); rec.Finished || dixOf(rec).Phase == dix.PhaseOver {
			return nil
		}
		board, err := tb.fake.WaitMessage(ctx, tb.channel.ID, "", hasHand)
		require.NoError(tb.t, err, "a board with a hand button")
		ix, err := tb.fake.Click(ctx, user.ID, board.ID, handID(tb.t, board))
		if errors.Is(err, fakediscord.ErrUnknownComponent) {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		require.NoError(tb.t, err, "click the hand as %s", user.Username)
		r, err := ix.Wait(ctx)
		require.NoError(tb.t, err, "answer to the hand button")
		tb.answered(r)
		return tb.final(ix, r)
	}
}

// handID is the custom id of the board's hand button.
func handID(t *testing.T, m fakediscord.Message) string {
	t.Helper()
	for _, c := range components(m) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == "st" && id.arg == "hand" {
			return c.CustomID
		}
	}
	t.Fatalf("no hand button on the board")
	return ""
}

// decideInTime is tb.decide for the decision of rec on a clock: it waits
// for that decision's board, unless the player's time runs out first (the
// computer's move then stands).
func (tb *table) decideInTime(rec *dixbot.Record) {
	tb.t.Helper()
	seq, v := dixOf(rec).Seq, version(tb.t, rec)
	shown := func() bool {
		return slices.ContainsFunc(tb.fake.Transcript(tb.channel.ID), func(m fakediscord.Message) bool {
			return !m.Ephemeral() && len(decisionButtons(m, v)) > 0
		})
	}
	taken := func() bool { return dixOf(tb.record()).Seq != seq }
	require.NoError(tb.t, waitUntil(waitCtx(tb.t), tb.fake, func() bool { return shown() || taken() }),
		"neither a board for state %d nor a decision out of time", seq)
	if !taken() {
		tb.decide()
	}
}
