package fakediscord

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CommandInput is a slash command invocation. Options maps option names
// to values (string, integer, float, bool; user, channel and role options
// take ids or mentions); values are typed with the registered definition.
type CommandInput struct {
	Name       string
	Group      string // subcommand group, if the command has groups
	Subcommand string
	Options    map[string]any
}

// RunCommand runs a slash command typed as in Discord's message box, e.g.
// "/dix start language:fr" or `dix solo difficulty:7`, as user in channel.
// Values with spaces may be quoted: `name:"two words"`. The line is parsed
// against the commands the bot registered (guild, then global) and the
// interaction is dispatched; use Wait on the result for the response.
// It returns ErrUnknownCommand, ErrBadCommand, ErrUnknownUser,
// ErrUnknownChannel, ErrNotMember or ErrNoBotConnected (wrapped).
func (s *Server) RunCommand(ctx context.Context, userID, channelID, line string) (*Interaction, error) {
	in, err := parseCommandLine(line)
	if err != nil {
		return nil, err
	}
	return s.Command(ctx, userID, channelID, in)
}

// rawCommand is a parsed but untyped command line: words are the command,
// group and subcommand candidates, then name:value pairs.
func parseCommandLine(line string) (CommandInput, error) {
	toks, err := tokenize(strings.TrimPrefix(strings.TrimSpace(line), "/"))
	if err != nil {
		return CommandInput{}, err
	}
	if len(toks) == 0 {
		return CommandInput{}, fmt.Errorf("%w: empty command", ErrBadCommand)
	}
	in := CommandInput{Name: toks[0].word, Options: map[string]any{}}
	var words []string
	last := ""
	for _, t := range toks[1:] {
		switch {
		case t.isPair:
			if _, dup := in.Options[t.name]; dup {
				return CommandInput{}, fmt.Errorf("%w: option %q given twice", ErrBadCommand, t.name)
			}
			in.Options[t.name] = t.value
			last = t.name
		case last != "":
			// An unquoted value with spaces continues the previous option.
			in.Options[last] = in.Options[last].(string) + " " + t.word
		default:
			words = append(words, t.word)
		}
	}
	switch len(words) {
	case 0:
	case 1:
		in.Subcommand = words[0]
	case 2:
		in.Group, in.Subcommand = words[0], words[1]
	default:
		return CommandInput{}, fmt.Errorf("%w: unexpected %q", ErrBadCommand, words[2])
	}
	return in, nil
}

type token struct {
	word        string
	isPair      bool
	name, value string
}

func tokenize(line string) ([]token, error) {
	var out []token
	i := 0
	for i < len(line) {
		r, size := utf8.DecodeRuneInString(line[i:])
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		var b strings.Builder
		inQuote := false
		for i < len(line) {
			r, size = utf8.DecodeRuneInString(line[i:])
			if r == '"' {
				inQuote = !inQuote
				i += size
				continue
			}
			if !inQuote && unicode.IsSpace(r) {
				break
			}
			b.WriteRune(r)
			i += size
		}
		if inQuote {
			return nil, fmt.Errorf("%w: unterminated quote", ErrBadCommand)
		}
		w := b.String()
		if name, value, ok := strings.Cut(w, ":"); ok && name != "" && !strings.HasPrefix(w, "<") {
			out = append(out, token{isPair: true, name: name, value: value})
		} else {
			out = append(out, token{word: w})
		}
	}
	return out, nil
}

// Command runs a slash command described by in, as user in channel.
func (s *Server) Command(ctx context.Context, userID, channelID string, in CommandInput) (*Interaction, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, p, err := s.basePayloadLocked(InteractionApplicationCommand, userID, channelID)
	if err != nil {
		return nil, err
	}
	var cmd *Command
	loc := st.user.Locale
	for _, c := range s.commandsLocked(st.guildID) {
		if named(c.Name, c.NameLocalizations, in.Name, loc) && (c.Type == 1 || c.Type == 0) {
			cmd = c
			break
		}
	}
	if cmd == nil {
		return nil, fmt.Errorf("%w: /%s", ErrUnknownCommand, in.Name)
	}
	if err := s.commandAvailableLocked(cmd, st); err != nil {
		return nil, err
	}
	resolved := map[string]map[string]any{}
	opts, err := s.typeOptionsLocked(cmd.Options, in, resolved, st.guildID, loc)
	if err != nil {
		return nil, fmt.Errorf("/%s: %w", in.Name, err)
	}
	data := map[string]any{"id": cmd.ID, "name": cmd.Name, "type": 1}
	if len(opts) > 0 {
		data["options"] = opts
	}
	if cmd.GuildID != "" {
		data["guild_id"] = cmd.GuildID
	}
	if len(resolved) > 0 {
		data["resolved"] = resolved
	}
	p["data"] = data
	// The command's own names, whichever localisation was typed.
	words := []string{cmd.Name}
	for o := opts; len(o) == 1 && (o[0].Type == OptionSubCommandGroup || o[0].Type == OptionSubCommand); o = o[0].Options {
		words = append(words, o[0].Name)
	}
	st.commandName = strings.Join(words, " ")
	return s.dispatchInteractionLocked(st, p), nil
}

