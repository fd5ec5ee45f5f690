package loadtest

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// customID is a parsed "<game>:<verb>:<version>[:<arg>]" component id
// of one of the games played (games).
type customID struct {
	verb    string
	version uint64
	arg     string
	raw     string
}

// games are the custom ids' game prefixes the players know.
var games = []string{GameDIX, GameQwixx, GameDixxit}

func parseCustomID(s string) (customID, bool) {
	parts := strings.SplitN(s, ":", 4)
	if len(parts) < 3 || !slices.Contains(games, parts[0]) {
		return customID{}, false
	}
	v, err := strconv.ParseUint(parts[2], 10, 64)
	if err != nil {
		return customID{}, false
	}
	id := customID{verb: parts[1], version: v, raw: s}
	if len(parts) == 4 {
		id.arg = parts[3]
	}
	return id, true
}

// The verbs of the shared table's custom ids the players click.
const (
	verbMove   = "mv"  // a decision: arg the move
	verbPrompt = "pr"  // opens the clicker's private prompt
	verbSelect = "sel" // a prompt's menu: each value "st:<draft>" (a step) or "mv:<move>"
	verbModal  = "md"  // opens a form: arg its verb
)

// controls lists the enabled components of a message that carry a game's
// custom id.
func controls(m fakediscord.Message) []fakediscord.Component {
	n := 0
	for _, row := range m.Components {
		n += len(row.Components)
	}
	out := make([]fakediscord.Component, 0, n)
	for _, row := range m.Components {
		for _, c := range row.Components {
			if _, ok := parseCustomID(c.CustomID); ok && !c.Disabled {
				out = append(out, c)
			}
		}
	}
	return out
}

// withVerb returns the ids of m's enabled components of verb.
func withVerb(m fakediscord.Message, verb string) []customID {
	var out []customID
	for _, c := range controls(m) {
		if id, _ := parseCustomID(c.CustomID); id.verb == verb {
			out = append(out, id)
		}
	}
	return out
}

// view is a board message as the players read it.
type view struct {
	msg fakediscord.Message
	// version is the newest version its decision buttons carry; buttons
	// are those of that version (moves and the prompt's button).
	version uint64
	buttons []customID
	// deciding are the players the board asks, by name, each with the
	// line of the board that says so (a Qwixx sheet line).
	deciding map[string]string
	// turn is the turn's (or roll's) number when the board shows one;
	// round otherwise tells a turn from the next (DIX: the title).
	turn  int
	round string
	over  bool // the final scoreboard
}

// decisionButtons returns the ids of m's moves and prompt buttons of
// their newest version, and that version; none for a message without.
func decisionButtons(m fakediscord.Message) ([]customID, uint64) {
	var out []customID
	var version uint64
	for _, c := range controls(m) {
		id, _ := parseCustomID(c.CustomID)
		if id.verb != verbMove && id.verb != verbPrompt {
			continue
		}
		if id.version > version {
			version = id.version
			out = out[:0]
		}
		if id.version == version {
			out = append(out, id)
		}
	}
	return out, version
}

// move returns the board's button of move arg.
func (v view) move(arg string) (customID, bool) {
	for _, id := range v.buttons {
		if id.verb == verbMove && id.arg == arg {
			return id, true
		}
	}
	return customID{}, false
}

// namesIn returns which of names a list of labels ("p1, p2 🌙") holds:
// a label is a name, or a name followed by a space and its marks.
func namesIn(list string, names []string) []string {
	var out []string
	for _, part := range strings.Split(list, ",") {
		part = strings.TrimSpace(part)
		for _, n := range names {
			if part == n || strings.HasPrefix(part, n+" ") {
				out = append(out, n)
			}
		}
	}
	return out
}

// leadingNumber reads the number s starts with (0 when none).
func leadingNumber(s string) int {
	end := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(s)
	}
	n, _ := strconv.Atoi(s[:end])
	return n
}

// before is the text of a message template up to the value marked
// "\x00" in it: the prefix a line that shows the template starts with.
func before(rendered string) string {
	p, _, _ := strings.Cut(rendered, "\x00")
	return p
}

// idAfter reports whether snowflake a is newer than b.
func idAfter(a, b string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a > b
}
