package bot

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
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
	// Games are the games played through the engine contract besides DIX,
	// each under its own command and custom id prefix.
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
	afterTimeout        = 15 * time.Second        // post-answer work (new board, pings)
	storeRetryPause     = 100 * time.Millisecond  // before the first retry of a failed store call; doubles
)

// Bot handles Discord interactions for DIX. It is safe for concurrent use:
// Handle may run for many interactions at once.
type Bot struct {
	store   dixbot.Store
	log     *slog.Logger
	guild   string
	lang    string
	timeout time.Duration
	obs     Observer
	seed    func() int64
	cmdIDs  map[string]string // English subcommand name -> handler id
	apis    sync.Map          // *discordgo.Session -> discordapi.API
	bots    sync.Map          // *discordgo.RateLimiter -> *discordapi.BotSession (shards share one)
	gate    discordapi.Gate   // the bot's global rate limit
	fences  fences            // the order of what reaches each board message
	games   registry          // the contract games by name

	// deferAfter and workBudget are the time budgets (the constants of
	// the same names); tests shorten them.
	deferAfter time.Duration
	workBudget time.Duration

	paces       []clock.Pace
	now         func() time.Time
	wakeAt      func(time.Time)
	effectDelay time.Duration
	// effectsHook, when set, runs after effectDelay, before a change's
	// own effects (tests).
	effectsHook  func()
	noPictures   bool
	noFiles      sync.Map       // channel id -> struct{}: no Attach Files there (mayAttach)
	channelLocks [64]sync.Mutex // runOutbox, by channel hash
	folds        folds          // effects done, recorded with the channel's next change (fold.go)
	batches      batches.Set    // effects this process owes a batch for (internal/batches)
	foldWait     time.Duration  // foldWait unless set (tests)

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

		effectDelay: opts.EffectDelay,
		paces:       opts.Paces,
		now:         opts.Now,
		wakeAt:      opts.WakeAt,
		noPictures:  opts.NoPictures,
		deferAfter:  deferAfter,
		workBudget:  workBudget,
		batches:     batches.Set{Longest: afterTimeout},
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
	for _, id := range subcommands {
		b.cmdIDs[locales.T(locales.English, "cmd_"+id+"_name", nil)] = id
	}
	games, err := newRegistry(opts.Games)
	if err != nil {
		return nil, err
	}
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
	// register the same commands at once.
	_, err := s.ApplicationCommandBulkOverwrite(appID, b.guild, b.Commands(), discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(true))
	if err != nil {
		return fmt.Errorf("bot: register commands: %w", err)
	}
	return nil
}

// Handle answers one interaction; use it with s.AddHandler. It is safe for
// concurrent use, answers within Discord's deadline, and recovers from
// panics (still answering with an error message).
func (b *Bot) Handle(s *discordgo.Session, i *discordgo.InteractionCreate) {
	b.handle(b.sessionAPI(s), i, nil)
}

// HandleJSON is Handle for an interaction whose JSON the intake has (the
// gateway event's data): raw tells what discordgo's Interaction does not
// decode, such as the type of the channel it came from.
func (b *Bot) HandleJSON(s *discordgo.Session, i *discordgo.InteractionCreate, raw []byte) {
	b.handle(b.sessionAPI(s), i, raw)
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
	b.handle(answeredAPI{discordAPI: b.sessionAPI(s), answered: done}, i, raw)
}

// answeredAPI is a discordAPI that reports the first answer.
type answeredAPI struct {
	discordAPI
	answered func()
}

