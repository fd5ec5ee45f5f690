package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	qwixxRules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/locales"
)

// The game logs of TestReplicaKills' tables, checked against what the
// players did: a move the players saw applied shows in its game's log
// once. A move logged more often than it was made counts doubled (a click
// applied twice, or its log lines written twice); a move seen applied and
// absent from the log counts missing.

// logSettle is how long a finished game's log may take to show the
// game's last line: the log is written after the answer.
const logSettle = 10 * time.Second

// gameLog reads channel's game log once it shows one of the lines ends
// (the game over), waiting up to logSettle. complete is false when none
// came or older lines were cut: the log cannot then be counted.
func (k *killRun) gameLog(channel string, ends ...string) (lines []string, complete bool) {
	ctx, cancel := context.WithTimeout(context.Background(), logSettle)
	defer cancel()
	for {
		var l struct {
			Lines []string `json:"l"`
			Cut   int      `json:"c"`
		}
		r, err := k.st.Get(ctx, channel+"/log")
		if err == nil && json.Unmarshal(r.Meta, &l) == nil {
			lines = l.Lines
			for _, line := range l.Lines {
				if slices.Contains(ends, line) {
					return lines, l.Cut == 0
				}
			}
		}
		select {
		case <-ctx.Done():
			return lines, false
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// logLine reads English log lines of one locale key: the values of its
// fields, by field name.
type logLine struct {
	re     *regexp.Regexp
	fields []string
}

// logFields are the placeholders log lines use.
var logFields = []string{"Name", "By", "Square", "Squares", "Count", "Clue", "Cards", "Emoji", "Number", "Max", "Amount", "Card", "CardName", "Sum"}

// newLogLine is the reader of key's English line (of plural form n for a
// key with plural forms, n > 0).
func newLogLine(key string, n int) logLine {
	data := map[string]any{}
	for _, f := range logFields {
		data[f] = "\x01" + f + "\x02"
	}
	text := locales.T("en", key, data)
	if n > 0 {
		delete(data, "Count")
		text = locales.N("en", key, n, data)
	}
	if strings.Contains(text, "⟦") {
		panic("no log line " + key)
	}
	var fields []string
	pattern := regexp.MustCompile("\x01([A-Za-z]+)\x02").ReplaceAllStringFunc(regexp.QuoteMeta(text), func(s string) string {
		fields = append(fields, s[1:len(s)-1])
		return "(.+?)"
	})
	return logLine{re: regexp.MustCompile("^" + pattern + "$"), fields: fields}
}

// read returns line's fields when it is one of l's lines.
func (l logLine) read(line string) (map[string]string, bool) {
	m := l.re.FindStringSubmatch(line)
	if m == nil {
		return nil, false
	}
	out := map[string]string{}
	for i, f := range l.fields {
		out[f] = m[i+1]
	}
	return out, true
}

// The log lines that say the computer played a person's decision.
var (
	lineTimedOut = newLogLine("table_timed_out", 0)
	lineAbsent   = newLogLine("log_absent", 0)
	lineKicked   = newLogLine("log_kicked", 0)
)

// computerPlayed counts, by name, the decisions of people the log says
// the computer took (out of time), and names the people it played for
// from some point on (absent, handed over): their lines are not theirs.
func computerPlayed(lines []string) (timedOut map[string]int, handed map[string]bool) {
	timedOut, handed = map[string]int{}, map[string]bool{}
	for _, line := range lines {
		if f, ok := lineTimedOut.read(line); ok {
			timedOut[f["Name"]]++
		}
		if f, ok := lineAbsent.read(line); ok {
			handed[f["Name"]] = true
		}
		if f, ok := lineKicked.read(line); ok {
			handed[f["Name"]] = true
		}
	}
	return timedOut, handed
}

// moveCount compares a log with the moves made: for each key, logged is
// how often the log shows it, most how often it may (the moves made, or
// sent), least how often it must (the moves seen applied).
type moveCount struct {
	logged, most, least map[string]int
}

func newMoveCount() *moveCount {
	return &moveCount{logged: map[string]int{}, most: map[string]int{}, least: map[string]int{}}
}

// tally returns the moves logged more often than made (doubled) and
// those seen applied but not logged (missing), with a note for each.
func (c *moveCount) tally() (doubled, missing int, notes []string) {
	for key, n := range c.logged {
		if extra := n - c.most[key]; extra > 0 {
			doubled += extra
			notes = append(notes, fmt.Sprintf("%q logged %d times, made %d", key, n, c.most[key]))
		}
	}
	for key, n := range c.least {
		if gone := n - c.logged[key]; gone > 0 {
			missing += gone
			notes = append(notes, fmt.Sprintf("%q logged %d times, seen applied %d", key, c.logged[key], n))
		}
	}
	return doubled, missing, notes
}

// logTally adds a game's counts to the run's.
func (k *killRun) logTally(what string, c *moveCount, lines []string, complete bool) {
	if !complete {
		k.mu.Lock()
		k.logsUncounted++
		k.mu.Unlock()
		k.note("%s: the game's log never showed its end; not counted", what)
		return
	}
	doubled, missing, notes := c.tally()
	k.mu.Lock()
	k.logsCounted++
	for _, n := range c.least {
		k.checked += n
	}
	k.doubled += doubled
	k.logMissing += missing
	k.mu.Unlock()
	for _, n := range notes {
		k.note("%s: %s", what, n)
	}
	if missing > 0 {
		k.note("%s: the log's last lines:\n%s", what, strings.Join(lines[max(0, len(lines)-40):], "\n"))
	}
}

// DIX: every Draw a person made is one "draws" line (the table plays a
// forced stop, pass or payment by itself, never a draw).
var (
	lineDixDrew = newLogLine("dix_ev_drew", 1)
	lineDixOver = locales.T("en", "dix_ev_game_over", nil)
)

// dixLogCount counts the draws of a DIX game's log against draws, the
// person's draws applied by name.
func dixLogCount(lines []string, draws map[string]int) *moveCount {
	c := newMoveCount()
	timedOut, handed := computerPlayed(lines)
	for name, n := range draws {
		c.most["draw|"+name] = n + timedOut[name]
		c.least["draw|"+name] = n
	}
	for _, line := range lines {
		if f, ok := lineDixDrew.read(line); ok && !handed[f["Name"]] {
			c.logged["draw|"+f["Name"]]++
		}
	}
	for name := range handed {
		delete(c.least, "draw|"+name)
	}
	return c
}

func TestDixLogCount(t *testing.T) {
	t.Parallel()
	over := lineDixOver
	drew := func(name string) string {
		return locales.N("en", "dix_ev_drew", 1, map[string]any{"Name": name, "Cards": "5🟥"})
	}
	lines := []string{drew("Ann"), drew("Bob"), drew("Ann"), drew("Ann"), over}
	c := dixLogCount(lines, map[string]int{"Ann": 2, "Bob": 2})
	doubled, missing, notes := c.tally()
	assert.Equal(t, 1, doubled, "Ann's third line: %v", notes)
	assert.Equal(t, 1, missing, "Bob's second draw: %v", notes)
	// Out of time, the computer drew for Ann.
	lines = append([]string{locales.T("en", "table_timed_out", map[string]any{"Name": "Ann"})}, lines...)
	doubled, _, _ = dixLogCount(lines, map[string]int{"Ann": 2, "Bob": 2}).tally()
	assert.Zero(t, doubled)
}

// Qwixx: the game's final state says what the log must hold: one roll
// line per roll, one mark line per number marked (the mark that locks a
// row is told by the lock's line), one penalty line per penalty.
var (
	lineQwixxRolled  = newLogLine("qwixx_ev_rolled", 0)
	lineQwixxWhite   = newLogLine("qwixx_ev_marked_white", 0)
	lineQwixxColour  = newLogLine("qwixx_ev_marked_colour", 0)
	lineQwixxPenalty = newLogLine("qwixx_ev_penalty", 0)
	qwixxOverLines   = []string{locales.T("en", "qwixx_ev_over_locks", nil), locales.T("en", "qwixx_ev_over_penalties", nil)}
	// qwixxEmoji are the rows' emoji on the board and in the log (r y g b).
	qwixxEmoji = [4]string{"🔴", "🟡", "🟢", "🔵"}
)

// qwixxLogCount counts a Qwixx log against the game's final view and its
// seats' names.
func qwixxLogCount(lines []string, v qwixxRules.View, names []string) *moveCount {
	c := newMoveCount()
	want := func(key string) { c.most[key]++; c.least[key]++ }
	for range v.Turn - 1 { // the first roll comes with the game, not as an event
		want("roll")
	}
	for _, sh := range v.Sheets {
		name := names[sh.Seat]
		for i, r := range sh.Rows {
			for j, n := range r.Marks {
				if r.Lock && j == len(r.Marks)-1 {
					continue // the lock's own line tells it
				}
				want(fmt.Sprintf("mark|%s|%s|%d", name, qwixxEmoji[i], n))
			}
		}
		for p := 1; p <= sh.Penalties; p++ {
			want(fmt.Sprintf("penalty|%s|%d", name, p))
		}
	}
	for _, line := range lines {
		if _, ok := lineQwixxRolled.read(line); ok {
			c.logged["roll"]++
		}
		for _, l := range []logLine{lineQwixxWhite, lineQwixxColour} {
			if f, ok := l.read(line); ok {
				c.logged[fmt.Sprintf("mark|%s|%s|%s", f["Name"], f["Emoji"], f["Number"])]++
			}
		}
		if f, ok := lineQwixxPenalty.read(line); ok {
			c.logged[fmt.Sprintf("penalty|%s|%s", f["Name"], f["Count"])]++
		}
	}
	return c
}

// Dixxit: each clue a person typed (a text unique in the game) is one
// clue line; each finger a person put down is one line of a finger that
// missed or found, in its turn. The computer seat's lines are not
// counted. The log has no turn numbers: a clue line
// (or a clue said aloud, or skipped) starts a turn, named by its clue when
// the clue is known, else the one after the turn before. A turn whose clue
// line is missing (lost) shares the lines of the turn before.
var (
	lineDixxitClue    = newLogLine("dixxit_ev_clue", 0)
	lineDixxitAloud   = newLogLine("dixxit_ev_aloud", 0)
	lineDixxitSkipped = newLogLine("dixxit_ev_skipped", 0)
	lineDixxitFinger  = newLogLine("dixxit_ev_finger", 0)
	lineDixxitFound   = newLogLine("dixxit_ev_found", 0)
	lineDixxitOver    = locales.T("en", "dixxit_ev_over", nil)
)

// fingerKey is a finger: who, on which square (1–9), in which turn.
type fingerKey struct {
	name   string
	square int
	turn   uint64
}

// dixxitPlay is what the people of one Dixxit game did, for its log.
type dixxitPlay struct {
	mu          sync.Mutex
	people      map[string]bool   // the people's names
	first       uint64            // the game's first turn
	typed       map[string]uint64 // the clues people typed, by text: their turn
	said        map[uint64]string // the clue of each turn seen, by the state
	cluesSent   map[string]int
	cluesSeen   map[string]int // applied
	fingersSent map[fingerKey]int
	fingersSeen map[fingerKey]int // applied
}

func newDixxitPlay() *dixxitPlay {
	return &dixxitPlay{people: map[string]bool{}, first: 1, typed: map[string]uint64{}, said: map[uint64]string{}, cluesSent: map[string]int{}, cluesSeen: map[string]int{},
		fingersSent: map[fingerKey]int{}, fingersSeen: map[fingerKey]int{}}
}

// dixxitLogCount counts a Dixxit log against what its people did.
func dixxitLogCount(lines []string, p *dixxitPlay) *moveCount {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := newMoveCount()
	_, handed := computerPlayed(lines) // their fingers are the computer's too
	for text, n := range p.cluesSent {
		c.most["clue|"+text] = n
		c.least["clue|"+text] = p.cluesSeen[text]
	}
	// The turn of each line.
	var starts []uint64 // the turns started, in the log's order
	turn, last := uint64(0), p.first-1
	type logged struct {
		name, square string
		turn         uint64
	}
	var fingers []logged
	for _, line := range lines {
		if f, ok := lineDixxitClue.read(line); ok {
			if p.people[f["Name"]] {
				c.logged["clue|"+f["Clue"]]++
			}
			turn = last + 1
			if t, ok := p.typed[f["Clue"]]; ok {
				turn = t
			} else {
				for t := last + 1; t <= last+8; t++ {
					if p.said[t] == f["Clue"] {
						turn = t
						break
					}
				}
			}
			last = max(last, turn)
			starts = append(starts, turn)
			continue
		}
		_, aloud := lineDixxitAloud.read(line)
		_, skipped := lineDixxitSkipped.read(line)
		if aloud || skipped {
			last++
			turn = last
			starts = append(starts, turn)
			continue
		}
		for _, l := range []logLine{lineDixxitFinger, lineDixxitFound} {
			if f, ok := l.read(line); ok && p.people[f["Name"]] && !handed[f["Name"]] {
				fingers = append(fingers, logged{f["Name"], f["Square"], turn})
			}
		}
	}
	key := func(name string, square int, t uint64) string { return fmt.Sprintf("finger|%s|%d|%d", name, square, t) }
	for _, f := range fingers {
		c.logged[fmt.Sprintf("finger|%s|%s|%d", f.name, f.square, f.turn)]++
	}
	// A finger made in turn t counts for the last turn started at or
	// before t: t's own, unless its clue line is missing.
	segment := func(t uint64) uint64 {
		var s uint64
		for _, st := range starts {
			if st <= t && st >= s {
				s = st
			}
		}
		return s
	}
	for f, n := range p.fingersSent {
		c.most[key(f.name, f.square, segment(f.turn))] += n
	}
	for f, n := range p.fingersSeen {
		if !handed[f.name] {
			c.least[key(f.name, f.square, segment(f.turn))] += n
		}
	}
	return c
}

func TestDixxitLogCount(t *testing.T) {
	t.Parallel()
	clue := func(name, text string) string {
		return locales.T("en", "dixxit_ev_clue", map[string]any{"Name": name, "Clue": text})
	}
	no := func(name string, sq int) string {
		return locales.T("en", "dixxit_ev_finger", map[string]any{"Name": name, "Square": sq})
	}
	found := func(name string, sq int) string {
		return locales.T("en", "dixxit_ev_found", map[string]any{"Name": name, "Square": sq})
	}
	play := func() *dixxitPlay {
		p := newDixxitPlay()
		p.people["Ann"], p.people["Bob"] = true, true
		for turn, text := range map[uint64]string{1: "one", 3: "three"} {
			p.typed[text] = turn
			p.cluesSent[text]++
			p.cluesSeen[text]++
		}
		p.said[2] = "two"
		for _, f := range []fingerKey{{"Bob", 4, 1}, {"Ann", 3, 2}, {"Bob", 4, 2}, {"Ann", 5, 3}} {
			p.fingersSent[f]++
			p.fingersSeen[f]++
		}
		return p
	}
	// Bob on square 4 in turns 1 and 2: once in each is right; the
	// computer (Robot) gives turn 2's clue and guesses, uncounted.
	lines := []string{clue("Ann", "one"), no("Bob", 4), no("Robot", 2),
		clue("Robot", "two"), no("Ann", 3), found("Bob", 4),
		clue("Bob", "three"), no("Ann", 5), found("Robot", 4), lineDixxitOver}
	doubled, missing, notes := dixxitLogCount(lines, play()).tally()
	assert.Zero(t, doubled, notes)
	assert.Zero(t, missing, notes)
	// Ann's finger of turn 3 not logged.
	doubled, missing, notes = dixxitLogCount(slices.Delete(slices.Clone(lines), 7, 8), play()).tally()
	assert.Zero(t, doubled, notes)
	assert.Equal(t, 1, missing, notes)
	// Turn 2's clue line lost (its lines count with turn 1's), and Ann's
	// finger of turn 3 logged twice.
	lines = []string{clue("Ann", "one"), no("Bob", 4), no("Robot", 2),
		no("Ann", 3), found("Bob", 4),
		clue("Bob", "three"), no("Ann", 5), no("Ann", 5), found("Robot", 4), lineDixxitOver}
	doubled, _, notes = dixxitLogCount(lines, play()).tally()
	assert.Equal(t, 1, doubled, notes)
}

func TestQwixxLogCount(t *testing.T) {
	t.Parallel()
	v := qwixxRules.View{Turn: 3, Sheets: []qwixxRules.SheetView{
		{Seat: 0, Rows: [4]qwixxRules.RowView{{Marks: []int{2, 3}}}, Penalties: 1},
		{Seat: 1, Rows: [4]qwixxRules.RowView{{Marks: []int{5, 12}, Lock: true}}},
	}}
	names := []string{"Ann", "Bob"}
	line := func(key string, data map[string]any) string { return locales.T("en", key, data) }
	lines := []string{
		line("qwixx_ev_marked_white", map[string]any{"Name": "Ann", "Emoji": "🔴", "Number": 2}),
		line("qwixx_ev_rolled", map[string]any{"Name": "Bob", "Sum": 7}),
		line("qwixx_ev_marked_colour", map[string]any{"Name": "Ann", "Emoji": "🔴", "Number": 3}),
		line("qwixx_ev_marked_white", map[string]any{"Name": "Bob", "Emoji": "🔴", "Number": 5}),
		line("qwixx_ev_penalty", map[string]any{"Name": "Ann", "Count": 1, "Max": 4}),
		line("qwixx_ev_rolled", map[string]any{"Name": "Ann", "Sum": 4}),
		qwixxOverLines[0],
	}
	doubled, missing, notes := qwixxLogCount(lines, v, names).tally()
	assert.Zero(t, doubled, notes)
	assert.Zero(t, missing, notes)
	doubled, missing, notes = qwixxLogCount(append(slices.Clone(lines[:3]), lines[2:]...), v, names).tally()
	assert.Equal(t, 1, doubled, notes)
	assert.Zero(t, missing, notes)
	doubled, missing, notes = qwixxLogCount(slices.Delete(slices.Clone(lines), 1, 2), v, names).tally()
	assert.Zero(t, doubled, notes)
	assert.Equal(t, 1, missing, notes)
}
