package bot

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot/bot/present"
)

// VerbSettings is the verb of /settings' components, one of the table's
// own custom ids under tablePrefix (the others: /forget-me's, in
// stats.go; DIX's are in bot/dixtable/router.go). The glossary, verbs,
// says what each one is.
const VerbSettings = "set"

// ParsedID is a parsed custom id.
type ParsedID struct {
	Verb    string
	Version uint32
	Arg     string
}

// ParseID parses a custom id; ErrBadCustomID for anything not built by customID.
func ParseID(s string) (ParsedID, error) {
	if len(s) > 100 {
		return ParsedID{}, fmt.Errorf("%w: too long", ErrBadCustomID)
	}
	parts := strings.Split(s, ":")
	if len(parts) < 3 || len(parts) > 4 || parts[0] != idPrefix && parts[0] != tablePrefix {
		return ParsedID{}, fmt.Errorf("%w: %q", ErrBadCustomID, s)
	}
	v, err := strconv.ParseUint(parts[2], 10, 32)
	if err != nil {
		return ParsedID{}, fmt.Errorf("%w: version %q", ErrBadCustomID, parts[2])
	}
	if len(parts[2]) > 1 && parts[2][0] == '0' {
		return ParsedID{}, fmt.Errorf("%w: version %q", ErrBadCustomID, parts[2])
	}
	p := ParsedID{Verb: parts[1], Version: uint32(v)}
	spec, ok := Verbs[p.Verb]
	if !ok || parts[0] == tablePrefix && !spec.Table {
		return ParsedID{}, fmt.Errorf("%w: verb %q", ErrBadCustomID, p.Verb)
	}
	if spec.Versionless && p.Version != 0 {
		return ParsedID{}, fmt.Errorf("%w: %q carries no version", ErrBadCustomID, p.Verb)
	}
	hasArg := len(parts) == 4
	switch spec.Arg {
	case argNone:
		if hasArg {
			return ParsedID{}, fmt.Errorf("%w: %q takes no argument", ErrBadCustomID, p.Verb)
		}
	case ArgRequired:
		if !hasArg {
			return ParsedID{}, fmt.Errorf("%w: %q needs an argument", ErrBadCustomID, p.Verb)
		}
	}
	if hasArg {
		if parts[3] == "" {
			return ParsedID{}, fmt.Errorf("%w: empty argument", ErrBadCustomID)
		}
		p.Arg = parts[3]
	}
	return p, nil
}

// argSpec says whether a verb's custom id carries an argument.
type argSpec uint8

const (
	argNone argSpec = iota
	ArgRequired
	ArgOptional
)

// CheckVersion compares the state version a component carries with the
// table's: an older one is outdated (ErrStale), a newer one shows a state
// the store no longer has (ErrAhead: its data was restored from an older
// copy; Discord sends only the custom ids of a message's own components,
// so a newer one is never made up by a user).
func CheckVersion(shown, current uint32) error {
	switch {
	case shown > current:
		return fmt.Errorf("%w: version %d is newer than the table's %d", ErrAhead, shown, current)
	case shown < current:
		return ErrStale
	}
	return nil
}

type componentHandler func(c *Call, p ParsedID) error

// VerbSpec is what the router knows of a verb.
type VerbSpec struct {
	Run   componentHandler
	Modal bool    // the id of a modal, answered by its submission; else of a message component
	Arg   argSpec // whether the id carries an argument (argNone unless said)
	// Versionless: anyone may use it at any time, and its version is 0.
	// Every other verb carries the lobby counter (lobby verbs),
	// dix.Game.Seq (game verbs) or the record's version (verbAbandonYes).
	Versionless bool
	// Table: the table's own verb, of every game, under tablePrefix (and
	// under idPrefix on messages posted before).
	Table bool
}

// Verbs is the glossary of the custom ids' verbs under idPrefix: one line
// per verb, saying what its component is, the table's here and DIX's in
// dixVerbs. The names of the constants say the same in Go.
var Verbs map[string]VerbSpec

func init() {
	Verbs = map[string]VerbSpec{
		// /forget-me's confirmation (stats.go).
		VerbForgetYes: {Run: (*Call).forgetYes, Versionless: true, Table: true}, // "fgyes": delete the clicker's statistics on the server
		VerbForgetNo:  {Run: (*Call).forgetNo, Versionless: true, Table: true},  // "fgno": keep them

		// /settings (settings.go).
		VerbSettings: {Run: (*Call).settingsChange, Arg: ArgRequired, Versionless: true, Table: true}, // "set": change setting arg of the channel (a menu's value, or a button's other value)
	}
}

