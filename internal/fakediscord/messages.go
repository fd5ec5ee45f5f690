package fakediscord

import (
	"slices"
	"sort"
	"time"
)

// Message is a message as the fake keeps it: what Discord would show plus
// what a test wants to know (who may see it, who was pinged, its edits).
type Message struct {
	ID               string
	Type             int
	ChannelID        string
	GuildID          string
	Author           User
	Content          string
	Embeds           []Embed
	Components       []Component
	Flags            int
	Timestamp        time.Time
	EditedTimestamp  time.Time // zero if never edited
	MessageReference *MessageReference
	AllowedMentions  *AllowedMentions
	// Attachments are all the files the message holds. The API lists
	// only the Loose ones in the message's "attachments".
	Attachments []Attachment
	// Embedded are the ids of the Attachments its embeds show by
	// reference (attachment://name, see embeddedFiles).
	Embedded []string

	// WebhookID is set for interaction responses and follow-ups.
	WebhookID string
	// Nonce is the nonce the message was created with ("" if none).
	Nonce string
	// InteractionID is the interaction this message answers, if any.
	InteractionID string
	// VisibleTo is the only user who can see an ephemeral message.
	VisibleTo string
	// Mentions are the users in the message's mentions array (allowed
	// mentions of the current content).
	Mentions        []string
	MentionRoles    []string
	MentionEveryone bool
	// Pinged are the users who were notified. Discord notifies when a
	// message is sent (or a deferred "thinking" message first gets its
	// content), never on later edits, and never for ephemeral messages.
	Pinged []string
	// History holds the earlier versions, oldest first, each with the
	// time it was replaced. Treat it as read-only: its embeds and
	// components are shared with the server's copy.
	History []Revision
	// EditedBy is the kind of request that made the current version
	// (empty: the message's creation).
	EditedBy string
	Deleted  bool
	// DeletedAt is when it was deleted, on the server's clock.
	DeletedAt time.Time
	// Dismissed is set when the user dismissed this ephemeral message in
	// the web view (client side only on Discord; the bot is not told).
	Dismissed bool
}

// Revision is an earlier version of a message.
type Revision struct {
	ReplacedAt time.Time
	Content    string
	Embeds     []Embed
	Components []Component
	Flags      int
	// Attachments are the files the version had, Embedded those its
	// embeds showed by reference (see Message).
	Attachments []Attachment
	Embedded    []string
	// By is the kind of request that made the version (empty: the
	// message's creation).
	By string
}

// Loose returns the files of the version shown on their own, under its
// embeds (see Message.Loose).
func (r *Revision) Loose() []Attachment { return loose(r.Attachments, r.Embedded) }

// Loose returns the files the message shows on their own, under its
// embeds: those no embed shows by reference. They are what the API lists
// as the message's "attachments" (see embeddedFiles).
func (m *Message) Loose() []Attachment { return loose(m.Attachments, m.Embedded) }

func loose(atts []Attachment, embedded []string) []Attachment {
	out := []Attachment{}
	for _, a := range atts {
		if !slices.Contains(embedded, a.ID) {
			out = append(out, a)
		}
	}
	return out
}

// Ephemeral reports whether only VisibleTo sees the message.
func (m *Message) Ephemeral() bool { return m.Flags&FlagEphemeral != 0 }

// Loading reports whether the message is a deferred "thinking" message
// that has not received its content yet.
func (m *Message) Loading() bool { return m.Flags&FlagLoading != 0 }

// Edited reports whether the message was edited (Discord shows "(edited)").
func (m *Message) Edited() bool { return !m.EditedTimestamp.IsZero() }

// FindComponent returns the interactive component with this custom id.
func (m *Message) FindComponent(customID string) (Component, bool) {
	for _, row := range m.Components {
		for _, c := range row.Components {
			if c.CustomID == customID {
				return c, true
			}
		}
	}
	return Component{}, false
}

// Buttons returns all buttons, row by row.
func (m *Message) Buttons() []Component {
	var out []Component
	for _, row := range m.Components {
		for _, c := range row.Components {
			if c.Type == ComponentButton {
				out = append(out, c)
			}
		}
	}
	return out
}

func (m *Message) visibleTo(userID string) bool {
	return !m.Deleted && (!m.Ephemeral() || m.VisibleTo == userID)
}

