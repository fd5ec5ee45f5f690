package discordapi

import (
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// An interaction read by hand. Most of an INTERACTION_CREATE is the
// message it was clicked on: its embeds' text and its buttons. scanner
// reads that part, and the interaction around it (its member, the
// message's author), in one pass of plain byte loops, to the values
// encoding/json gives; the rarer parts (a command's data, a select menu's
// emoji, a message's attachments) are handed to the faster decoder as
// they come. Whatever the
// scanner does not take as it is (a key in another case or twice, an
// escape it leaves to encoding/json, a number with a fraction, malformed
// JSON, a field of a type it does not expect) makes it give up, and the
// input is decoded the slower ways (fastInteraction, then encoding/json),
// so that every value and every error stays encoding/json's.

// scanner reads JSON from b at i. bad is set when it gives up; every
// read after that returns at once.
type scanner struct {
	b   []byte
	i   int
	bad bool
}

// fail gives up.
func (s *scanner) fail() {
	s.bad = true
	s.i = len(s.b)
}

// peek skips white space (RFC 8259 §2) and returns the next byte, 0 at the
// end.
func (s *scanner) peek() byte {
	for s.i < len(s.b) {
		switch c := s.b[s.i]; c {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return c
		}
	}
	return 0
}

// end reports whether only white space is left. (peek's 0 is also a NUL
// byte, which JSON never has outside a string.)
func (s *scanner) end() bool {
	s.peek()
	return s.i == len(s.b)
}

// null reads a null if one comes next.
func (s *scanner) null() bool {
	if s.peek() == 'n' {
		s.literal("null")
		return true
	}
	return false
}

// literal reads the literal word.
func (s *scanner) literal(word string) {
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		s.fail()
		return
	}
	s.i += len(word)
}

// begin reads the start of an object (c '{') or an array (c '[').
func (s *scanner) begin(c byte) {
	if s.peek() != c {
		s.fail()
		return
	}
	s.i++
}

// next reads up to the next member of an object or element of an array
// that ends with end, and reports whether there is one (its end read if
// not). n counts the members read so far.
func (s *scanner) next(end byte, n *int) bool {
	c := s.peek()
	if c == end {
		s.i++
		return false
	}
	if *n > 0 {
		if c != ',' {
			s.fail()
			return false
		}
		s.i++
	}
	*n++
	return !s.bad
}

// key reads an object's key and its colon. A key with an escape or a byte
// outside ASCII is given up on: encoding/json matches such keys to fields
// by Unicode's case folding.
func (s *scanner) key() []byte {
	if s.peek() != '"' {
		s.fail()
		return nil
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		c := s.b[j]
		if c == '"' {
			s.i = j + 1
			if s.peek() != ':' {
				s.fail()
				return nil
			}
			s.i++
			return s.b[start:j]
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
	}
	s.fail()
	return nil
}

// str reads a string, or a null (which leaves a Go string as it is, as
// encoding/json does). Escapes of a character in the Basic Multilingual
// Plane outside the surrogates are decoded here; a surrogate's, and bytes
// that are not UTF-8 (which encoding/json replaces), are given up on.
func (s *scanner) str() (string, bool) {
	switch s.peek() {
	case 'n':
		s.literal("null")
		return "", false
	case '"':
	default:
		s.fail()
		return "", false
	}
	start := s.i + 1
	ascii := true
	for j := start; j < len(s.b); j++ {
		for j < len(s.b) && !stringStop[s.b[j]] {
			j++
		}
		if j == len(s.b) {
			break
		}
		switch c := s.b[j]; {
		case c == '"':
			s.i = j + 1
			if !ascii && !utf8.Valid(s.b[start:j]) {
				s.fail()
				return "", false
			}
			return string(s.b[start:j]), true
		case c == '\\':
			return s.unescape(start, j)
		case c < 0x20:
			s.fail()
			return "", false
		case c >= 0x80:
			ascii = false
		}
	}
	s.fail()
	return "", false
}

// unescape reads the rest of a string that starts at start and has its
// first escape at j.
func (s *scanner) unescape(start, j int) (string, bool) {
	out := make([]byte, 0, j-start+32)
	out = append(out, s.b[start:j]...)
	for j < len(s.b) {
		c := s.b[j]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				s.fail()
				return "", false
			}
			s.i = j + 1
			return string(out), true
		case c < 0x20:
			s.fail()
			return "", false
		case c != '\\':
			k := j + 1
			for k < len(s.b) && s.b[k] != '"' && s.b[k] != '\\' && s.b[k] >= 0x20 {
				k++
			}
			out = append(out, s.b[j:k]...)
			j = k
			continue
		}
		if j+1 >= len(s.b) {
			break
		}
		switch e := s.b[j+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if j+6 > len(s.b) {
				s.fail()
				return "", false
			}
			r, err := strconv.ParseUint(string(s.b[j+2:j+6]), 16, 32)
			if err != nil || (r >= 0xd800 && r < 0xe000) {
				s.fail()
				return "", false
			}
			out = utf8.AppendRune(out, rune(r))
			j += 6
			continue
		default:
			s.fail()
			return "", false
		}
		j += 2
	}
	s.fail()
	return "", false
}

