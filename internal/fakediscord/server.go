package fakediscord

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Options configure a Server. The zero value is usable.
type Options struct {
	// Addr is the listen address; it must be a loopback address.
	// Default "127.0.0.1:0" (a free port).
	Addr string
	// Token is the bot token the bot must present ("Bot <token>").
	// Default "fake-bot-token".
	Token string
	// ApplicationID is the application id. Default: a fresh snowflake.
	ApplicationID string
	// BotUserID is the bot user's id. Default: a fresh snowflake, distinct
	// from the application id: Discord gives older applications a bot user
	// whose id differs from the application's, so a bot must register its
	// commands under the application id it reads from READY or from
	// GET /oauth2/applications/@me, never under its user id
	// (https://discord.com/developers/docs/topics/gateway-events#ready).
	BotUserID string
	// BotName is the bot user's name. Default "DIX".
	BotName string
	// CaptureDir, when set, receives one JSON file per request the bot sent.
	CaptureDir string
	// ResponseDeadline is how long the bot has for the initial response to
	// an interaction. Default 3s, as on Discord.
	ResponseDeadline time.Duration
	// TokenLifetime is how long an interaction token can be used for
	// follow-ups and edits. Default 15 minutes, as on Discord.
	TokenLifetime time.Duration
	// HeartbeatInterval sent in HELLO. Default 41.25s, as on Discord.
	HeartbeatInterval time.Duration
	// Logger receives diagnostics; default discards them. The token is never logged.
	Logger *slog.Logger
	// DisableWeb turns off the web view routes.
	DisableWeb bool
	// DisableRateLimits starts the server with the rate limits off (see
	// SetRateLimits): only for a test or benchmark that measures something
	// else. They are on by default, as on Discord.
	DisableRateLimits bool
	// RecommendedShards is the shard count GET /gateway/bot recommends.
	// Default 1.
	RecommendedShards int
	// PrivilegedIntents are the privileged gateway intents enabled for
	// the application (GUILD_MEMBERS 1<<1, GUILD_PRESENCES 1<<8,
	// MESSAGE_CONTENT 1<<15); an IDENTIFY asking for another one is
	// closed with 4014. None by default.
	PrivilegedIntents int64
	// APILatency delays every REST answer by this much after the request
	// took effect, as the network and Discord's servers do (tens to
	// hundreds of milliseconds; the stand-in itself answers in about one).
	// An interaction's answer still counts as given when its request
	// arrives. For load runs; 0 by default.
	APILatency time.Duration
	// DropPayloads keeps no interaction's payload once it is delivered,
	// nor the raw data of its answer: Payload and Response.Data are then
	// empty and Redeliver returns ErrNoPayload. For a load run, whose
	// interactions would otherwise hold about 10 KB each for its whole
	// length (a gigabyte for a hundred thousand).
	DropPayloads bool
	// DropFileData keeps what an attachment is (name, type, size,
	// dimensions) but not its bytes: for a load run, whose thousands of
	// pictures would fill the memory. File then returns no bytes and the
	// attachment's URL answers 404.
	DropFileData bool
	// DropHistory keeps of an edited message's earlier versions only when
	// each was replaced, by what, and its attachments (which a request
	// naming a replaced file is told apart by): for a load run, whose
	// boards are edited at every click and would otherwise keep every
	// version's embeds and components for the whole run.
	DropHistory bool
}

// Server is a local stand-in for Discord's REST API and gateway, with a
// scripting API for tests. All methods are safe for concurrent use.
type Server struct {
	opts    Options
	log     *slog.Logger
	ln      net.Listener
	httpSrv *http.Server
	baseURL string

	mu       sync.Mutex
	changed  chan struct{}            // closed and replaced on every state change
	watched  map[string]chan struct{} // channel id -> closed at its next message change
	closed   bool
	closedCh chan struct{} // closed by Close
	clockOff time.Duration
	frozen   time.Time // the clock stopped there (Freeze); zero: it runs
	shared   bool      // registered on the shared front (SharedURL); guarded by front.mu

	bot      User
	users    map[string]*User
	guilds   map[string]*Guild
	members  map[string]map[string]*member // guild -> user -> member
	channels map[string]*Channel
	order    []string // channel ids in creation order
	userSeq  []string // user ids in creation order

	globalCmds []*Command
	guildCmds  map[string][]*Command

	messages map[string]*Message
	nonces   map[string]nonceEntry // author NUL nonce -> message created with it
	chanMsgs map[string][]string   // channel -> message ids in order

	ixByID    map[string]*ixState
	ixByToken map[string]*ixState

	violations []*Violation

	sessions map[string]*gwSession
	conns    map[*gwConn]struct{}
	// gwRefusal, when not 0, is the close code every IDENTIFY and RESUME
	// gets (RefuseGateway); requiredShards is the shard count below which
	// an IDENTIFY gets 4011 (RequireShards).
	gwRefusal      int
	requiredShards int
	gwConnects     int
	gwSilent       bool // SilenceGateway

	captureSeq int64
	resumes    int
	holds      []*Hold
	after      afterBoardFault
	rateFaults []*rateFault // RateLimitNext
	globalTill time.Time    // RateLimitGlobal
	version    int64        // incremented on every change (web view polling)

	limits limiter
	stats  Stats
	files  map[string]*storedFile // attachment id -> file
	httpIx httpDelivery
}

