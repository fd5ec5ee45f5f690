package fakediscord

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// apiError is a Discord-shaped error answer:
// https://discord.com/developers/docs/reference#error-messages
type apiError struct {
	status int
	code   int
	msg    string
	fields formErrors
	rl     *rateLimited // set for 429 answers
	// raced marks a refusal of a request that was right when it was
	// made, overtaken by another's change (see attachLocked): refused,
	// but no breach of the rules.
	raced bool
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s", e.code, e.msg) }

// Discord JSON error codes used by the fake.
// https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes
var (
	errUnauthorized    = &apiError{http.StatusUnauthorized, 0, "401: Unauthorized", nil, nil, false}
	errNotFound        = &apiError{http.StatusNotFound, 0, "404: Not Found", nil, nil, false}
	errUnknownChannel  = &apiError{http.StatusNotFound, 10003, "Unknown Channel", nil, nil, false}
	errUnknownGuild    = &apiError{http.StatusNotFound, 10004, "Unknown Guild", nil, nil, false}
	errUnknownMessage  = &apiError{http.StatusNotFound, 10008, "Unknown Message", nil, nil, false}
	errUnknownUser     = &apiError{http.StatusNotFound, 10013, "Unknown User", nil, nil, false}
	errUnknownWebhook  = &apiError{http.StatusNotFound, 10015, "Unknown Webhook", nil, nil, false}
	errUnknownCommand  = &apiError{http.StatusNotFound, 10063, "Unknown application command", nil, nil, false}
	errUnknownIx       = &apiError{http.StatusNotFound, 10062, "Unknown interaction", nil, nil, false}
	errAlreadyAcked    = &apiError{http.StatusBadRequest, 40060, "Interaction has already been acknowledged.", nil, nil, false}
	errEmptyMessage    = &apiError{http.StatusBadRequest, 50006, "Cannot send an empty message", nil, nil, false}
	errNotAuthor       = &apiError{http.StatusForbidden, 50005, "Cannot edit a message authored by another user", nil, nil, false}
	errMissingPerms    = &apiError{http.StatusForbidden, 50013, "Missing Permissions", nil, nil, false}
	errInvalidWebhook  = &apiError{http.StatusUnauthorized, 50027, "Invalid Webhook Token", nil, nil, false}
	errCannotSendToBot = &apiError{http.StatusBadRequest, 50007, "Cannot send messages to this user", nil, nil, false}
)

func invalidForm(fe formErrors) *apiError {
	return &apiError{status: http.StatusBadRequest, code: 50035, msg: "Invalid Form Body", fields: fe}
}

func badJSON(err error) *apiError {
	return &apiError{status: http.StatusBadRequest, code: 50109, msg: "The request body contains invalid JSON. " + err.Error()}
}

// handler is a REST handler; a returned *apiError is written and recorded
// as a violation.
type handler func(w http.ResponseWriter, r *http.Request, body []byte) (status int, resp any, err *apiError)

type routeOpts struct {
	webhookAuth bool // Discord does not require the bot token here
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	api := func(pattern string, h handler, o ...routeOpts) {
		method, path, _ := strings.Cut(pattern, " ")
		var ro routeOpts
		if len(o) > 0 {
			ro = o[0]
		}
		mux.Handle(method+" /api/{version}"+path, s.apiHandler(h, ro, templateOf(pattern)))
	}
	wh := routeOpts{webhookAuth: true}

	api("GET /gateway", s.getGateway)
	api("GET /gateway/bot", s.getGatewayBot)
	api("GET /users/@me", s.getMe)
	api("GET /users/{user}", s.getUser)
	api("POST /users/@me/channels", s.createDM)
	api("GET /oauth2/applications/@me", s.getApplication)
	api("GET /applications/@me", s.getApplication)

	api("GET /applications/{app}/commands", s.listCommands)
	api("PUT /applications/{app}/commands", s.overwriteCommands)
	api("POST /applications/{app}/commands", s.createCommand)
	api("GET /applications/{app}/commands/{cmd}", s.getCommand)
	api("PATCH /applications/{app}/commands/{cmd}", s.editCommand)
	api("DELETE /applications/{app}/commands/{cmd}", s.deleteCommand)
	api("GET /applications/{app}/guilds/{guild}/commands", s.listCommands)
	api("PUT /applications/{app}/guilds/{guild}/commands", s.overwriteCommands)
	api("POST /applications/{app}/guilds/{guild}/commands", s.createCommand)
	api("GET /applications/{app}/guilds/{guild}/commands/{cmd}", s.getCommand)
	api("PATCH /applications/{app}/guilds/{guild}/commands/{cmd}", s.editCommand)
	api("DELETE /applications/{app}/guilds/{guild}/commands/{cmd}", s.deleteCommand)

	api("POST /interactions/{id}/{token}/callback", s.interactionCallback, wh)
	api("POST /webhooks/{app}/{token}", s.followupCreate, wh)
	api("GET /webhooks/{app}/{token}/messages/{msg}", s.webhookMessageGet, wh)
	api("PATCH /webhooks/{app}/{token}/messages/{msg}", s.webhookMessageEdit, wh)
	api("DELETE /webhooks/{app}/{token}/messages/{msg}", s.webhookMessageDelete, wh)

	api("GET /channels/{chan}", s.getChannel)
	api("GET /channels/{chan}/messages", s.listChannelMessages)
	api("POST /channels/{chan}/messages", s.createChannelMessage)
	api("GET /channels/{chan}/messages/{msg}", s.getChannelMessage)
	api("PATCH /channels/{chan}/messages/{msg}", s.editChannelMessage)
	api("DELETE /channels/{chan}/messages/{msg}", s.deleteChannelMessage)
	api("GET /guilds/{guild}", s.getGuild)
	api("GET /guilds/{guild}/channels", s.getGuildChannels)
	api("GET /guilds/{guild}/members/{user}", s.getMember)

	mux.Handle("/api/", s.apiHandler(func(http.ResponseWriter, *http.Request, []byte) (int, any, *apiError) {
		return 0, nil, errNotFound
	}, routeOpts{}, "unknown route"))
	s.statsRoutes(mux)
	s.attachmentRoutes(mux)
	mux.HandleFunc("GET /gateway-ws", s.serveGateway)
	mux.HandleFunc("GET /gateway-ws/", s.serveGateway)
	if !s.opts.DisableWeb {
		s.webRoutes(mux)
	}
	return mux
}

// maxRequestSize is Discord's limit on a request body: "The maximum
// request size when sending a message is 25 MiB"
// (https://discord.com/developers/docs/resources/message#create-message).
const maxRequestSize = 25 << 20

// readBody reads at most limit bytes of r into a buffer of the size the
// request announced (size, -1 when unknown), where io.ReadAll would grow
// one from 512 bytes, copying it at each step.
func readBody(r io.Reader, size, limit int64) ([]byte, error) {
	if size < 0 || size > limit {
		size = 0
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err := buf.ReadFrom(io.LimitReader(r, limit))
	return buf.Bytes(), err
}

// apiHandler wraps a REST handler with authentication, rate limits,
// counters, capture, JSON answers and violation recording.
func (s *Server) apiHandler(h handler, ro routeOpts, template string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := readBody(r.Body, r.ContentLength, maxRequestSize+1)
		if err != nil {
			// The client went away before its request arrived whole (a
			// process killed in the middle of an upload): Discord acts
			// only on a request it received, and nobody is left to answer.
			return
		}
		var (
			status  int
			resp    any
			apiErr  *apiError
			counted bool
		)
		notes := &uploadNotes{}
		r = r.WithContext(context.WithValue(r.Context(), uploadNotesKey{}, notes))
		if len(body) > maxRequestSize {
			apiErr = errTooLarge
		} else {
			status, resp, apiErr, counted = s.serveAPI(w, r, body, h, ro, template)
		}
		if len(notes.empty) > 0 && apiErr == nil {
			s.mu.Lock()
			s.violateLocked(s.requestViolationLocked(r, &Violation{Status: status, Message: msgEmptyUpload, Details: strings.Join(notes.empty, "; ")}))
			s.mu.Unlock()
		}
		if len(notes.kept) > 0 && apiErr == nil {
			s.mu.Lock()
			s.violateLocked(s.requestViolationLocked(r, &Violation{Status: status, Message: msgFilesKept, Details: strings.Join(notes.kept, "; ")}))
			s.mu.Unlock()
		}
		if apiErr != nil && apiErr.rl != nil {
			status = http.StatusTooManyRequests
			resp = write429(w, apiErr.rl)
		} else if apiErr != nil {
			status = apiErr.status
			e := map[string]any{"code": apiErr.code, "message": apiErr.msg}
			if len(apiErr.fields) > 0 {
				e["errors"] = apiErr.fields.tree()
			}
			resp = e
			// Reading the original response of an interaction not answered
			// yet is how a bot learns that it is not
			// (https://discord.com/developers/docs/interactions/receiving-and-responding#get-original-interaction-response):
			// refused, but no breach of the rules.
			probe := r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/messages/@original") && status == http.StatusNotFound
			s.mu.Lock()
			switch {
			case apiErr.raced:
				s.stats.Overtaken++
			case !probe:
				s.violateLocked(s.requestViolationLocked(r, &Violation{Status: status, Code: apiErr.code, Message: apiErr.msg, Details: apiErr.fields.String()}))
			}
			s.mu.Unlock()
		}
		if counted {
			s.mu.Lock()
			s.countLocked(template, ro.webhookAuth, status)
			s.mu.Unlock()
		}
		var out []byte
		if status != http.StatusNoContent && resp != nil {
			out, _ = json.Marshal(resp)
		}
		s.capture(r, body, status)
		if d := s.opts.APILatency; d > 0 {
			// Done: only the answer is late, as Discord's over the network.
			time.Sleep(d)
		}
		if out != nil {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		_, _ = w.Write(out)
	})
}

// requestViolationLocked completes v with the request it is about: its
// method, path and interaction.
func (s *Server) requestViolationLocked(r *http.Request, v *Violation) *Violation {
	v.Method, v.Path = r.Method, r.URL.Path
	if id := r.PathValue("id"); id != "" {
		v.InteractionID = id
	} else if ix := s.ixByToken[r.PathValue("token")]; ix != nil {
		v.InteractionID = ix.id
	}
	return v
}

// serveAPI checks the version and the token, applies the rate limits and
// runs the handler. counted reports whether the request reached the rate
// limiter (authenticated requests on a known route).
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, body []byte, h handler, ro routeOpts, template string) (int, any, *apiError, bool) {
	if v := r.PathValue("version"); v != "" && v != "v9" && v != "v10" {
		return 0, nil, errNotFound, false
	}
	auth := r.Header.Get("Authorization")
	if auth != "Bot "+s.opts.Token && !(ro.webhookAuth && auth == "") {
		return 0, nil, errUnauthorized, false
	}
	s.mu.Lock()
	closed := s.closed
	var rl *rateLimited
	if !closed {
		if rl = s.faultLocked(template, !ro.webhookAuth); rl == nil {
			rl = s.takeLocked(w, r, template, !ro.webhookAuth)
		}
	}
	if closed {
		s.mu.Unlock()
		return 0, nil, &apiError{status: http.StatusServiceUnavailable, msg: "closed"}, false
	}
	if rl == nil && !closed {
		rl = s.afterBoardLocked(r, template)
	}
	s.mu.Unlock()
	if rl != nil {
		return 0, nil, &apiError{status: http.StatusTooManyRequests, rl: rl}, true
	}
	status, resp, e := h(w, r, body)
	if e == nil {
		s.mu.Lock()
		s.postedLocked(r, template, resp)
		s.mu.Unlock()
	}
	return status, resp, e, true
}