// commandAvailableLocked applies contexts, dm_permission and
// default_member_permissions as Discord's client does: a command a user
// may not use is not offered to them. dm_permission counts only when
// contexts is not given.
// https://discord.com/developers/docs/interactions/application-commands#permissions
func (s *Server) commandAvailableLocked(cmd *Command, st *ixState) error {
	inDM := st.guildID == ""
	ctx := 0
	if inDM {
		ctx = 1
		if len(cmd.Contexts) == 0 && cmd.DMPermission != nil && !*cmd.DMPermission {
			return fmt.Errorf("%w: /%s is not available in DMs", ErrUnknownCommand, cmd.Name)
		}
	}
	if len(cmd.Contexts) > 0 {
		ok := false
		for _, c := range cmd.Contexts {
			ok = ok || c == ctx
		}
		if !ok {
			return fmt.Errorf("%w: /%s is not available in this context", ErrUnknownCommand, cmd.Name)
		}
	}
	if inDM || cmd.DefaultMemberPermissions == nil {
		return nil
	}
	need, err := strconv.ParseInt(*cmd.DefaultMemberPermissions, 10, 64)
	if err != nil {
		return nil
	}
	have := s.members[st.guildID][st.user.ID].permissions
	if have&PermAdministrator != 0 || (need != 0 && have&need == need) {
		return nil
	}
	return fmt.Errorf("%w: /%s needs permissions %d", ErrMissingPermissions, cmd.Name, need)
}

// typeOptionsLocked builds the typed option tree for in.
// A user types the names (command, group, subcommand, options, choices) in
// their client's language when the command has a localisation for it, or
// the default names; the interaction carries the default names
// (https://discord.com/developers/docs/interactions/application-commands#localization:
// "Localized names and descriptions are shown to users based on their
// client's selected language"; the data received is the command's own).
func (s *Server) typeOptionsLocked(defs []CommandOption, in CommandInput, resolved map[string]map[string]any, guildID, loc string) ([]interactionOption, error) {
	find := func(defs []CommandOption, name string, types ...int) *CommandOption {
		for i := range defs {
			if named(defs[i].Name, defs[i].NameLocalizations, name, loc) {
				for _, t := range types {
					if defs[i].Type == t {
						return &defs[i]
					}
				}
			}
		}
		return nil
	}
	hasSub := false
	for _, d := range defs {
		if d.Type == OptionSubCommand || d.Type == OptionSubCommandGroup {
			hasSub = true
		}
	}
	if !hasSub {
		if in.Group != "" || in.Subcommand != "" {
			return nil, fmt.Errorf("%w: unexpected subcommand %q", ErrBadCommand, strings.TrimSpace(in.Group+" "+in.Subcommand))
		}
		return s.typeValuesLocked(defs, in.Options, resolved, guildID, loc)
	}
	if in.Group != "" {
		g := find(defs, in.Group, OptionSubCommandGroup)
		if g == nil {
			return nil, fmt.Errorf("%w: unknown subcommand group %q", ErrBadCommand, in.Group)
		}
		sub := find(g.Options, in.Subcommand, OptionSubCommand)
		if sub == nil {
			return nil, fmt.Errorf("%w: unknown subcommand %q", ErrBadCommand, in.Subcommand)
		}
		vals, err := s.typeValuesLocked(sub.Options, in.Options, resolved, guildID, loc)
		if err != nil {
			return nil, err
		}
		return []interactionOption{{Name: g.Name, Type: OptionSubCommandGroup, Options: []interactionOption{{Name: sub.Name, Type: OptionSubCommand, Options: vals}}}}, nil
	}
	if in.Subcommand == "" {
		return nil, fmt.Errorf("%w: a subcommand is required", ErrBadCommand)
	}
	sub := find(defs, in.Subcommand, OptionSubCommand)
	if sub == nil {
		return nil, fmt.Errorf("%w: unknown subcommand %q", ErrBadCommand, in.Subcommand)
	}
	vals, err := s.typeValuesLocked(sub.Options, in.Options, resolved, guildID, loc)
	if err != nil {
		return nil, err
	}
	return []interactionOption{{Name: sub.Name, Type: OptionSubCommand, Options: vals}}, nil
}