func (a answeredAPI) Respond(ctx context.Context, i *discordgo.Interaction, r *discordgo.InteractionResponse) error {
	defer a.answered()
	return a.discordAPI.Respond(ctx, i, r)
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

// call is one interaction being handled.
type call struct {
	b    *Bot
	d    discordAPI
	i    *discordgo.Interaction
	raw  []byte          // the interaction's JSON, when the intake has it
	ctx  context.Context // deadline for the work before the first answer
	user string          // the clicking user's id
	name string          // their display name
	lang string          // their language (ephemeral messages)
	kind string          // command|button|select|modal
	game string          // the contract game the call is for ("": DIX)

	// ansMu orders the first answer and the deferral (deferNow, run by a
	// timer): whichever comes first decides how the other is sent.
	ansMu    sync.Mutex
	deferred discordgo.InteractionResponseType // the deferral Discord took (0: none)
	closed   bool                              // the handler is done: no deferral any more

	responded bool
	answered  bool      // Discord took the answer (or a deferral)
	at        time.Time // when the interaction arrived
	updated   string    // the message the answer updated in place ("": none)
	// acked: the answer acknowledged the click on its message without
	// changing it (type 6), so that message is the interaction's
	// "@original" although the answer updated nothing.
	acked  bool
	shows  *shows                      // what an answer updating the board puts on it (nil: not a board)
	after  []func(ctx context.Context) // post-answer work
	notice notice                      // its game's board, if missing (notice.go)
	// answerPic is the key of the picture the answer shows on the board
	// ("": none).
	answerPic string
}

// via is the call's interaction, for the work after the answer (see via).
func (c *call) via() *via {
	if !c.answered || c.i.Token == "" || c.i.AppID == "" {
		return nil
	}
	v := &via{App: c.i.AppID, Token: c.i.Token, At: c.at.UnixMilli(), Orig: c.updated}
	if c.updated != "" {
		v.Pic = c.answerPic
	}
	return v
}

func (b *Bot) handle(d discordAPI, ic *discordgo.InteractionCreate, raw []byte) {
	if ic == nil || ic.Interaction == nil {
		return
	}
	start := time.Now()
	c := &call{b: b, d: d, i: ic.Interaction, raw: raw, kind: kindOf(ic.Interaction), at: start}
	b.notePermissions(ic.Interaction)
	c.user, c.name = userOf(ic.Interaction)
	c.lang = locales.Or(locales.For(string(ic.Locale)), b.lang)
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
				b.log.Error("panic handling interaction", "interaction", c.i.ID, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
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
			b.log.Debug("interaction already applied", "interaction", c.i.ID)
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
						b.log.Error("panic after answering", "interaction", c.i.ID, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
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

func userOf(i *discordgo.Interaction) (id, name string) {
	if i.Member != nil && i.Member.User != nil {
		return i.Member.User.ID, i.Member.DisplayName()
	}
	if i.User != nil {
		return i.User.ID, i.User.DisplayName()
	}
	return "", ""
}

// then queues work to do after the first answer (new board, pings).
func (c *call) then(f func(ctx context.Context)) { c.after = append(c.after, f) }

// fail answers err as a localised ephemeral message and returns the outcome.
// Unexpected errors are logged with the interaction id.
func (c *call) fail(err error) string {
	key, data, outcome, unexpected := classify(err)
	if errors.Is(err, errPanic) {
		key, outcome, unexpected = "err_internal", outcomePanic, false
	}
	if unexpected {
		c.b.log.Error("interaction failed", "interaction", c.i.ID, "channel", c.i.ChannelID, "err", err)
	} else {
		c.b.log.Debug("interaction refused", "interaction", c.i.ID, "err", err)
	}
	if c.answerOver(err) || c.answerLost(err) {
		return outcomeStale
	}
	text := locales.T(c.lang, key, data)
	if outcome == outcomeRefused && c.fromPrompt() && !c.responded {
		// A refusal in a private prompt replaces the prompt's previous
		// refusal: the prompt is redrawn with it on top, its buttons
		// intact, instead of a new message piling up under it.
		msg := c.i.Message
		content := locales.T(c.lang, "refusal_line", map[string]any{"Text": text})
		if rest := withoutRefusal(msg.Content); rest != "" {
			content += "\n" + rest
		}
		c.update(content, msg.Embeds, msg.Components)
		return outcome
	}
	var comps []discordgo.MessageComponent
	var embeds []*discordgo.MessageEmbed
	if outcome == outcomeStale {
		text, comps, embeds = c.staleText(text)
		if c.fromPrompt() && !c.responded {
			// A private prompt whose decision is over loses its buttons:
			// it becomes the "outdated" answer itself, so no live copy of
			// an old decision is left behind.
			c.update(text, embeds, comps)
			return outcome
		}
	}
	c.ephemeral(text, comps, embeds...)
	return outcome
}

// fromPrompt reports whether the interaction came from one of the bot's
// private prompts (an ephemeral message with components).
func (c *call) fromPrompt() bool {
	m := c.i.Message
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

// ephemeral answers (or follows up) with a message only the user sees.
func (c *call) ephemeral(text string, comps []discordgo.MessageComponent, embeds ...*discordgo.MessageEmbed) {
	c.ephemeralFiles(text, comps, nil, embeds...)
}

// ephemeralFiles is ephemeral with files attached (pictures).
func (c *call) ephemeralFiles(text string, comps []discordgo.MessageComponent, files []*discordgo.File, embeds ...*discordgo.MessageEmbed) {
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	if c.responded {
		ctx, cancel := context.WithTimeout(context.Background(), respondTimeout)
		defer cancel()
		_, err := c.d.Followup(ctx, c.i, &discordgo.WebhookParams{
			Content: text, Components: comps, Embeds: embeds, Flags: discordgo.MessageFlagsEphemeral,
			AllowedMentions: noMentions(), Files: files,
		})
		if err != nil {
			c.b.log.Warn("follow-up failed", "interaction", c.i.ID, "err", err)
		}
		return
	}
	c.respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{
			Content: text, Components: comps, Embeds: embeds, Flags: discordgo.MessageFlagsEphemeral,
			AllowedMentions: noMentions(), Files: files,
		},
	})
}

// respond sends the first answer, or, when the interaction was deferred,
// finishes it through the interaction's token (finishDeferred). A failure
// is logged: there is nobody left to tell.
func (c *call) respond(r *discordgo.InteractionResponse) {
	if s := c.shows; s != nil && r.Type == discordgo.InteractionResponseUpdateMessage && c.i.Message != nil {
		// The board's fence is passed without ansMu: while an earlier
		// request on the board is in flight, the deferral can still go.
		sent, _ := c.b.fences.send(c.i.Message.ID, *s, c.b.now(), func() error {
			c.sendLocked(r)
			if !c.answered || c.updated != c.i.Message.ID {
				return errNotShown
			}
			return nil
		})
		if !sent {
			// The board already shows a newer state, which holds this
			// click's change: the click is acknowledged, the board kept.
			c.b.log.Debug("board answer left out: the board shows a newer state", "interaction", c.i.ID,
				"message", c.i.Message.ID, "seq", s.Seq)
			c.sendLocked(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
		}
		return
	}
	c.sendLocked(r)
}

// sendLocked is send under ansMu, with its own time limit.
func (c *call) sendLocked(r *discordgo.InteractionResponse) {
	c.ansMu.Lock()
	defer c.ansMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), respondTimeout)
	defer cancel()
	c.send(ctx, r)
}

// send is respond without the board's fence.
func (c *call) send(ctx context.Context, r *discordgo.InteractionResponse) {
	if c.deferred != 0 {
		c.responded = true
		if r.Type == discordgo.InteractionResponseDeferredMessageUpdate {
			c.answered = true // acknowledged already: nothing to change
			return
		}
		c.answered = c.finishDeferred(ctx, r) == nil
		return
	}
	c.responded = true
	if err := c.d.Respond(ctx, c.i, r); err != nil {
		if c.answered = c.answerRefused(ctx, r, err); !c.answered {
			c.b.log.Warn("answer failed", "interaction", c.i.ID, "err", err)
		}
		return
	}
	c.answered = true
	if r.Type == discordgo.InteractionResponseUpdateMessage && c.i.Message != nil {
		c.updated = c.i.Message.ID
	}
	c.acked = r.Type == discordgo.InteractionResponseDeferredMessageUpdate
}

// update answers by editing the message the component sits on (type 7).
// With files, they are uploaded and the message keeps no other attachment:
// its old picture is replaced. Without, the message keeps those of its
// pictures the new embeds still show and loses the others
// (orphanedPictures); embeds read from that message may be given back:
// their pictures stay shown once (byReference).
func (c *call) update(content string, embeds []*discordgo.MessageEmbed, comps []discordgo.MessageComponent, files ...*discordgo.File) {
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	var atts *[]*discordgo.MessageAttachment
	if len(files) > 0 {
		atts = attachmentsFor(files)
	} else {
		embeds = byReference(embeds)
		atts = orphanedPictures(c.i.Message, embeds)
	}
	c.respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: content, Embeds: embeds, Components: comps, AllowedMentions: noMentions(),
			Files: files, Attachments: atts},
	})
}

func noMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}

func messageURL(guild, channel, message string) string {
	if guild == "" {
		guild = "@me"
	}
	return "https://discord.com/channels/" + guild + "/" + channel + "/" + message
}

// Store calls, each with its own timeout inside the answer budget.

func (c *call) storeCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(c.ctx, c.b.timeout)
}

func (c *call) storeErr(op string, err error) error {
	if err != nil && isStoreFailure(err) && c.b.obs != nil {
		c.b.obs.StoreError(op)
	}
	return err
}

// get loads the channel's active game: dixbot.ErrNotFound when there is
// none (an archived game is not active).
func (c *call) get() (*dixbot.Record, error) {
	var r *dixbot.Record
	err := c.retry("get", func(ctx context.Context) (err error) {
		r, err = c.b.store.Get(ctx, c.i.ChannelID)
		return err
	})
	if err != nil {
		return nil, err
	}
	if r.Game != c.game && !r.Finished {
		return nil, otherGame(gameTitle(r.Game))
	}
	c.notice.seen = r
	if r.Finished {
		return r, dixbot.ErrNotFound
	}
	return c.dixComeBack(r), nil
}

// getQuiet is get for decorating a message: it never reports metrics and
// stays within what is left of the answer budget.
func (c *call) getQuiet() (*dixbot.Record, error) {
	base := c.ctx
	if base == nil {
		base = context.Background()
	}
	ctx, cancel := context.WithTimeout(base, c.b.timeout)
	defer cancel()
	r, err := c.b.store.Get(ctx, c.i.ChannelID)
	if err == nil && r.Finished {
		return nil, dixbot.ErrNotFound
	}
	if err == nil && r.Game != c.game {
		return nil, otherGame(gameTitle(r.Game))
	}
	if err == nil {
		c.notice.seen = r
	}
	return r, err
}