// decode unmarshals a JSON body (or the payload_json part of a multipart
// body, as discordgo sends with files), ignoring files.
func decode(r *http.Request, body []byte, v any) *apiError {
	_, e := decodeWithFiles(r, body, v)
	return e
}

func (s *Server) getGateway(_ http.ResponseWriter, _ *http.Request, _ []byte) (int, any, *apiError) {
	return http.StatusOK, map[string]string{"url": s.GatewayURL()}, nil
}

func (s *Server) getGatewayBot(_ http.ResponseWriter, _ *http.Request, _ []byte) (int, any, *apiError) {
	s.mu.Lock()
	shards := max(s.opts.RecommendedShards, s.requiredShards)
	s.mu.Unlock()
	return http.StatusOK, map[string]any{
		"url":    s.GatewayURL(),
		"shards": shards,
		"session_start_limit": map[string]int{
			"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1,
		},
	}, nil
}

func (s *Server) getMe(_ http.ResponseWriter, _ *http.Request, _ []byte) (int, any, *apiError) {
	return http.StatusOK, s.bot, nil
}

func (s *Server) getUser(_ http.ResponseWriter, r *http.Request, _ []byte) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[r.PathValue("user")]
	if !ok {
		return 0, nil, errUnknownUser
	}
	return http.StatusOK, u, nil
}

