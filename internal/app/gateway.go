package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// reconnectWait is the wait before reconnecting after a failed attempt,
// doubled after each one up to reconnectMaxWait. Variables so tests need
// not wait.
var (
	reconnectWait    = time.Second
	reconnectMaxWait = 2 * time.Minute
)

// finalCloseCodes are the gateway close codes after which Discord says not
// to reconnect, with what they mean for whoever runs the bot
// (https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes).
var finalCloseCodes = map[int]string{
	4004: "authentication failed: the bot token is wrong or was reset; set DISCORD_TOKEN to the current one",
	4010: "invalid shard: check SHARD_ID and SHARD_COUNT",
	4011: "sharding required: the bot is in too many servers for this shard count; set SHARD_COUNT=auto or a larger count",
	4012: "invalid API version for the gateway",
	4013: "invalid intents in IDENTIFY",
	4014: "disallowed intents: IDENTIFY asked for a privileged intent the application has not enabled in the Developer Portal",
}

// closeCode returns the gateway close code an error carries, or 0.
func closeCode(err error) int {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Code
	}
	return 0
}

// gateway keeps this process's gateway sessions (its shards) connected.
// discordgo alone reconnects after any close, forever, even when Discord
// closed with a code that says reconnecting cannot help; so the sessions
// do not reconnect by themselves and gateway does it: a dropped shard is
// reconnected (resuming its session when Discord allows), a shard closed
// with one of finalCloseCodes is stopped and the reason logged once, and
// with SHARD_COUNT=auto a 4011 (Sharding required) has GET /gateway/bot
// read again and every shard opened anew with the count it recommends.
// A stopped shard is not connected, so /healthz reports the process
// unready.
type gateway struct {
	cfg      Config
	base     *discordgo.Session // REST session, shard 0 until a reshard
	handlers []any
	take     func(*discordgo.Session, []byte, *discordgo.InteractionCreate) // see newGateway
	logger   *slog.Logger
	ctx      context.Context // ends when Close starts
	cancel   context.CancelFunc
	wg       sync.WaitGroup // the reconnect loops and the reshard

	mu          sync.Mutex
	shards      []*shard
	concurrency int
	resharding  bool
}

// shard is one gateway session and what keeps it connected.
type shard struct {
	s     *discordgo.Session
	watch *closeWatch
	kick  chan struct{} // a Disconnect happened
	done  chan struct{} // closed when the shard is retired

	mu      sync.Mutex // held while opening, so a retired shard is never reopened
	retired bool
	// opening is set while the session connects (it may wait for ever on
	// a gateway that accepts the connection but never answers).
	opening atomic.Bool
}

// newGateway prepares the sessions gatewaySessions gives, each with the
// handlers; open connects them.
//
// take, when set, is handed each interaction, its JSON taken out of the
// gateway's stream (frameReader) and, when the connection read it in the
// same pass, its value (nil: to be decoded), on the goroutine reading the
// connection: it must return at once (gate.Take). It is not used where
// discordgo's table of events is not the one this code knows
// (takeInteractionDecoding) or where the sessions keep discordgo's dialer
// (gatewayProxied).
func newGateway(ctx context.Context, cfg Config, s *discordgo.Session, logger *slog.Logger, take func(*discordgo.Session, []byte, *discordgo.InteractionCreate), handlers ...any) (*gateway, error) {
	if !takeInteractionDecoding() {
		take = nil
	}
	sessions, concurrency, err := gatewaySessions(ctx, cfg, s, false)
	if err != nil {
		return nil, err
	}
	gw := &gateway{cfg: cfg, base: s, handlers: handlers, take: take, logger: logger, concurrency: concurrency}
	gw.ctx, gw.cancel = context.WithCancel(context.WithoutCancel(ctx))
	gw.shards = gw.prepare(sessions)
	return gw, nil
}

