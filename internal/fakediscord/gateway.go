package fakediscord

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Gateway protocol.
// https://discord.com/developers/docs/events/gateway (opcodes, HELLO,
// IDENTIFY, READY, heartbeats, RESUME with replay of missed dispatches).
// Payloads are always sent as JSON text frames: zlib transport compression
// and the IDENTIFY "compress" flag are declined (Discord treats compress as
// a request, and discordgo reads uncompressed text frames as well).

const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opPresenceUpdate = 3
	opResume         = 6
	opReconnect      = 7
	opRequestMembers = 8
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatACK   = 11
)

// closeReasons are the gateway close codes and their reasons
// (https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes).
var closeReasons = map[int]string{
	4000: "Unknown error.",
	4001: "Unknown opcode.",
	4002: "Decode error.",
	4003: "Not authenticated.",
	4004: "Authentication failed.",
	4005: "Already authenticated.",
	4007: "Invalid seq.",
	4008: "Rate limited.",
	4009: "Session timed out.",
	4010: "Invalid shard.",
	4011: "Sharding required.",
	4012: "Invalid API version.",
	4013: "Invalid intent(s).",
	4014: "Disallowed intent(s).",
}

// sessionEnds reports whether a session cannot be resumed after a close
// with code: the codes the table says not to reconnect after (4004,
// 4010-4014), and 4007 and 4009, after which a new session must be
// started.
func sessionEnds(code int) bool {
	return code == 4004 || code == 4007 || code == 4009 || (code >= 4010 && code <= 4014)
}

// knownIntents are the intent bits Discord defines, privilegedIntents
// those an application must enable first
// (https://discord.com/developers/docs/events/gateway#list-of-intents).
const (
	knownIntents      = 1<<17 - 1 | 1<<20 | 1<<21 | 1<<24 | 1<<25
	privilegedIntents = 1<<1 | 1<<8 | 1<<15
)

// backlogSize is how many dispatches a session keeps for RESUME.
const backlogSize = 2000

type gwPayload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s"`
	T  *string         `json:"t"`
}

type gwEvent struct {
	seq  int64
	data []byte
}

// gwSession is a gateway session; it outlives its connections so that a
// dropped connection can RESUME.
type gwSession struct {
	id    string
	shard [2]int // [shard_id, num_shards]
	// intents are IDENTIFY's intents, nil when it gave none (then every
	// event is sent, as the fake did before it read them).
	intents *int64
	seq     int64
	conn    *gwConn
	backlog []gwEvent
}

type gwConn struct {
	ws      *websocket.Conn
	out     chan []byte
	once    sync.Once
	done    chan struct{}
	session *gwSession // set after IDENTIFY/RESUME, under Server.mu
}

func (c *gwConn) close() {
	c.once.Do(func() {
		close(c.done)
		_ = c.ws.Close()
	})
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &gwConn{ws: ws, out: make(chan []byte, 4096), done: make(chan struct{})}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.close()
		return
	}
	s.conns[c] = struct{}{}
	s.gwConnects++
	s.mu.Unlock()
	// The gateway speaks versions 9 and 10 (https://discord.com/developers/docs/reference#api-versioning);
	// another "v" closes with 4012 Invalid API version.
	if v := r.URL.Query().Get("v"); v != "" && v != "9" && v != "10" {
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		s.closeWith(c, 4012, closeReasons[4012])
		return
	}

	go s.gwWriter(c)
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		if c.session != nil && c.session.conn == c {
			c.session.conn = nil
		}
		s.notifyLocked()
		s.mu.Unlock()
		c.close()
	}()

	s.mu.Lock()
	silent := s.gwSilent
	s.mu.Unlock()
	if !silent {
		c.send(mustJSON(map[string]any{"op": opHello, "d": map[string]any{"heartbeat_interval": s.opts.HeartbeatInterval.Milliseconds()}, "s": nil, "t": nil}))
	}
	for {
		_, msg, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var p gwPayload
		if err := json.Unmarshal(msg, &p); err != nil {
			s.closeWith(c, 4002, closeReasons[4002])
			return
		}
		switch p.Op {
		case opHeartbeat:
			c.send(mustJSON(map[string]any{"op": opHeartbeatACK, "d": nil}))
		case opIdentify:
			if !s.identify(c, p.D) {
				return
			}
		case opResume:
			if !s.resume(c, p.D) {
				return
			}
		case opPresenceUpdate, opRequestMembers, 4:
			// Accepted and ignored.
		default:
			s.closeWith(c, 4001, closeReasons[4001])
			return
		}
	}
}