// integer reads a number without fraction or exponent, within min..max,
// or a null (ok false, the value left as it is).
func (s *scanner) integer(min, max int64) (v int64, ok bool) {
	c := s.peek()
	if c == 'n' {
		s.literal("null")
		return 0, false
	}
	start := s.i
	if c == '-' {
		s.i++
	}
	digits := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	n := s.i - digits
	if n == 0 || n > 18 || (n > 1 && s.b[digits] == '0') {
		s.fail()
		return 0, false
	}
	if s.i < len(s.b) {
		switch s.b[s.i] {
		case '.', 'e', 'E':
			s.fail()
			return 0, false
		}
	}
	v, err := strconv.ParseInt(string(s.b[start:s.i]), 10, 64)
	if err != nil || v < min || v > max {
		s.fail()
		return 0, false
	}
	return v, true
}

// boolean reads true or false, or a null (ok false).
func (s *scanner) boolean() (v, ok bool) {
	switch s.peek() {
	case 't':
		s.literal("true")
		return true, true
	case 'f':
		s.literal("false")
		return false, true
	case 'n':
		s.literal("null")
	default:
		s.fail()
	}
	return false, false
}

// skip reads any value and returns its bytes (white space before it left
// out), checked as JSON: encoding/json
// refuses malformed JSON anywhere, even in a value it ignores.
func (s *scanner) skip() []byte {
	s.peek()
	start := s.i
	s.value(0)
	if s.bad {
		return nil
	}
	return s.b[start:s.i]
}

// value reads any value at nesting depth.
func (s *scanner) value(depth int) {
	if depth > 64 {
		s.fail()
		return
	}
	switch c := s.peek(); {
	case c == '{':
		s.i++
		n := 0
		for s.next('}', &n) {
			s.anyKey()
			s.value(depth + 1)
		}
	case c == '[':
		s.i++
		n := 0
		for s.next(']', &n) {
			s.value(depth + 1)
		}
	case c == '"':
		s.skipString()
	case c == 't':
		s.literal("true")
	case c == 'f':
		s.literal("false")
	case c == 'n':
		s.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		s.number()
	default:
		s.fail()
	}
}

// anyKey reads a key of any text and its colon.
func (s *scanner) anyKey() {
	s.skipString()
	if s.peek() != ':' {
		s.fail()
		return
	}
	s.i++
}

// skipString reads a string, its escapes checked.
func (s *scanner) skipString() {
	if s.peek() != '"' {
		s.fail()
		return
	}
	for j := s.i + 1; j < len(s.b); j++ {
		for j < len(s.b) && !stringStop[s.b[j]] {
			j++
		}
		if j == len(s.b) {
			break
		}
		switch c := s.b[j]; {
		case c == '"':
			s.i = j + 1
			return
		case c < 0x20:
			s.fail()
			return
		case c == '\\':
			if j+1 >= len(s.b) {
				s.fail()
				return
			}
			switch s.b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j++
			case 'u':
				if j+6 > len(s.b) {
					s.fail()
					return
				}
				for _, h := range s.b[j+2 : j+6] {
					if !isHex(h) {
						s.fail()
						return
					}
				}
				j += 5
			default:
				s.fail()
				return
			}
		}
	}
	s.fail()
}

