package fakediscord

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"
)

//go:embed web
var webFiles embed.FS

// The web view: a page that shows a channel as Discord would, for one
// chosen user, with a slash command box and working components. It talks
// to the /ui/ endpoints below; they act through the scripting API, so a
// click in the page is the same INTERACTION_CREATE a test would send.

func (s *Server) webRoutes(mux *http.ServeMux) {
	static, _ := fs.Sub(webFiles, "web")
	files := http.FileServer(http.FS(static))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		files.ServeHTTP(w, r)
	})
	mux.HandleFunc("GET /ui/state", s.uiState)
	mux.HandleFunc("POST /ui/command", s.uiAction(s.uiCommand))
	mux.HandleFunc("POST /ui/click", s.uiAction(s.uiClick))
	mux.HandleFunc("POST /ui/select", s.uiAction(s.uiSelect))
	mux.HandleFunc("POST /ui/modal", s.uiAction(s.uiModal))
	mux.HandleFunc("POST /ui/dismiss", s.uiAction(s.uiDismiss))
}

type uiRequest struct {
	User        string            `json:"user"`
	Channel     string            `json:"channel"`
	Line        string            `json:"line"`
	Message     string            `json:"message"`
	CustomID    string            `json:"custom_id"`
	Values      []string          `json:"values"`
	Interaction string            `json:"interaction"`
	Fields      map[string]string `json:"fields"`
}

// uiAction decodes a UI request and answers {"ok":true} or {"error":...}.
// Requests from another origin are refused: the page is the only client.
func (s *Server) uiAction(f func(ctx context.Context, req uiRequest) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
			http.Error(w, "cross-origin request refused", http.StatusForbidden)
			return
		}
		var req uiRequest
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": err.Error()})
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		defer cancel()
		if err := f(ctx, req); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"ok": true})
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) uiCommand(ctx context.Context, req uiRequest) error {
	line := strings.TrimSpace(req.Line)
	if strings.HasPrefix(line, "/") {
		_, err := s.RunCommand(ctx, req.User, req.Channel, line)
		return err
	}
	_, err := s.Post(req.User, req.Channel, line)
	return err
}

func (s *Server) uiClick(ctx context.Context, req uiRequest) error {
	_, err := s.Click(ctx, req.User, req.Message, req.CustomID)
	return err
}

func (s *Server) uiSelect(ctx context.Context, req uiRequest) error {
	_, err := s.Select(ctx, req.User, req.Message, req.CustomID, req.Values...)
	return err
}

func (s *Server) uiModal(ctx context.Context, req uiRequest) error {
	_, err := s.SubmitModal(ctx, req.User, &Interaction{ID: req.Interaction, s: s}, req.Fields)
	return err
}

// uiDismiss closes a modal without submitting it, or hides an ephemeral
// message, as Discord's client does.
func (s *Server) uiDismiss(_ context.Context, req uiRequest) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.ixByID[req.Interaction]; ok && st.user.ID == req.User && st.modal != nil {
		st.modalDone = true
		s.notifyLocked()
		return nil
	}
	if m, ok := s.messages[req.Message]; ok && m.Ephemeral() && m.VisibleTo == req.User {
		m.Dismissed = true
		s.notifyLocked()
		return nil
	}
	return errors.New("nothing to dismiss")
}

// --- state for the page ---

type uiUser struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Locale string `json:"locale"`
	Bot    bool   `json:"bot,omitempty"`
}

type uiMessage struct {
	ID         string      `json:"id"`
	Author     uiUser      `json:"author"`
	Content    string      `json:"content"`
	Embeds     []Embed     `json:"embeds"`
	Components []Component `json:"components"`
	// Attachments are the files shown on their own (Message.Loose).
	Attachments []Attachment `json:"attachments"`
	Time        string       `json:"time"`
	Edited      bool         `json:"edited"`
	EditedAt    string       `json:"edited_at,omitempty"`
	Edits       int          `json:"edits"`
	Ephemeral   bool         `json:"ephemeral"`
	Loading     bool         `json:"loading"`
	Pinged      []string     `json:"pinged"`
	Mentions    []string     `json:"mentions"`
	UsedBy      string       `json:"used_by,omitempty"`  // "alice used /dix"
	ReplyTo     string       `json:"reply_to,omitempty"` // excerpt of the replied message
	Failed      bool         `json:"failed,omitempty"`   // "This interaction failed" notice
}