func (s *Server) gwWriter(c *gwConn) {
	for {
		select {
		case <-c.done:
			return
		case b := <-c.out:
			_ = c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
				c.close()
				return
			}
		}
	}
}

// send queues a frame; a connection too slow to drain its queue is dropped.
func (c *gwConn) send(b []byte) {
	select {
	case c.out <- b:
	case <-c.done:
	default:
		c.close()
	}
}

func (s *Server) closeWith(c *gwConn, code int, reason string) {
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	c.close()
}

func (s *Server) tokenOK(tok string) bool {
	return strings.TrimPrefix(tok, "Bot ") == s.opts.Token
}

func (s *Server) identify(c *gwConn, d json.RawMessage) bool {
	var id struct {
		Token   string `json:"token"`
		Shard   []int  `json:"shard"`
		Intents *int64 `json:"intents"`
	}
	_ = json.Unmarshal(d, &id)
	if !s.tokenOK(id.Token) {
		s.closeWith(c, 4004, closeReasons[4004])
		return false
	}
	// Intents: a bit Discord does not define closes with 4013, a
	// privileged intent the application has not enabled with 4014
	// (https://discord.com/developers/docs/events/gateway#gateway-intents,
	// #privileged-intents).
	if id.Intents != nil {
		switch {
		case *id.Intents&^knownIntents != 0 || *id.Intents < 0:
			s.closeWith(c, 4013, closeReasons[4013])
			return false
		case *id.Intents&privilegedIntents&^s.opts.PrivilegedIntents != 0:
			s.closeWith(c, 4014, closeReasons[4014])
			return false
		}
	}
	// Sharding: "shard": [shard_id, num_shards]; guild events go to the
	// shard with (guild_id >> 22) % num_shards == shard_id, DMs to shard 0;
	// an invalid pair closes with 4010 Invalid shard.
	// https://discord.com/developers/docs/events/gateway#sharding
	shard := [2]int{0, 1}
	if len(id.Shard) > 0 {
		if len(id.Shard) != 2 || id.Shard[1] < 1 || id.Shard[0] < 0 || id.Shard[0] >= id.Shard[1] {
			s.closeWith(c, 4010, closeReasons[4010])
			return false
		}
		shard = [2]int{id.Shard[0], id.Shard[1]}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gwRefusal != 0 {
		s.closeWith(c, s.gwRefusal, closeReasons[s.gwRefusal])
		return false
	}
	// A session that would handle too many guilds must shard: 4011.
	if shard[1] < s.requiredShards {
		s.closeWith(c, 4011, closeReasons[4011])
		return false
	}
	if c.session != nil {
		s.closeWith(c, 4005, closeReasons[4005])
		return false
	}
	sess := &gwSession{id: strings.ReplaceAll(randomToken()[16:48], "-", ""), conn: c, shard: shard, intents: id.Intents}
	c.session = sess
	s.sessions[sess.id] = sess
	guilds := []map[string]any{}
	for _, g := range s.sortedGuildsLocked() {
		if sess.serves(g.ID) {
			guilds = append(guilds, map[string]any{"id": g.ID, "unavailable": true})
		}
	}
	ready := map[string]any{
		"v":                  9,
		"user":               s.bot,
		"guilds":             guilds,
		"session_id":         sess.id,
		"resume_gateway_url": s.GatewayURL(),
		"private_channels":   []any{},
		"application":        map[string]any{"id": s.opts.ApplicationID, "flags": 0},
		"shard":              []int{shard[0], shard[1]},
	}
	s.dispatchToLocked(sess, "READY", ready)
	for _, g := range s.sortedGuildsLocked() {
		if sess.serves(g.ID) {
			s.dispatchToLocked(sess, "GUILD_CREATE", s.guildCreateLocked(g))
		}
	}
	s.notifyLocked()
	return true
}

func (s *Server) resume(c *gwConn, d json.RawMessage) bool {
	var rs struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	_ = json.Unmarshal(d, &rs)
	if !s.tokenOK(rs.Token) {
		s.closeWith(c, 4004, closeReasons[4004])
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gwRefusal != 0 {
		s.closeWith(c, s.gwRefusal, closeReasons[s.gwRefusal])
		return false
	}
	sess, ok := s.sessions[rs.SessionID]
	if !ok || (len(sess.kept()) > 0 && sess.kept()[0].seq > rs.Seq+1) {
		c.send(mustJSON(map[string]any{"op": opInvalidSession, "d": false}))
		return true
	}
	if old := sess.conn; old != nil && old != c {
		old.close()
	}
	sess.conn = c
	c.session = sess
	s.resumes++
	for _, ev := range sess.kept() {
		if ev.seq > rs.Seq {
			c.send(ev.data)
		}
	}
	s.dispatchToLocked(sess, "RESUMED", map[string]any{})
	s.notifyLocked()
	return true
}

func (s *Server) sortedGuildsLocked() []*Guild {
	out := make([]*Guild, 0, len(s.guilds))
	for _, g := range s.guilds {
		out = append(out, g)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && idLess(out[j].ID, out[j-1].ID); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func (s *Server) guildCreateLocked(g *Guild) map[string]any {
	out := s.guildJSONLocked(g)
	members := []map[string]any{}
	for _, m := range s.members[g.ID] {
		members = append(members, s.memberJSON(m))
	}
	out["members"] = members
	out["member_count"] = len(members)
	out["channels"] = s.guildChannelsLocked(g.ID, false)
	out["threads"] = s.guildChannelsLocked(g.ID, true)
	out["voice_states"] = []any{}
	out["presences"] = []any{}
	out["unavailable"] = false
	out["joined_at"] = timestamp(s.now())
	out["large"] = false
	return out
}

// dispatchGuildLocked sends a dispatch event about a guild ("" for DMs) to
// the bot sessions of the shard serving it.
func (s *Server) dispatchGuildLocked(guildID, t string, d any) {
	var b []byte // marshalled once for every session that wants it
	for _, sess := range s.sessions {
		if sess.serves(guildID) && sess.wants(guildID, t) {
			if b == nil {
				b = mustJSON(d)
			}
			s.dispatchToLocked(sess, t, json.RawMessage(b))
		}
	}
}

// Gateway intents the fake applies to message events: a session receives
// MESSAGE_CREATE, MESSAGE_UPDATE and MESSAGE_DELETE of a guild only with
// GUILD_MESSAGES, of a DM only with DIRECT_MESSAGES. Interactions need no
// intent. https://discord.com/developers/docs/events/gateway#list-of-intents
const (
	intentGuildMessages  = 1 << 9
	intentDirectMessages = 1 << 12
)

// wantedLocked reports whether a session would receive event t of
// guildID, so that a message nobody receives is not marshalled.
func (s *Server) wantedLocked(guildID, t string) bool {
	for _, sess := range s.sessions {
		if sess.serves(guildID) && sess.wants(guildID, t) {
			return true
		}
	}
	return false
}

// wants reports whether the session's intents ask for event t of guildID.
func (sess *gwSession) wants(guildID, t string) bool {
	if sess.intents == nil || !strings.HasPrefix(t, "MESSAGE_") {
		return true
	}
	need := int64(intentGuildMessages)
	if guildID == "" {
		need = intentDirectMessages
	}
	return *sess.intents&need != 0
}

// serves reports whether the session's shard receives a guild's events:
// shard_id = (guild_id >> 22) % num_shards; DMs go to shard 0.
func (sess *gwSession) serves(guildID string) bool {
	return shardOf(guildID, sess.shard[1]) == sess.shard[0]
}

func shardOf(guildID string, count int) int {
	if guildID == "" || count <= 1 {
		return 0
	}
	id, _ := strconv.ParseUint(guildID, 10, 64)
	return int((id >> 22) % uint64(count))
}

// kept is the session's last backlogSize dispatches, those a RESUME
// replays.
func (sess *gwSession) kept() []gwEvent {
	return sess.backlog[max(0, len(sess.backlog)-backlogSize):]
}

func (s *Server) dispatchToLocked(sess *gwSession, t string, d any) {
	sess.seq++
	seq := sess.seq
	b := mustJSON(map[string]any{"op": opDispatch, "s": seq, "t": t, "d": d})
	sess.backlog = append(sess.backlog, gwEvent{seq: seq, data: b})
	if len(sess.backlog) >= 2*backlogSize {
		// Trimmed in one copy every backlogSize dispatches; kept() is
		// the window a RESUME sees.
		sess.backlog = append(make([]gwEvent, 0, 2*backlogSize), sess.kept()...)
	}
	if sess.conn != nil {
		sess.conn.send(b)
	}
}

// botReachableLocked reports whether an interaction in a guild ("" for
// DMs) can be delivered: by HTTP when endpoints are set, else to a bot
// session (connected or resumable) of the guild's shard.
func (s *Server) botReachableLocked(guildID string) bool {
	if len(s.httpIx.endpoints) > 0 {
		return true
	}
	for _, sess := range s.sessions {
		if sess.serves(guildID) {
			return true
		}
	}
	return false
}

// Connected reports whether a bot session is currently connected.
func (s *Server) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sess := range s.sessions {
		if sess.conn != nil {
			return true
		}
	}
	return false
}

// ConnectedShards returns the [shard_id, num_shards] pair of every
// connected gateway session, sorted.
func (s *Server) ConnectedShards() [][2]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out [][2]int
	for _, sess := range s.sessions {
		if sess.conn != nil {
			out = append(out, sess.shard)
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[1], b[1]), cmp.Compare(a[0], b[0])) })
	return out
}