func (s *Server) createDM(_ http.ResponseWriter, r *http.Request, body []byte) (int, any, *apiError) {
	var req struct {
		RecipientID string `json:"recipient_id"`
	}
	if e := decode(r, body, &req); e != nil {
		return 0, nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if req.RecipientID == s.bot.ID {
		return 0, nil, errCannotSendToBot
	}
	c, err := s.dmChannelLocked(req.RecipientID)
	if err != nil {
		return 0, nil, errUnknownUser
	}
	return http.StatusOK, s.channelJSON(c), nil
}

func (s *Server) getApplication(_ http.ResponseWriter, _ *http.Request, _ []byte) (int, any, *apiError) {
	return http.StatusOK, map[string]any{
		"id":          s.opts.ApplicationID,
		"name":        s.bot.Username,
		"description": "",
		"bot_public":  true,
		"flags":       0,
		"bot":         s.bot,
		"owner":       map[string]any{"id": "1", "username": "owner", "discriminator": "0"},
	}, nil
}

func (s *Server) channelJSON(c *Channel) map[string]any {
	out := map[string]any{"id": c.ID, "type": c.Type}
	if c.Type == ChannelDM {
		if u, ok := s.users[c.Recipient]; ok {
			out["recipients"] = []User{*u}
		}
		return out
	}
	out["guild_id"] = c.GuildID
	out["name"] = c.Name
	out["nsfw"] = false
	if c.IsThread() {
		s.threadJSON(c, out)
		return out
	}
	out["position"] = 0
	out["permission_overwrites"] = []any{}
	return out
}

func (s *Server) getChannel(_ http.ResponseWriter, r *http.Request, _ []byte) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[r.PathValue("chan")]
	if !ok {
		return 0, nil, errUnknownChannel
	}
	return http.StatusOK, s.channelJSON(c), nil
}

