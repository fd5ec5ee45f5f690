package loadtest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// Qwixx is played as people play it: on every roll each player the board
// marks as deciding (its sheet line starts with ▶) clicks, all of them at
// once, each after their own think time: a white sum in a random row or
// Pass, and for the active player a random colour sum or "No colour sum".
// A player marks a white sum only where their sheet line shows it may
// (right of the row's last mark, the last box after five marks); one the
// sheet refuses all the same is followed by Pass, as a person would.

// qwixxPass is the share of white-sum decisions that pass, and of
// colour-sum decisions that take no colour sum.
const (
	qwixxPassWhite  = 0.4
	qwixxPassColour = 0.2
)

// qwixxOutcome is what one player's decision came to.
type qwixxOutcome struct {
	name    string
	next    uint64 // the lowest board version that may ask this player again
	applied bool
	refused int // clicks refused
	gone    int // clicks on a button gone
	err     error
}

// qwixxBoard reads a Qwixx board in lang: its decision buttons (the
// clicked move is the id's argument), its version, the roll number and
// who is deciding.
type qwixxBoard struct {
	white, colour []customID // "w …" and "c …" moves
	version       uint64
	turn          int
	deciding      map[string]string // name -> its sheet line
}

// qwixxMarkers are the texts that start a deciding player's sheet line,
// by name, and the text before the roll number of the board's title.
type qwixxMarkers struct {
	deciding map[string]string
	turn     string
	over     string
}

func newQwixxMarkers(lang string, names []string) qwixxMarkers {
	q := qwixxMarkers{deciding: map[string]string{}, over: locales.T(lang, "qwixx_over_title", nil)}
	for _, n := range names {
		line := locales.N(lang, "qwixx_sheet_line_deciding", 2, map[string]any{"Name": n, "Score": "\x00", "Rows": "", "Penalties": 0})
		q.deciding[n], _, _ = strings.Cut(line, "\x00")
	}
	title := locales.T(lang, "qwixx_board_title", map[string]any{"Turn": "\x00", "Name": ""})
	q.turn, _, _ = strings.Cut(title, "\x00")
	return q
}

func (q qwixxMarkers) read(m fakediscord.Message) qwixxBoard {
	b := qwixxBoard{deciding: map[string]string{}}
	for _, id := range withVerb(m, "mv") {
		b.version = max(b.version, id.version)
		switch {
		case strings.HasPrefix(id.arg, "w "):
			b.white = append(b.white, id)
		case strings.HasPrefix(id.arg, "c "):
			b.colour = append(b.colour, id)
		}
	}
	for _, line := range strings.Split(m.Content, "\n") {
		for n, p := range q.deciding {
			if strings.HasPrefix(line, p) {
				b.deciding[n] = line
			}
		}
		if rest, ok := strings.CutPrefix(line, q.turn); ok {
			end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
			if end < 0 {
				end = len(rest)
			}
			b.turn, _ = strconv.Atoi(rest[:end])
		}
	}
	return b
}

// isScoreboard reports whether m is the final scoreboard: its title, and
// no decision left (a Rematch button may follow).
func (q qwixxMarkers) isScoreboard(m fakediscord.Message) bool {
	return strings.HasPrefix(m.Content, q.over) && len(withVerb(m, "mv")) == 0
}