type uiModal struct {
	Interaction string      `json:"interaction"`
	CustomID    string      `json:"custom_id"`
	Title       string      `json:"title"`
	Inputs      []Component `json:"inputs"`
}

type uiState struct {
	Version    int64               `json:"version"`
	Bot        uiUser              `json:"bot"`
	Users      []uiUser            `json:"users"`
	Names      map[string]string   `json:"names"` // id -> display name, for mentions
	Guild      *Guild              `json:"guild,omitempty"`
	Channels   []Channel           `json:"channels"`
	Channel    string              `json:"channel"`
	User       string              `json:"user"`
	Messages   []uiMessage         `json:"messages"`
	Commands   []string            `json:"commands"` // usage lines
	Modal      *uiModal            `json:"modal,omitempty"`
	Violations []string            `json:"violations"`
	Connected  bool                `json:"connected"`
	Options    map[string][]string `json:"options"` // "dix start" -> option names
}

// uiState answers the page's long poll: it waits (up to 25s) until the
// state version differs from ?v=, then returns the channel as ?user= sees it.
func (s *Server) uiState(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	since, _ := strconv.ParseInt(q.Get("v"), 10, 64)
	ctx, cancel := context.WithTimeout(r.Context(), 25*time.Second)
	defer cancel()
	for {
		s.mu.Lock()
		v, ch := s.version, s.changed
		s.mu.Unlock()
		if v != since || since == 0 {
			break
		}
		select {
		case <-ch:
		case <-ctx.Done():
			writeJSON(w, http.StatusOK, map[string]any{"version": v, "unchanged": true})
			return
		}
	}
	writeJSON(w, http.StatusOK, s.buildUIState(q.Get("channel"), q.Get("user")))
}

func (s *Server) buildUIState(channelID, userID string) uiState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := uiState{Version: s.version, Names: map[string]string{}, Options: map[string][]string{}, Violations: []string{}}
	st.Bot = uiUser{ID: s.bot.ID, Name: s.bot.Username, Bot: true}
	for id, u := range s.users {
		st.Names[id] = displayName(u)
	}
	for _, id := range s.userSeq {
		u := s.users[id]
		st.Users = append(st.Users, uiUser{ID: u.ID, Name: displayName(u), Locale: u.Locale})
	}
	if _, ok := s.users[userID]; !ok && len(st.Users) > 0 {
		userID = st.Users[0].ID
	}
	st.User = userID
	viewer := "" // the viewer's client language: the command box speaks it
	if u, ok := s.users[userID]; ok {
		viewer = u.Locale
	}
	for _, id := range s.order {
		if c := s.channels[id]; c.Type == ChannelGuildText || c.IsThread() {
			st.Channels = append(st.Channels, *c)
		}
	}
	ch, ok := s.channels[channelID]
	if !ok && len(st.Channels) > 0 {
		ch = s.channels[st.Channels[0].ID]
	}
	for _, sess := range s.sessions {
		st.Connected = st.Connected || sess.conn != nil
	}
	for _, v := range s.violations {
		st.Violations = append(st.Violations, v.Error())
	}
	if ch == nil {
		return st
	}
	st.Channel = ch.ID
	if g, ok := s.guilds[ch.GuildID]; ok {
		gc := *g
		st.Guild = &gc
	}
	for _, c := range s.commandsLocked(ch.GuildID) {
		st.Commands = append(st.Commands, usageLines(c, st.Options, viewer)...)
	}
	// Messages, with "This interaction failed" notices in time order.
	type item struct {
		at time.Time
		m  uiMessage
	}
	var items []item
	for _, id := range s.chanMsgs[ch.ID] {
		m := s.messages[id]
		if !m.visibleTo(userID) || m.Dismissed {
			continue
		}
		items = append(items, item{m.Timestamp, s.uiMessageLocked(m)})
	}
	for _, ix := range s.ixByID {
		if ix.channelID == ch.ID && ix.user.ID == userID && ix.expired && !ix.responded {
			items = append(items, item{ix.createdAt, uiMessage{ID: "failed-" + ix.id, Author: st.Bot, Failed: true, Ephemeral: true, Time: timestamp(ix.createdAt), Content: "This interaction failed"}})
		}
		if ix.user.ID == userID && ix.modal != nil && !ix.modalDone && ix.channelID == ch.ID {
			if st.Modal == nil || idLess(st.Modal.Interaction, ix.id) {
				st.Modal = &uiModal{Interaction: ix.id, CustomID: ix.modal.CustomID, Title: ix.modal.Title, Inputs: ix.modal.TextInputs()}
			}
		}
	}
	for i := 1; i < len(items); i++ {
		for j := i; j > 0 && items[j].at.Before(items[j-1].at); j-- {
			items[j], items[j-1] = items[j-1], items[j]
		}
	}
	st.Messages = []uiMessage{}
	for _, it := range items {
		st.Messages = append(st.Messages, it.m)
	}
	return st
}

