package loadtest

import (
	"context"
	"errors"
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

func (q qwixxMarkers) read(m fakediscord.Message) (view, bool) {
	buttons, version := decisionButtons(m)
	if len(buttons) == 0 {
		// The final scoreboard: its title, and no decision left (a
		// Rematch button may follow).
		return view{msg: m, over: true}, strings.HasPrefix(m.Content, q.over)
	}
	v := view{msg: m, version: version, buttons: buttons, deciding: map[string]string{}}
	for _, line := range strings.Split(m.Content, "\n") {
		for n, p := range q.deciding {
			if strings.HasPrefix(line, p) {
				v.deciding[n] = line
			}
		}
		if rest, ok := strings.CutPrefix(line, q.turn); ok {
			v.turn = leadingNumber(rest)
		}
	}
	return v, true
}

// decide makes the decision the board asks of p: a random colour sum (or
// none) on a roll of p's, else a white sum their sheet allows (or Pass).
func (q qwixxMarkers) decide(ctx context.Context, t *table, p *player, v view) outcome {
	var white, colour []customID
	for _, id := range v.buttons {
		switch {
		case strings.HasPrefix(id.arg, "w "):
			white = append(white, id)
		case strings.HasPrefix(id.arg, "c "):
			colour = append(colour, id)
		}
	}
	var pick, pass customID
	switch {
	case len(colour) > 0:
		pick, pass = pickQwixx(p, colour, "c -", qwixxPassColour)
	case len(white) > 0:
		pick, pass = pickQwixx(p, markable(v.deciding[p.Username], white), "w -", qwixxPassWhite)
	default:
		return outcome{name: p.Username, next: v.version + 1}
	}
	return t.qwixxDecide(ctx, p, v.msg.ID, think(t.cfg, p.rng), pick, pass)
}

// pickQwixx draws a decision among ids (passArg, the pass, with
// probability passShare) and returns it with the pass.
func pickQwixx(p *player, ids []customID, passArg string, passShare float64) (pick, pass customID) {
	var marks []customID
	for _, id := range ids {
		if id.arg == passArg {
			pass = id
		} else {
			marks = append(marks, id)
		}
	}
	if len(marks) == 0 || (pass.raw != "" && p.rng.Float64() < passShare) {
		return pass, pass
	}
	return marks[p.rng.IntN(len(marks))], pass
}

// qwixxDecide makes one player's decision after their think time: the
// click, and Pass at once when a mark is refused. Each click is on the
// button of that move as the board shows it at that moment (the board's
// buttons are drawn again after every decision, another player's
// included); a button gone meanwhile is looked for again on the board as
// it then stands, as a person would click it again. It runs beside the
// other players' decisions and touches the table only through
// interactAfter.
func (t *table) qwixxDecide(ctx context.Context, u *player, boardID string, think time.Duration, pick, pass customID) outcome {
	o := outcome{name: u.Username, next: pick.version + 1}
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
			_, r, err = t.interactAfter(ctx, kindButton, think, func(ctx context.Context) (*fakediscord.Interaction, error) {
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
		o.applied++
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
