package tabletest

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// Recorder is a discordAPI that records every call and keeps the last
// content of every message, so tests can click the buttons the bot drew.
type Recorder struct {
	Mu    sync.Mutex
	Calls []Call
	Msgs  map[string]*Message
	N     int
	Fail  error // when set, Send and Edit fail (Discord down)
	// refuse, when set, is asked about every call that posts, edits or
	// answers, once recorded: a call it returns an error for is refused
	// with it and changes nothing (Discord refusing it).
	Refuse func(c Call) error
	// Lose, when set, is asked about every interaction callback once it
	// is applied: an error it returns is what the caller gets instead of
	// Discord's reply (a reply lost on the way back, the callback taken).
	Lose func(c Call) error

	Deleted []string          // ids of deleted messages
	Nonces  map[string]string // nonce -> message created with it
	Origs   map[string]string // interaction token -> its @original message
	Made    map[string]string // message -> token of the interaction that made it

	answered map[string]bool // interactions whose callback was taken
}

type Call struct {
	Op          string // respond|original|editOriginal|deleteOriginal|followup|send|edit
	Interaction string
	Channel     string
	Resp        *discordgo.InteractionResponse
	Send        *discordgo.MessageSend
	Edit        *discordgo.MessageEdit
	Params      *discordgo.WebhookParams
	Message     string // delete: the deleted message
	Nonce       string // send: its nonce
	Refused     bool   // refuse refused it
}

// Message is a message as users see it now.
type Message struct {
	ID         string
	Channel    string
	Content    string
	Embeds     []*discordgo.MessageEmbed
	Components []discordgo.MessageComponent
	Ephemeral  bool
	Mentions   *discordgo.MessageAllowedMentions
}

func NewRecorder() *Recorder {
	return &Recorder{Msgs: map[string]*Message{}, Nonces: map[string]string{}, Origs: map[string]string{}, Made: map[string]string{},
		answered: map[string]bool{}}
}

func (r *Recorder) Add(c Call) {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Calls = append(r.Calls, c)
}

// Record adds c, refused when refuse says so: it returns the refusal.
func (r *Recorder) Record(c Call) error {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	var err error
	if r.Refuse != nil {
		err = r.Refuse(c)
	}
	c.Refused = err != nil
	r.Calls = append(r.Calls, c)
	return err
}

func (r *Recorder) Respond(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse) error {
	r.Mu.Lock()
	answered := r.answered[i.ID]
	r.Mu.Unlock()
	if answered {
		// Discord takes one callback per interaction
		// (https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction).
		r.Add(Call{Op: "respond", Interaction: i.ID, Channel: i.ChannelID, Resp: resp, Refused: true})
		return &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusBadRequest},
			Message: &discordgo.APIErrorMessage{Code: 40060, Message: "Interaction has already been acknowledged."}}
	}
	refusal := r.Record(Call{Op: "respond", Interaction: i.ID, Channel: i.ChannelID, Resp: resp})
	r.Mu.Lock()
	defer r.Mu.Unlock()
	if refusal == nil && resp.Type == discordgo.InteractionResponseUpdateMessage && i.Message != nil && slices.Contains(r.Deleted, i.Message.ID) {
		// The message the component sits on is gone: Discord knows no
		// message to update (as the stand-in, internal/fakediscord).
		refusal = UnknownMessage(i.Message.ID)
		r.Calls[len(r.Calls)-1].Refused = true
	}
	if refusal != nil {
		return refusal
	}
	r.answered[i.ID] = true
	if r.Lose != nil {
		if err := r.Lose(Call{Op: "respond", Interaction: i.ID, Channel: i.ChannelID, Resp: resp}); err != nil {
			r.respondLocked(i, resp)
			return err
		}
	}
	r.respondLocked(i, resp)
	return nil
}

