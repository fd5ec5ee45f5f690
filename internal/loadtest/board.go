package loadtest

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
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
var games = []string{"dix", "qwixx"}

func parseCustomID(s string) (customID, bool) {
	parts := strings.SplitN(s, ":", 4)
	if len(parts) < 3 || !slices.Contains(games, parts[0]) {
		return customID{}, false
	}
	v, err := strconv.ParseUint(parts[2], 10, 32)
	if err != nil {
		return customID{}, false
	}
	id := customID{verb: parts[1], version: v, raw: s}
	if len(parts) == 4 {
		id.arg = parts[3]
	}
	return id, true
}

// controls lists the enabled components of a message that carry a game's
// custom id.
func controls(m fakediscord.Message) []fakediscord.Component {
	var out []fakediscord.Component
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

// gameVerbs are the board's decision buttons (not "my hand" or "show board").
var gameVerbs = []string{"draw", "stop", "num", "money", "buy", "end", "cons", "bbuy", "bid", "pass", "pay"}

// board is a board message as the players read it.
type board struct {
	msg     fakediscord.Message
	version uint64
	buttons map[string]customID // decision verb -> its button
	actor   string              // display name of the player who decides
}

// readBoard reads a board message: its decision buttons of the newest
// version and the name marked as deciding in lang. ok is false for a
// message without decision buttons.
func readBoard(m fakediscord.Message, lang string) (board, bool) {
	b := board{msg: m, buttons: map[string]customID{}}
	for _, c := range controls(m) {
		id, _ := parseCustomID(c.CustomID)
		if !slices.Contains(gameVerbs, id.verb) {
			continue
		}
		if id.version > b.version {
			b.version = id.version
			clear(b.buttons)
		}
		if id.version == b.version {
			b.buttons[id.verb] = id
		}
	}
	if len(b.buttons) == 0 {
		return board{}, false
	}
	marker := locales.T(lang, "dix_marker_to_act", nil)
	for _, e := range m.Embeds {
		for _, f := range e.Fields {
			if name, ok := strings.CutPrefix(f.Name, marker); ok {
				b.actor = name
			}
		}
	}
	return b, true
}

// isScoreboard reports whether m is the final scoreboard.
func isScoreboard(m fakediscord.Message, lang string) bool {
	return len(m.Embeds) > 0 && m.Embeds[0].Title == locales.T(lang, "dix_score_title", nil)
}

// idAfter reports whether snowflake a is newer than b.
func idAfter(a, b string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a > b
}