type member struct {
	user        *User
	permissions int64
	joinedAt    time.Time
	nick        string
}

// Start starts a Server for a test and closes it when the test ends. It
// fails the test if the server cannot start.
//
// When opts has no CaptureDir and the environment variable
// FAKEDISCORD_CAPTURE names a directory, requests are captured to a
// subdirectory named after the test, so that a failing end-to-end run can
// be inspected (FAKEDISCORD_CAPTURE=/tmp/cap go test ./e2e/). This is the
// only place the package reads the environment: Start is test support.
func Start(tb testing.TB, opts ...Options) *Server {
	tb.Helper()
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	if o.Token == "" {
		o.Token = fmt.Sprintf("fake-bot-token-%d", startSeq.Add(1))
	}
	if dir := os.Getenv("FAKEDISCORD_CAPTURE"); o.CaptureDir == "" && dir != "" {
		o.CaptureDir = filepath.Join(dir, fileSafe(tb.Name()))
	}
	s, err := New(o)
	if err != nil {
		tb.Fatalf("fakediscord: %v", err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

// New starts a Server listening on opts.Addr (loopback only). Close it when done.
func New(opts Options) (*Server, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("fakediscord: listen address %q: %w", opts.Addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("fakediscord: listen address %q is not a loopback address", opts.Addr)
	}
	if opts.Token == "" {
		opts.Token = "fake-bot-token"
	}
	if opts.BotName == "" {
		opts.BotName = "DIX"
	}
	if opts.ResponseDeadline <= 0 {
		opts.ResponseDeadline = 3 * time.Second
	}
	if opts.TokenLifetime <= 0 {
		opts.TokenLifetime = 15 * time.Minute
	}
	if opts.HeartbeatInterval <= 0 {
		opts.HeartbeatInterval = 41250 * time.Millisecond
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		opts:      opts,
		log:       log,
		changed:   make(chan struct{}),
		closedCh:  make(chan struct{}),
		users:     map[string]*User{},
		guilds:    map[string]*Guild{},
		members:   map[string]map[string]*member{},
		channels:  map[string]*Channel{},
		guildCmds: map[string][]*Command{},
		messages:  map[string]*Message{},
		nonces:    map[string]nonceEntry{},
		chanMsgs:  map[string][]string{},
		ixByID:    map[string]*ixState{},
		ixByToken: map[string]*ixState{},
		sessions:  map[string]*gwSession{},
		conns:     map[*gwConn]struct{}{},
	}
	if opts.ApplicationID == "" {
		opts.ApplicationID = s.newID()
		s.opts.ApplicationID = opts.ApplicationID
	}
	if opts.BotUserID == "" {
		opts.BotUserID = s.newID()
		s.opts.BotUserID = opts.BotUserID
	}
	if opts.RecommendedShards <= 0 {
		s.opts.RecommendedShards = 1
	}
	s.limits.disabled = opts.DisableRateLimits
	s.files = map[string]*storedFile{}
	if err := s.initHTTPDelivery(); err != nil {
		return nil, err
	}
	s.bot = User{ID: opts.BotUserID, Username: opts.BotName, Discriminator: "0", Bot: true, Locale: "en-US"}
	s.users[s.bot.ID] = &s.bot

	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("fakediscord: %w", err)
	}
	s.ln = ln
	s.baseURL = "http://" + ln.Addr().String() + "/"
	s.httpSrv = &http.Server{Handler: s.routes(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.httpSrv.Serve(ln) }()
	return s, nil
}

// URL returns the HTTP base URL ("http://127.0.0.1:PORT/") to give to
// discordapi.SetBaseURL or DISCORD_API_URL.
func (s *Server) URL() string { return s.baseURL }

// GatewayURL returns the websocket URL the gateway endpoint announces.
func (s *Server) GatewayURL() string {
	return "ws://" + s.ln.Addr().String() + "/gateway-ws"
}

// Token returns the configured bot token (without the "Bot " prefix).
func (s *Server) Token() string { return s.opts.Token }

// ApplicationID returns the application id (not the bot user's id).
func (s *Server) ApplicationID() string { return s.opts.ApplicationID }

// BotUser returns the bot's user.
func (s *Server) BotUser() User { return s.bot }

// Close stops the server, its gateway connections and pending timers.
func (s *Server) Close() error {
	front.forget(s)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.closedCh)

	for _, ix := range s.ixByID {
		if ix.timer != nil {
			ix.timer.Stop()
		}
	}
	conns := make([]*gwConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.closeWatchesLocked()
	s.notifyLocked()
	s.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := s.httpSrv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = s.httpSrv.Close()
	}
	return err
}

// now is the fake's clock: wall time (or the time it was frozen at) plus
// any Advance. Callers hold s.mu.
func (s *Server) now() time.Time {
	if !s.frozen.IsZero() {
		return s.frozen.Add(s.clockOff).UTC()
	}
	return time.Now().Add(s.clockOff).UTC()
}

// Freeze stops the fake's clock, which then moves only by Advance: the
// rate limits' windows, timestamps and token lifetimes no longer depend
// on how fast the machine runs the test. The 3-second deadline check
// still runs on real time.
func (s *Server) Freeze() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.frozen.IsZero() {
		s.frozen = time.Now()
	}
}

// Advance moves the fake's clock forward by d, for example past the
// 15-minute token lifetime. It does not fire the 3-second deadline check,
// which runs on real time.
func (s *Server) Advance(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clockOff += d
}

// discordEpoch is 2015-01-01T00:00:00Z in milliseconds.
const discordEpoch = 1420070400000

// newID returns a fresh snowflake, strictly increasing. Callers may hold s.mu
// or not; lastID is only touched under idMu.
func (s *Server) newID() string {
	idMu.Lock()
	defer idMu.Unlock()
	ms := time.Now().UnixMilli() - discordEpoch
	id := ms << 22
	if id <= lastID {
		id = lastID + 1
	}
	lastID = id
	return strconv.FormatInt(id, 10)
}

// idMu guards lastID, the last snowflake handed out by any server of the
// process: ids are unique across servers, as they are on Discord, so that
// servers sharing the front (SharedURL) never issue the same one.
var (
	idMu   sync.Mutex
	lastID int64
)

// startSeq numbers the servers Start made, for their distinct bot tokens.
var startSeq atomic.Int64

func randomToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return "aW50ZXJhY3Rpb246" + hex.EncodeToString(b)
}

