package fakediscord

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// fieldError is one entry of a 50035 Invalid Form Body answer.
type fieldError struct {
	path string // dotted, e.g. "data.components.0.components.1.custom_id"
	code string
	msg  string
}

type formErrors []fieldError

func (fe *formErrors) add(path, code, msg string) {
	*fe = append(*fe, fieldError{path: path, code: code, msg: msg})
}

func join(prefix string, parts ...any) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, p := range parts {
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		fmt.Fprint(&b, p)
	}
	return b.String()
}

// maxLen adds BASE_TYPE_MAX_LENGTH when s is longer than n characters.
func (fe *formErrors) maxLen(path, s string, n int) {
	if utf8.RuneCountInString(s) > n {
		fe.add(path, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", n))
	}
}

// lenRange adds BASE_TYPE_BAD_LENGTH when s has not min..max characters.
func (fe *formErrors) lenRange(path, s string, min, max int) {
	if n := utf8.RuneCountInString(s); n < min || n > max {
		fe.add(path, "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between %d and %d in length.", min, max))
	}
}

func (fe *formErrors) maxItems(path string, n, max int) {
	if n > max {
		fe.add(path, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", max))
	}
}

// tree renders the errors as Discord's nested "errors" object.
func (fe formErrors) tree() map[string]any {
	root := map[string]any{}
	for _, e := range fe {
		node := root
		for _, part := range strings.Split(e.path, ".") {
			child, ok := node[part].(map[string]any)
			if !ok {
				child = map[string]any{}
				node[part] = child
			}
			node = child
		}
		list, _ := node["_errors"].([]map[string]string)
		node["_errors"] = append(list, map[string]string{"code": e.code, "message": e.msg})
	}
	return root
}

func (fe formErrors) String() string {
	parts := make([]string, len(fe))
	for i, e := range fe {
		parts[i] = e.path + ": " + e.code + " " + e.msg
	}
	return strings.Join(parts, "; ")
}

// Message limits.
// https://discord.com/developers/docs/resources/message#create-message
// (content up to 2000 characters, up to 10 embeds).
const (
	maxContent = 2000
	maxEmbeds  = 10
)

// Embed limits.
// https://discord.com/developers/docs/resources/message#embed-object-embed-limits
// (also summarised at https://sapphirejs.dev/docs/Documentation/api-utilities/@sapphire/discord-utilities/variables/EmbedLimits).
const (
	maxEmbedTitle       = 256
	maxEmbedDescription = 4096
	maxEmbedFields      = 25
	maxEmbedFieldName   = 256
	maxEmbedFieldValue  = 1024
	maxEmbedFooter      = 2048
	maxEmbedAuthor      = 256
	maxEmbedTotal       = 6000
)

// Component limits.
// https://discord.com/developers/docs/components/reference (action rows,
// buttons, select menus, text inputs; also summarised at
// https://sapphirejs.dev/docs/Documentation/api-utilities/@sapphire/discord-utilities/variables/InteractionLimits
// and .../ButtonLimits).
const (
	maxActionRows      = 5
	maxButtonsPerRow   = 5
	maxCustomID        = 100
	maxButtonLabel     = 80
	maxSelectOptions   = 25
	maxSelectHolder    = 150
	maxOptionLabel     = 100
	maxOptionValue     = 100
	maxOptionDesc      = 100
	maxSelectValues    = 25
	maxTextInputLabel  = 45
	maxTextInputHolder = 100
	maxTextInputValue  = 4000
)

// Modal limits.
// https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-modal
// (title up to 45 characters, 1 to 5 components; also
// https://sapphirejs.dev/docs/Documentation/api-utilities/@sapphire/discord-utilities/variables/ModalLimits/
// and .../TextInputLimits).
const (
	maxModalTitle = 45
	maxModalRows  = 5
)

// validateMessage checks a message body (create, edit, or callback data)
// against the limits above; emptiness is checked by the caller.
func validateMessage(prefix string, m *messagePayload) formErrors {
	var fe formErrors
	if m.Content != nil {
		fe.maxLen(join(prefix, "content"), *m.Content, maxContent)
	}
	if m.Embeds != nil {
		validateEmbeds(&fe, join(prefix, "embeds"), *m.Embeds)
	}
	if m.Components != nil {
		validateComponents(&fe, join(prefix, "components"), *m.Components)
	}
	if am := m.AllowedMentions; am != nil {
		p := join(prefix, "allowed_mentions")
		hasUsers, hasRoles := false, false
		for i, v := range am.Parse {
			switch v {
			case "users":
				hasUsers = true
			case "roles":
				hasRoles = true
			case "everyone":
			default:
				fe.add(join(p, "parse", i), "BASE_TYPE_CHOICES", fmt.Sprintf("Value must be one of {'everyone', 'roles', 'users'}."))
			}
		}
		if hasUsers && len(am.Users) > 0 {
			fe.add(join(p, "parse"), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", `parse:["users"] and users: [ids...] are mutually exclusive.`)
		}
		if hasRoles && len(am.Roles) > 0 {
			fe.add(join(p, "parse"), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", `parse:["roles"] and roles: [ids...] are mutually exclusive.`)
		}
		fe.maxItems(join(p, "users"), len(am.Users), 100)
		fe.maxItems(join(p, "roles"), len(am.Roles), 100)
	}
	if m.Flags != nil && *m.Flags&FlagComponentsV2 != 0 {
		fe.add(join(prefix, "flags"), "MESSAGE_FLAGS_UNSUPPORTED", "Components V2 messages are not supported by this stand-in.")
	}
	return fe
}

// isEmpty reports whether a new message would have nothing to show.
func (m *messagePayload) isEmpty() bool {
	return (m.Content == nil || strings.TrimSpace(*m.Content) == "") &&
		(m.Embeds == nil || len(*m.Embeds) == 0) &&
		(m.Components == nil || len(*m.Components) == 0) &&
		(m.atts == nil || len(*m.atts) == 0)
}

func validateEmbeds(fe *formErrors, p string, embeds []Embed) {
	fe.maxItems(p, len(embeds), maxEmbeds)
	total := 0
	for i, e := range embeds {
		ep := join(p, i)
		fe.maxLen(join(ep, "title"), e.Title, maxEmbedTitle)
		fe.maxLen(join(ep, "description"), e.Description, maxEmbedDescription)
		total += utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description)
		fe.maxItems(join(ep, "fields"), len(e.Fields), maxEmbedFields)
		for j, f := range e.Fields {
			fp := join(ep, "fields", j)
			if f.Name == "" {
				fe.add(join(fp, "name"), "BASE_TYPE_REQUIRED", "This field is required")
			}
			if f.Value == "" {
				fe.add(join(fp, "value"), "BASE_TYPE_REQUIRED", "This field is required")
			}
			fe.maxLen(join(fp, "name"), f.Name, maxEmbedFieldName)
			fe.maxLen(join(fp, "value"), f.Value, maxEmbedFieldValue)
			total += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
		}
		if e.Footer != nil {
			fe.maxLen(join(ep, "footer", "text"), e.Footer.Text, maxEmbedFooter)
			total += utf8.RuneCountInString(e.Footer.Text)
		}
		if e.Author != nil {
			fe.maxLen(join(ep, "author", "name"), e.Author.Name, maxEmbedAuthor)
			total += utf8.RuneCountInString(e.Author.Name)
		}
		if e.Color < 0 || e.Color > 0xFFFFFF {
			fe.add(join(ep, "color"), "NUMBER_TYPE_MAX", "int value should be less than or equal to 16777215.")
		}
	}
	if total > maxEmbedTotal {
		fe.add(p, "MAX_EMBED_SIZE_EXCEEDED", fmt.Sprintf("Embed size exceeds maximum size of %d", maxEmbedTotal))
	}
}

func isSelect(t int) bool {
	return t == ComponentStringSelect || (t >= ComponentUserSelect && t <= ComponentChannelSelect)
}

func validateComponents(fe *formErrors, p string, rows []Component) {
	fe.maxItems(p, len(rows), maxActionRows)
	seen := map[string]bool{}
	for i, row := range rows {
		rp := join(p, i)
		if row.Type != ComponentActionRow {
			fe.add(join(rp, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,).")
			continue
		}
		if len(row.Components) == 0 {
			fe.add(join(rp, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
		}
		buttons, selects := 0, 0
		for j, c := range row.Components {
			cp := join(rp, "components", j)
			switch {
			case c.Type == ComponentButton:
				buttons++
				validateButton(fe, cp, c)
			case isSelect(c.Type):
				selects++
				validateSelect(fe, cp, c)
			default:
				fe.add(join(cp, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (2, 3, 5, 6, 7, 8).")
			}
			if c.CustomID != "" {
				if seen[c.CustomID] {
					fe.add(join(cp, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
				}
				seen[c.CustomID] = true
			}
		}
		if buttons > maxButtonsPerRow {
			fe.add(join(rp, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
		}
		if selects > 0 && len(row.Components) > 1 {
			fe.add(join(rp, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
		}
	}
}

func validateButton(fe *formErrors, p string, c Component) {
	switch c.Style {
	case ButtonPrimary, ButtonSecondary, ButtonSuccess, ButtonDanger:
		fe.lenRange(join(p, "custom_id"), c.CustomID, 1, maxCustomID)
		if c.URL != "" {
			fe.add(join(p, "url"), "BUTTON_COMPONENT_URL_NOT_ALLOWED", "A url cannot be specified for a non-link button")
		}
		if c.Label == "" && c.Emoji == nil {
			fe.add(join(p, "label"), "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or emoji is required")
		}
	case ButtonLink:
		if c.URL == "" {
			fe.add(join(p, "url"), "BUTTON_COMPONENT_URL_REQUIRED", "A url is required for a link button")
		}
		if c.CustomID != "" {
			fe.add(join(p, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED", "A custom id cannot be specified for a link button")
		}
	case ButtonPremium:
		if c.SKUID == "" {
			fe.add(join(p, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
		}
	default:
		fe.add(join(p, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
	}
	fe.maxLen(join(p, "label"), c.Label, maxButtonLabel)
}

func validateSelect(fe *formErrors, p string, c Component) {
	fe.lenRange(join(p, "custom_id"), c.CustomID, 1, maxCustomID)
	fe.maxLen(join(p, "placeholder"), c.Placeholder, maxSelectHolder)
	minV, maxV := 1, 1
	if c.MinValues != nil {
		minV = *c.MinValues
		if minV < 0 || minV > maxSelectValues {
			fe.add(join(p, "min_values"), "NUMBER_TYPE_MAX", fmt.Sprintf("int value should be between 0 and %d.", maxSelectValues))
		}
	}
	if c.MaxValues != nil {
		maxV = *c.MaxValues
		if maxV < 1 || maxV > maxSelectValues {
			fe.add(join(p, "max_values"), "NUMBER_TYPE_MAX", fmt.Sprintf("int value should be between 1 and %d.", maxSelectValues))
		}
	}
	if minV > maxV {
		fe.add(join(p, "min_values"), "SELECT_COMPONENT_MIN_VALUES_GREATER_THAN_MAX", "min_values must be less than or equal to max_values")
	}
	if c.Type != ComponentStringSelect {
		return
	}
	if len(c.Options) == 0 || len(c.Options) > maxSelectOptions {
		fe.add(join(p, "options"), "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between 1 and %d in length.", maxSelectOptions))
	}
	if maxV > len(c.Options) && len(c.Options) > 0 {
		fe.add(join(p, "max_values"), "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS", "max_values cannot exceed the number of options")
	}
	values := map[string]bool{}
	for k, o := range c.Options {
		op := join(p, "options", k)
		fe.lenRange(join(op, "label"), o.Label, 1, maxOptionLabel)
		fe.lenRange(join(op, "value"), o.Value, 1, maxOptionValue)
		fe.maxLen(join(op, "description"), o.Description, maxOptionDesc)
		if values[o.Value] {
			fe.add(join(op, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Option value cannot be duplicated")
		}
		values[o.Value] = true
	}
}

// validateModal checks callback data of type 9.
func validateModal(prefix string, m *messagePayload) formErrors {
	var fe formErrors
	fe.lenRange(join(prefix, "title"), m.Title, 1, maxModalTitle)
	fe.lenRange(join(prefix, "custom_id"), m.CustomID, 1, maxCustomID)
	p := join(prefix, "components")
	if m.Components == nil || len(*m.Components) < 1 || len(*m.Components) > maxModalRows {
		fe.add(p, "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between 1 and %d in length.", maxModalRows))
		return fe
	}
	seen := map[string]bool{}
	for i, row := range *m.Components {
		rp := join(p, i)
		if row.Type != ComponentActionRow {
			fe.add(join(rp, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,).")
			continue
		}
		if len(row.Components) != 1 {
			fe.add(join(rp, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 1 in length.")
			continue
		}
		c := row.Components[0]
		cp := join(rp, "components", 0)
		if c.Type != ComponentTextInput {
			fe.add(join(cp, "type"), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (4,).")
			continue
		}
		fe.lenRange(join(cp, "custom_id"), c.CustomID, 1, maxCustomID)
		if seen[c.CustomID] {
			fe.add(join(cp, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
		}
		seen[c.CustomID] = true
		if c.Style != 1 && c.Style != 2 {
			fe.add(join(cp, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
		}
		fe.lenRange(join(cp, "label"), c.Label, 1, maxTextInputLabel)
		fe.maxLen(join(cp, "placeholder"), c.Placeholder, maxTextInputHolder)
		fe.maxLen(join(cp, "value"), c.Value, maxTextInputValue)
		minL, maxL := 0, maxTextInputValue
		if c.MinLength != nil {
			minL = *c.MinLength
			if minL < 0 || minL > maxTextInputValue {
				fe.add(join(cp, "min_length"), "NUMBER_TYPE_MAX", fmt.Sprintf("int value should be between 0 and %d.", maxTextInputValue))
			}
		}
		if c.MaxLength != nil {
			maxL = *c.MaxLength
			if maxL < 1 || maxL > maxTextInputValue {
				fe.add(join(cp, "max_length"), "NUMBER_TYPE_MAX", fmt.Sprintf("int value should be between 1 and %d.", maxTextInputValue))
			}
		}
		if minL > maxL {
			fe.add(join(cp, "min_length"), "TEXT_INPUT_MIN_GREATER_THAN_MAX", "min_length must be less than or equal to max_length")
		}
		if n := utf8.RuneCountInString(c.Value); c.Value != "" && (n < minL || n > maxL) {
			fe.add(join(cp, "value"), "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between %d and %d in length.", minL, maxL))
		}
	}
	return fe
}

// Application command limits.
// https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-naming
// (names 1-32 characters, lowercase; descriptions 1-100; up to 25 options and 25 choices).
var commandName = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

const (
	maxCommandOptions = 25
	maxCommandChoices = 25
	maxCommandDesc    = 100
)

// discordLocales are the locales Discord accepts in localization maps.
// https://discord.com/developers/docs/reference#locales
var discordLocales = map[string]bool{
	"id": true, "da": true, "de": true, "en-GB": true, "en-US": true, "es-ES": true, "es-419": true,
	"fr": true, "hr": true, "it": true, "lt": true, "hu": true, "nl": true, "no": true, "pl": true,
	"pt-BR": true, "ro": true, "fi": true, "sv-SE": true, "vi": true, "tr": true, "cs": true, "el": true,
	"bg": true, "ru": true, "uk": true, "hi": true, "th": true, "zh-CN": true, "ja": true, "zh-TW": true, "ko": true,
}

func validName(name string) bool {
	return commandName.MatchString(name) && strings.ToLower(name) == name
}

func validateCommand(p string, c *Command) formErrors {
	var fe formErrors
	if c.Type == 0 {
		c.Type = 1
	}
	if c.Type == 1 {
		if !validName(c.Name) {
			fe.add(join(p, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
		}
		fe.lenRange(join(p, "description"), c.Description, 1, maxCommandDesc)
	} else {
		fe.lenRange(join(p, "name"), c.Name, 1, 32)
	}
	validateLocalizations(&fe, join(p, "name_localizations"), c.NameLocalizations, true)
	validateLocalizations(&fe, join(p, "description_localizations"), c.DescriptionLocalizations, false)
	validateOptions(&fe, join(p, "options"), c.Options, 0)
	return fe
}

func validateLocalizations(fe *formErrors, p string, m map[string]string, isName bool) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !discordLocales[k] {
			fe.add(join(p, k), "ENUM_TYPE_COERCE", fmt.Sprintf("Value %q is not a valid enum value.", k))
			continue
		}
		if isName && !validName(m[k]) {
			fe.add(join(p, k), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
		}
		if !isName {
			fe.lenRange(join(p, k), m[k], 1, maxCommandDesc)
		}
	}
}

func validateOptions(fe *formErrors, p string, opts []CommandOption, depth int) {
	fe.maxItems(p, len(opts), maxCommandOptions)
	seenOptional := false
	names := map[string]bool{}
	for i, o := range opts {
		op := join(p, i)
		if !validName(o.Name) {
			fe.add(join(op, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
		}
		if names[o.Name] {
			fe.add(join(op, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
		}
		names[o.Name] = true
		fe.lenRange(join(op, "description"), o.Description, 1, maxCommandDesc)
		validateLocalizations(fe, join(op, "name_localizations"), o.NameLocalizations, true)
		validateLocalizations(fe, join(op, "description_localizations"), o.DescriptionLocalizations, false)
		switch o.Type {
		case OptionSubCommand, OptionSubCommandGroup:
			if depth >= 2 || (o.Type == OptionSubCommandGroup && depth >= 1) {
				fe.add(join(op, "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Sub-command nesting is too deep")
			}
			validateOptions(fe, join(op, "options"), o.Options, depth+1)
		case OptionString, OptionInteger, OptionBoolean, OptionUser, OptionChannel, OptionRole, OptionMentionable, OptionNumber, OptionAttachment:
			if o.Required && seenOptional {
				fe.add(join(op, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options")
			}
			if !o.Required {
				seenOptional = true
			}
		default:
			fe.add(join(op, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.")
		}
		fe.maxItems(join(op, "choices"), len(o.Choices), maxCommandChoices)
		for k, ch := range o.Choices {
			fe.lenRange(join(op, "choices", k, "name"), ch.Name, 1, 100)
		}
	}
}

// Mentions in content.
var (
	userMention = regexp.MustCompile(`<@!?(\d+)>`)
	roleMention = regexp.MustCompile(`<@&(\d+)>`)
	everyoneRe  = regexp.MustCompile(`@(everyone|here)\b`)
)

// mentionResult is what a message's content mentions once allowed_mentions
// is applied.
type mentionResult struct {
	users    []string // mentioned and allowed
	roles    []string
	everyone bool
}

// parseMentions applies allowed_mentions to content, as Discord does:
// https://discord.com/developers/docs/resources/message#allowed-mentions-object
// With no allowed_mentions object every mention is parsed.
func parseMentions(content string, am *AllowedMentions, known func(string) bool) mentionResult {
	var r mentionResult
	parse := map[string]bool{"users": true, "roles": true, "everyone": true}
	allowUser := map[string]bool{}
	allowRole := map[string]bool{}
	if am != nil {
		parse = map[string]bool{}
		for _, p := range am.Parse {
			parse[p] = true
		}
		for _, u := range am.Users {
			allowUser[u] = true
		}
		for _, ro := range am.Roles {
			allowRole[ro] = true
		}
	}
	seen := map[string]bool{}
	for _, m := range userMention.FindAllStringSubmatch(content, -1) {
		id := m[1]
		if seen[id] || !known(id) {
			continue
		}
		seen[id] = true
		if parse["users"] || allowUser[id] {
			r.users = append(r.users, id)
		}
	}
	for _, m := range roleMention.FindAllStringSubmatch(content, -1) {
		if parse["roles"] || allowRole[m[1]] {
			r.roles = append(r.roles, m[1])
		}
	}
	r.everyone = parse["everyone"] && everyoneRe.MatchString(content)
	return r
}

// parseID reports whether s looks like a snowflake.
func parseID(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil && s != ""
}
