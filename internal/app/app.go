package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/internal/discordapi"
	"github.com/dixgame/dixbot/internal/ops"
	"github.com/dixgame/dixbot/internal/redact"
	"github.com/dixgame/dixbot/schedule"
	"github.com/dixgame/dixbot/store"
)

// The metrics are the bot's observer.
var _ bot.Observer = (*ops.Metrics)(nil)

// Run runs the bot until ctx is cancelled, then shuts down gracefully: new
// interactions are answered with "restarting, try again in a moment", those
// in flight finish (within cfg.ShutdownTimeout), then the gateway, the HTTP
// listener and the store are closed. An interaction delivered twice (same
// id, as Discord may on a gateway RESUME) is handled once. It returns nil after a clean shutdown
// and an error when start-up fails (bad configuration wrapping ErrConfig,
// store unreachable or locked, gateway refused) or the shutdown could not
// finish in time.
func Run(ctx context.Context, cfg Config, logger *slog.Logger) (err error) {
	// Interaction tokens never reach the logs (see package redact).
	logger = redact.Logger(logger)
	if err := cfg.Validate(); err != nil {
		return err
	}
	if err := discordapi.SetBaseURL(cfg.APIURL); err != nil {
		return fmt.Errorf("%w: DISCORD_API_URL: %v", ErrConfig, err)
	}
	useSlogForRedis(logger)

	// The HTTP port is taken before anything slow, so a busy port fails
	// at once.
	var ln net.Listener
	if cfg.HTTPAddr != "" {
		ln, err = net.Listen("tcp", cfg.HTTPAddr)
		if err != nil {
			return fmt.Errorf("%w: HTTP_ADDR: %v", ErrConfig, err)
		}
		defer ln.Close() // a no-op once the server owns it and shut it down
	}

	var ixLn net.Listener
	if cfg.HTTPInteractions() {
		ixLn, err = net.Listen("tcp", cfg.InteractionsAddr)
		if err != nil {
			return fmt.Errorf("%w: INTERACTIONS_ADDR: %v", ErrConfig, err)
		}
		defer ixLn.Close()
	}

	st, err := openStore(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := st.Close(); cerr != nil {
			logger.Error("closing the store", "err", cerr)
			err = errors.Join(err, fmt.Errorf("closing the store: %w", cerr))
		}
	}()

	s, err := discordgo.New("Bot " + cfg.Token)
	if err != nil {
		return fmt.Errorf("creating the Discord session: %w", err)
	}
	// An interaction must be answered within 3 s: never sleep through a
	// rate limit, fail and let the bot report it.
	s.ShouldRetryOnRateLimit = false
	s.Client = discordClient()

	// The gateway, once open (none in HTTP interactions mode).
	var shards atomic.Pointer[gateway]
	metrics := ops.NewMetrics(ops.MetricsOptions{
		Store:         st,
		Guilds:        func() []string { return guildIDs(shards.Load()) },
		ActiveTimeout: cfg.StoreTimeout,
		Logger:        logger,
	})
	paces, err := clock.ParsePaces(cfg.Paces)
	if err != nil {
		return fmt.Errorf("%w: DIX_PACES: %v", ErrConfig, err)
	}
	runner := dueRunner(cfg, st, logger)
	b, err := bot.New(bot.Options{
		Store:           st,
		Logger:          logger,
		GuildID:         cfg.GuildID,
		DefaultLanguage: cfg.Language,
		StoreTimeout:    cfg.StoreTimeout,
		Observer:        metrics,
		Seed:            cfg.Seed,
		EffectDelay:     cfg.EffectDelay,
		Paces:           paces,
		WakeAt:          runner.WakeAt,
		NoPictures:      cfg.PicturesOff(),
		Games:           cfg.games(),
	})
	if err != nil {
		return fmt.Errorf("creating the bot: %w", err)
	}
	g := newGate(b.HandleJSON, logger)
	g.onDup = metrics.Redelivered

	// A wrong token is told as such (the gateway would only close on it).
	me, err := s.User("@me", discordgo.WithContext(ctx))
	if err != nil {
		if ctx.Err() != nil {
			return nil // stopped while starting: nothing to clean up
		}
		var rerr *discordgo.RESTError
		if errors.As(err, &rerr) && rerr.Response != nil && rerr.Response.StatusCode == http.StatusUnauthorized {
			return fmt.Errorf("%w: Discord refused the token (401 Unauthorized): check DISCORD_TOKEN", ErrBadToken)
		}
		return fmt.Errorf("reaching Discord (%s): %w", cfg.APIURL, err)
	}
	// Where interactions come from: the gateway, or the interactions
	// endpoint. closeIntake stops taking them.
	var closeIntake func(context.Context) error
	var ready func() bool
	var ixSrv *http.Server
	ixErr := make(chan error, 1)
	if cfg.HTTPInteractions() {
		key, _ := parsePublicKey(cfg.PublicKey) // checked by Validate
		ixSrv = &http.Server{
			Handler: &endpoint{key: key, gate: g, handle: func(i *discordgo.InteractionCreate, raw []byte, answered func()) {
				b.HandleAnswered(s, i, raw, answered)
			}, now: time.Now, log: logger},
			ReadHeaderTimeout: 5 * time.Second,
			ReadTimeout:       10 * time.Second,
			IdleTimeout:       2 * time.Minute,
		}
		var serving atomic.Bool
		ready = serving.Load
		closeIntake = func(ctx context.Context) error {
			serving.Store(false)
			return ixSrv.Shutdown(ctx)
		}
		if err := b.Register(s); err != nil {
			return fmt.Errorf("registering the slash commands: %w", err)
		}
		serving.Store(true)
		go func() { ixErr <- ixSrv.Serve(ixLn) }()
		logger.Info("serving interactions", "addr", ixLn.Addr().String())
	} else {
		gw, err := newGateway(ctx, cfg, s, logger, g.Take, g.HandleEvent)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		opened := make(chan error, 1)
		openCtx, stopOpening := context.WithCancel(ctx)
		defer stopOpening()
		go func() { opened <- gw.open(openCtx) }()
		select {
		case err := <-opened:
			if err != nil {
				return fmt.Errorf("connecting to Discord's gateway (%s): %w", cfg.APIURL, err)
			}
		case <-ctx.Done():
			// Stopped while connecting: close whatever opening got to,
			// without waiting for it.
			go func() {
				if err := <-opened; err == nil {
					_ = gw.Close()
				}
			}()
			return nil
		}
		shards.Store(gw)
		if n := len(gw.Sessions()); n > 1 {
			logger.Info("gateway shards opened", "shards", n, "max_concurrency", gw.concurrency)
		}
		var closeOnce sync.Once
		closeIntake = func(context.Context) error {
			closeOnce.Do(func() {
				if err := gw.Close(); err != nil {
					logger.Warn("closing the gateway", "err", err)
				}
			})
			return nil
		}
		ready = gw.Ready
		if err := b.Register(s); err != nil {
			closeIntake(ctx)
			return fmt.Errorf("registering the slash commands: %w", err)
		}
	}
	defer closeIntake(context.Background())

	runner.Handle = func(ctx context.Context, channel string, asOf time.Time) error {
		return b.RunDue(ctx, s, channel, asOf)
	}
	runCtx, stopRunner := context.WithCancel(context.WithoutCancel(ctx))
	runnerDone := make(chan struct{})
	go func() { defer close(runnerDone); runner.Run(runCtx) }()
	defer func() { stopRunner(); <-runnerDone }() // before the store closes
	if keeper := retentionRunner(cfg, st, b.Retire, logger); keeper != nil {
		keeperDone := make(chan struct{})
		go func() { defer close(keeperDone); keeper.Run(runCtx) }()
		defer func() { stopRunner(); <-keeperDone }()
	}

	var srv *http.Server
	serveErr := make(chan error, 1)
	started := Started{Store: st}
	if ixLn != nil {
		started.InteractionsAddr = ixLn.Addr().String()
	}
	if ln != nil {
		started.HTTPAddr = ln.Addr().String()
		h := ops.Handler(ops.HealthOptions{
			Gateway: ready,
			Store:   st,
			Timeout: cfg.StoreTimeout,
		}, metrics)
		if cfg.Profiles {
			h = ops.WithProfiles(h)
		}
		srv = &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
		go func() { serveErr <- srv.Serve(ln) }()
		logger.Info("serving /healthz and /metrics", "addr", started.HTTPAddr)
	}

	// Open returns once the gateway has said READY, but discordgo marks the
	// session ready (DataReady, what /healthz reports) in the heartbeat
	// goroutine Open starts: ready is announced only once it agrees.
	if waitReady(ctx, ready) {
		logger.Info("ready", "user", me.Username, "guild_scope", cfg.GuildID, "store", storeKind(cfg), "interactions", intakeKind(cfg))
		if cfg.Ready != nil {
			cfg.Ready(started)
		}
	}

	select {
	case <-ctx.Done():
	case err := <-serveErr:
		err = fmt.Errorf("HTTP listener: %w", err)
		logger.Error("shutting down", "err", err)
		shutdown(ctx, cfg, logger, b, g, closeIntake, nil)
		return err
	case err := <-ixErr:
		err = fmt.Errorf("interactions endpoint: %w", err)
		logger.Error("shutting down", "err", err)
		shutdown(ctx, cfg, logger, b, g, closeIntake, srv)
		return err
	}
	logger.Info("shutting down", "timeout", cfg.ShutdownTimeout)
	return shutdown(ctx, cfg, logger, b, g, closeIntake, srv)
}