func (m *Message) clone() Message {
	c := *m
	c.Author = m.Author
	c.Embeds = cloneEmbeds(m.Embeds)
	c.Components = cloneComponents(m.Components)
	c.Mentions = append([]string(nil), m.Mentions...)
	c.MentionRoles = append([]string(nil), m.MentionRoles...)
	c.Pinged = append([]string(nil), m.Pinged...)
	c.Attachments = append([]Attachment(nil), m.Attachments...)
	c.Embedded = append([]string(nil), m.Embedded...)
	// Revisions are never modified once stored: a shallow copy keeps long
	// histories (a board edited thousands of times) cheap to read.
	c.History = append([]Revision(nil), m.History...)
	if m.MessageReference != nil {
		r := *m.MessageReference
		c.MessageReference = &r
	}
	if m.AllowedMentions != nil {
		a := cloneAllowedMentions(*m.AllowedMentions)
		c.AllowedMentions = &a
	}
	return c
}

// createMessageLocked stores a new message built from a validated payload.
func (s *Server) createMessageLocked(ch *Channel, author User, p *messagePayload, ix *ixState) *Message {
	now := s.now()
	m := &Message{
		ID:        s.newID(),
		Type:      MessageDefault,
		ChannelID: ch.ID,
		GuildID:   ch.GuildID,
		Author:    author,
		Timestamp: now,
	}
	if p.Content != nil {
		m.Content = *p.Content
	}
	if p.Embeds != nil {
		m.Embeds = normaliseEmbeds(*p.Embeds)
	} else if p.Embed != nil {
		m.Embeds = normaliseEmbeds([]Embed{*p.Embed})
	}
	if p.Components != nil {
		m.Components = *p.Components
	}
	if p.atts != nil {
		m.Attachments = *p.atts
	}
	m.Embedded = embeddedFiles(m.Embeds, m.Attachments)
	resolveEmbeds(m.Embeds, m.Attachments)
	if p.Flags != nil {
		m.Flags = *p.Flags & (FlagSuppressEmbeds | FlagSuppressNotifications)
		if ix != nil {
			m.Flags |= *p.Flags & (FlagEphemeral | FlagLoading)
		}
	}
	m.AllowedMentions = p.AllowedMentions
	if p.MessageReference != nil && p.MessageReference.MessageID != "" {
		r := *p.MessageReference
		if r.ChannelID == "" {
			r.ChannelID = ch.ID
		}
		m.MessageReference = &r
		m.Type = MessageReply
	}
	if ix != nil {
		m.WebhookID = s.opts.ApplicationID
		m.InteractionID = ix.id
		if ix.typ == InteractionApplicationCommand {
			m.Type = MessageChatInputCommand
		}
		if m.Ephemeral() {
			m.VisibleTo = ix.user.ID
		}
		if !ix.responded {
			ix.originalID = m.ID
		}
	}
	s.mentionsLocked(m, true)
	s.messages[m.ID] = m
	s.chanMsgs[ch.ID] = append(s.chanMsgs[ch.ID], m.ID)
	if !m.Ephemeral() && s.wantedLocked(m.GuildID, "MESSAGE_CREATE") {
		s.dispatchGuildLocked(m.GuildID, "MESSAGE_CREATE", s.messageJSON(m))
	}
	s.notifyChannelLocked(m.ChannelID)
	s.notifyLocked()
	return m
}

func normaliseEmbeds(in []Embed) []Embed {
	out := make([]Embed, len(in))
	for i, e := range in {
		if e.Type == "" {
			e.Type = "rich"
		}
		out[i] = e
	}
	return out
}

// editMessageLocked applies the fields present in p. A deferred (loading)
// message receives its content without an "(edited)" mark and pings then.
func (s *Server) editMessageLocked(m *Message, p *messagePayload, by string) {
	now := s.now()
	if s.opts.DropHistory {
		m.History = append(m.History, Revision{ReplacedAt: now, Attachments: m.Attachments, By: m.EditedBy})
	} else {
		m.History = append(m.History, Revision{ReplacedAt: now, Content: m.Content, Embeds: m.Embeds, Components: m.Components, Flags: m.Flags,
			Attachments: m.Attachments, Embedded: m.Embedded, By: m.EditedBy})
	}
	m.EditedBy = by
	wasLoading := m.Loading()
	if p.Content != nil {
		m.Content = *p.Content
	}
	if p.Embeds != nil {
		m.Embeds = normaliseEmbeds(*p.Embeds)
	} else if p.Embed != nil {
		m.Embeds = normaliseEmbeds([]Embed{*p.Embed})
	}
	if p.Components != nil {
		m.Components = *p.Components
	}
	if p.atts != nil {
		m.Attachments = *p.atts
	}
	switch {
	case p.Embeds != nil || p.Embed != nil:
		m.Embedded = embeddedFiles(m.Embeds, m.Attachments)
	case p.atts != nil:
		// The embeds stay as they were: they show the files they showed,
		// if the edit kept them.
		var kept []string
		for _, a := range m.Attachments {
			if slices.Contains(m.Embedded, a.ID) {
				kept = append(kept, a.ID)
			}
		}
		m.Embedded = kept
	}
	if p.Embeds != nil || p.Embed != nil || p.atts != nil {
		m.Embeds = append([]Embed(nil), m.Embeds...)
		resolveEmbeds(m.Embeds, m.Attachments)
	}
	if p.Flags != nil {
		m.Flags = m.Flags&^FlagSuppressEmbeds | *p.Flags&FlagSuppressEmbeds
	}
	if p.AllowedMentions != nil {
		m.AllowedMentions = p.AllowedMentions
	}
	if wasLoading {
		m.Flags &^= FlagLoading
	} else {
		m.EditedTimestamp = now
	}
	s.mentionsLocked(m, wasLoading)
	if !m.Ephemeral() && s.wantedLocked(m.GuildID, "MESSAGE_UPDATE") {
		s.dispatchGuildLocked(m.GuildID, "MESSAGE_UPDATE", s.messageJSON(m))
	}
	s.notifyChannelLocked(m.ChannelID)
	s.notifyLocked()
}

