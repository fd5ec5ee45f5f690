package bot

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/internal/batches"
	"github.com/dixgame/dixbot/internal/discordapi"
	"github.com/dixgame/dixbot/internal/redact"
	"github.com/dixgame/dixbot/internal/workers"
	"github.com/dixgame/dixbot/locales"
)

// Options configure a Bot.
type Options struct {
	Store           dixbot.Store
	Logger          *slog.Logger
	GuildID         string        // register commands in this server only ("" = global)
	DefaultLanguage string        // "en" or "fr": used when the server's locale is neither
	StoreTimeout    time.Duration // per store call; default 1500ms so Discord's 3 s deadline is always met
	Observer        Observer      // optional metrics sink (nil = none)
	// Seed returns the seed of a new game's shuffle; nil draws a random one.
	// Tests set it to get the same deck every time.
	Seed func() int64
	// EffectDelay holds the Discord work owed by a change for this long
	// after the answer: tests widen the window in which a crash leaves it
	// to another process. Zero in production.
	EffectDelay time.Duration
	// Paces are the paces a game may be played at (clock.ParsePaces);
	// nil means clock.Defaults.
	Paces []clock.Pace
	// Now is the time source of the clocks (nil: time.Now); tests move it.
	Now func() time.Time
	// WakeAt, when set, is told the next due time of every game this
	// process changes, so that the poller of due work (schedule.Runner)
	// can act on a deadline at its moment rather than at its next poll.
	WakeAt func(time.Time)
	// NoPictures turns the pictures off for every game (DIX_PICTURES=off):
	// boards, hands and scoreboards are text only.
	NoPictures bool
	// Games are the games the table hosts, each under its own command and
	// custom id prefix, in the order commands and statistics list them.
	Games []present.Game
}

// Observer receives metrics. Implementations must be safe for concurrent use.
type Observer interface {
	// Interaction reports one handled interaction. kind: command|button|select|modal;
	// outcome: ok|refused|stale|duplicate|error|panic.
	Interaction(kind, outcome string, d time.Duration)
	// StoreError reports a failed store call (op: get|create|update|finish|delete).
	StoreError(op string)
}

// Time budgets. Discord wants the first answer within 3 s of the
// interaction; an answer that is not ready within deferAfter is deferred
// (see deferNow), which gives the interaction 15 minutes, and the work goes
// on until workBudget: a store that is slow, or down for a moment, is
// waited for and tried again; only one that stays down that long gets the
// localised error.
const (
	defaultStoreTimeout = 1500 * time.Millisecond
	deferAfter          = 1500 * time.Millisecond // from the interaction's arrival: Discord's 3 s, less the time to reach us and to answer on a loaded machine
	workBudget          = 8 * time.Second         // store work and routing before the answer
	respondTimeout      = 3 * time.Second         // one call to Discord
	deferredTimeout     = 10 * time.Second        // a deferred interaction's answer, its edit tried again included
	afterTimeout        = 15 * time.Second        // post-answer work (new board, pings)
	storeRetryPause     = 100 * time.Millisecond  // before the first retry of a failed store call; doubles
)

// Bot is the table: it handles the Discord interactions of every game it
// hosts. It is safe for concurrent use:
// Handle may run for many interactions at once.
type Bot struct {
	store       dixbot.Store
	log         *slog.Logger
	guild       string
	lang        string
	timeout     time.Duration
	obs         Observer
	seed        func() int64
	cmdIDs      map[string]string // English subcommand name -> handler id
	apis        sync.Map          // *discordgo.Session -> discordapi.API
	bots        sync.Map          // *discordgo.RateLimiter -> *discordapi.BotSession (shards share one)
	gate        discordapi.Gate   // the bot's global rate limit
	boardFences fences            // the order of what reaches each board message
	work        workers.Pool      // the folds' writes (later)
	self        string            // this process among the bot's processes (effect.By)
	games       registry          // the contract games by name
	order       []string          // their names, in the order of Options.Games

	// deferAfter and workBudget are the time budgets, retryPause the
	// first pause before a failed store call is tried again (the constants
	// deferAfter, workBudget and storeRetryPause); tests shorten them.
	deferAfter time.Duration
	workBudget time.Duration
	retryPause time.Duration

	paces        []clock.Pace
	now          func() time.Time
	wakeAt       func(time.Time)
	hooks        testHooks // nothing in production but Options.EffectDelay
	noPictures   bool
	noFiles      sync.Map       // channel id -> struct{}: no Attach Files there (mayAttach)
	dismissed    dismissed      // private prompts removed (dismissPrompt)
	channelLocks [64]sync.Mutex // runEffects, by channel hash
	folds        folds          // effects done, recorded with the channel's next change (fold.go)
	tables       tableCache     // the table data this process last wrote, by channel (tablecache.go)
	batches      batches.Set    // effects this process owes a batch for (internal/batches)

	mu       sync.Mutex
	closing  bool
	inflight sync.WaitGroup
}

