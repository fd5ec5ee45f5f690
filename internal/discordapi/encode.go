package discordapi

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	fastjson "github.com/segmentio/encoding/json"
)

// discordgo writes the JSON of every request, and of each component
// inside it, with discordgo.Marshal; with this package, segmentio's
// encoder, which writes the bytes encoding/json writes
// (TestMarshalAsEncodingJSON) in less time. Every program that talks to
// Discord imports this package, so they all send the same bytes.
func init() { discordgo.Marshal = fastjson.Marshal }

// Components in requests, written by hand. discordgo writes each component
// through its MarshalJSON method, which marshals an anonymous struct by
// reflection, and encoding/json then checks and compacts each result again
// on the way up, once per level: a board of four rows of five buttons
// costs over a hundred microseconds. A row of buttons here is written in
// one pass to the very bytes discordgo gives (TestQuickRowAsDiscordgo),
// which encoding/json checks once; other components inside a row still go
// through their own methods.

// quickRow is an action row that writes itself to JSON by hand.
type quickRow struct{ discordgo.ActionsRow }

func (r quickRow) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 64+160*len(r.Components))
	b = append(b, `{"components":`...)
	if r.Components == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range r.Components {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendComponent(b, c); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"type":`...)
	b = strconv.AppendUint(b, uint64(discordgo.ActionsRowComponent), 10)
	return append(b, '}'), nil
}

// appendComponent appends c as encoding/json writes it.
func appendComponent(b []byte, c discordgo.MessageComponent) ([]byte, error) {
	switch c := c.(type) {
	case discordgo.Button:
		return appendButton(b, c), nil
	case *discordgo.Button:
		if c != nil {
			return appendButton(b, *c), nil
		}
	}
	raw, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	return append(b, raw...), nil
}

// appendButton appends bt as discordgo's Button.MarshalJSON writes it.
func appendButton(b []byte, bt discordgo.Button) []byte {
	if bt.Style == 0 {
		bt.Style = discordgo.PrimaryButton
	}
	b = append(b, `{"label":`...)
	b = appendString(b, bt.Label)
	b = append(b, `,"style":`...)
	b = strconv.AppendUint(b, uint64(bt.Style), 10)
	b = append(b, `,"disabled":`...)
	b = strconv.AppendBool(b, bt.Disabled)
	if e := bt.Emoji; e != nil {
		b = append(b, `,"emoji":{`...)
		sep := ""
		if e.Name != "" {
			b = append(b, `"name":`...)
			b, sep = appendString(b, e.Name), ","
		}
		if e.ID != "" {
			b = append(b, sep+`"id":`...)
			b, sep = appendString(b, e.ID), ","
		}
		if e.Animated {
			b = append(b, sep+`"animated":true`...)
		}
		b = append(b, '}')
	}
	if bt.URL != "" {
		b = append(b, `,"url":`...)
		b = appendString(b, bt.URL)
	}
	if bt.CustomID != "" {
		b = append(b, `,"custom_id":`...)
		b = appendString(b, bt.CustomID)
	}
	b = append(b, `,"type":`...)
	b = strconv.AppendUint(b, uint64(discordgo.ButtonComponent), 10)
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string as encoding/json writes it:
// HTML's <, > and & escaped, invalid UTF-8 as U+FFFD, U+2028 and U+2029
// escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// quickComponents is comps with every action row written by hand
// (quickRow); comps itself is left as it is.
func quickComponents(comps []discordgo.MessageComponent) []discordgo.MessageComponent {
	if len(comps) == 0 {
		return comps
	}
	out := make([]discordgo.MessageComponent, len(comps))
	for i, c := range comps {
		switch r := c.(type) {
		case discordgo.ActionsRow:
			out[i] = quickRow{r}
		case *discordgo.ActionsRow:
			if r != nil {
				out[i] = quickRow{*r}
			} else {
				out[i] = c
			}
		default:
			out[i] = c
		}
	}
	return out
}

// quickEdit is e with its components written by hand (quickComponents);
// e itself is left as it is.
func quickEdit(e *discordgo.WebhookEdit) *discordgo.WebhookEdit {
	if e == nil || e.Components == nil || len(*e.Components) == 0 {
		return e
	}
	c, comps := *e, quickComponents(*e.Components)
	c.Components = &comps
	return &c
}