func (s *Server) deleteMessageLocked(m *Message) {
	m.Deleted, m.DeletedAt = true, s.now()
	if !m.Ephemeral() && s.wantedLocked(m.GuildID, "MESSAGE_DELETE") {
		s.dispatchGuildLocked(m.GuildID, "MESSAGE_DELETE", map[string]any{"id": m.ID, "channel_id": m.ChannelID, "guild_id": m.GuildID})
	}
	s.notifyChannelLocked(m.ChannelID)
	s.notifyLocked()
}

// mentionsLocked recomputes the mentions array and, when notify is set,
// who is pinged.
func (s *Server) mentionsLocked(m *Message, notify bool) {
	known := func(id string) bool {
		if _, ok := s.users[id]; !ok {
			return false
		}
		if m.GuildID == "" {
			return true
		}
		_, ok := s.members[m.GuildID][id]
		return ok
	}
	r := parseMentions(m.Content, m.AllowedMentions, known)
	m.Mentions, m.MentionRoles, m.MentionEveryone = r.users, r.roles, r.everyone
	if !notify || m.Loading() || m.Ephemeral() || m.Flags&FlagSuppressNotifications != 0 {
		return
	}
	pinged := map[string]bool{}
	for _, u := range r.users {
		pinged[u] = true
	}
	if r.everyone && m.GuildID != "" {
		for id := range s.members[m.GuildID] {
			pinged[id] = true
		}
	}
	if ref := m.MessageReference; ref != nil && (m.AllowedMentions == nil || m.AllowedMentions.RepliedUser) {
		if orig, ok := s.messages[ref.MessageID]; ok {
			pinged[orig.Author.ID] = true
		}
	}
	delete(pinged, m.Author.ID)
	delete(pinged, s.bot.ID)
	m.Pinged = m.Pinged[:0]
	for id := range pinged {
		m.Pinged = append(m.Pinged, id)
	}
	sort.Slice(m.Pinged, func(i, j int) bool { return idLess(m.Pinged[i], m.Pinged[j]) })
}

// messageJSON renders a message as the API does.
func (s *Server) messageJSON(m *Message) messageJSON {
	out := messageJSON{
		ID:               m.ID,
		Type:             m.Type,
		ChannelID:        m.ChannelID,
		GuildID:          m.GuildID,
		Author:           m.Author,
		Content:          m.Content,
		Timestamp:        timestamp(m.Timestamp),
		MentionEveryone:  m.MentionEveryone,
		Mentions:         []User{},
		MentionRoles:     append([]string{}, m.MentionRoles...),
		Attachments:      m.Loose(),
		Embeds:           m.Embeds,
		Components:       m.Components,
		Flags:            m.Flags,
		WebhookID:        m.WebhookID,
		MessageReference: m.MessageReference,
		Nonce:            m.Nonce,
	}
	if out.Embeds == nil {
		out.Embeds = []Embed{}
	}
	if out.Components == nil {
		out.Components = []Component{}
	}
	if m.Edited() {
		ts := timestamp(m.EditedTimestamp)
		out.EditedTimestamp = &ts
	}
	for _, id := range m.Mentions {
		if u, ok := s.users[id]; ok {
			out.Mentions = append(out.Mentions, *u)
		}
	}
	if m.WebhookID != "" {
		out.ApplicationID = s.opts.ApplicationID
	}
	if ix, ok := s.ixByID[m.InteractionID]; ok && ix.originalID == m.ID {
		out.Interaction = &messageInteraction{ID: ix.id, Type: ix.typ, Name: ix.commandName, User: *ix.user}
		out.InteractionMeta = &interactionMeta{ID: ix.id, Type: ix.typ, User: *ix.user}
	}
	return out
}