func (s *Server) typeValuesLocked(defs []CommandOption, given map[string]any, resolved map[string]map[string]any, guildID, loc string) ([]interactionOption, error) {
	byName := map[string]any{} // the values given, by the options' own names
	for name, v := range given {
		found := false
		for _, d := range defs {
			if named(d.Name, d.NameLocalizations, name, loc) {
				if _, dup := byName[d.Name]; dup {
					return nil, fmt.Errorf("%w: option %q given twice", ErrBadCommand, d.Name)
				}
				byName[d.Name], found = v, true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("%w: unknown option %q", ErrBadCommand, name)
		}
	}
	var out []interactionOption
	for _, d := range defs {
		raw, ok := byName[d.Name]
		if !ok {
			if d.Required {
				return nil, fmt.Errorf("%w: option %q is required", ErrBadCommand, d.Name)
			}
			continue
		}
		v, err := s.typeValueLocked(d, fmt.Sprint(raw), resolved, guildID, loc)
		if err != nil {
			return nil, err
		}
		out = append(out, interactionOption{Name: d.Name, Type: d.Type, Value: v})
	}
	return out, nil
}

func (s *Server) typeValueLocked(d CommandOption, raw string, resolved map[string]map[string]any, guildID, loc string) (any, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: option %q: %s", ErrBadCommand, d.Name, fmt.Sprintf(format, args...))
	}
	// A choice may be given by value or by (case-insensitive) name.
	if len(d.Choices) > 0 {
		for _, c := range d.Choices {
			if fmt.Sprint(c.Value) == raw || strings.EqualFold(c.Name, raw) ||
				(c.NameLocalizations[loc] != "" && strings.EqualFold(c.NameLocalizations[loc], raw)) {
				raw = fmt.Sprint(c.Value)
				if f, ok := c.Value.(float64); ok && d.Type == OptionInteger {
					raw = strconv.FormatInt(int64(f), 10)
				}
				goto typed
			}
		}
		return nil, bad("%q is not one of the choices", raw)
	}
typed:
	switch d.Type {
	case OptionString:
		n := utf8.RuneCountInString(raw)
		if d.MinLength != nil && n < *d.MinLength || d.MaxLength != nil && n > *d.MaxLength || n > 6000 {
			return nil, bad("length %d out of range", n)
		}
		return raw, nil
	case OptionInteger:
		i, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return nil, bad("%q is not an integer", raw)
		}
		if err := checkRange(d, float64(i)); err != nil {
			return nil, bad("%v", err)
		}
		return i, nil
	case OptionNumber:
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, bad("%q is not a number", raw)
		}
		if err := checkRange(d, f); err != nil {
			return nil, bad("%v", err)
		}
		return f, nil
	case OptionBoolean:
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return nil, bad("%q is not true or false", raw)
		}
		return b, nil
	case OptionUser, OptionMentionable:
		id := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(raw, "<@"), "!"), ""), ">")
		u, ok := s.users[id]
		if !ok {
			for _, cand := range s.users {
				if strings.EqualFold(cand.Username, raw) {
					u, ok = cand, true
				}
			}
		}
		if !ok {
			return nil, bad("unknown user %q", raw)
		}
		if resolved["users"] == nil {
			resolved["users"] = map[string]any{}
		}
		resolved["users"][u.ID] = *u
		if m, ok := s.members[guildID][u.ID]; ok {
			if resolved["members"] == nil {
				resolved["members"] = map[string]any{}
			}
			mj := s.memberJSON(m)
			delete(mj, "user")
			resolved["members"][u.ID] = mj
		}
		return u.ID, nil
	case OptionChannel:
		id := strings.TrimSuffix(strings.TrimPrefix(raw, "<#"), ">")
		c, ok := s.channels[id]
		if !ok {
			return nil, bad("unknown channel %q", raw)
		}
		if resolved["channels"] == nil {
			resolved["channels"] = map[string]any{}
		}
		resolved["channels"][c.ID] = s.channelJSON(c)
		return c.ID, nil
	case OptionRole:
		id := strings.TrimSuffix(strings.TrimPrefix(raw, "<@&"), ">")
		if !parseID(id) {
			return nil, bad("%q is not a role id", raw)
		}
		return id, nil
	default:
		return nil, bad("option type %d cannot be typed in", d.Type)
	}
}