// New returns a Bot. It returns an error when opts.Store is nil or
// opts.DefaultLanguage is set to an unsupported language.
func New(opts Options) (*Bot, error) {
	if opts.Store == nil {
		return nil, errors.New("bot: no store")
	}
	if opts.DefaultLanguage == "" {
		opts.DefaultLanguage = locales.English
	}
	if !locales.Supported(opts.DefaultLanguage) {
		return nil, fmt.Errorf("bot: unsupported default language %q", opts.DefaultLanguage)
	}
	// Interaction tokens never reach the logs (see package redact).
	opts.Logger = redact.Logger(opts.Logger)
	if opts.StoreTimeout <= 0 {
		opts.StoreTimeout = defaultStoreTimeout
	}
	if opts.Seed == nil {
		opts.Seed = randomSeed
	}
	b := &Bot{
		store:   opts.Store,
		log:     opts.Logger,
		guild:   opts.GuildID,
		lang:    opts.DefaultLanguage,
		timeout: opts.StoreTimeout,
		obs:     opts.Observer,
		seed:    opts.Seed,
		cmdIDs:  map[string]string{},
		self:    strconv.FormatUint(uint64(randomSeed()), 36),

		hooks:      testHooks{effectDelay: opts.EffectDelay},
		paces:      opts.Paces,
		now:        opts.Now,
		wakeAt:     opts.WakeAt,
		noPictures: opts.NoPictures,
		deferAfter: deferAfter,
		workBudget: workBudget,
		retryPause: storeRetryPause,
		batches:    batches.Set{Longest: afterTimeout},
	}
	if b.wakeAt == nil {
		b.wakeAt = func(time.Time) {}
	}
	if len(b.paces) == 0 {
		b.paces = clock.Defaults
	}
	if _, ok := clock.Find(b.paces, clock.DefaultPace); !ok {
		return nil, fmt.Errorf("bot: the paces lack the default %q", clock.DefaultPace)
	}
	if b.now == nil {
		b.now = time.Now
	}
	for _, id := range append(slices.Clone(gameSubcommands), "solo") {
		b.cmdIDs[locales.T(locales.English, "cmd_"+id+"_name", nil)] = id
	}
	games, err := newRegistry(opts.Games)
	if err != nil {
		return nil, err
	}
	for _, g := range opts.Games {
		b.order = append(b.order, g.Rules.Name())
	}
	for _, g := range games {
		for _, id := range g.Views {
			b.cmdIDs[locales.T(locales.English, "cmd_"+id+"_name", nil)] = id
		}
	}
	games.setBanks(b.paces)
	b.games = games
	return b, nil
}

func randomSeed() int64 {
	var buf [8]byte
	if _, err := rand.Read(buf[:]); err != nil {
		return time.Now().UnixNano()
	}
	return int64(binary.LittleEndian.Uint64(buf[:]) >> 1)
}