// stringStop are the bytes a string's reading stops at: its end, an
// escape, a control character (which JSON refuses in a string) and, for
// str, the bytes outside ASCII (which must be UTF-8).
var stringStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	for c := 0x80; c < 0x100; c++ {
		t[c] = true
	}
	return t
}()

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// number reads a number as RFC 8259 §6 writes one.
func (s *scanner) number() {
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		s.fail()
		return
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			s.fail()
			return
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			s.fail()
		}
	}
}

func (s *scanner) digits() int {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i - start
}

// fields are a struct type's JSON names, as encoding/json matches keys to
// them: exactly, or else by case.
type fields struct {
	lower map[string]bool // the names in lower case
	slots [64][]slot      // the names by slotOf, for find
}

type slot struct {
	name  string
	index int
}

// slotOf places a key among a struct's slots: by its length and its first
// and last bytes, which tell most JSON names apart.
func slotOf(k string) int {
	if k == "" {
		return 0
	}
	return (len(k)*7 + int(k[0])*3 + int(k[len(k)-1])) & 63
}

// find returns the index of the field named exactly k.
func (f *fields) find(k []byte) (int, bool) {
	for _, sl := range f.slots[slotOf(string(k))] {
		if sl.name == string(k) {
			return sl.index, true
		}
	}
	return 0, false
}

// add names field i.
func (f *fields) add(name string, i int) {
	f.lower[strings.ToLower(name)] = true
	f.slots[slotOf(name)] = append(f.slots[slotOf(name)], slot{name, i})
}

func fieldsOf(t reflect.Type) *fields {
	f := &fields{lower: map[string]bool{}}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "-" || !t.Field(i).IsExported() {
			continue
		}
		if name == "" {
			name = t.Field(i).Name
		}
		if i >= 64 {
			panic("discordapi: a struct of more than 64 fields for scanner")
		}
		f.add(name, i)
	}
	return f
}

var (
	interactionFields = fieldsOf(reflect.TypeFor[discordgo.Interaction]())
	messageFields     = wireMessageFields()
	embedFields       = fieldsOf(reflect.TypeFor[discordgo.MessageEmbed]())
	footerFields      = fieldsOf(reflect.TypeFor[discordgo.MessageEmbedFooter]())
	imageFields       = fieldsOf(reflect.TypeFor[discordgo.MessageEmbedImage]())
	embedFieldFields  = fieldsOf(reflect.TypeFor[discordgo.MessageEmbedField]())
	componentFields   = fieldsOf(reflect.TypeFor[wireComponent]())
	optionFields      = fieldsOf(reflect.TypeFor[discordgo.SelectMenuOption]())
	componentData     = fieldsOf(reflect.TypeFor[discordgo.MessageComponentInteractionData]())
	userFields        = fieldsOf(reflect.TypeFor[discordgo.User]())
	memberFields      = fieldsOf(reflect.TypeFor[discordgo.Member]())
	msgIxFields       = fieldsOf(reflect.TypeFor[discordgo.MessageInteraction]())
)

// wireMessageFields are a message's fields as wireMessage has them: its
// components by their JSON name.
func wireMessageFields() *fields {
	t := reflect.TypeFor[discordgo.Message]()
	f := fieldsOf(t)
	c, _ := t.FieldByName("Components")
	f.add("components", c.Index[0])
	return f
}

// object reads an object whose keys name the fields f: field is called
// for each key that names one, the reader at its value, which it must
// read (see member for the keys that name none).
func (s *scanner) object(f *fields, field func(key []byte, i int)) {
	s.begin('{')
	var seen uint64
	for n := 0; s.next('}', &n); {
		if k, i := s.member(f, &seen); i >= 0 {
			field(k, i)
		}
	}
}

// setInt reads a number within min..max into *p; a null leaves it.
func setInt[T ~int | ~int64 | ~uint | ~uint8](s *scanner, p *T, min, max int64) {
	if v, ok := s.integer(min, max); ok {
		*p = T(v)
	}
}