// respondLocked applies the callback resp to the messages.
func (r *Recorder) respondLocked(i *discordgo.Interaction, resp *discordgo.InteractionResponse) {
	switch resp.Type {
	case discordgo.InteractionResponseChannelMessageWithSource:
		d := resp.Data
		r.Msgs["orig-"+i.ID] = &Message{ID: "orig-" + i.ID, Channel: i.ChannelID, Content: d.Content, Embeds: d.Embeds,
			Components: d.Components, Ephemeral: d.Flags&discordgo.MessageFlagsEphemeral != 0, Mentions: d.AllowedMentions}
		r.Origs[i.Token] = "orig-" + i.ID
	case discordgo.InteractionResponseUpdateMessage:
		if i.Message != nil {
			r.Origs[i.Token] = i.Message.ID
			if m, ok := r.Msgs[i.Message.ID]; ok {
				m.Content, m.Embeds, m.Components = resp.Data.Content, resp.Data.Embeds, resp.Data.Components
			}
		}
	case discordgo.InteractionResponseDeferredMessageUpdate:
		// "@original" is the message the component sits on.
		if i.Message != nil {
			r.Origs[i.Token] = i.Message.ID
		}
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
		// A "thinking…" message, the answer's place.
		eph := resp.Data != nil && resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0
		r.Msgs["orig-"+i.ID] = &Message{ID: "orig-" + i.ID, Channel: i.ChannelID, Ephemeral: eph}
		r.Origs[i.Token] = "orig-" + i.ID
	}
}

// Original returns the interaction's original response; as on Discord,
// 404 before the interaction is answered and once its message is deleted.
func (r *Recorder) Original(ctx context.Context, i *discordgo.Interaction) (*discordgo.Message, error) {
	if err := r.Record(Call{Op: "original", Interaction: i.ID, Channel: i.ChannelID}); err != nil {
		return nil, err
	}
	r.Mu.Lock()
	defer r.Mu.Unlock()
	id, ok := r.Origs[i.Token]
	if !ok || slices.Contains(r.Deleted, id) {
		return nil, UnknownMessage("@original")
	}
	msg := &discordgo.Message{ID: id, ChannelID: i.ChannelID}
	if m := r.Msgs[id]; m != nil {
		msg.Content, msg.Embeds, msg.Components = m.Content, m.Embeds, m.Components
		if m.Ephemeral {
			msg.Flags = discordgo.MessageFlagsEphemeral
		}
	}
	return msg, nil
}

// EditOriginal records op "editOriginal", with edit naming the message
// edited, and shows the edit on the interaction's "@original" message.
func (r *Recorder) EditOriginal(ctx context.Context, i *discordgo.Interaction, e *discordgo.WebhookEdit) error {
	r.Mu.Lock()
	message := r.Origs[i.Token]
	r.Mu.Unlock()
	ed := &discordgo.MessageEdit{ID: message, Content: e.Content, Components: e.Components, Embeds: e.Embeds, AllowedMentions: e.AllowedMentions,
		Files: e.Files, Attachments: e.Attachments}
	refusal := r.Record(Call{Op: "editOriginal", Interaction: i.ID, Channel: i.ChannelID, Edit: ed})
	r.Mu.Lock()
	defer r.Mu.Unlock()
	if refusal != nil {
		return refusal
	}
	m, ok := r.Msgs[message]
	if !ok {
		return UnknownMessage(message)
	}
	m.Apply(ed)
	return nil
}

func (r *Recorder) DeleteOriginal(ctx context.Context, i *discordgo.Interaction) error {
	r.Add(Call{Op: "deleteOriginal", Interaction: i.ID, Channel: i.ChannelID})
	r.Mu.Lock()
	defer r.Mu.Unlock()
	if id := r.Origs[i.Token]; id != "" {
		delete(r.Msgs, id)
		r.Deleted = append(r.Deleted, id)
	}
	return nil
}

// Followup records a follow-up as op "followup", with send holding the
// same message, and with the interaction's token in nonce.
func (r *Recorder) Followup(ctx context.Context, i *discordgo.Interaction, p *discordgo.WebhookParams) (*discordgo.Message, error) {
	send := &discordgo.MessageSend{Content: p.Content, Embeds: p.Embeds, Components: p.Components, AllowedMentions: p.AllowedMentions, Files: p.Files}
	refusal := r.Record(Call{Op: "followup", Interaction: i.ID, Channel: i.ChannelID, Params: p, Send: send, Nonce: i.Token})
	r.Mu.Lock()
	defer r.Mu.Unlock()
	if r.Fail != nil {
		return nil, r.Fail
	}
	if refusal != nil {
		return nil, refusal
	}
	r.N++
	id := fmt.Sprintf("f%d", r.N)
	r.Msgs[id] = &Message{ID: id, Channel: i.ChannelID, Content: p.Content, Embeds: p.Embeds, Components: p.Components,
		Ephemeral: p.Flags&discordgo.MessageFlagsEphemeral != 0, Mentions: p.AllowedMentions}
	r.Made[id] = i.Token
	return &discordgo.Message{ID: id, ChannelID: i.ChannelID}, nil
}