func (s *Server) getGuild(_ http.ResponseWriter, r *http.Request, _ []byte) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.guilds[r.PathValue("guild")]
	if !ok {
		return 0, nil, errUnknownGuild
	}
	return http.StatusOK, s.guildJSONLocked(g), nil
}

func (s *Server) getGuildChannels(_ http.ResponseWriter, r *http.Request, _ []byte) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.guilds[r.PathValue("guild")]
	if !ok {
		return 0, nil, errUnknownGuild
	}
	return http.StatusOK, s.guildChannelsLocked(g.ID, false), nil
}

func (s *Server) getMember(_ http.ResponseWriter, r *http.Request, _ []byte) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ms, ok := s.members[r.PathValue("guild")]
	if !ok {
		return 0, nil, errUnknownGuild
	}
	m, ok := ms[r.PathValue("user")]
	if !ok {
		return 0, nil, &apiError{http.StatusNotFound, 10007, "Unknown Member", nil, nil, false}
	}
	return http.StatusOK, s.memberJSON(m), nil
}

func (s *Server) memberJSON(m *member) map[string]any {
	return map[string]any{
		"user":        m.user,
		"roles":       []string{},
		"joined_at":   timestamp(m.joinedAt),
		"deaf":        false,
		"mute":        false,
		"flags":       0,
		"permissions": fmt.Sprint(m.permissions),
	}
}

func (s *Server) guildChannelsLocked(guildID string, threads bool) []map[string]any {
	out := []map[string]any{}
	for _, id := range s.order {
		if c := s.channels[id]; c.GuildID == guildID && c.IsThread() == threads {
			out = append(out, s.channelJSON(c))
		}
	}
	return out
}

func (s *Server) guildJSONLocked(g *Guild) map[string]any {
	features := []string{}
	if g.Community {
		features = append(features, "COMMUNITY")
	}
	return map[string]any{
		"id":               g.ID,
		"name":             g.Name,
		"preferred_locale": g.PreferredLocale,
		"owner_id":         s.bot.ID,
		"roles": []map[string]any{{
			"id": g.ID, "name": "@everyone", "permissions": fmt.Sprint(DefaultPermissions), "position": 0,
		}},
		"emojis":   []any{},
		"features": features,
	}
}

// --- channel messages ---

func (s *Server) channelForBotLocked(id string) (*Channel, *apiError) {
	c, ok := s.channels[id]
	if !ok {
		return nil, errUnknownChannel
	}
	return c, nil
}

