package bot

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot/bot/present"
)

// verbSettings is the verb of /settings' components, one of the table's
// own custom ids under tablePrefix (the others: /forget-me's, in
// stats.go). The glossary, tableVerbs, says what each one is.
const verbSettings = "set"

// tableVerb is one of the table's own verbs: its components belong to no
// game, anyone may use them at any time, and their ids carry the version
// 0 ("table:<verb>:0[:<arg>]", TableID).
type tableVerb struct {
	run func(c *Call, arg string) error
	arg bool // the id carries an argument
}

// tableVerbs is the glossary of the table's own verbs: one line per verb,
// saying what its component is. The names of the constants say the same
// in Go.
var tableVerbs map[string]tableVerb

func init() {
	tableVerbs = map[string]tableVerb{
		// /forget-me's confirmation (stats.go).
		verbForgetYes: {run: (*Call).forgetYes}, // "fgyes": delete the clicker's statistics on the server
		verbForgetNo:  {run: (*Call).forgetNo},  // "fgno": keep them

		// /settings (settings.go).
		verbSettings: {run: (*Call).settingsChange, arg: true}, // "set": change setting arg of the channel (a menu's value, or a button's other value)
	}
}

// parseTableID reads the custom id of one of the table's own components:
// under tablePrefix, or under idPrefix on messages posted before the table
// had its own prefix. ok is false for any other id; err refuses one of
// the table's that TableID did not build.
func parseTableID(s string) (v tableVerb, arg string, ok bool, err error) {
	parts := strings.Split(s, ":")
	if len(parts) < 3 || parts[0] != idPrefix && parts[0] != tablePrefix {
		return tableVerb{}, "", false, nil
	}
	v, ok = tableVerbs[parts[1]]
	if !ok {
		return tableVerb{}, "", false, nil
	}
	switch {
	case len(s) > present.MaxCustomID, len(parts) > 4, parts[2] != "0":
		return tableVerb{}, "", true, fmt.Errorf("%w: %q", ErrBadCustomID, s)
	case v.arg != (len(parts) == 4), len(parts) == 4 && parts[3] == "":
		return tableVerb{}, "", true, fmt.Errorf("%w: %q: argument", ErrBadCustomID, s)
	}
	if v.arg {
		arg = parts[3]
	}
	return v, arg, true, nil
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
		if g, ok := b.games[d.Name]; ok {
			return b.contractCommand(c, g, d)
		}
		if ok, err := b.statsCommand(c, d); ok {
			return err
		}
		if d.Name == En("settings_cmd_name") {
			return c.cmdSettings()
		}
		return ErrBadInput
	case discordgo.InteractionMessageComponent:
		d, ok := c.I.Data.(discordgo.MessageComponentInteractionData)
		if !ok {
			return ErrBadCustomID
		}
		// The table's own components first: those posted under DIX's
		// prefix before the table had its own are answered too.
		if v, arg, ok, err := parseTableID(d.CustomID); ok {
			if err != nil {
				return err
			}
			return v.run(c, arg)
		}
		if g, ok := b.games.gameOfID(d.CustomID); ok {
			return b.contractClick(c, g, d.CustomID)
		}
		return fmt.Errorf("%w: %q", ErrBadCustomID, d.CustomID)
	case discordgo.InteractionModalSubmit:
		d, ok := c.I.Data.(discordgo.ModalSubmitInteractionData)
		if !ok {
			return ErrBadInput
		}
		if g, ok := b.games.gameOfID(d.CustomID); ok {
			return b.contractSubmit(c, g, d.CustomID)
		}
		return fmt.Errorf("%w: %q is not a modal", ErrBadCustomID, d.CustomID)
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

// modalValues returns the text inputs of a modal submission by custom id.
func (c *Call) modalValues() map[string]string {
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

// parseNumber reads a typed whole number 0–most; blank is 0 when optional.
func parseNumber(s string, optional bool, most int) (int, error) {
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

// tableID builds the custom id of one of the table's own components
// (VerbSpec.Table), which carry no version.
func tableID(verb string, args ...string) string {
	return present.CustomID(tablePrefix, verb, 0, args...)
}

// CustomID builds a component custom id.
func CustomID(verb string, version uint32, args ...string) string {
	return present.CustomID(idPrefix, verb, uint64(version), args...)
}