// FollowupEdit records an edit through an interaction as op
// "followupEdit", with edit naming the message edited. As Discord does, it
// refuses a message the interaction did not make nor answer on.
func (r *Recorder) FollowupEdit(ctx context.Context, i *discordgo.Interaction, message string, e *discordgo.WebhookEdit) error {
	r.Mu.Lock()
	if message == "@original" {
		message = r.Origs[i.Token]
	}
	r.Mu.Unlock()
	ed := &discordgo.MessageEdit{ID: message, Content: e.Content, Components: e.Components, Embeds: e.Embeds, AllowedMentions: e.AllowedMentions,
		Files: e.Files, Attachments: e.Attachments}
	refusal := r.Record(Call{Op: "followupEdit", Edit: ed, Nonce: i.Token})
	r.Mu.Lock()
	defer r.Mu.Unlock()
	if r.Fail != nil {
		return r.Fail
	}
	if refusal != nil {
		return refusal
	}
	m, ok := r.Msgs[message]
	if !ok || (r.Made[message] != i.Token && r.Origs[i.Token] != message) {
		return UnknownMessage(message)
	}
	ed.Channel = m.Channel
	m.Apply(ed)
	return nil
}

// UnknownMessage is Discord's answer about a message it does not know:
// 404 Unknown Message.
func UnknownMessage(id string) error {
	return &discordgo.RESTError{
		Response: &http.Response{StatusCode: http.StatusNotFound},
		Message:  &discordgo.APIErrorMessage{Code: discordgo.ErrCodeUnknownMessage, Message: "Unknown Message " + id},
	}
}

// Apply shows the edit e on m.
func (m *Message) Apply(e *discordgo.MessageEdit) {
	if e.Content != nil {
		m.Content = *e.Content
	}
	if e.Embeds != nil {
		m.Embeds = *e.Embeds
	}
	if e.Components != nil {
		m.Components = *e.Components
	}
}

// Recent lists the channel's public messages, newest first. A follow-up
// made through a stored interaction (which does not carry its channel) is
// in the harness's one channel.
func (r *Recorder) Recent(ctx context.Context, channel string, limit int) ([]*discordgo.Message, error) {
	r.Add(Call{Op: "recent", Channel: channel})
	r.Mu.Lock()
	defer r.Mu.Unlock()
	var out []*discordgo.Message
	for _, m := range r.Msgs {
		if (m.Channel == channel || m.Channel == "") && !m.Ephemeral {
			out = append(out, &discordgo.Message{ID: m.ID, ChannelID: channel, Content: m.Content, Embeds: m.Embeds, Components: m.Components})
		}
	}
	sort.Slice(out, func(i, j int) bool { return MessageSeq(out[i].ID) > MessageSeq(out[j].ID) })
	return out[:min(limit, len(out))], nil
}

// MessageSeq is the order of a message id the recorder made ("m3", "f4").
func MessageSeq(id string) int {
	n, _ := strconv.Atoi(strings.TrimLeft(id, "mfortig-"))
	return n
}

// Posted reports whether c posted a message (with the bot token or as a
// follow-up).
func (c Call) Posted() bool { return c.Op == "send" || c.Op == "followup" }

