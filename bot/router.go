package bot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
)

// verbSettings is the verb of /settings' components, one of the table's
// own custom ids under tablePrefix (the others: /forget-me's, in
// stats.go). The glossary, tableVerbs, says what each one is.
const verbSettings = "set"

// idVerb says what the custom ids of a verb carry after
// "<prefix>:<verb>:<n>".
type idVerb struct {
	arg bool // an argument, never empty: "<prefix>:<verb>:<n>:<arg>"
	// run answers one of the table's own verbs (nil: a game's verb,
	// answered by routeClick).
	run func(c *Call, arg string) error
}

// tableVerbs is the glossary of the table's own verbs, mounted under
// tablePrefix: their components belong to no game, anyone may use them
// at any time, and their ids carry the number 0 (tableID).
var tableVerbs map[string]idVerb

func init() {
	tableVerbs = map[string]idVerb{
		// /forget-me's confirmation (stats.go).
		verbForgetYes: {run: (*Call).forgetYes}, // "fgyes": delete the clicker's statistics on the server
		verbForgetNo:  {run: (*Call).forgetNo},  // "fgno": keep them

		// /settings (settings.go).
		verbSettings: {run: (*Call).settingsChange, arg: true}, // "set": change setting arg of the channel (a menu's value, or a button's other value)
	}
}

// parsedID is a component's custom id, "<prefix>:<verb>:<n>[:<arg>]":
// the prefix names a game or the table, n is a lobby counter, a state's
// version or a page, and the argument (which may hold colons) is the
// verb's.
type parsedID struct {
	Prefix, Verb string
	n            uint64
	Arg          string
}

// parseID reads the custom id s of one of verbs, the glossary mounted
// under its prefix: the one parser of every component's id, which
// refuses (ErrBadCustomID) one its builder (present.CustomID) could not
// have made.
func parseID(s string, verbs map[string]idVerb) (parsedID, error) {
	if len(s) > present.MaxCustomID {
		return parsedID{}, fmt.Errorf("%w: too long", ErrBadCustomID)
	}
	parts := strings.SplitN(s, ":", 4)
	if len(parts) < 3 {
		return parsedID{}, fmt.Errorf("%w: %q", ErrBadCustomID, s)
	}
	v, ok := verbs[parts[1]]
	if !ok {
		return parsedID{}, fmt.Errorf("%w: verb %q", ErrBadCustomID, parts[1])
	}
	n, err := strconv.ParseUint(parts[2], 10, 64)
	if err != nil || len(parts[2]) > 1 && parts[2][0] == '0' || v.run != nil && n != 0 {
		return parsedID{}, fmt.Errorf("%w: number %q", ErrBadCustomID, parts[2])
	}
	p := parsedID{Prefix: parts[0], Verb: parts[1], n: n}
	if len(parts) == 4 {
		p.Arg = parts[3]
	}
	if v.arg != (p.Arg != "") || len(p.Arg) > engine.MaxMoveLen {
		return parsedID{}, fmt.Errorf("%w: argument of %q", ErrBadCustomID, p.Verb)
	}
	return p, nil
}

// mounted returns the glossary of the verbs under the prefix of the
// custom id s, and the game they belong to (nil: the table's own). The
// table's verbs are also under DIX's prefix, on messages posted before
// the table had its own.
func (b *Bot) mounted(s string) (map[string]idVerb, *present.Game, bool) {
	prefix, rest, ok := strings.Cut(s, ":")
	if !ok {
		return nil, nil, false
	}
	if prefix == tablePrefix {
		return tableVerbs, nil, true
	}
	if verb, _, _ := strings.Cut(rest, ":"); prefix == oldTablePrefix && tableVerbs[verb].run != nil {
		return tableVerbs, nil, true
	}
	g, ok := b.games[prefix]
	return gameVerbs, g, ok
}

// nullOption reports whether a command's options hold a null at any
// depth: Discord sends none, and no handler reads one.
func nullOption(opts []*discordgo.ApplicationCommandInteractionDataOption) bool {
	for _, o := range opts {
		if o == nil || nullOption(o.Options) {
			return true
		}
	}
	return false
}

// route sends an interaction to its handler.
func (b *Bot) route(c *Call) error {
	if c.I.ChannelID == "" {
		return ErrNoChannel
	}
	switch c.I.Type {
	case discordgo.InteractionApplicationCommand:
		d, ok := c.I.Data.(discordgo.ApplicationCommandInteractionData)
		if !ok || nullOption(d.Options) {
			return ErrBadInput
		}
		if g, ok := b.games[d.Name]; ok {
			return b.gameCommand(c, g, d)
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
		verbs, g, ok := b.mounted(d.CustomID)
		if !ok {
			return fmt.Errorf("%w: %q", ErrBadCustomID, d.CustomID)
		}
		p, err := parseID(d.CustomID, verbs)
		switch {
		case g == nil && err != nil:
			return err
		case g == nil:
			return tableVerbs[p.Verb].run(c, p.Arg)
		case err != nil && g.OldClick != nil:
			c.Game = g.Rules.Name()
			return c.oldClick(g, d.CustomID, err)
		case err != nil:
			return err
		}
		return b.routeClick(c, g, p)
	case discordgo.InteractionModalSubmit:
		d, ok := c.I.Data.(discordgo.ModalSubmitInteractionData)
		if !ok {
			return ErrBadInput
		}
		if verbs, g, ok := b.mounted(d.CustomID); ok && g != nil {
			p, err := parseID(d.CustomID, verbs)
			if err != nil {
				return err
			}
			return b.submitModal(c, g, p)
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

// clickedOnMessage reports whether the custom id of the component
// interaction i is one of its message's components. The id is the
// client's to send
// (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-message-component-data-structure)
// and may name a component the message never had; the message is as
// Discord has it when the click arrives, so a button redrawn since the
// clicker's screen showed it is not there either.
func clickedOnMessage(i *discordgo.Interaction) bool {
	d, ok := i.Data.(discordgo.MessageComponentInteractionData)
	return ok && i.Message != nil && slices.Contains(customIDs(i.Message.Components), d.CustomID)
}

// parseNumber reads a typed whole number 0–most; blank is 0 when optional.
func parseNumber(s string, optional bool, most int) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" && optional {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > most {
		return 0, Refuse(ErrBadInput, "err_bad_number", map[string]any{"Text": present.Truncate(present.Escape(s), 20)})
	}
	return n, nil
}

// oldTablePrefix starts the custom ids of the table's own components on
// messages posted before they moved under tablePrefix (DIX's prefix, under
// which they began): those are still answered.
const oldTablePrefix = "dix"

// tablePrefix starts the custom ids of the table's own components, which
// belong to no game: /settings' and /forget-me's.
const tablePrefix = "table"

// tableID builds the custom id of one of the table's own components
// (tableVerbs), which carry the number 0.
func tableID(verb string, args ...string) string {
	return present.CustomID(tablePrefix, verb, 0, args...)
}