// route sends an interaction to its handler.
func (b *Bot) route(c *Call) error {
	if c.I.ChannelID == "" {
		return ErrNoChannel
	}
	switch c.I.Type {
	case discordgo.InteractionApplicationCommand:
		d, ok := c.I.Data.(discordgo.ApplicationCommandInteractionData)
		if !ok {
			return ErrBadInput
		}
		if g, ok := b.Games[d.Name]; ok {
			return b.contractCommand(c, g, d)
		}
		if ok, err := b.statsCommand(c, d); ok {
			return err
		}
		if d.Name == En("settings_cmd_name") {
			return c.cmdSettings()
		}
		return own.Run(b, c, d)
	case discordgo.InteractionMessageComponent:
		d, ok := c.I.Data.(discordgo.MessageComponentInteractionData)
		if !ok {
			return ErrBadCustomID
		}
		// The table's own components first: those posted under DIX's
		// prefix before the table had its own are answered too.
		p, err := ParseID(d.CustomID)
		if err == nil && Verbs[p.Verb].Table {
			return Verbs[p.Verb].Run(c, p)
		}
		if g, ok := b.Games.gameOfID(d.CustomID); ok {
			return b.contractClick(c, g, d.CustomID)
		}
		if err != nil {
			return err
		}
		if Verbs[p.Verb].Modal {
			return fmt.Errorf("%w: %q is not a component", ErrBadCustomID, p.Verb)
		}
		return Verbs[p.Verb].Run(c, p)
	case discordgo.InteractionModalSubmit:
		d, ok := c.I.Data.(discordgo.ModalSubmitInteractionData)
		if !ok {
			return ErrBadInput
		}
		if g, ok := b.Games.gameOfID(d.CustomID); ok {
			return b.contractSubmit(c, g, d.CustomID)
		}
		p, err := ParseID(d.CustomID)
		if err != nil {
			return err
		}
		if !Verbs[p.Verb].Modal {
			return fmt.Errorf("%w: %q is not a modal", ErrBadCustomID, p.Verb)
		}
		return Verbs[p.Verb].Run(c, p)
	}
	return ErrBadInput
}

// Values returns the selected values of a select menu interaction.
func (c *Call) Values() []string {
	if d, ok := c.I.Data.(discordgo.MessageComponentInteractionData); ok {
		return d.Values
	}
	return nil
}

// ModalValues returns the text inputs of a modal submission by custom id.
func (c *Call) ModalValues() map[string]string {
	out := map[string]string{}
	d, ok := c.I.Data.(discordgo.ModalSubmitInteractionData)
	if !ok {
		return out
	}
	var walk func([]discordgo.MessageComponent)
	walk = func(cs []discordgo.MessageComponent) {
		for _, comp := range cs {
			switch v := comp.(type) {
			case *discordgo.ActionsRow:
				walk(v.Components)
			case discordgo.ActionsRow:
				walk(v.Components)
			case *discordgo.TextInput:
				out[v.CustomID] = v.Value
			case discordgo.TextInput:
				out[v.CustomID] = v.Value
			}
		}
	}
	walk(d.Components)
	return out
}

// ParseNumber reads a typed whole number 0–most; blank is 0 when optional.
func ParseNumber(s string, optional bool, most int) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" && optional {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > most {
		return 0, Refuse(ErrBadInput, "err_bad_number", map[string]any{"Text": Truncate(Escape(s), 20)})
	}
	return n, nil
}

// idPrefix starts the custom ids of DIX's components (bot/dix IDPrefix),
// and of the table's own on messages posted before they moved under
// tablePrefix: those are still answered.
const idPrefix = "dix"

// tablePrefix starts the custom ids of the table's own components, which
// belong to no game: /settings' and /forget-me's.
const tablePrefix = "table"

// TableID builds the custom id of one of the table's own components
// (VerbSpec.Table), which carry no version.
func TableID(verb string, args ...string) string {
	return present.CustomID(tablePrefix, verb, 0, args...)
}

// CustomID builds a component custom id.
func CustomID(verb string, version uint32, args ...string) string {
	return present.CustomID(idPrefix, verb, uint64(version), args...)
}
