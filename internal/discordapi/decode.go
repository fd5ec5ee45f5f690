package discordapi

import (
	"encoding/json"
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
// (other components, a modal's data, a message a message refers to)
// still goes through discordgo's methods. Whatever this way refuses is
// decoded again discordgo's way, so malformed input gets exactly the
// answer it got before: the value (partial, as discordgo passes it on)
// and the error.

// unmarshal is the fast decoder.
var unmarshal = fastjson.Unmarshal

// Types of discordgo's fields without discordgo's UnmarshalJSON methods.
type (
	plainInteraction discordgo.Interaction
	plainMessage     discordgo.Message
	plainActionsRow  discordgo.ActionsRow
)

// wireInteraction is an interaction as sent: its data and message are
// decoded apart (discordgo's Interaction.UnmarshalJSON).
type wireInteraction struct {
	plainInteraction
	Data    json.RawMessage `json:"data"`
	Message *wireMessage    `json:"message"`
}

// wireMessage is a message as sent, its components as JSON
// (discordgo's Message.UnmarshalJSON).
type wireMessage struct {
	plainMessage
	Components []json.RawMessage `json:"components"`
}

// wireActionsRow is an action row as sent (discordgo's
// ActionsRow.UnmarshalJSON).
type wireActionsRow struct {
	plainActionsRow
	Components []json.RawMessage `json:"components"`
}

// componentType is what tells a component's type.
type componentType struct {
	Type discordgo.ComponentType `json:"type"`
}

// DecodeInteraction decodes an INTERACTION_CREATE's data (a gateway
// event's "d", or the body of a request to the interactions endpoint) as
// encoding/json decodes it into a discordgo.InteractionCreate, error
// included.
func DecodeInteraction(b []byte) (*discordgo.InteractionCreate, error) {
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

// components decodes components as discordgo does: a slice, never nil.
func components(raw []json.RawMessage) ([]discordgo.MessageComponent, error) {
	out := make([]discordgo.MessageComponent, len(raw))
	for i, r := range raw {
		c, err := component(r)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// component decodes one component: action rows, buttons and select menus
// here, the others by discordgo.
func component(raw []byte) (discordgo.MessageComponent, error) {
	var t componentType
	if err := unmarshal(raw, &t); err != nil {
		return nil, err
	}
	switch t.Type {
	case discordgo.ActionsRowComponent:
		var w wireActionsRow
		if err := unmarshal(raw, &w); err != nil {
			return nil, err
		}
		cs, err := components(w.Components)
		if err != nil {
			return nil, err
		}
		r := discordgo.ActionsRow(w.plainActionsRow)
		r.Components = cs
		return &r, nil
	case discordgo.ButtonComponent:
		var b discordgo.Button
		if err := unmarshal(raw, &b); err != nil {
			return nil, err
		}
		return &b, nil
	case discordgo.SelectMenuComponent, discordgo.ChannelSelectMenuComponent, discordgo.UserSelectMenuComponent,
		discordgo.RoleSelectMenuComponent, discordgo.MentionableSelectMenuComponent:
		var s discordgo.SelectMenu
		if err := unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return &s, nil
	}
	c, err := discordgo.MessageComponentFromJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("component of type %d: %w", t.Type, err)
	}
	return c, nil
}

// DecodeMessage decodes a message as encoding/json decodes it into a
// discordgo.Message, error included.
func DecodeMessage(b []byte, m *discordgo.Message) error {
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