func (s *Server) createChannelMessage(_ http.ResponseWriter, r *http.Request, body []byte) (int, any, *apiError) {
	var p messagePayload
	files, e := decodeWithFiles(r, body, &p)
	if e != nil {
		return 0, nil, e
	}
	fe := validateMessage("", &p)
	nonce, ok := parseNonce(p.Nonce)
	if !ok {
		fe = append(fe, fieldError{path: "nonce", code: "BASE_TYPE_BAD_LENGTH", msg: "Must be between 1 and 25 in length."})
	}
	if len(fe) > 0 {
		return 0, nil, invalidForm(fe)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, e := s.channelForBotLocked(r.PathValue("chan"))
	if e != nil {
		return 0, nil, e
	}
	if e := s.checkWriteLocked(c, writeCheck{create: true, embeds: p.hasEmbeds(), files: len(files) > 0,
		reply: p.MessageReference != nil && p.MessageReference.MessageID != ""}); e != nil {
		return 0, nil, e
	}
	// enforce_nonce: "If true and nonce is present, it will be checked for
	// uniqueness in the past few minutes. If another message was created
	// by the same author with the same nonce, that message will be returned
	// and no new message will be created."
	// (https://discord.com/developers/docs/resources/message#create-message)
	key := s.bot.ID + "\x00" + nonce
	if p.EnforceNonce && nonce != "" {
		if ne, ok := s.nonces[key]; ok && s.now().Sub(ne.at) < nonceWindow {
			if m, ok := s.messages[ne.message]; ok {
				return http.StatusOK, s.messageJSON(m), nil
			}
		}
	}
	atts, e := s.attachLocked(c.ID, nil, nil, &p, files)
	if e != nil {
		return 0, nil, e
	}
	p.atts = &atts
	if p.isEmpty() {
		return 0, nil, errEmptyMessage
	}
	if ref := p.MessageReference; ref != nil && ref.MessageID != "" {
		if orig, ok := s.messages[ref.MessageID]; !ok || orig.ChannelID != c.ID || orig.Ephemeral() {
			return 0, nil, invalidForm(formErrors{{path: "message_reference", code: "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", msg: "Unknown message"}})
		}
	}
	m := s.createMessageLocked(c, s.bot, &p, nil)
	if nonce != "" {
		m.Nonce = nonce
		s.nonces[key] = nonceEntry{message: m.ID, at: s.now()}
	}
	return http.StatusOK, s.messageJSON(m), nil
}

// nonceWindow is how long a nonce is remembered for enforce_nonce: Discord
// says "the past few minutes".
const nonceWindow = 5 * time.Minute

type nonceEntry struct {
	message string
	at      time.Time
}

// parseNonce reads a message nonce: a string of at most 25 characters or an
// integer; ok is false for anything else. "" means none.
func parseNonce(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, s != "" && utf8.RuneCountInString(s) <= 25
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		if _, err := n.Int64(); err == nil {
			return n.String(), true
		}
	}
	return "", false
}

// channelMessageLocked finds a message through a channel route; ephemeral
// messages are not reachable there.
func (s *Server) channelMessageLocked(r *http.Request) (*Message, *apiError) {
	c, e := s.channelForBotLocked(r.PathValue("chan"))
	if e != nil {
		return nil, e
	}
	if e := s.checkViewLocked(c); e != nil {
		return nil, e
	}
	m, ok := s.messages[r.PathValue("msg")]
	if !ok || m.ChannelID != c.ID || m.Deleted || m.Ephemeral() {
		return nil, errUnknownMessage
	}
	return m, nil
}

func (s *Server) getChannelMessage(_ http.ResponseWriter, r *http.Request, _ []byte) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, e := s.channelMessageLocked(r)
	if e != nil {
		return 0, nil, e
	}
	return http.StatusOK, s.messageJSON(m), nil
}

func (s *Server) listChannelMessages(_ http.ResponseWriter, r *http.Request, _ []byte) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, e := s.channelForBotLocked(r.PathValue("chan"))
	if e != nil {
		return 0, nil, e
	}
	if e := s.checkViewLocked(c); e != nil {
		return 0, nil, e
	}
	limit := 50
	if l := r.URL.Query().Get("limit"); l != "" {
		if _, err := fmt.Sscan(l, &limit); err != nil || limit < 1 || limit > 100 {
			return 0, nil, invalidForm(formErrors{{path: "limit", code: "NUMBER_TYPE_MAX", msg: "int value should be between 1 and 100."}})
		}
	}
	out := []messageJSON{}
	if s.botPermsLocked(c)&PermReadMessageHistory == 0 {
		// "If the current user is missing the READ_MESSAGE_HISTORY
		// permission in the channel, then no messages will be returned."
		return http.StatusOK, out, nil
	}
	ids := s.chanMsgs[c.ID]
	for i := len(ids) - 1; i >= 0 && len(out) < limit; i-- {
		if m := s.messages[ids[i]]; !m.Deleted && !m.Ephemeral() {
			out = append(out, s.messageJSON(m))
		}
	}
	return http.StatusOK, out, nil
}