// Register overwrites the application's commands with Commands(), in the
// server GuildID or globally. Commands belong to the application, whose id
// READY gives (s.State.Application) or else GET /oauth2/applications/@me;
// it may differ from the bot user's id and is never assumed equal to it.
// It returns Discord's error, if any.
func (b *Bot) Register(s *discordgo.Session) error {
	appID := ""
	if s.State != nil {
		s.State.RLock()
		if s.State.Application != nil {
			appID = s.State.Application.ID
		}
		s.State.RUnlock()
	}
	if appID == "" {
		app, err := s.Application("@me")
		if err != nil {
			return fmt.Errorf("bot: application id: %w", err)
		}
		appID = app.ID
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// Start-up may wait out a rate limit: replicas starting together
	// register the same commands at once. The request is discordgo's bulk
	// overwrite (PUT of the commands' route), each command with its
	// contexts (Command).
	endpoint := discordgo.EndpointApplicationGlobalCommands(appID)
	if b.guild != "" {
		endpoint = discordgo.EndpointApplicationGuildCommands(appID, b.guild)
	}
	_, err := s.RequestWithBucketID(http.MethodPut, endpoint, b.Commands(), endpoint, discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(true))
	if err != nil {
		return fmt.Errorf("bot: register commands: %w", err)
	}
	return nil
}

// HandleJSON answers one interaction received over the gateway, raw being
// the event's data (it tells what discordgo's Interaction does not decode,
// such as the type of the channel it came from). It is safe for
// concurrent use, answers within Discord's deadline, and recovers from
// panics (still answering with an error message).
func (b *Bot) HandleJSON(s *discordgo.Session, i *discordgo.InteractionCreate, raw []byte) {
	b.Serve(b.sessionAPI(s), i, raw)
}

// HandleAnswered is HandleJSON for an interaction received over HTTP (the
// interactions endpoint), raw being the request's body: answered is
// called once, as soon as the first answer has been sent to Discord or
// could not be, before the work that follows it (new board, pings), so
// the HTTP request can be replied to at once. It is called even when no
// answer is sent (a redelivery).
func (b *Bot) HandleAnswered(s *discordgo.Session, i *discordgo.InteractionCreate, raw []byte, answered func()) {
	var once sync.Once
	done := func() { once.Do(answered) }
	defer done()
	b.Serve(answeredAPI{DiscordAPI: b.sessionAPI(s), answered: done}, i, raw)
}

// answeredAPI is a discordAPI that reports the first answer.
type answeredAPI struct {
	DiscordAPI
	answered func()
}

func (a answeredAPI) Respond(ctx context.Context, i *discordgo.Interaction, r *discordgo.InteractionResponse) error {
	defer a.answered()
	return a.DiscordAPI.Respond(ctx, i, r)
}

// sessionAPI is the discordAPI of s, made once per session.
func (b *Bot) sessionAPI(s *discordgo.Session) discordapi.API {
	if a, ok := b.apis.Load(s); ok {
		return a.(discordapi.API)
	}
	bt, _ := b.bots.LoadOrStore(s.Ratelimiter, discordapi.NewBotSession(s, &b.gate))
	a, _ := b.apis.LoadOrStore(s, discordapi.NewAPI(s, bt.(*discordapi.BotSession)))
	return a.(discordapi.API)
}

// Close stops taking interactions (new ones get a localised "restarting"
// answer) and waits for the ones in flight, or for ctx.
func (b *Bot) Close(ctx context.Context) error {
	b.mu.Lock()
	b.closing = true
	b.mu.Unlock()
	done := make(chan struct{})
	go func() { b.inflight.Wait(); close(done) }()
	select {
	case <-done:
		b.writeFolds(ctx)
		b.work.Stop()
		return nil
	case <-ctx.Done():
		return fmt.Errorf("bot: close: %w", ctx.Err())
	}
}

func (b *Bot) enter() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closing {
		return false
	}
	b.inflight.Add(1)
	return true
}

// Call is one interaction being handled.
type Call struct {
	B    *Bot
	D    DiscordAPI
	I    *discordgo.Interaction
	raw  []byte          // the interaction's JSON, when the intake has it
	ctx  context.Context // deadline for the work before the first answer
	User string          // the clicking user's id
	Name string          // their display name
	Lang string          // their language (ephemeral messages)
	kind string          // command|button|select|modal
	Game string          // the game the call is for ("": a command of the table)

	// ansMu orders the first answer and the deferral (deferNow, run by a
	// timer): whichever comes first decides how the other is sent.
	ansMu    sync.Mutex
	deferred discordgo.InteractionResponseType // the deferral Discord took (0: none)
	// unsure is a deferral sent whose reply never came back (a timeout,
	// a connection lost): Discord may have taken it (deferral.go).
	unsure discordgo.InteractionResponseType
	closed bool // the handler is done: no deferral any more

	Responded bool
	Answered  bool      // Discord took the answer (or a deferral)
	At        time.Time // when the interaction arrived
	updated   string    // the message the answer updated in place ("": none)
	// acked: the answer acknowledged the click on its message without
	// changing it (type 6), so that message is the interaction's
	// "@original" although the answer updated nothing.
	acked bool
	Shows *shows // what an answer updating the board puts on it (nil: not a board)
	// raced is the game the call's change wrote (its state's bytes), when
	// it was made while several seats decided at once: another process
	// may change the game too and answer first (overtaken). nil: not so.
	raced []byte
	// racedShown is raced once the answer showing it landed on the board.
	racedShown []byte
	// wrote is the table data the call's last change wrote, decoded, with
	// its bytes: the outbox's run after the answer reads it from there
	// (settleAnswer).
	wrote  written
	after  []func(ctx context.Context) // post-answer work
	notice boardNotice                 // its game's board, if missing (missing.go)
	// answerPic is the key of the picture the answer shows on the board
	// ("": none).
	answerPic string
	// boardHad is the key of the pictures the board message clicked has,
	// when sure ("": not known; pictures.go).
	boardHad string
	// keptFiles are the pictures an answer listed as kept rather than
	// uploaded, for sending them should Discord refuse the list.
	keptFiles []*discordgo.File
}