func displayName(u *User) string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

func (s *Server) uiMessageLocked(m *Message) uiMessage {
	out := uiMessage{
		ID:         m.ID,
		Author:     uiUser{ID: m.Author.ID, Name: displayName(&m.Author), Bot: m.Author.Bot},
		Content:    m.Content,
		Embeds:     m.Embeds,
		Components: m.Components,
		Time:       timestamp(m.Timestamp),
		Edited:     m.Edited(),
		Edits:      len(m.History),
		Ephemeral:  m.Ephemeral(),
		Loading:    m.Loading(),
		Pinged:     append([]string{}, m.Pinged...),
		Mentions:   append([]string{}, m.Mentions...),
	}
	out.Attachments = m.Loose()
	if m.Edited() {
		out.EditedAt = timestamp(m.EditedTimestamp)
	}
	if ix, ok := s.ixByID[m.InteractionID]; ok && ix.originalID == m.ID && ix.typ == InteractionApplicationCommand {
		out.UsedBy = displayName(ix.user) + " used /" + ix.commandName
	}
	if ref := m.MessageReference; ref != nil {
		if orig, ok := s.messages[ref.MessageID]; ok {
			ex := orig.Content
			if len(ex) > 60 {
				ex = ex[:60] + "…"
			}
			out.ReplyTo = displayName(&orig.Author) + ": " + ex
		}
	}
	return out
}

// usageLines renders "/dix start [language: en|fr]" lines for the command
// box, with the names of the viewer's language loc where the command has
// them, and records the option names of each command path.
func usageLines(c *Command, opts map[string][]string, loc string) []string {
	local := func(name string, locs map[string]string) string {
		if l := locs[loc]; l != "" {
			return l
		}
		return name
	}
	if c.Type != 1 && c.Type != 0 {
		return nil
	}
	var lines []string
	var walk func(prefix string, os []CommandOption)
	walk = func(prefix string, os []CommandOption) {
		var parts []string
		var names []string
		sub := false
		for _, o := range os {
			switch o.Type {
			case OptionSubCommand, OptionSubCommandGroup:
				sub = true
				walk(prefix+" "+local(o.Name, o.NameLocalizations), o.Options)
			default:
				name := local(o.Name, o.NameLocalizations)
				names = append(names, name)
				hint := name + ":"
				if len(o.Choices) > 0 {
					var cs []string
					for _, ch := range o.Choices {
						cs = append(cs, jsonValue(ch.Value))
					}
					hint += strings.Join(cs, "|")
				} else {
					hint += optionTypeName(o.Type)
				}
				if o.Required {
					parts = append(parts, hint)
				} else {
					parts = append(parts, "["+hint+"]")
				}
			}
		}
		if !sub {
			lines = append(lines, strings.TrimSpace("/"+prefix+" "+strings.Join(parts, " ")))
			opts[prefix] = names
		}
	}
	walk(local(c.Name, c.NameLocalizations), c.Options)
	return lines
}

func jsonValue(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	b, _ := json.Marshal(v)
	return strings.Trim(string(b), `"`)
}

func optionTypeName(t int) string {
	switch t {
	case OptionString:
		return "text"
	case OptionInteger:
		return "integer"
	case OptionBoolean:
		return "true|false"
	case OptionUser:
		return "@user"
	case OptionChannel:
		return "#channel"
	case OptionRole:
		return "@role"
	case OptionNumber:
		return "number"
	default:
		return "value"
	}
}