// member reads the key of an object member and its colon, and returns the
// index of the struct's field it names (-1 when it names none, its value
// then read and dropped, as encoding/json drops it). A key that names a
// field only by its case, or one already read (seen), is given up on.
func (s *scanner) member(f *fields, seen *uint64) (key []byte, field int) {
	k := s.key()
	if s.bad {
		return nil, -1
	}
	i, ok := f.find(k)
	if !ok {
		if f.lower[strings.ToLower(string(k))] {
			s.fail()
			return nil, -1
		}
		s.skip()
		return nil, -1
	}
	if *seen&(1<<i) != 0 {
		s.fail()
		return nil, -1
	}
	*seen |= 1 << i
	return k, i
}

// other reads the value of field i of the struct v points to with the
// faster decoder, as the whole would be decoded with it.
func (s *scanner) other(v reflect.Value, i int) {
	raw := s.skip()
	if s.bad {
		return
	}
	// The struct is new and each field read once (member): a null leaves
	// the field as encoding/json leaves it, at its zero value, and an
	// empty array is an empty slice.
	switch string(raw) {
	case "null":
		return
	case "[]":
		if f := v.Elem().Field(i); f.Kind() == reflect.Slice {
			f.Set(reflect.MakeSlice(f.Type(), 0, 0))
			return
		}
	}
	if err := unmarshal(raw, v.Elem().Field(i).Addr().Interface()); err != nil {
		s.fail()
	}
}

// scanInteraction decodes b as DecodeInteraction, or gives up (ok false).
func scanInteraction(b []byte) (ic *discordgo.InteractionCreate, ok bool) {
	s := &scanner{b: b}
	ic = s.interaction()
	if !s.end() || s.bad || ic == nil {
		return nil, false
	}
	return ic, true
}

// interaction reads an interaction's object as scanInteraction decodes
// it (nil: given up on).
func (s *scanner) interaction() *discordgo.InteractionCreate {
	i := &discordgo.Interaction{}
	var data []byte
	s.object(interactionFields, func(k []byte, f int) {
		switch string(k) {
		case "id":
			i.ID, _ = s.str()
		case "application_id":
			i.AppID, _ = s.str()
		case "guild_id":
			i.GuildID, _ = s.str()
		case "channel_id":
			i.ChannelID, _ = s.str()
		case "token":
			i.Token, _ = s.str()
		case "locale":
			l, _ := s.str()
			i.Locale = discordgo.Locale(l)
		case "guild_locale":
			if l, ok := s.str(); ok {
				i.GuildLocale = (*discordgo.Locale)(&l)
			}
		case "type":
			setInt(s, &i.Type, 0, 255)
		case "version":
			setInt(s, &i.Version, -1<<62, 1<<62)
		case "app_permissions":
			i.AppPermissions = s.quotedInteger()
		case "message":
			i.Message = orNull(s, s.message)
		case "data":
			data = s.skip()
		case "member":
			i.Member = orNull(s, s.guildMember)
		case "user":
			i.User = orNull(s, s.user)
		default:
			s.other(reflect.ValueOf(i), f)
		}
	})
	if s.bad || !scanData(i, data) {
		return nil
	}
	return &discordgo.InteractionCreate{Interaction: i}
}

// scanData decodes an interaction's data as fastInteraction does, by its
// type: a component's here, the others with the decoders fastInteraction
// uses. Data missing where the type has some is given up on: an error.
func scanData(i *discordgo.Interaction, data []byte) bool {
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete,
		discordgo.InteractionMessageComponent, discordgo.InteractionModalSubmit:
		if data == nil {
			return false
		}
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		var d discordgo.ApplicationCommandInteractionData
		if unmarshal(data, &d) != nil {
			return false
		}
		i.Data = d
	case discordgo.InteractionMessageComponent:
		d, ok := scanComponentData(data)
		if !ok {
			return false
		}
		i.Data = d
	case discordgo.InteractionModalSubmit:
		return false
	}
	return true
}