func (r *Recorder) Send(ctx context.Context, channel string, m *discordgo.MessageSend, nonce string) (*discordgo.Message, error) {
	refusal := r.Record(Call{Op: "send", Channel: channel, Send: m, Nonce: nonce})
	r.Mu.Lock()
	defer r.Mu.Unlock()
	if r.Fail != nil {
		return nil, r.Fail
	}
	if refusal != nil {
		return nil, refusal
	}
	if id, ok := r.Nonces[nonce]; ok && nonce != "" {
		// As Discord does with enforce_nonce: the message already created.
		return &discordgo.Message{ID: id, ChannelID: channel}, nil
	}
	r.N++
	id := fmt.Sprintf("m%d", r.N)
	if nonce != "" {
		r.Nonces[nonce] = id
	}
	r.Msgs[id] = &Message{ID: id, Channel: channel, Content: m.Content, Embeds: m.Embeds, Components: m.Components, Mentions: m.AllowedMentions}
	return &discordgo.Message{ID: id, ChannelID: channel}, nil
}

func (r *Recorder) Edit(ctx context.Context, e *discordgo.MessageEdit) error {
	refusal := r.Record(Call{Op: "edit", Channel: e.Channel, Edit: e})
	r.Mu.Lock()
	defer r.Mu.Unlock()
	if r.Fail != nil {
		return r.Fail
	}
	if refusal != nil {
		return refusal
	}
	m, ok := r.Msgs[e.ID]
	if !ok {
		return UnknownMessage(e.ID)
	}
	m.Apply(e)
	return nil
}

func (r *Recorder) Delete(ctx context.Context, channel, message string) error {
	r.Add(Call{Op: "delete", Channel: channel, Message: message})
	r.Mu.Lock()
	defer r.Mu.Unlock()
	if r.Fail != nil {
		return r.Fail
	}
	if _, ok := r.Msgs[message]; !ok {
		return fmt.Errorf("delete of unknown message %s", message)
	}
	delete(r.Msgs, message)
	r.Deleted = append(r.Deleted, message)
	return nil
}

func (r *Recorder) Since(n int) []Call {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	return append([]Call(nil), r.Calls[n:]...)
}

func (r *Recorder) Count() int {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	return len(r.Calls)
}

func (r *Recorder) Message(id string) *Message {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	return r.Msgs[id]
}

// Messages are the messages shown, in no order.
func (r *Recorder) Messages() []*Message {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	out := make([]*Message, 0, len(r.Msgs))
	for _, m := range r.Msgs {
		out = append(out, m)
	}
	return out
}

// RowComponents are the components of an action row (none for another
// component).
func RowComponents(c discordgo.MessageComponent) []discordgo.MessageComponent {
	switch v := c.(type) {
	case discordgo.ActionsRow:
		return v.Components
	case *discordgo.ActionsRow:
		return v.Components
	}
	return nil
}

func ComponentIDs(cs []discordgo.MessageComponent) []string {
	var out []string
	for _, c := range cs {
		switch v := c.(type) {
		case discordgo.ActionsRow:
			out = append(out, ComponentIDs(v.Components)...)
		case *discordgo.ActionsRow:
			out = append(out, ComponentIDs(v.Components)...)
		case discordgo.Button:
			out = append(out, v.CustomID)
		case discordgo.SelectMenu:
			out = append(out, v.CustomID)
		}
	}
	return out
}

// SelectOptions returns the option values of the select with custom id.
func SelectOptions(msg *Message, id string) []string {
	var out []string
	for _, c := range msg.Components {
		row, ok := c.(discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, cc := range row.Components {
			if s, ok := cc.(discordgo.SelectMenu); ok && s.CustomID == id {
				for _, o := range s.Options {
					out = append(out, o.Value)
				}
			}
		}
	}
	return out
}

// CopyFrom makes r show what o shows: its messages as they are now, and
// what they were made with (their numbering, nonces, the interactions'
// originals and the answers Discord took); not o's calls, nor its hooks
// and failure, which stay r's.
func (r *Recorder) CopyFrom(o *Recorder) {
	o.Mu.Lock()
	defer o.Mu.Unlock()
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.Msgs = make(map[string]*Message, len(o.Msgs))
	for id, m := range o.Msgs {
		c := *m // an edit sets a message's fields, never changes their values
		r.Msgs[id] = &c
	}
	r.Calls, r.N = nil, o.N
	r.Deleted = slices.Clone(o.Deleted)
	r.Nonces, r.Origs, r.Made, r.answered = maps.Clone(o.Nonces), maps.Clone(o.Origs), maps.Clone(o.Made), maps.Clone(o.answered)
}