// change runs fn on the channel's record inside one exactly-once store
// Update keyed by the interaction id, tried again while the store fails
// (see applied). dixbot.ErrDuplicate means the interaction was applied
// before this delivery of it.
func (c *call) change(fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	var r *dixbot.Record
	unsure := false // the last try may have been applied
	err := c.retry("update", func(ctx context.Context) (err error) {
		if unsure {
			if r, err = c.applied(ctx); r != nil || err != nil {
				return err
			}
		}
		apply, fd := c.b.withFold(c.i.ChannelID, func(r *dixbot.Record) error {
			if r.Game != c.game {
				return otherGame(gameTitle(r.Game))
			}
			return fn(r)
		})
		r, err = c.b.store.Update(ctx, c.i.ChannelID, c.i.ID, apply)
		if err == nil && fd != nil {
			c.b.folds.drop(c.i.ChannelID, fd)
		}
		if unsure && errors.Is(err, dixbot.ErrDuplicate) {
			// A try that looked failed landed in between.
			r, err = c.b.store.Get(ctx, c.i.ChannelID)
		}
		unsure = unsure || transient(err)
		return err
	})
	if err == nil {
		c.notice.seen = r
	}
	return r, err
}

// updateOrReply replaces the ephemeral prompt the user clicked on with text
// (or answers with an ephemeral message when there is no such message).
func (c *call) updateOrReply(text string, comps []discordgo.MessageComponent) {
	if c.i.Message == nil {
		c.ephemeral(text, comps)
		return
	}
	c.update(text, nil, comps)
}

// The post-answer work gets the Discord API through its context.
type ctxKey int

const apiKey ctxKey = 0

func (b *Bot) apiFor(ctx context.Context) discordAPI {
	if d, ok := ctx.Value(apiKey).(discordAPI); ok {
		return d
	}
	panic("bot: no Discord API in context")
}

// modal answers with a modal of text inputs.
func (c *call) modal(id, title string, inputs []discordgo.TextInput) {
	rows := make([]discordgo.MessageComponent, len(inputs))
	for i, in := range inputs {
		rows[i] = discordgo.ActionsRow{Components: []discordgo.MessageComponent{in}}
	}
	c.respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseModal,
		Data: &discordgo.InteractionResponseData{CustomID: id, Title: truncate(title, 45), Components: rows},
	})
}