func checkRange(d CommandOption, v float64) error {
	if d.MinValue != nil && v < *d.MinValue {
		return fmt.Errorf("%v is below the minimum %v", v, *d.MinValue)
	}
	if d.MaxValue != nil && v > *d.MaxValue {
		return fmt.Errorf("%v is above the maximum %v", v, *d.MaxValue)
	}
	return nil
}

// basePayloadLocked checks user and channel and builds the fields every
// interaction shares.
func (s *Server) basePayloadLocked(typ int, userID, channelID string) (*ixState, map[string]any, error) {
	if s.closed {
		return nil, nil, ErrClosed
	}
	u, ok := s.users[userID]
	if !ok || userID == s.bot.ID {
		return nil, nil, fmt.Errorf("%w: %s", ErrUnknownUser, userID)
	}
	ch, ok := s.channels[channelID]
	if !ok {
		return nil, nil, fmt.Errorf("%w: %s", ErrUnknownChannel, channelID)
	}
	if !s.botReachableLocked(ch.GuildID) {
		return nil, nil, ErrNoBotConnected
	}
	st := &ixState{id: s.newID(), token: randomToken(), typ: typ, user: u, channelID: ch.ID, guildID: ch.GuildID, createdAt: s.now()}
	p := map[string]any{
		"id":              st.id,
		"application_id":  s.opts.ApplicationID,
		"type":            typ,
		"token":           st.token,
		"version":         1,
		"channel_id":      ch.ID,
		"channel":         s.channelJSON(ch),
		"locale":          u.Locale,
		"app_permissions": fmt.Sprint(s.botPermsLocked(ch)),
		"entitlements":    []any{},
	}
	if ch.GuildID != "" {
		m, ok := s.members[ch.GuildID][u.ID]
		if !ok {
			return nil, nil, fmt.Errorf("%w: %s in %s", ErrNotMember, u.ID, ch.GuildID)
		}
		g := s.guilds[ch.GuildID]
		p["guild_id"] = g.ID
		p["guild_locale"] = g.PreferredLocale
		p["member"] = s.memberJSON(m)
		p["context"] = 0
		p["authorizing_integration_owners"] = map[string]string{"0": g.ID}
	} else {
		if ch.Recipient != u.ID {
			return nil, nil, fmt.Errorf("%w: %s is not the DM's recipient", ErrUnknownChannel, channelID)
		}
		p["user"] = *u
		p["context"] = 1
		p["authorizing_integration_owners"] = map[string]string{"0": "0"}
	}
	return st, p, nil
}

func (s *Server) dispatchInteractionLocked(st *ixState, p map[string]any) *Interaction {
	st.payload = p
	s.registerLocked(st)
	s.deliverLocked(st) // marshals the payload at once, by either way
	if s.opts.DropPayloads {
		st.payload = nil
	}
	s.notifyLocked()
	return &Interaction{ID: st.id, Token: st.token, Type: st.typ, s: s}
}

// componentLocked finds a clickable component on a message the user sees.
func (s *Server) componentLocked(userID, messageID, customID string) (*Message, Component, error) {
	m, ok := s.messages[messageID]
	if !ok || m.Deleted {
		return nil, Component{}, fmt.Errorf("%w: %s", ErrUnknownMessage, messageID)
	}
	if !m.visibleTo(userID) {
		return nil, Component{}, fmt.Errorf("%w: %s", ErrNotVisible, messageID)
	}
	if m.Loading() {
		return nil, Component{}, fmt.Errorf("%w: %q (message still loading)", ErrUnknownComponent, customID)
	}
	c, ok := m.FindComponent(customID)
	if !ok || customID == "" {
		return nil, Component{}, fmt.Errorf("%w: %q", ErrUnknownComponent, customID)
	}
	if c.Disabled {
		return nil, Component{}, fmt.Errorf("%w: %q", ErrComponentDisabled, customID)
	}
	return m, c, nil
}

