package fakediscord

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"time"
)

// Interaction timing rules.
// https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction
// "Interaction tokens are valid for 15 minutes and can be used to send
// followup messages but you must send an initial response within 3 seconds
// of receiving the event. If the 3 second deadline is exceeded, the token
// will be invalidated." (Options.ResponseDeadline, Options.TokenLifetime.)

// ixState is an interaction as the fake tracks it.
type ixState struct {
	id, token   string
	typ         int
	user        *User
	channelID   string
	guildID     string
	createdAt   time.Time
	commandName string
	customID    string
	messageID   string   // message carrying the component
	parent      *ixState // interaction whose modal was submitted
	payload     map[string]any

	responded    bool
	respondedAt  time.Time
	callbackType int
	callbackData json.RawMessage
	modal        *Modal
	modalDone    bool   // the modal was submitted or dismissed
	originalID   string // message of the response (@original)
	expired      bool   // deadline passed without response
	followups    []string
	deliveries   int           // Redeliver calls
	done         chan struct{} // closed on the initial response
	failed       chan struct{} // closed when the deadline passes without one
	timer        *time.Timer
}

// Modal is a modal the bot opened (callback type 9).
type Modal struct {
	CustomID   string
	Title      string
	Components []Component
}

// TextInputs returns the modal's text inputs, in order.
func (m *Modal) TextInputs() []Component {
	var out []Component
	for _, row := range m.Components {
		out = append(out, row.Components...)
	}
	return out
}

// Interaction is a handle on an interaction the fake dispatched. It is safe
// for concurrent use.
type Interaction struct {
	ID    string
	Token string
	Type  int
	s     *Server
}

// Response is the bot's initial response to an interaction.
type Response struct {
	// Type is the callback type (4, 5, 6, 7 or 9).
	Type int
	// At is when it arrived; Latency is At minus the interaction's creation.
	At      time.Time
	Latency time.Duration
	// Data is the callback data as the bot sent it.
	Data json.RawMessage
	// Modal is set for type 9.
	Modal *Modal
	// Message is the message created (4, 5) or updated (6, 7), as it is now.
	Message *Message
}

// Ephemeral reports whether the response message is ephemeral.
func (r *Response) Ephemeral() bool { return r.Message != nil && r.Message.Ephemeral() }

// Wait blocks until the bot has sent the initial response, and returns it.
// It returns ErrNoResponse (wrapped) as soon as the response deadline has
// passed without one, and ctx's error if ctx ends first.
func (ix *Interaction) Wait(ctx context.Context) (*Response, error) {
	ix.s.mu.Lock()
	st, ok := ix.s.ixByID[ix.ID]
	ix.s.mu.Unlock()
	if !ok {
		return nil, ErrUnknownInteraction
	}
	select {
	case <-st.done:
	case <-st.failed:
		return nil, fmt.Errorf("%w: interaction %s, deadline %s", ErrNoResponse, ix.ID, ix.s.opts.ResponseDeadline)
	case <-ctx.Done():
		return nil, fmt.Errorf("fakediscord: waiting for response to interaction %s: %w", ix.ID, ctx.Err())
	}
	r, _ := ix.Response()
	return r, nil
}

// Response returns the initial response, if the bot has sent it.
func (ix *Interaction) Response() (*Response, bool) {
	s := ix.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.ixByID[ix.ID]
	if !ok || !st.responded {
		return nil, false
	}
	r := &Response{Type: st.callbackType, At: st.respondedAt, Latency: st.respondedAt.Sub(st.createdAt), Data: append(json.RawMessage(nil), st.callbackData...)}
	if st.modal != nil {
		m := cloneJSON(*st.modal)
		r.Modal = &m
	}
	if m, ok := s.messages[st.originalID]; ok {
		c := m.clone()
		r.Message = &c
	}
	return r, true
}

// Followups returns the follow-up messages sent with this interaction's
// token (not the original response), in order, as they are now.
func (ix *Interaction) Followups() []Message {
	s := ix.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.ixByID[ix.ID]
	if !ok {
		return nil
	}
	out := make([]Message, 0, len(st.followups))
	for _, id := range st.followups {
		out = append(out, s.messages[id].clone())
	}
	return out
}