// notifyLocked wakes every waiter; s.mu must be held.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
	s.version++
}

// Changes returns a channel that is closed at the next state change (a
// message, an edit, an interaction response, a violation...). Take a new one
// after each wake-up.
func (s *Server) Changes() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// WaitFor calls cond after every state change until it returns true, and
// returns ctx.Err() if ctx ends first. cond may call any Server method.
func (s *Server) WaitFor(ctx context.Context, cond func() bool) error {
	for {
		ch := s.Changes()
		if cond() {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("fakediscord: waiting: %w", ctx.Err())
		case <-ch:
		}
	}
}

// Violations returns every breach of Discord's rules seen so far, oldest first.
func (s *Server) Violations() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]error, len(s.violations))
	for i, v := range s.violations {
		c := *v
		out[i] = &c
	}
	return out
}

func (s *Server) violateLocked(v *Violation) {
	if v.Time.IsZero() {
		v.Time = s.now()
	}
	s.violations = append(s.violations, v)
	s.log.Warn("discord rule violated", "code", v.Code, "message", v.Message, "path", v.Path, "details", v.Details)
	s.notifyLocked()
}

// --- guilds, channels, users ---

// GuildSpec describes a guild to create.
type GuildSpec struct {
	Name string
	// PreferredLocale is the server's language. Discord lets only
	// Community servers choose it: "Server Primary Language" is a
	// Community setting, and other servers always report "en-US" (as
	// preferred_locale and as an interaction's guild_locale). So it is
	// used only when Community is set; default "en-US".
	// https://discord.com/developers/docs/resources/guild#guild-object
	// ("preferred_locale: the preferred locale of a Community guild").
	PreferredLocale string
	// Community makes the guild a Community server (features
	// ["COMMUNITY"] in GUILD_CREATE).
	Community bool
}