// Click clicks the button with customID on a message, as user. Link and
// premium buttons send no interaction and return ErrUnknownComponent.
func (s *Server) Click(ctx context.Context, userID, messageID, customID string) (*Interaction, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, c, err := s.componentLocked(userID, messageID, customID)
	if err != nil {
		return nil, err
	}
	if c.Type != ComponentButton || c.Style == ButtonLink || c.Style == ButtonPremium {
		return nil, fmt.Errorf("%w: %q is not a button", ErrUnknownComponent, customID)
	}
	return s.componentInteractionLocked(userID, m, c, nil)
}

// Select picks values in the select menu customID on a message, as user.
// For a string select the values must be option values, within
// min_values..max_values; for user/role/channel selects they are ids.
func (s *Server) Select(ctx context.Context, userID, messageID, customID string, values ...string) (*Interaction, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, c, err := s.componentLocked(userID, messageID, customID)
	if err != nil {
		return nil, err
	}
	if !isSelect(c.Type) {
		return nil, fmt.Errorf("%w: %q is not a select menu", ErrUnknownComponent, customID)
	}
	minV, maxV := 1, 1
	if c.MinValues != nil {
		minV = *c.MinValues
	}
	if c.MaxValues != nil {
		maxV = *c.MaxValues
	}
	if len(values) < minV || len(values) > maxV {
		return nil, fmt.Errorf("%w: %d values, want %d..%d", ErrBadSelection, len(values), minV, maxV)
	}
	seen := map[string]bool{}
	for _, v := range values {
		if seen[v] {
			return nil, fmt.Errorf("%w: %q picked twice", ErrBadSelection, v)
		}
		seen[v] = true
		if c.Type == ComponentStringSelect {
			ok := false
			for _, o := range c.Options {
				ok = ok || o.Value == v
			}
			if !ok {
				return nil, fmt.Errorf("%w: %q is not an option", ErrBadSelection, v)
			}
		}
	}
	if values == nil {
		values = []string{}
	}
	return s.componentInteractionLocked(userID, m, c, values)
}

func (s *Server) componentInteractionLocked(userID string, m *Message, c Component, values []string) (*Interaction, error) {
	st, p, err := s.basePayloadLocked(InteractionMessageComponent, userID, m.ChannelID)
	if err != nil {
		return nil, err
	}
	data := map[string]any{"custom_id": c.CustomID, "component_type": c.Type}
	if values != nil {
		data["values"] = values
	}
	p["data"] = data
	p["message"] = s.messageJSON(m)
	st.customID = c.CustomID
	st.messageID = m.ID
	return s.dispatchInteractionLocked(st, p), nil
}

// SubmitModal fills and submits the modal that the bot opened in answer to
// opened, as user. values maps text input custom ids to text; inputs not
// given keep their pre-filled value. It returns ErrNoModal or
// ErrBadModalInput (wrapped) when Discord's client would not allow it.
func (s *Server) SubmitModal(ctx context.Context, userID string, opened *Interaction, values map[string]string) (*Interaction, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	parent, ok := s.ixByID[opened.ID]
	if !ok {
		return nil, ErrUnknownInteraction
	}
	if parent.modal == nil {
		return nil, ErrNoModal
	}
	if parent.modalDone {
		return nil, fmt.Errorf("%w: the modal was already submitted", ErrNoModal)
	}
	if parent.user.ID != userID {
		return nil, fmt.Errorf("%w: the modal was opened for another user", ErrNoModal)
	}
	known := map[string]bool{}
	var rows []map[string]any
	for _, in := range parent.modal.TextInputs() {
		known[in.CustomID] = true
		v, given := values[in.CustomID]
		if !given {
			v = in.Value
		}
		n := utf8.RuneCountInString(v)
		required := in.Required == nil || *in.Required
		if required && n == 0 {
			return nil, fmt.Errorf("%w: %q is required", ErrBadModalInput, in.CustomID)
		}
		if n > 0 && (in.MinLength != nil && n < *in.MinLength || in.MaxLength != nil && n > *in.MaxLength || n > maxTextInputValue) {
			return nil, fmt.Errorf("%w: %q has %d characters", ErrBadModalInput, in.CustomID, n)
		}
		if in.Style == 1 && strings.ContainsRune(v, '\n') {
			return nil, fmt.Errorf("%w: %q is a single-line input", ErrBadModalInput, in.CustomID)
		}
		rows = append(rows, map[string]any{"type": ComponentActionRow, "components": []map[string]any{{"type": ComponentTextInput, "custom_id": in.CustomID, "value": v}}})
	}
	for id := range values {
		if !known[id] {
			return nil, fmt.Errorf("%w: no text input %q", ErrBadModalInput, id)
		}
	}
	st, p, err := s.basePayloadLocked(InteractionModalSubmit, userID, parent.channelID)
	if err != nil {
		return nil, err
	}
	p["data"] = map[string]any{"custom_id": parent.modal.CustomID, "components": rows}
	if m, ok := s.messages[parent.messageID]; ok && parent.messageID != "" && !m.Deleted {
		p["message"] = s.messageJSON(m)
		st.messageID = m.ID
	}
	st.parent = parent
	st.customID = parent.modal.CustomID
	parent.modalDone = true // a modal is submitted once
	return s.dispatchInteractionLocked(st, p), nil
}