// scanComponentData decodes a click's data.
func scanComponentData(data []byte) (d discordgo.MessageComponentInteractionData, ok bool) {
	s := &scanner{b: data}
	if s.null() {
		return d, s.end() && !s.bad
	}
	s.object(componentData, func(k []byte, f int) {
		switch string(k) {
		case "custom_id":
			d.CustomID, _ = s.str()
		case "component_type":
			setInt(s, &d.ComponentType, 0, 1<<62)
		case "values":
			d.Values = s.strings(d.Values)
		default:
			s.other(reflect.ValueOf(&d), f)
		}
	})
	return d, s.end() && !s.bad
}

// strings reads an array of strings into a new slice (nil for a null,
// which leaves old as it is).
func (s *scanner) strings(old []string) []string {
	if s.null() {
		return old
	}
	return array(s, func() string {
		v, _ := s.str()
		return v
	})
}

// array reads an array, each element with elem, into a new slice (nil
// for a null).
func array[T any](s *scanner, elem func() T) []T {
	if s.null() {
		return nil
	}
	s.begin('[')
	out := []T{}
	for n := 0; s.next(']', &n); {
		out = append(out, elem())
	}
	return out
}

// orNull is read, or nil for a null.
func orNull[T any](s *scanner, read func() *T) *T {
	if s.null() {
		return nil
	}
	return read()
}

// message reads a message as wireMessage.message gives it.
func (s *scanner) message() *discordgo.Message {
	m := &discordgo.Message{}
	var comps []wireComponent
	s.object(messageFields, func(k []byte, f int) {
		switch string(k) {
		case "components":
			comps = s.components(0)
		case "id":
			m.ID, _ = s.str()
		case "channel_id":
			m.ChannelID, _ = s.str()
		case "guild_id":
			m.GuildID, _ = s.str()
		case "content":
			m.Content, _ = s.str()
		case "webhook_id":
			m.WebhookID, _ = s.str()
		case "timestamp":
			s.time(&m.Timestamp)
		case "edited_timestamp":
			if !s.null() {
				m.EditedTimestamp = new(time.Time)
				s.time(m.EditedTimestamp)
			}
		case "tts":
			m.TTS, _ = s.boolean()
		case "mention_everyone":
			m.MentionEveryone, _ = s.boolean()
		case "pinned":
			m.Pinned, _ = s.boolean()
		case "type":
			setInt(s, &m.Type, -1<<62, 1<<62)
		case "flags":
			setInt(s, &m.Flags, -1<<62, 1<<62)
		case "mention_roles":
			m.MentionRoles = s.strings(m.MentionRoles)
		case "embeds":
			m.Embeds = s.embeds()
		case "author":
			m.Author = orNull(s, s.user)
		case "interaction":
			m.Interaction = orNull(s, s.messageInteraction)
		default:
			s.other(reflect.ValueOf(m), f)
		}
	})
	if s.bad {
		return nil
	}
	cs, err := components(comps)
	if err != nil {
		s.fail()
		return nil
	}
	m.Components = cs
	return m
}

// time reads a time as encoding/json does: the string, quotes included,
// to time.Time's UnmarshalJSON.
func (s *scanner) time(t *time.Time) {
	raw := s.skip()
	if s.bad {
		return
	}
	if raw[0] != '"' && raw[0] != 'n' {
		s.fail()
		return
	}
	if t.UnmarshalJSON(raw) != nil {
		s.fail()
	}
}

// embeds reads a message's embeds.
func (s *scanner) embeds() []*discordgo.MessageEmbed {
	return array(s, func() *discordgo.MessageEmbed { return orNull(s, s.embed) })
}

func (s *scanner) embed() *discordgo.MessageEmbed {
	e := &discordgo.MessageEmbed{}
	s.object(embedFields, func(k []byte, f int) {
		switch string(k) {
		case "type":
			t, _ := s.str()
			e.Type = discordgo.EmbedType(t)
		case "title":
			e.Title, _ = s.str()
		case "description":
			e.Description, _ = s.str()
		case "url":
			e.URL, _ = s.str()
		case "timestamp":
			e.Timestamp, _ = s.str()
		case "color":
			setInt(s, &e.Color, -1<<62, 1<<62)
		case "footer":
			e.Footer = orNull(s, s.footer)
		case "image":
			e.Image = orNull(s, s.image)
		case "fields":
			e.Fields = s.embedFields()
		default:
			s.other(reflect.ValueOf(e), f)
		}
	})
	return e
}