// Via is the call's interaction, for the work after the answer (see via).
func (c *Call) Via() *Via {
	if !c.Answered || c.I.Token == "" || c.I.AppID == "" {
		return nil
	}
	v := &Via{App: c.I.AppID, Token: c.I.Token, At: c.At.UnixMilli(), Orig: c.updated}
	if c.updated != "" {
		v.Pic = c.answerPic
	}
	return v
}

func (b *Bot) Serve(d DiscordAPI, ic *discordgo.InteractionCreate, raw []byte) {
	if ic == nil || ic.Interaction == nil {
		return
	}
	start := time.Now()
	c := &Call{B: b, D: d, I: ic.Interaction, raw: raw, kind: kindOf(ic.Interaction), At: start}
	b.notePermissions(ic.Interaction)
	c.User, c.Name = userOf(ic.Interaction)
	c.Lang = locales.Or(locales.For(string(ic.Locale)), b.lang)
	if ic.Type == discordgo.InteractionApplicationCommandAutocomplete || ic.Type == discordgo.InteractionPing {
		return
	}
	if !b.enter() {
		c.ctx = context.Background()
		c.fail(ErrClosing)
		b.observe(c.kind, outcomeRefused, start)
		return
	}
	defer b.inflight.Done()
	ctx, cancel := context.WithTimeout(context.Background(), b.workBudget)
	defer cancel()
	c.ctx = ctx
	timer := time.AfterFunc(max(0, b.deferAfter-time.Since(start)), c.deferNow)

	outcome := outcomeOK
	func() {
		defer func() {
			if r := recover(); r != nil {
				b.log.Error("panic handling interaction", "interaction", c.I.ID, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				outcome = outcomePanic
				c.after = nil
				c.fail(errPanic)
			}
		}()
		err := b.route(c)
		switch {
		case errors.Is(err, dixbot.ErrDuplicate):
			// The store already applied this very interaction: it is a
			// redelivery, answered only if the first delivery did not.
			b.log.Debug("interaction already applied", "interaction", c.I.ID)
			outcome = outcomeDuplicate
			c.answerApplied()
		case err != nil:
			outcome = c.fail(err)
		}
		c.tellMissing()
	}()
	timer.Stop()
	c.close()
	b.observe(c.kind, outcome, start)

	if len(c.after) > 0 {
		actx, acancel := context.WithTimeout(context.Background(), afterTimeout)
		defer acancel()
		actx = context.WithValue(actx, apiKey, d)
		for _, f := range c.after {
			func() {
				defer func() {
					if r := recover(); r != nil {
						b.log.Error("panic after answering", "interaction", c.I.ID, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
					}
				}()
				f(actx)
			}()
		}
	}
}

var errPanic = errors.New("bot: internal error")

func (b *Bot) observe(kind, outcome string, start time.Time) {
	if b.obs != nil {
		b.obs.Interaction(kind, outcome, time.Since(start))
	}
}

func kindOf(i *discordgo.Interaction) string {
	switch i.Type {
	case discordgo.InteractionMessageComponent:
		if d, ok := i.Data.(discordgo.MessageComponentInteractionData); ok && d.ComponentType != discordgo.ButtonComponent {
			return "select"
		}
		return "button"
	case discordgo.InteractionModalSubmit:
		return "modal"
	}
	return "command"
}

// userOf is the id and the name shown of the interaction's user: in a
// server, the member's nickname there; else the user's display name, else
// the user name
// (https://discord.com/developers/docs/resources/user#user-object-user-structure).
func userOf(i *discordgo.Interaction) (id, name string) {
	if i.Member != nil && i.Member.User != nil {
		if i.Member.Nick != "" {
			return i.Member.User.ID, i.Member.Nick
		}
		return i.Member.User.ID, displayName(i.Member.User)
	}
	if i.User != nil {
		return i.User.ID, displayName(i.User)
	}
	return "", ""
}

// displayName is u's display name (global_name), else its user name.
func displayName(u *discordgo.User) string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// Then queues work to do after the first answer (new board, pings).
func (c *Call) Then(f func(ctx context.Context)) { c.after = append(c.after, f) }

// fail answers err as a localised ephemeral message and returns the outcome.
// Unexpected errors are logged with the interaction id.
func (c *Call) fail(err error) string {
	key, data, outcome, unexpected := classify(err)
	if errors.Is(err, errPanic) {
		key, outcome, unexpected = "err_internal", outcomePanic, false
	}
	if unexpected {
		c.B.log.Error("interaction failed", "interaction", c.I.ID, "channel", c.I.ChannelID, "err", err)
	} else {
		c.B.log.Debug("interaction refused", "interaction", c.I.ID, "err", err)
	}
	if c.answerOver(err) || c.answerLost(err) {
		return outcomeStale
	}
	text := locales.T(c.Lang, key, data)
	if outcome == outcomeRefused && c.fromPrompt() && !c.Responded {
		// A refusal in a private prompt replaces the prompt's previous
		// refusal: the prompt is redrawn with it on top, its buttons
		// intact, instead of a new message piling up under it.
		msg := c.I.Message
		content := locales.T(c.Lang, "refusal_line", map[string]any{"Text": text})
		if rest := withoutRefusal(msg.Content); rest != "" {
			content += "\n" + rest
		}
		c.Update(content, msg.Embeds, msg.Components)
		return outcome
	}
	if outcome == outcomeStale {
		c.sayOver(text)
	} else {
		c.Ephemeral(text, nil)
	}
	return outcome
}

// sayOver answers text privately, about a decision that is over: a
// private prompt of it loses its buttons and becomes the answer itself,
// so no live copy of an old decision is left behind.
func (c *Call) sayOver(text string) {
	if c.fromPrompt() && !c.Responded {
		c.Update(text, nil, nil)
		return
	}
	c.Ephemeral(text, nil)
}

// fromPrompt reports whether the interaction came from one of the bot's
// private prompts (an ephemeral message with components).
func (c *Call) fromPrompt() bool {
	m := c.I.Message
	return m != nil && m.Flags&discordgo.MessageFlagsEphemeral != 0 && len(m.Components) > 0
}

// withoutRefusal is a prompt's text without the refusal line a previous
// refusal put on top.
func withoutRefusal(content string) string {
	first, rest, found := strings.Cut(content, "\n")
	if strings.HasPrefix(first, refusalMark) {
		if !found {
			return ""
		}
		return rest
	}
	return content
}

// refusalMark starts every refusal line (locale key refusal_line).
const refusalMark = "⚠️"

// Store calls, each with its own timeout inside the answer budget.

func (c *Call) storeCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(c.ctx, c.B.timeout)
}

func (c *Call) storeErr(op string, err error) error {
	c.B.storeFailed(op, err)
	return err
}

// storeFailed counts err when it is a failure of the store in op.
func (b *Bot) storeFailed(op string, err error) {
	if err != nil && isStoreFailure(err) && b.obs != nil {
		b.obs.StoreError(op)
	}
}

// getQuiet is get for decorating a message: it never reports metrics and
// stays within what is left of the answer budget.
func (c *Call) getQuiet() (*dixbot.Record, error) {
	base := c.ctx
	if base == nil {
		base = context.Background()
	}
	ctx, cancel := context.WithTimeout(base, c.B.timeout)
	defer cancel()
	r, err := c.B.get(ctx, c.I.ChannelID)
	if err == nil && r.Finished {
		return nil, dixbot.ErrNotFound
	}
	if err == nil && r.Game != c.Game {
		return nil, otherGame(r.Game)
	}
	if err == nil {
		c.notice.seen = r
	}
	return r, err
}

// Change runs fn on the channel's record inside one exactly-once store
// Update keyed by the interaction id, tried again while the store fails
// (see applied). dixbot.ErrDuplicate means the interaction was applied
// before this delivery of it.
func (c *Call) Change(fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	var r *dixbot.Record
	unsure := false // the last try may have been applied
	err := c.Retry("update", func(ctx context.Context) (err error) {
		if unsure {
			if r, err = c.applied(ctx); r != nil || err != nil {
				return err
			}
		}
		apply, fd := c.B.withFold(c.I.ChannelID, func(r *dixbot.Record) error {
			if r.Game != c.Game {
				return otherGame(r.Game)
			}
			return fn(r)
		})
		r, err = c.B.update(ctx, c.I.ChannelID, c.I.ID, apply)
		if err == nil && fd != nil {
			c.B.folds.drop(c.I.ChannelID, fd)
		}
		if unsure && errors.Is(err, dixbot.ErrDuplicate) {
			// A try that looked failed landed in between.
			r, err = c.B.get(ctx, c.I.ChannelID)
		}
		unsure = unsure || transient(err)
		return err
	})
	if err == nil {
		c.notice.seen = r
	}
	return r, err
}

// The post-answer work gets the Discord API through its context.
type ctxKey int

const apiKey ctxKey = 0

func (b *Bot) apiFor(ctx context.Context) DiscordAPI {
	if d, ok := ctx.Value(apiKey).(DiscordAPI); ok {
		return d
	}
	panic("bot: no Discord API in context")
}