// prepare wraps sessions in shards that reconnect through the gateway.
func (gw *gateway) prepare(sessions []*discordgo.Session) []*shard {
	shards := make([]*shard, len(sessions))
	for i, si := range sessions {
		sh := &shard{s: si, watch: &closeWatch{}, kick: make(chan struct{}, 1), done: make(chan struct{})}
		si.ShouldReconnectOnError = false
		if !gatewayProxied() {
			si.Dialer = sh.watch.dialer()
			if take := gw.take; take != nil {
				sh.watch.take = func(d []byte, ic *discordgo.InteractionCreate) { take(si, d, ic) }
				// Payloads as JSON text frames: Discord may send a
				// connection that identifies with compress (discordgo's
				// default) zlib-compressed binary frames, which are not
				// taken (https://discord.com/developers/docs/events/gateway-events#identify:
				// "compress", default false).
				si.Identify.Compress = false
			}
		}
		for _, h := range gw.handlers {
			si.AddHandler(h)
		}
		si.AddHandler(func(*discordgo.Session, *discordgo.Disconnect) {
			select {
			case sh.kick <- struct{}{}:
			default:
			}
		})
		shards[i] = sh
	}
	return shards
}

// gatewayProxied reports whether HTTPS_PROXY (or ALL_PROXY) applies to
// Discord's gateway: then the sessions keep discordgo's dialer, which goes
// through the proxy, and a close code is seen only when it fails a
// connection's handshake (IDENTIFY or RESUME), not when it ends an open
// connection.
func gatewayProxied() bool {
	u, err := http.ProxyFromEnvironment(&http.Request{URL: &url.URL{Scheme: "https", Host: "gateway.discord.gg"}})
	return err == nil && u != nil
}

// open connects every shard (see openShards) and starts keeping them
// connected. On an error none is left open.
func (gw *gateway) open(ctx context.Context) error {
	gw.mu.Lock()
	shards, concurrency := gw.shards, gw.concurrency
	gw.mu.Unlock()
	if err := openShards(ctx, sessionsOf(shards), concurrency); err != nil {
		if why, ok := finalCloseCodes[closeCode(err)]; ok {
			return fmt.Errorf("Discord closed the gateway with code %d (%s): %w", closeCode(err), why, err)
		}
		return err
	}
	gw.keepAll(shards)
	return nil
}

func (gw *gateway) keepAll(shards []*shard) {
	for _, sh := range shards {
		gw.wg.Go(func() { gw.keep(sh) })
	}
}

// keep reconnects sh after each Disconnect, until it is retired or
// Discord ends it.
func (gw *gateway) keep(sh *shard) {
	for {
		select {
		case <-gw.ctx.Done():
			return
		case <-sh.done:
			return
		case <-sh.kick:
		}
		if _, final := finalCloseCodes[sh.watch.Code()]; final {
			gw.ended(sh, sh.watch.Code())
			return
		}
		wait := reconnectWait
		for {
			retired, err := sh.open()
			if retired || err == nil || errors.Is(err, discordgo.ErrWSAlreadyOpen) {
				break
			}
			code := closeCode(err)
			if code == 0 {
				code = sh.watch.Code()
			}
			if _, final := finalCloseCodes[code]; final {
				gw.ended(sh, code)
				return
			}
			gw.logger.Warn("reconnecting to the gateway", "shard", sh.s.ShardID, "err", err, "retry_in", wait)
			select {
			case <-gw.ctx.Done():
				return
			case <-sh.done:
				return
			case <-time.After(wait):
			}
			wait = min(2*wait, reconnectMaxWait)
		}
	}
}

// open opens the shard's session unless it is retired.
func (sh *shard) open() (retired bool, err error) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.retired {
		return true, nil
	}
	sh.opening.Store(true)
	defer sh.opening.Store(false)
	return false, sh.s.Open()
}

// retire stops reconnecting sh and closes its session.
func (sh *shard) retire() error {
	sh.mu.Lock()
	if !sh.retired {
		sh.retired = true
		close(sh.done)
	}
	sh.mu.Unlock()
	return sh.s.Close()
}