func (s *scanner) footer() *discordgo.MessageEmbedFooter {
	ft := &discordgo.MessageEmbedFooter{}
	s.object(footerFields, func(k []byte, f int) {
		switch string(k) {
		case "text":
			ft.Text, _ = s.str()
		case "icon_url":
			ft.IconURL, _ = s.str()
		case "proxy_icon_url":
			ft.ProxyIconURL, _ = s.str()
		}
	})
	return ft
}

func (s *scanner) image() *discordgo.MessageEmbedImage {
	im := &discordgo.MessageEmbedImage{}
	s.object(imageFields, func(k []byte, f int) {
		switch string(k) {
		case "url":
			im.URL, _ = s.str()
		case "proxy_url":
			im.ProxyURL, _ = s.str()
		case "width":
			setInt(s, &im.Width, -1<<62, 1<<62)
		case "height":
			setInt(s, &im.Height, -1<<62, 1<<62)
		}
	})
	return im
}

func (s *scanner) embedFields() []*discordgo.MessageEmbedField {
	return array(s, func() *discordgo.MessageEmbedField { return orNull(s, s.embedField) })
}

func (s *scanner) embedField() *discordgo.MessageEmbedField {
	fd := &discordgo.MessageEmbedField{}
	s.object(embedFieldFields, func(k []byte, f int) {
		switch string(k) {
		case "name":
			fd.Name, _ = s.str()
		case "value":
			fd.Value, _ = s.str()
		case "inline":
			fd.Inline, _ = s.boolean()
		}
	})
	return fd
}

// components reads a list of components as wireComponents, at nesting
// depth.
func (s *scanner) components(depth int) []wireComponent {
	if depth > 8 {
		s.fail()
		return nil
	}
	if s.null() {
		return nil
	}
	s.begin('[')
	out := []wireComponent{}
	for n := 0; s.next(']', &n); {
		out = append(out, wireComponent{})
		if !s.null() {
			s.component(&out[len(out)-1], depth) // in place: no copy to the heap
		}
	}
	return out
}

func (s *scanner) component(c *wireComponent, depth int) {
	s.object(componentFields, func(k []byte, f int) {
		switch string(k) {
		case "type":
			setInt(s, &c.Type, 0, 1<<62)
		case "components":
			c.Components = s.components(depth + 1)
		case "custom_id":
			c.CustomID, _ = s.str()
		case "label":
			c.Label, _ = s.str()
		case "url":
			c.URL, _ = s.str()
		case "placeholder":
			c.Placeholder, _ = s.str()
		case "style":
			setInt(s, &c.Style, 0, 1<<62)
		case "disabled":
			c.Disabled, _ = s.boolean()
		case "max_values":
			setInt(s, &c.MaxValues, -1<<62, 1<<62)
		case "options":
			c.Options = s.options()
		default:
			s.other(reflect.ValueOf(c), f)
		}
	})
}

func (s *scanner) options() []discordgo.SelectMenuOption {
	if s.null() {
		return nil
	}
	s.begin('[')
	out := []discordgo.SelectMenuOption{}
	for n := 0; s.next(']', &n); {
		out = append(out, discordgo.SelectMenuOption{})
		if !s.null() {
			s.option(&out[len(out)-1]) // in place: no copy to the heap
		}
	}
	return out
}

func (s *scanner) option(o *discordgo.SelectMenuOption) {
	s.object(optionFields, func(k []byte, f int) {
		switch string(k) {
		case "label":
			o.Label, _ = s.str()
		case "value":
			o.Value, _ = s.str()
		case "description":
			o.Description, _ = s.str()
		case "default":
			o.Default, _ = s.boolean()
		default:
			s.other(reflect.ValueOf(o), f)
		}
	})
}

// scanMessage decodes b as DecodeMessage, or gives up (ok false).
func scanMessage(b []byte) (*discordgo.Message, bool) {
	s := &scanner{b: b}
	m := s.message()
	if !s.end() || s.bad {
		return nil, false
	}
	return m, true
}