// --- reading the channel ---

// Message returns a message by id, with its history, even if deleted.
func (s *Server) Message(id string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[id]
	if !ok {
		return Message{}, false
	}
	return m.clone(), true
}

// Transcript returns every message of a channel in order: public and
// ephemeral (with VisibleTo), deleted ones marked, each with its edit
// history and the users it pinged.
func (s *Server) Transcript(channelID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := s.chanMsgs[channelID]
	out := make([]Message, 0, len(ids))
	for _, id := range ids {
		out = append(out, s.messages[id].clone())
	}
	return out
}

// VisibleMessages returns what userID sees in a channel: public messages and
// the user's own ephemeral messages, not deleted, in order.
func (s *Server) VisibleMessages(channelID, userID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, id := range s.chanMsgs[channelID] {
		if m := s.messages[id]; m.visibleTo(userID) {
			out = append(out, m.clone())
		}
	}
	return out
}

// LatestPublic returns the newest non-ephemeral, non-deleted message of a
// channel (typically the current board).
func (s *Server) LatestPublic(channelID string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := s.chanMsgs[channelID]
	for i := len(ids) - 1; i >= 0; i-- {
		if m := s.messages[ids[i]]; !m.Deleted && !m.Ephemeral() {
			return m.clone(), true
		}
	}
	return Message{}, false
}

// Ephemerals returns the ephemeral messages userID got in a channel, oldest first.
func (s *Server) Ephemerals(channelID, userID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, id := range s.chanMsgs[channelID] {
		if m := s.messages[id]; m.Ephemeral() && m.VisibleTo == userID && !m.Deleted {
			out = append(out, m.clone())
		}
	}
	return out
}

// Pinged returns the users a message notified.
func (s *Server) Pinged(messageID string) []string {
	m, ok := s.Message(messageID)
	if !ok {
		return nil
	}
	return m.Pinged
}

// WaitMessage waits until a message of channel visible to userID ("" for
// public only) satisfies match, and returns the newest such message.
func (s *Server) WaitMessage(ctx context.Context, channelID, userID string, match func(Message) bool) (Message, error) {
	var found Message
	err := s.WaitFor(ctx, func() bool {
		msgs := s.VisibleMessages(channelID, userID)
		for i := len(msgs) - 1; i >= 0; i-- {
			if match(msgs[i]) {
				found = msgs[i]
				return true
			}
		}
		return false
	})
	return found, err
}

// Post sends a plain message as a user (not the bot), e.g. to test that
// the bot cannot edit it. Mentions in it are parsed as Discord would.
func (s *Server) Post(userID, channelID, content string) (Message, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[userID]
	if !ok || userID == s.bot.ID {
		return Message{}, fmt.Errorf("%w: %s", ErrUnknownUser, userID)
	}
	ch, ok := s.channels[channelID]
	if !ok {
		return Message{}, fmt.Errorf("%w: %s", ErrUnknownChannel, channelID)
	}
	if ch.GuildID != "" {
		if _, ok := s.members[ch.GuildID][userID]; !ok {
			return Message{}, fmt.Errorf("%w: %s in %s", ErrNotMember, userID, ch.GuildID)
		}
	}
	if content == "" || utf8.RuneCountInString(content) > maxContent {
		return Message{}, fmt.Errorf("%w: content must have 1 to %d characters", ErrBadMessage, maxContent)
	}
	m := s.createMessageLocked(ch, *u, &messagePayload{Content: &content}, nil)
	return m.clone(), nil
}

// named reports whether typed names the command, option or choice whose
// default name is name and whose localised names are locs, for a user
// whose client language is loc: the default name, or the localisation
// for loc.
func named(name string, locs map[string]string, typed, loc string) bool {
	return typed == name || (loc != "" && locs[loc] != "" && typed == locs[loc])
}