// AddGuild creates a guild. The bot is a member of every guild; connected
// bot sessions receive GUILD_CREATE.
func (s *Server) AddGuild(spec GuildSpec) Guild {
	if spec.PreferredLocale == "" || !spec.Community {
		spec.PreferredLocale = "en-US"
	}
	if spec.Name == "" {
		spec.Name = "Guild"
	}
	g := &Guild{ID: s.newID(), Name: spec.Name, PreferredLocale: spec.PreferredLocale, Community: spec.Community}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.guilds[g.ID] = g
	s.members[g.ID] = map[string]*member{s.bot.ID: {user: &s.bot, permissions: BotPermissions, joinedAt: s.now()}}
	s.dispatchGuildLocked(g.ID, "GUILD_CREATE", s.guildCreateLocked(g))
	s.notifyLocked()
	return *g
}

// UserSpec describes a user to create.
type UserSpec struct {
	Name   string
	Locale string // client locale, e.g. "en-US" (default) or "fr"
}

// AddUser creates a user (not yet a member of any guild).
func (s *Server) AddUser(spec UserSpec) User {
	if spec.Locale == "" {
		spec.Locale = "en-US"
	}
	u := &User{ID: s.newID(), Username: spec.Name, GlobalName: spec.Name, Discriminator: "0", Locale: spec.Locale}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[u.ID] = u
	s.userSeq = append(s.userSeq, u.ID)
	s.notifyLocked()
	return *u
}

// AddMember makes a user a member of a guild with the given permissions
// (DefaultPermissions if zero; add PermManageChannels for moderators).
func (s *Server) AddMember(guildID, userID string, permissions int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ms, ok := s.members[guildID]
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownGuild, guildID)
	}
	u, ok := s.users[userID]
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownUser, userID)
	}
	if permissions == 0 {
		permissions = DefaultPermissions
	}
	ms[userID] = &member{user: u, permissions: permissions, joinedAt: s.now()}
	s.notifyLocked()
	return nil
}

// DMChannel returns the DM channel between the bot and a user, creating it.
func (s *Server) DMChannel(userID string) (Channel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.dmChannelLocked(userID)
	if err != nil {
		return Channel{}, err
	}
	return *c, nil
}

func (s *Server) dmChannelLocked(userID string) (*Channel, error) {
	if _, ok := s.users[userID]; !ok || userID == s.bot.ID {
		return nil, fmt.Errorf("%w: %s", ErrUnknownUser, userID)
	}
	for _, c := range s.channels {
		if c.Type == ChannelDM && c.Recipient == userID {
			return c, nil
		}
	}
	c := &Channel{ID: s.newID(), Type: ChannelDM, Recipient: userID}
	s.channels[c.ID] = c
	s.order = append(s.order, c.ID)
	return c, nil
}

// User returns a user by id.
func (s *Server) User(id string) (User, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[id]
	if !ok {
		return User{}, false
	}
	return *u, true
}

// Users returns the users created with AddUser, in creation order.
func (s *Server) Users() []User {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]User, 0, len(s.userSeq))
	for _, id := range s.userSeq {
		out = append(out, *s.users[id])
	}
	return out
}

// Guilds returns all guilds sorted by id.
func (s *Server) Guilds() []Guild {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Guild, 0, len(s.guilds))
	for _, g := range s.guilds {
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool { return idLess(out[i].ID, out[j].ID) })
	return out
}

// Channels returns all channels in creation order.
func (s *Server) Channels() []Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Channel, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, *s.channels[id])
	}
	return out
}

// Commands returns the registered commands visible in a guild (guild
// commands first, then global ones); guildID "" gives global commands only.
func (s *Server) Commands(guildID string) []Command {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Command
	for _, c := range s.commandsLocked(guildID) {
		out = append(out, cloneJSON(*c))
	}
	return out
}

func (s *Server) commandsLocked(guildID string) []*Command {
	var out []*Command
	if guildID != "" {
		out = append(out, s.guildCmds[guildID]...)
	}
	return append(out, s.globalCmds...)
}

func idLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// cloneJSON deep-copies v through JSON.
func cloneJSON[T any](v T) T {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}