// DropGateway abruptly closes every gateway connection (as a network
// failure would); sessions stay resumable and dispatches are kept for replay.
func (s *Server) DropGateway() {
	s.mu.Lock()
	conns := make([]*gwConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
		if c.session != nil && c.session.conn == c {
			c.session.conn = nil
		}
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
}

// CloseGateway closes every gateway connection with code (one of
// Discord's 4000-4014) and its reason, as Discord does. After a code that
// ends the session (4004, 4007, 4009, 4010-4014) the sessions are
// forgotten: a RESUME of them gets Invalid Session.
func (s *Server) CloseGateway(code int) {
	s.closeGatewayIf(code, func(*gwConn) bool { return true })
}

func (s *Server) closeGatewayIf(code int, match func(*gwConn) bool) {
	s.mu.Lock()
	var conns []*gwConn
	for c := range s.conns {
		if !match(c) {
			continue
		}
		conns = append(conns, c)
		if sess := c.session; sess != nil {
			if sess.conn == c {
				sess.conn = nil
			}
			if sessionEnds(code) {
				delete(s.sessions, sess.id)
			}
		}
	}
	s.notifyLocked()
	s.mu.Unlock()
	for _, c := range conns {
		s.closeWith(c, code, closeReasons[code])
	}
}

// RefuseGateway makes Discord close every connection with code, now and
// at every later IDENTIFY or RESUME, as it does for a token reset after
// the bot connected (4004) or an intent no longer enabled (4014). 0
// accepts connections again.
func (s *Server) RefuseGateway(code int) {
	s.mu.Lock()
	s.gwRefusal = code
	s.mu.Unlock()
	if code != 0 {
		s.CloseGateway(code)
	}
}

// RequireShards makes the application need at least n shards, as when it
// joined too many servers: GET /gateway/bot recommends n or more, the
// connected sessions of fewer shards are closed with 4011 Sharding
// required, and so is every later IDENTIFY of fewer.
func (s *Server) RequireShards(n int) {
	s.mu.Lock()
	s.requiredShards = n
	s.mu.Unlock()
	s.closeGatewayIf(4011, func(c *gwConn) bool { return c.session != nil && c.session.shard[1] < n })
}

// SilenceGateway makes new gateway connections get no HELLO (and so
// nothing else), as a gateway that accepts connections but does not
// answer would; false makes it greet them again.
func (s *Server) SilenceGateway(silent bool) {
	s.mu.Lock()
	s.gwSilent = silent
	s.mu.Unlock()
}

// GatewayConnects returns how many gateway connections were opened.
func (s *Server) GatewayConnects() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gwConnects
}

// Resumes returns how many times a bot session resumed.
func (s *Server) Resumes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resumes
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