func intakeKind(cfg Config) string {
	if cfg.HTTPInteractions() {
		return "http"
	}
	return "gateway"
}

// ErrBadToken is returned by Run when Discord refuses the bot token.
var ErrBadToken = errors.New("bad bot token")

// shutdown drains, then closes the intake of interactions, then stops the
// HTTP listener; the caller's defer closes the store once nothing uses it
// any more.
//
// On the gateway, the connection stays open while the interactions in
// flight finish: those that arrive meanwhile are still read and answered
// with a localised "restarting, try again in a moment" instead of being
// lost. Then the gateway is closed, and the answers started before (counted
// by the gate, the "restarting" ones included) are waited for, so none is
// cut off by the process exiting.
//
// The residual window: discordgo's Close stops handing events over as soon
// as it starts (before its close frame reaches Discord), and Discord keeps
// dispatching to the session until it sees that frame. An interaction
// dispatched in that round trip is lost, and its user sees "This
// interaction failed"; their click changed nothing and can be repeated
// once the bot is back. Closing that window needs a second gateway
// connection taking over before this one closes.
//
// With an interactions endpoint, the endpoint stops taking connections
// first, so the load balancer sends new interactions to another replica,
// and the requests in flight are replied to once answered; then the work
// after their answers is waited for.
func shutdown(ctx context.Context, cfg Config, logger *slog.Logger, b *bot.Bot, g *gate, closeIntake func(context.Context) error, srv *http.Server) error {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
	defer cancel()
	var errs []error
	if cfg.HTTPInteractions() {
		if err := closeIntake(sctx); err != nil {
			errs = append(errs, fmt.Errorf("stopping the interactions endpoint: %w", err))
		}
	}
	// Refuse new interactions first (Close with a spent context only flips
	// the bot to "restarting"), so Draining observes a draining bot.
	spent, cancelSpent := context.WithCancel(context.Background())
	cancelSpent()
	_ = b.Close(spent)
	if cfg.Draining != nil {
		cfg.Draining()
	}
	if err := b.Close(sctx); err != nil {
		errs = append(errs, fmt.Errorf("finishing the interactions in flight: %w", err))
	}
	if cfg.Drained != nil {
		cfg.Drained()
	}
	if !cfg.HTTPInteractions() {
		_ = closeIntake(sctx)
	}
	if err := g.Wait(sctx); err != nil {
		errs = append(errs, fmt.Errorf("finishing the answers in flight: %w", err))
	}
	g.Stop()
	if srv != nil {
		if err := srv.Shutdown(sctx); err != nil {
			errs = append(errs, fmt.Errorf("stopping the HTTP listener: %w", err))
		}
	}
	err := errors.Join(errs...)
	if err != nil {
		logger.Error("unclean shutdown", "err", err)
	}
	return err
}