// ended handles a shard Discord closed with a final code.
func (gw *gateway) ended(sh *shard, code int) {
	id, n := sh.s.ShardID, max(sh.s.ShardCount, 1)
	if code == 4011 && gw.cfg.ShardCount == ShardsAuto {
		gw.logger.Warn("Discord requires more gateway shards (close code 4011): asking GET /gateway/bot again and reopening every shard", "shard", id, "shards", n)
		gw.wg.Go(gw.reshard)
		return
	}
	gw.logger.Error("gateway shard stopped, not reconnecting: Discord closed it with code "+fmt.Sprint(code)+", "+finalCloseCodes[code], "shard", id, "shards", n, "code", code)
}

// reshard closes every shard, reads GET /gateway/bot again and opens the
// shards it recommends, retrying until it works or the gateway closes.
func (gw *gateway) reshard() {
	gw.mu.Lock()
	if gw.resharding {
		gw.mu.Unlock()
		return
	}
	gw.resharding = true
	old := gw.shards
	gw.mu.Unlock()
	defer func() {
		gw.mu.Lock()
		gw.resharding = false
		gw.mu.Unlock()
	}()
	for _, sh := range old {
		_ = sh.retire()
	}
	wait := reconnectWait
	for gw.ctx.Err() == nil {
		sessions, concurrency, err := gatewaySessions(gw.ctx, gw.cfg, gw.base, true)
		if err == nil {
			shards := gw.prepare(sessions)
			gw.mu.Lock()
			if gw.ctx.Err() != nil { // Close has begun
				gw.mu.Unlock()
				return
			}
			gw.shards, gw.concurrency = shards, concurrency
			gw.mu.Unlock()
			for _, sh := range shards {
				sh.opening.Store(true)
			}
			err = openShards(gw.ctx, sessions, concurrency)
			for _, sh := range shards {
				sh.opening.Store(false)
			}
			if err == nil {
				gw.logger.Info("gateway shards reopened", "shards", len(sessions), "max_concurrency", concurrency)
				gw.keepAll(shards)
				return
			}
			if code := closeCode(err); code != 4011 && finalCloseCodes[code] != "" {
				gw.logger.Error("gateway shards stopped, not reconnecting: Discord closed them with code "+fmt.Sprint(code)+", "+finalCloseCodes[code], "code", code)
				return
			}
		}
		gw.logger.Warn("reopening the gateway shards", "err", err, "retry_in", wait)
		select {
		case <-gw.ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, reconnectMaxWait)
	}
}

// Close stops reconnecting and closes every shard. A shard still
// connecting has its connection cut, so Close never waits on a gateway
// that does not answer.
func (gw *gateway) Close() error {
	gw.cancel()
	gw.mu.Lock()
	for _, sh := range gw.shards {
		sh.watch.stop(sh.opening.Load())
	}
	gw.mu.Unlock()
	gw.wg.Wait()
	gw.mu.Lock()
	shards := gw.shards
	gw.mu.Unlock()
	var errs []error
	for _, sh := range shards {
		if err := sh.retire(); err != nil {
			errs = append(errs, fmt.Errorf("shard %d: %w", sh.s.ShardID, err))
		}
	}
	return errors.Join(errs...)
}

// Sessions returns the current shards' sessions.
func (gw *gateway) Sessions() []*discordgo.Session {
	gw.mu.Lock()
	defer gw.mu.Unlock()
	return sessionsOf(gw.shards)
}

// Ready reports whether every shard is connected: false while one
// reconnects, and for good once Discord ended one.
func (gw *gateway) Ready() bool {
	sessions := gw.Sessions()
	return len(sessions) > 0 && shardsReady(sessions)
}

func sessionsOf(shards []*shard) []*discordgo.Session {
	out := make([]*discordgo.Session, len(shards))
	for i, sh := range shards {
		out[i] = sh.s
	}
	return out
}