// Payload returns the INTERACTION_CREATE data as dispatched.
func (ix *Interaction) Payload() map[string]any {
	s := ix.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.ixByID[ix.ID]; ok {
		return cloneJSON(st.payload)
	}
	return nil
}

// InteractionReport says how the bot handled one interaction.
type InteractionReport struct {
	ID           string
	Token        string // the interaction's token, a secret the bot must never log
	Type         int
	UserID       string
	Responded    bool
	InTime       bool
	CallbackType int
	Latency      time.Duration
}

// Interactions reports every interaction dispatched so far, oldest first.
func (s *Server) Interactions() []InteractionReport {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]InteractionReport, 0, len(s.ixByID))
	for _, st := range s.ixByID {
		r := InteractionReport{ID: st.id, Token: st.token, Type: st.typ, UserID: st.user.ID, Responded: st.responded, CallbackType: st.callbackType}
		if st.responded {
			r.Latency = st.respondedAt.Sub(st.createdAt)
			r.InTime = r.Latency <= s.opts.ResponseDeadline
		}
		out = append(out, r)
	}
	sortReports(out)
	return out
}

func sortReports(r []InteractionReport) {
	sort.Slice(r, func(i, j int) bool { return idLess(r[i].ID, r[j].ID) })
}

// registerLocked stores a new interaction and starts its deadline timer.
func (s *Server) registerLocked(st *ixState) {
	st.done = make(chan struct{})
	st.failed = make(chan struct{})
	s.ixByID[st.id] = st
	s.ixByToken[st.token] = st
	st.timer = time.AfterFunc(s.opts.ResponseDeadline, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.expireLocked(st)
	})
}

// expireLocked marks an interaction whose deadline passed without a
// response, once, and records the violation.
func (s *Server) expireLocked(st *ixState) {
	if st.responded || st.expired || s.closed {
		return
	}
	st.expired = true
	st.timer.Stop()
	close(st.failed)
	s.violateLocked(&Violation{Code: 10062, Message: fmt.Sprintf("interaction not acknowledged within %s", s.opts.ResponseDeadline), InteractionID: st.id})
}

// --- interaction callback ---

