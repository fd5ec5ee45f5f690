package discordapi

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"
	fastjson "github.com/segmentio/encoding/json"
)

// Decoding what Discord sends into discordgo's types, with the values
// discordgo's own decoding gives (encoding/json through the types'
// UnmarshalJSON methods), in less time: each of those methods decodes its
// part of the JSON again, and an interaction on a board's button carries
// the whole message, its embeds and every button. Here the interaction,
// its data and the message it carries, with the message's action rows,
// buttons and select menus, are decoded in one pass of a faster decoder
// into types of the same fields without those methods; what is rarer
// (a modal's data, a message a message refers to) still goes through
// discordgo's methods, and a message with a component of another kind is
// decoded discordgo's way whole. Whatever this way refuses is
// decoded again discordgo's way, so malformed input gets exactly the
// answer it got before: the value (partial, as discordgo passes it on)
// and the error. Before both, the scanner (scan.go) reads the usual
// interactions and messages by hand, and leaves the rest to them.

// unmarshal is the fast decoder.
var unmarshal = fastjson.Unmarshal

// Types of discordgo's fields without discordgo's UnmarshalJSON methods.
type (
	plainInteraction discordgo.Interaction
	plainMessage     discordgo.Message
)

// wireInteraction is an interaction as sent: its data and message are
// decoded apart (discordgo's Interaction.UnmarshalJSON).
type wireInteraction struct {
	plainInteraction
	Data    json.RawMessage `json:"data"`
	Message *wireMessage    `json:"message"`
}

// wireMessage is a message as sent, its components decoded as
// wireComponents (discordgo's Message.UnmarshalJSON).
type wireMessage struct {
	plainMessage
	Components []wireComponent `json:"components"`
}

// wireComponent is a component as sent, of any of the kinds decoded
// here, their fields side by side, so that a message's components are
// read in the same pass as the message: an action row (discordgo's
// ActionsRow.UnmarshalJSON), a button or a select menu. A key of another
// kind is read and left out, as discordgo leaves it; a component of a
// kind not decoded here refuses the whole message (errOtherComponent),
// which discordgo's own decoding then takes.
type wireComponent struct {
	Type       discordgo.ComponentType `json:"type"`
	Components []wireComponent         `json:"components"` // an action row's
	CustomID   string                  `json:"custom_id"`
	Disabled   bool                    `json:"disabled"`
	// A button's.
	Label string                    `json:"label"`
	Style discordgo.ButtonStyle     `json:"style"`
	Emoji *discordgo.ComponentEmoji `json:"emoji"`
	URL   string                    `json:"url"`
	// A select menu's.
	Placeholder   string                             `json:"placeholder"`
	MinValues     *int                               `json:"min_values"`
	MaxValues     int                                `json:"max_values"`
	DefaultValues []discordgo.SelectMenuDefaultValue `json:"default_values"`
	Options       []discordgo.SelectMenuOption       `json:"options"`
	ChannelTypes  []discordgo.ChannelType            `json:"channel_types"`
}

// errOtherComponent refuses a component of a kind wireComponent does not
// decode.
var errOtherComponent = errors.New("discordapi: a component of another kind")

// DecodeInteraction decodes an INTERACTION_CREATE's data (a gateway
// event's "d", or the body of a request to the interactions endpoint) as
// encoding/json decodes it into a discordgo.InteractionCreate, error
// included.
func DecodeInteraction(b []byte) (*discordgo.InteractionCreate, error) {
	if i, ok := scanInteraction(b); ok {
		return i, nil
	}
	if i, err := fastInteraction(b); err == nil {
		return i, nil
	}
	var ic discordgo.InteractionCreate
	err := json.Unmarshal(b, &ic)
	return &ic, err
}