// quotedInteger reads a number written as a string (`json:",string"`):
// the string holds the number and nothing else.
func (s *scanner) quotedInteger() int64 {
	p, ok := s.str()
	if !ok || p == "" || (p[0] != '-' && (p[0] < '0' || p[0] > '9')) {
		s.fail()
		return 0
	}
	sub := scanner{b: []byte(p)}
	v, ok := sub.integer(-1<<62, 1<<62)
	if !ok || sub.bad || sub.i != len(sub.b) {
		s.fail()
		return 0
	}
	return v
}

func (s *scanner) user() *discordgo.User {
	u := &discordgo.User{}
	s.object(userFields, func(k []byte, f int) {
		switch string(k) {
		case "id":
			u.ID, _ = s.str()
		case "username":
			u.Username, _ = s.str()
		case "global_name":
			u.GlobalName, _ = s.str()
		case "discriminator":
			u.Discriminator, _ = s.str()
		case "avatar":
			u.Avatar, _ = s.str()
		case "bot":
			u.Bot, _ = s.boolean()
		default:
			s.other(reflect.ValueOf(u), f)
		}
	})
	return u
}

// guildMember reads a guild member.
func (s *scanner) guildMember() *discordgo.Member {
	m := &discordgo.Member{}
	s.object(memberFields, func(k []byte, f int) {
		switch string(k) {
		case "user":
			m.User = orNull(s, s.user)
		case "roles":
			m.Roles = s.strings(m.Roles)
		case "joined_at":
			s.time(&m.JoinedAt)
		case "nick":
			m.Nick, _ = s.str()
		case "deaf":
			m.Deaf, _ = s.boolean()
		case "mute":
			m.Mute, _ = s.boolean()
		case "flags":
			setInt(s, &m.Flags, -1<<62, 1<<62)
		case "permissions":
			if !s.null() {
				m.Permissions = s.quotedInteger()
			}
		default:
			s.other(reflect.ValueOf(m), f)
		}
	})
	return m
}

func (s *scanner) messageInteraction() *discordgo.MessageInteraction {
	mi := &discordgo.MessageInteraction{}
	s.object(msgIxFields, func(k []byte, f int) {
		switch string(k) {
		case "id":
			mi.ID, _ = s.str()
		case "name":
			mi.Name, _ = s.str()
		case "type":
			setInt(s, &mi.Type, 0, 255)
		case "user":
			mi.User = orNull(s, s.user)
		default:
			s.other(reflect.ValueOf(mi), f)
		}
	})
	return mi
}

// Dispatch reads a gateway payload's envelope (its op, s, t and d,
// https://discord.com/developers/docs/events/gateway-events#payload-structure)
// and returns d as it is, checked as JSON. With interaction, an object d
// is read in the same pass as an interaction, ic, as DecodeInteraction
// would decode d (nil when the reader gives up on it: DecodeInteraction
// then decodes d its slower ways); ic is the caller's to drop when typ
// is not an interaction's. ok is false for anything else: another key, a
// key twice, a field of another type, malformed JSON.
func Dispatch(payload []byte, interaction bool) (op int, seq int64, typ string, d []byte, ic *discordgo.InteractionCreate, ok bool) {
	s := &scanner{b: payload}
	s.begin('{')
	var seen uint8
	for n := 0; s.next('}', &n); {
		k := s.key()
		var bit uint8
		switch string(k) {
		case "op":
			bit = 1
			v, ok := s.integer(0, 1<<30)
			if !ok {
				s.fail()
			}
			op = int(v)
		case "s":
			bit = 2
			seq, _ = s.integer(0, 1<<62)
		case "t":
			bit = 4
			typ, _ = s.str()
		case "d":
			bit = 8
			if interaction && s.peek() == '{' {
				start, at := s.i, *s
				if ic = at.interaction(); ic != nil {
					*s, d = at, payload[start:at.i]
					break
				}
			}
			d = s.skip()
		default:
			s.fail()
		}
		if seen&bit != 0 {
			s.fail()
		}
		seen |= bit
	}
	if !s.end() || s.bad || seen&1 == 0 {
		return 0, 0, "", nil, nil, false
	}
	return op, seq, typ, d, ic, true
}