func (s *Server) editChannelMessage(_ http.ResponseWriter, r *http.Request, body []byte) (int, any, *apiError) {
	var p messagePayload
	files, e := decodeWithFiles(r, body, &p)
	if e != nil {
		return 0, nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, e := s.channelMessageLocked(r)
	if e != nil {
		return 0, nil, e
	}
	if m.Author.ID != s.bot.ID {
		return 0, nil, errNotAuthor
	}
	if fe := validateMessage("", &p); len(fe) > 0 {
		return 0, nil, invalidForm(fe)
	}
	if e := s.prepareEditLocked(m, &p, files, false); e != nil {
		return 0, nil, e
	}
	noteKeptFiles(r, m.ID, &p, files)
	s.editMessageLocked(m, &p, "bot-token edit")
	return http.StatusOK, s.messageJSON(m), nil
}

// prepareEditLocked checks an edit of m (permissions, archived thread,
// 30046, attachments, emptiness) and sets p.atts.
func (s *Server) prepareEditLocked(m *Message, p *messagePayload, files []upload, interaction bool) *apiError {
	c := s.channels[m.ChannelID]
	if e := s.checkWriteLocked(c, writeCheck{embeds: p.hasEmbeds(), files: len(files) > 0, interaction: interaction}); e != nil {
		return e
	}
	if p.Attachments != nil || len(files) > 0 {
		atts, e := s.attachLocked(c.ID, m.Attachments, m.History, p, files)
		if e != nil {
			return e
		}
		p.atts = &atts
	}
	if e := checkEditNotEmpty(m, p); e != nil {
		return e
	}
	if rl := s.oldEditLocked(m); rl != nil {
		return &apiError{status: http.StatusTooManyRequests, code: rl.code, msg: rl.message, rl: rl}
	}
	return nil
}

// hasEmbeds reports whether the payload sets embeds.
func (p *messagePayload) hasEmbeds() bool {
	return p.Embeds != nil && len(*p.Embeds) > 0 || p.Embed != nil
}

// checkEditNotEmpty refuses an edit that would leave nothing to show.
func checkEditNotEmpty(m *Message, p *messagePayload) *apiError {
	atts := m.Attachments
	if p.atts != nil {
		atts = *p.atts
	}
	after := messagePayload{Content: &m.Content, Embeds: &m.Embeds, Components: &m.Components, atts: &atts}
	if p.Content != nil {
		after.Content = p.Content
	}
	if p.Embeds != nil {
		after.Embeds = p.Embeds
	}
	if p.Components != nil {
		after.Components = p.Components
	}
	if after.isEmpty() && !m.Loading() {
		return errEmptyMessage
	}
	return nil
}

func (s *Server) deleteChannelMessage(_ http.ResponseWriter, r *http.Request, _ []byte) (int, any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, e := s.channelMessageLocked(r)
	if e != nil {
		return 0, nil, e
	}
	if c := s.channels[m.ChannelID]; c.IsThread() && c.Archived {
		return 0, nil, errArchived
	}
	if m.Author.ID != s.bot.ID {
		if m.GuildID == "" || s.botPermsLocked(s.channels[m.ChannelID])&PermManageMessages == 0 {
			return 0, nil, errMissingPerms
		}
	}
	s.deleteMessageLocked(m)
	return http.StatusNoContent, nil, nil
}

var (
	errTooLarge      = &apiError{http.StatusRequestEntityTooLarge, 40005, "Request entity too large", nil, nil, false}
	errMissingAccess = &apiError{http.StatusForbidden, 50001, "Missing Access", nil, nil, false}
	errArchived      = &apiError{http.StatusBadRequest, 50083, "Thread is archived", nil, nil, false}
	errUnknownApp    = &apiError{http.StatusNotFound, 10002, "Unknown Application", nil, nil, false}
)