func fastInteraction(b []byte) (*discordgo.InteractionCreate, error) {
	var w *wireInteraction
	if err := unmarshal(b, &w); err != nil {
		return nil, err
	}
	if w == nil { // null
		return &discordgo.InteractionCreate{}, nil
	}
	i := discordgo.Interaction(w.plainInteraction)
	i.Data = nil
	if w.Message != nil {
		m, err := w.Message.message()
		if err != nil {
			return nil, err
		}
		i.Message = m
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		var d discordgo.ApplicationCommandInteractionData
		if err := unmarshal(w.Data, &d); err != nil {
			return nil, err
		}
		i.Data = d
	case discordgo.InteractionMessageComponent:
		var d discordgo.MessageComponentInteractionData
		if err := unmarshal(w.Data, &d); err != nil {
			return nil, err
		}
		i.Data = d
	case discordgo.InteractionModalSubmit:
		var d discordgo.ModalSubmitInteractionData
		if err := json.Unmarshal(w.Data, &d); err != nil {
			return nil, err
		}
		i.Data = d
	}
	return &discordgo.InteractionCreate{Interaction: &i}, nil
}

// message is the discordgo.Message w is.
func (w *wireMessage) message() (*discordgo.Message, error) {
	m := discordgo.Message(w.plainMessage)
	cs, err := components(w.Components)
	if err != nil {
		return nil, err
	}
	m.Components = cs
	return &m, nil
}

// components are ws as discordgo decodes them: a slice, never nil.
func components(ws []wireComponent) ([]discordgo.MessageComponent, error) {
	out := make([]discordgo.MessageComponent, len(ws))
	for i := range ws {
		c, err := ws[i].component()
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// component is w as discordgo decodes it.
func (w *wireComponent) component() (discordgo.MessageComponent, error) {
	switch w.Type {
	case discordgo.ActionsRowComponent:
		cs, err := components(w.Components)
		if err != nil {
			return nil, err
		}
		return &discordgo.ActionsRow{Components: cs}, nil
	case discordgo.ButtonComponent:
		return &discordgo.Button{Label: w.Label, Style: w.Style, Disabled: w.Disabled, Emoji: w.Emoji,
			URL: w.URL, CustomID: w.CustomID}, nil
	case discordgo.SelectMenuComponent, discordgo.ChannelSelectMenuComponent, discordgo.UserSelectMenuComponent,
		discordgo.RoleSelectMenuComponent, discordgo.MentionableSelectMenuComponent:
		return &discordgo.SelectMenu{MenuType: discordgo.SelectMenuType(w.Type), CustomID: w.CustomID,
			Placeholder: w.Placeholder, MinValues: w.MinValues, MaxValues: w.MaxValues,
			DefaultValues: w.DefaultValues, Options: w.Options, Disabled: w.Disabled,
			ChannelTypes: w.ChannelTypes}, nil
	}
	return nil, fmt.Errorf("%w: type %d", errOtherComponent, w.Type)
}

// DecodeMessage decodes a message as encoding/json decodes it into a
// discordgo.Message, error included.
func DecodeMessage(b []byte, m *discordgo.Message) error {
	if mm, ok := scanMessage(b); ok {
		*m = *mm
		return nil
	}
	var w wireMessage
	if err := unmarshal(b, &w); err == nil {
		if mm, err := w.message(); err == nil {
			*m = *mm
			return nil
		}
	}
	*m = discordgo.Message{}
	return json.Unmarshal(b, m)
}

// decodeMessages decodes a list of messages as encoding/json decodes it
// into a []*discordgo.Message, error included.
func decodeMessages(b []byte) ([]*discordgo.Message, error) {
	if ms, err := fastMessages(b); err == nil {
		return ms, nil
	}
	var ms []*discordgo.Message
	err := json.Unmarshal(b, &ms)
	return ms, err
}

func fastMessages(b []byte) ([]*discordgo.Message, error) {
	var ws []*wireMessage
	if err := unmarshal(b, &ws); err != nil {
		return nil, err
	}
	if ws == nil {
		return nil, nil
	}
	ms := make([]*discordgo.Message, len(ws))
	for i, w := range ws {
		if w == nil {
			continue
		}
		m, err := w.message()
		if err != nil {
			return nil, err
		}
		ms[i] = m
	}
	return ms, nil
}