// playQwixx plays the game opened on the lobby message t.since (the lobby
// becomes the board) until its scoreboard.
func (t *table) playQwixx(ctx context.Context) error {
	boardID := t.since
	names := make([]string, len(t.players))
	for i, u := range t.players {
		names[i] = u.Username
	}
	q := newQwixxMarkers(t.lang, names)
	next := map[string]uint64{}   // by player: the lowest board version that may ask them again
	inflight := map[string]bool{} // players whose decision is under way
	results := make(chan qwixxOutcome, len(t.players))
	stall := time.NewTimer(t.cfg.Stall)
	defer stall.Stop()
	turn := 0
	tally := func(o qwixxOutcome) error {
		delete(inflight, o.name)
		next[o.name] = max(next[o.name], o.next)
		t.refusals += o.refused
		t.gone += o.gone
		if o.applied {
			t.decisions++
		}
		return o.err
	}
	for {
		changed := t.fake.ChannelChanges(t.channel)
		m, ok := t.fake.Message(boardID)
		if !ok {
			return fmt.Errorf("the Qwixx board %s is gone", boardID)
		}
		if q.isScoreboard(m) {
			for len(inflight) > 0 {
				select {
				case o := <-results:
					if err := tally(o); err != nil {
						return err
					}
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			t.finished.Add(1)
			return nil
		}
		b := q.read(m)
		if b.turn > turn {
			// Rolls are counted as the board shows them, so that a run
			// ended midway counts the rolls its games played.
			t.turns += b.turn - turn
			turn = b.turn
		}
		for _, u := range t.players {
			n := u.Username
			line, deciding := b.deciding[n]
			if !deciding || inflight[n] || b.version < next[n] {
				continue
			}
			var pick, pass customID
			if len(b.colour) > 0 {
				pick, pass = t.pickQwixx(b.colour, "c -", qwixxPassColour)
			} else if len(b.white) > 0 {
				pick, pass = t.pickQwixx(markable(line, b.white), "w -", qwixxPassWhite)
			} else {
				continue
			}
			inflight[n] = true
			think := t.think()
			go func() { results <- t.qwixxDecide(ctx, u, boardID, think, pick, pass) }()
		}
		select {
		case <-changed:
			stall.Reset(t.cfg.Stall)
		case o := <-results:
			if err := tally(o); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		case <-stall.C:
			return fmt.Errorf("the Qwixx board asked nobody for %v; the channel ends with %s", t.cfg.Stall, t.tail())
		}
	}
}

// pickQwixx draws a decision among ids (passArg, the pass, with
// probability passShare) and returns it with the pass.
func (t *table) pickQwixx(ids []customID, passArg string, passShare float64) (pick, pass customID) {
	var marks []customID
	for _, id := range ids {
		if id.arg == passArg {
			pass = id
		} else {
			marks = append(marks, id)
		}
	}
	if len(marks) == 0 || (pass.raw != "" && t.rng.Float64() < passShare) {
		return pass, pass
	}
	return marks[t.rng.IntN(len(marks))], pass
}

// qwixxDecide makes one player's decision after their think time: the
// click, and Pass at once when a mark is refused. Each click is on the
// button of that move as the board shows it at that moment (the board's
// buttons are drawn again after every decision, another player's
// included); a button gone meanwhile is looked for again on the board as
// it then stands, as a person would click it again. It runs beside the
// other players' decisions and touches the table only through
// interactAfter.
func (t *table) qwixxDecide(ctx context.Context, u fakediscord.User, boardID string, think time.Duration, pick, pass customID) qwixxOutcome {
	o := qwixxOutcome{name: u.Username, next: pick.version + 1}
	for try, want := range []customID{pick, pass} {
		if try == 1 && (pass.raw == "" || pick.raw == pass.raw) {
			break
		}
		if try == 1 {
			think = 0
		}
		var r *fakediscord.Response
		var err error
		for again := 0; ; again++ {
			id, ok := t.currentButton(boardID, want.arg)
			if !ok {
				return o // the decision is no longer asked for
			}
			r, err = t.interactAfter(ctx, kindButton, think, func(ctx context.Context) (*fakediscord.Interaction, error) {
				return t.fake.Click(ctx, u.ID, boardID, id.raw)
			})
			if !errors.Is(err, fakediscord.ErrUnknownComponent) || again == 2 {
				break
			}
			o.gone++
			think = 0
		}
		switch {
		case errors.Is(err, fakediscord.ErrNoResponse):
			return o
		case errors.Is(err, fakediscord.ErrUnknownComponent), errors.Is(err, fakediscord.ErrComponentDisabled), errors.Is(err, fakediscord.ErrUnknownMessage):
			o.gone++
			return o
		case err != nil:
			if ctx.Err() == nil {
				o.err = err
			}
			return o
		}
		if r.Ephemeral() {
			o.refused++
			continue
		}
		o.applied = true
		if r.Message != nil {
			for _, id := range withVerb(*r.Message, "mv") {
				o.next = max(o.next, id.version)
			}
		}
		return o
	}
	return o
}

// currentButton returns the board's button of move arg as the board
// shows it now.
func (t *table) currentButton(boardID, arg string) (customID, bool) {
	m, ok := t.fake.Message(boardID)
	if !ok {
		return customID{}, false
	}
	for _, id := range withVerb(m, "mv") {
		if id.arg == arg {
			return id, true
		}
	}
	return customID{}, false
}

// rowEmoji are the rows' colours as the sheet lines show them, in the
// order of the moves' colour letters.
var rowEmoji = [4]string{"🔴", "🟡", "🟢", "🔵"}

const rowLetters = "rygb"

// markable keeps the white-sum moves among ids that the sheet line allows
// (the pass always): a row's short form is its colour, its mark count and
// "→" with its last number (none without marks, 🔒 once locked).
func markable(line string, ids []customID) []customID {
	var out []customID
	for _, id := range ids {
		c, n, ok := parseMark(id.arg)
		if !ok || mayMark(line, c, n) {
			out = append(out, id)
		}
	}
	return out
}

// parseMark reads "w r7": row index c and number n.
func parseMark(arg string) (int, int, bool) {
	f := strings.Fields(arg)
	if len(f) != 2 || len(f[1]) < 2 {
		return 0, 0, false
	}
	c := strings.IndexByte(rowLetters, f[1][0])
	n, err := strconv.Atoi(f[1][1:])
	if c < 0 || err != nil {
		return 0, 0, false
	}
	return c, n, true
}

// mayMark reports whether the sheet line lets row c take number n.
func mayMark(line string, c, n int) bool {
	i := strings.Index(line, rowEmoji[c])
	if i < 0 {
		return true // not read: let the bot say
	}
	rest := line[i+len(rowEmoji[c]):]
	end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(rest)
	}
	count, _ := strconv.Atoi(rest[:end])
	rest = rest[end:]
	if strings.HasPrefix(rest, "🔒") {
		return false
	}
	ascending := c < 2
	last := 1
	if !ascending {
		last = 13
	}
	if after, ok := strings.CutPrefix(rest, "→"); ok {
		e := strings.IndexFunc(after, func(r rune) bool { return r < '0' || r > '9' })
		if e < 0 {
			e = len(after)
		}
		if v, err := strconv.Atoi(after[:e]); err == nil {
			last = v
		}
	}
	lastBox := 12
	if !ascending {
		lastBox = 2
	}
	if n == lastBox && count < 5 {
		return false
	}
	if ascending {
		return n > last
	}
	return n < last
}