func (s *Server) interactionCallback(_ http.ResponseWriter, r *http.Request, body []byte) (int, any, *apiError) {
	if !s.waitHold(r.Context(), r.PathValue("id")) {
		return 0, nil, &apiError{http.StatusServiceUnavailable, 0, "the request never reached Discord: its sender went away while it was held", nil, nil, false}
	}
	var req callbackRequest
	files, e := decodeWithFiles(r, body, &req)
	if e != nil {
		return 0, nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.ixByID[r.PathValue("id")]
	if !ok || st.token != r.PathValue("token") {
		return 0, nil, errUnknownIx
	}
	if e := s.applyCallbackLocked(st, req, files); e != nil {
		return 0, nil, e
	}
	return http.StatusNoContent, nil, nil
}

// callbackRequest is an interaction response.
type callbackRequest struct {
	Type int             `json:"type"`
	Data json.RawMessage `json:"data"`
}

// applyCallbackLocked applies an initial response, received on the
// callback route or as the answer to an HTTP delivery.
func (s *Server) applyCallbackLocked(st *ixState, req callbackRequest, files []upload) *apiError {
	var data messagePayload
	if len(req.Data) > 0 && string(req.Data) != "null" {
		if err := json.Unmarshal(req.Data, &data); err != nil {
			return badJSON(err)
		}
	}
	now := s.now()
	if st.responded {
		return errAlreadyAcked
	}
	if st.expired || now.Sub(st.createdAt) > s.opts.ResponseDeadline {
		s.expireLocked(st)
		return &apiError{http.StatusNotFound, 10062, fmt.Sprintf("Unknown interaction (answered after %s, deadline %s)", now.Sub(st.createdAt).Round(time.Millisecond), s.opts.ResponseDeadline), nil, nil, false}
	}
	var fe formErrors
	switch req.Type {
	case CallbackChannelMessage, CallbackUpdateMessage:
		fe = validateMessage("data", &data)
	case CallbackDeferredChannelMessage, CallbackDeferredUpdateMessage:
	case CallbackModal:
		fe = validateModal("data", &data)
	default:
		fe.add("type", "BASE_TYPE_CHOICES", "Value must be one of {4, 5, 6, 7, 9}.")
	}
	fromMessage := st.messageID != ""
	switch {
	case (req.Type == CallbackDeferredUpdateMessage || req.Type == CallbackUpdateMessage) && !fromMessage:
		fe.add("type", "INTERACTION_RESPONSE_TYPE_INVALID", "Interaction response type is not valid for this interaction type (no message to update).")
	case req.Type == CallbackModal && st.typ == InteractionModalSubmit:
		fe.add("type", "INTERACTION_RESPONSE_TYPE_INVALID", "A modal cannot be answered with a modal.")
	}
	if len(fe) > 0 {
		return invalidForm(fe)
	}
	ch := s.channels[st.channelID]
	if req.Type == CallbackChannelMessage || req.Type == CallbackUpdateMessage {
		if e := s.checkWriteLocked(ch, writeCheck{embeds: data.hasEmbeds(), files: len(files) > 0, interaction: true}); e != nil {
			return e
		}
	}
	switch req.Type {
	case CallbackChannelMessage:
		atts, e := s.attachLocked(ch.ID, nil, nil, &data, files)
		if e != nil {
			return e
		}
		data.atts = &atts
		if data.isEmpty() {
			return errEmptyMessage
		}
		m := s.createMessageLocked(ch, s.bot, &data, st)
		st.originalID = m.ID
	case CallbackDeferredChannelMessage:
		flags := FlagLoading
		if data.Flags != nil {
			flags |= *data.Flags & FlagEphemeral
		}
		empty := ""
		m := s.createMessageLocked(ch, s.bot, &messagePayload{Content: &empty, Flags: &flags}, st)
		st.originalID = m.ID
	case CallbackDeferredUpdateMessage:
		st.originalID = st.messageID
	case CallbackUpdateMessage:
		m := s.messages[st.messageID]
		if m == nil || m.Deleted {
			return errUnknownMessage
		}
		if data.Attachments != nil || len(files) > 0 {
			atts, e := s.attachLocked(ch.ID, m.Attachments, m.History, &data, files)
			if e != nil {
				return e
			}
			data.atts = &atts
		}
		if e := checkEditNotEmpty(m, &data); e != nil {
			return e
		}
		s.editMessageLocked(m, &data, "UPDATE_MESSAGE callback")
		st.originalID = m.ID
	case CallbackModal:
		st.modal = &Modal{CustomID: data.CustomID, Title: data.Title, Components: *data.Components}
	}
	st.responded = true
	st.respondedAt = now
	st.callbackType = req.Type
	if !s.opts.DropPayloads {
		st.callbackData = append(json.RawMessage(nil), req.Data...)
	}
	st.timer.Stop()
	close(st.done)
	s.notifyLocked()
	return nil
}

// --- webhooks: follow-ups and @original ---

// webhookIxLocked resolves the interaction of a webhook route and checks
// the token lifetime.
func (s *Server) webhookIxLocked(r *http.Request) (*ixState, *apiError) {
	if r.PathValue("app") != s.opts.ApplicationID {
		return nil, errUnknownWebhook
	}
	st, ok := s.ixByToken[r.PathValue("token")]
	if !ok {
		return nil, errInvalidWebhook
	}
	if s.now().Sub(st.createdAt) > s.opts.TokenLifetime {
		return nil, &apiError{http.StatusUnauthorized, 50027, "Invalid Webhook Token (interaction token expired after 15 minutes)", nil, nil, false}
	}
	if st.expired && !st.responded {
		return nil, errUnknownWebhook
	}
	if !st.responded {
		return nil, &apiError{http.StatusNotFound, 10015, "Unknown Webhook (interaction not acknowledged yet)", nil, nil, false}
	}
	return st, nil
}

// webhookMessageLocked resolves @original or a follow-up id.
func (s *Server) webhookMessageLocked(st *ixState, id string) (*Message, *apiError) {
	if id == "@original" {
		id = st.originalID
		if id == "" {
			return nil, errUnknownMessage
		}
	} else if !contains(st.followups, id) && id != st.originalID {
		return nil, errUnknownMessage
	}
	m, ok := s.messages[id]
	if !ok || m.Deleted {
		return nil, errUnknownMessage
	}
	return m, nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func (s *Server) followupCreate(_ http.ResponseWriter, r *http.Request, body []byte) (int, any, *apiError) {
	var p messagePayload
	files, e := decodeWithFiles(r, body, &p)
	if e != nil {
		return 0, nil, e
	}
	if fe := validateMessage("", &p); len(fe) > 0 {
		return 0, nil, invalidForm(fe)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, e := s.webhookIxLocked(r)
	if e != nil {
		return 0, nil, e
	}
	ch := s.channels[st.channelID]
	if e := s.checkWriteLocked(ch, writeCheck{create: true, embeds: p.hasEmbeds(), files: len(files) > 0, interaction: true}); e != nil {
		return 0, nil, e
	}
	var (
		existing []Attachment
		earlier  []Revision
	)
	if orig, ok := s.messages[st.originalID]; ok && st.callbackType == CallbackDeferredChannelMessage && orig.Loading() && !orig.Deleted {
		existing, earlier = orig.Attachments, orig.History
	}
	atts, e := s.attachLocked(ch.ID, existing, earlier, &p, files)
	if e != nil {
		return 0, nil, e
	}
	p.atts = &atts
	if p.isEmpty() {
		return 0, nil, errEmptyMessage
	}
	// "When used after a DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE response,
	// the first follow-up edits the loading message."
	// https://discord.com/developers/docs/interactions/receiving-and-responding#create-followup-message
	if orig, ok := s.messages[st.originalID]; ok && st.callbackType == CallbackDeferredChannelMessage && orig.Loading() && !orig.Deleted {
		s.editMessageLocked(orig, &p, "follow-up after a deferral")
		return http.StatusOK, s.messageJSON(orig), nil
	}
	m := s.createMessageLocked(s.channels[st.channelID], s.bot, &p, st)
	st.followups = append(st.followups, m.ID)
	return http.StatusOK, s.messageJSON(m), nil
}

func (s *Server) webhookMessageGet(_ http.ResponseWriter, r *http.Request, _ []byte) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, e := s.webhookIxLocked(r)
	if e != nil {
		return 0, nil, e
	}
	m, e := s.webhookMessageLocked(st, r.PathValue("msg"))
	if e != nil {
		return 0, nil, e
	}
	return http.StatusOK, s.messageJSON(m), nil
}

func (s *Server) webhookMessageEdit(_ http.ResponseWriter, r *http.Request, body []byte) (int, any, *apiError) {
	var p messagePayload
	files, e := decodeWithFiles(r, body, &p)
	if e != nil {
		return 0, nil, e
	}
	if fe := validateMessage("", &p); len(fe) > 0 {
		return 0, nil, invalidForm(fe)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, e := s.webhookIxLocked(r)
	if e != nil {
		return 0, nil, e
	}
	m, e := s.webhookMessageLocked(st, r.PathValue("msg"))
	if e != nil {
		return 0, nil, e
	}
	if m.Author.ID != s.bot.ID {
		return 0, nil, errNotAuthor
	}
	if e := s.prepareEditLocked(m, &p, files, true); e != nil {
		return 0, nil, e
	}
	noteKeptFiles(r, m.ID, &p, files)
	s.editMessageLocked(m, &p, "interaction webhook edit")
	return http.StatusOK, s.messageJSON(m), nil
}

func (s *Server) webhookMessageDelete(_ http.ResponseWriter, r *http.Request, _ []byte) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, e := s.webhookIxLocked(r)
	if e != nil {
		return 0, nil, e
	}
	m, e := s.webhookMessageLocked(st, r.PathValue("msg"))
	if e != nil {
		return 0, nil, e
	}
	if c := s.channels[m.ChannelID]; c.IsThread() && c.Archived {
		return 0, nil, errArchived
	}
	s.deleteMessageLocked(m)
	return http.StatusNoContent, nil, nil
}
