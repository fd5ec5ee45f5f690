package bot

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot/bot/present"
)

// verbSettings is the verb of /settings' components, one of the table's
// own custom ids under idPrefix (the others: /forget-me's, in stats.go;
// DIX's are in dixtable_router.go). The glossary, verbs, says what each
// one is.
const verbSettings = "set"

// parsedID is a parsed custom id.
type parsedID struct {
	verb    string
	version uint32
	arg     string
}

// parseID parses a custom id; ErrBadCustomID for anything not built by customID.
func parseID(s string) (parsedID, error) {
	if len(s) > 100 {
		return parsedID{}, fmt.Errorf("%w: too long", ErrBadCustomID)
	}
	parts := strings.Split(s, ":")
	if len(parts) < 3 || len(parts) > 4 || parts[0] != idPrefix {
		return parsedID{}, fmt.Errorf("%w: %q", ErrBadCustomID, s)
	}
	v, err := strconv.ParseUint(parts[2], 10, 32)
	if err != nil {
		return parsedID{}, fmt.Errorf("%w: version %q", ErrBadCustomID, parts[2])
	}
	if len(parts[2]) > 1 && parts[2][0] == '0' {
		return parsedID{}, fmt.Errorf("%w: version %q", ErrBadCustomID, parts[2])
	}
	p := parsedID{verb: parts[1], version: uint32(v)}
	spec, ok := verbs[p.verb]
	if !ok {
		return parsedID{}, fmt.Errorf("%w: verb %q", ErrBadCustomID, p.verb)
	}
	if spec.versionless && p.version != 0 {
		return parsedID{}, fmt.Errorf("%w: %q carries no version", ErrBadCustomID, p.verb)
	}
	hasArg := len(parts) == 4
	switch spec.arg {
	case argNone:
		if hasArg {
			return parsedID{}, fmt.Errorf("%w: %q takes no argument", ErrBadCustomID, p.verb)
		}
	case argRequired:
		if !hasArg {
			return parsedID{}, fmt.Errorf("%w: %q needs an argument", ErrBadCustomID, p.verb)
		}
	}
	if hasArg {
		if parts[3] == "" {
			return parsedID{}, fmt.Errorf("%w: empty argument", ErrBadCustomID)
		}
		p.arg = parts[3]
	}
	return p, nil
}

// argSpec says whether a verb's custom id carries an argument.
type argSpec uint8

const (
	argNone argSpec = iota
	argRequired
	argOptional
)

// checkVersion compares the state version a component carries with the
// table's: an older one is outdated (ErrStale), a newer one shows a state
// the store no longer has (ErrAhead: its data was restored from an older
// copy; Discord sends only the custom ids of a message's own components,
// so a newer one is never made up by a user).
func checkVersion(shown, current uint32) error {
	switch {
	case shown > current:
		return fmt.Errorf("%w: version %d is newer than the table's %d", ErrAhead, shown, current)
	case shown < current:
		return ErrStale
	}
	return nil
}

type componentHandler func(c *call, p parsedID) error

// verbSpec is what the router knows of a verb.
type verbSpec struct {
	run   componentHandler
	modal bool    // the id of a modal, answered by its submission; else of a message component
	arg   argSpec // whether the id carries an argument (argNone unless said)
	// versionless: anyone may use it at any time, and its version is 0.
	// Every other verb carries the lobby counter (lobby verbs),
	// dix.Game.Seq (game verbs) or the record's version (verbAbandonYes).
	versionless bool
}

// verbs is the glossary of the custom ids' verbs under idPrefix: one line
// per verb, saying what its component is, the table's here and DIX's in
// dixVerbs. The names of the constants say the same in Go.
var verbs map[string]verbSpec

func init() {
	verbs = map[string]verbSpec{
		// /forget-me's confirmation (stats.go).
		verbForgetYes: {run: (*call).forgetYes, versionless: true}, // "fgyes": delete the clicker's statistics on the server
		verbForgetNo:  {run: (*call).forgetNo, versionless: true},  // "fgno": keep them

		// /settings (settings.go).
		verbSettings: {run: (*call).settingsChange, arg: argRequired, versionless: true}, // "set": change setting arg of the channel (a menu's value, or a button's other value)
	}
	maps.Copy(verbs, dixVerbs())
}

// route sends an interaction to its handler.
func (b *Bot) route(c *call) error {
	if c.i.ChannelID == "" {
		return ErrNoChannel
	}
	switch c.i.Type {
	case discordgo.InteractionApplicationCommand:
		d, ok := c.i.Data.(discordgo.ApplicationCommandInteractionData)
		if !ok {
			return ErrBadInput
		}
		if g, ok := b.games[d.Name]; ok {
			return b.contractCommand(c, g, d)
		}
		if ok, err := b.statsCommand(c, d); ok {
			return err
		}
		if d.Name == en("settings_cmd_name") {
			return c.cmdSettings()
		}
		return b.command(c, d)
	case discordgo.InteractionMessageComponent:
		d, ok := c.i.Data.(discordgo.MessageComponentInteractionData)
		if !ok {
			return ErrBadCustomID
		}
		if g, ok := b.games.gameOfID(d.CustomID); ok {
			return b.contractClick(c, g, d.CustomID)
		}
		p, err := parseID(d.CustomID)
		if err != nil {
			return err
		}
		if verbs[p.verb].modal {
			return fmt.Errorf("%w: %q is not a component", ErrBadCustomID, p.verb)
		}
		return verbs[p.verb].run(c, p)
	case discordgo.InteractionModalSubmit:
		d, ok := c.i.Data.(discordgo.ModalSubmitInteractionData)
		if !ok {
			return ErrBadInput
		}
		if g, ok := b.games.gameOfID(d.CustomID); ok {
			return b.contractSubmit(c, g, d.CustomID)
		}
		p, err := parseID(d.CustomID)
		if err != nil {
			return err
		}
		if !verbs[p.verb].modal {
			return fmt.Errorf("%w: %q is not a modal", ErrBadCustomID, p.verb)
		}
		return verbs[p.verb].run(c, p)
	}
	return ErrBadInput
}

// values returns the selected values of a select menu interaction.
func (c *call) values() []string {
	if d, ok := c.i.Data.(discordgo.MessageComponentInteractionData); ok {
		return d.Values
	}
	return nil
}

// modalValues returns the text inputs of a modal submission by custom id.
func (c *call) modalValues() map[string]string {
	out := map[string]string{}
	d, ok := c.i.Data.(discordgo.ModalSubmitInteractionData)
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

// parseNumber reads a typed whole number 0–most; blank is 0 when optional.
func parseNumber(s string, optional bool, most int) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" && optional {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > most {
		return 0, refuse(ErrBadInput, "err_bad_number", map[string]any{"Text": truncate(escape(s), 20)})
	}
	return n, nil
}

// idPrefix starts the custom ids of the table's own components ("dix:"
// for /settings and /forget-me) and of DIX's (bot/dix IDPrefix): ids on
// messages already posted keep it.
const idPrefix = "dix"

// customID builds a component custom id.
func customID(verb string, version uint32, args ...string) string {
	return present.CustomID(idPrefix, verb, uint64(version), args...)
}