// openStore opens Redis when REDIS_URL is set, else the embedded file store.
func openStore(ctx context.Context, cfg Config, logger *slog.Logger) (dixbot.Store, error) {
	opts := store.Options{
		Prefix:     cfg.RedisPrefix,
		Timeout:    cfg.StoreTimeout,
		GameTTL:    cfg.GameTTL,
		ArchiveTTL: cfg.archiveTTL(),
		ResultTTL:  cfg.retention(),
	}
	if cfg.RedisURL != "" {
		opts.URL, opts.Cluster = cfg.RedisURL, cfg.RedisCluster
		st, err := store.OpenRedis(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("opening the Redis store at %s (REDIS_URL): %w", cfg.redactedRedis(), err)
		}
		logger.Info("store opened", "kind", "redis", "url", cfg.redactedRedis(), "cluster", cfg.RedisCluster, "prefix", cfg.RedisPrefix)
		return st, nil
	}
	st, err := store.OpenFile(cfg.DataFile, opts)
	if err != nil {
		if errors.Is(err, dixbot.ErrLocked) {
			return nil, fmt.Errorf("opening the embedded store %s (DIX_DATA_FILE): another dixbot is using it; stop it or set another DIX_DATA_FILE: %w", cfg.DataFile, err)
		}
		return nil, fmt.Errorf("opening the embedded store %s (DIX_DATA_FILE): %w", cfg.DataFile, err)
	}
	logger.Info("store opened", "kind", "file", "path", cfg.DataFile)
	return st, nil
}

func storeKind(cfg Config) string {
	if cfg.RedisURL != "" {
		return "redis"
	}
	return "file"
}

// gatewayReady reports whether the gateway connection is up: discordgo sets
// DataReady once connected and clears it when the connection drops.
func gatewayReady(s *discordgo.Session) bool {
	s.RLock()
	defer s.RUnlock()
	return s.DataReady
}

// waitReady waits until ready holds, and reports false if ctx ends first.
func waitReady(ctx context.Context, ready func() bool) bool {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !ready() {
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
	return true
}

// guildIDs lists the servers the bot is in, from the state of its gateway
// sessions (none in HTTP interactions mode).
func guildIDs(gw *gateway) []string {
	if gw == nil {
		return nil
	}
	var ids []string
	for _, s := range gw.Sessions() {
		if s.State == nil {
			continue
		}
		s.State.RLock()
		for _, g := range s.State.Guilds {
			ids = append(ids, g.ID)
		}
		s.State.RUnlock()
	}
	return ids
}

// dueRunner polls st for work due without a click: deadlines and reminders
// of the clocks, and what a process that died left undone once the grace
// of the process that made the change is over. A process starting up takes
// only work that is overdue: work due later may be under way in a live
// replica, and doing it too would post its boards twice.
func dueRunner(cfg Config, st schedule.Source, logger *slog.Logger) *schedule.Runner {
	return &schedule.Runner{
		Source: st,
		Every:  cfg.DuePoll, // 0: the runner's default
		Logger: logger,
	}
}

// discordClient is the HTTP client of every request to Discord's API.
// They all go to one host, many at once (each interaction's answer, the
// follow-ups and edits of the outbox), so it keeps as many idle
// connections to it as requests run at once: Go's default transport keeps
// two, and a burst of answers would then dial a new connection (a TCP and
// a TLS handshake) for every request beyond them. The timeout is
// discordgo's own.
func discordClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = discordIdleConns
	t.MaxIdleConnsPerHost = discordIdleConns
	return &http.Client{Timeout: 20 * time.Second, Transport: t}
}

// discordIdleConns is how many idle connections to Discord's API the bot
// keeps.
const discordIdleConns = 128
