package loadtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// Config describes one load run. Games, Players and Bot are required; the
// zero value of every other field has a meaning given below.
type Config struct {
	// Games is the number of concurrent games, one per guild channel.
	Games int
	// Players per game: people, 2 to 5 (Dixxit: 3 to 6), computer seats
	// included.
	Players int
	// Computers of the Players are computer seats, which the creator adds
	// in the lobby; the others are people the load plays. At least one
	// person plays.
	Computers int
	// Think is how long a player takes before each interaction (real
	// time); 0 clicks as soon as the last answer is in, a throughput
	// ceiling no group of people reaches.
	Think time.Duration
	// Jitter varies each think time uniformly by ±Jitter×Think (0 to 1).
	Jitter float64
	// Ramp spreads the games' starts evenly over this time.
	Ramp time.Duration
	// Duration, when set, ends the run after this time, a table whose game
	// has ended starting another meanwhile; 0 plays every game to its end.
	Duration time.Duration
	// Game is the game played: GameDIX (the default), GameQwixx or
	// GameDixxit.
	Game string
	// Start is the command that opens each game; default "/<Game> start".
	Start string
	// RateLimits keeps the stand-in's Discord rate limits on (as on
	// Discord); off measures the bot without them.
	RateLimits bool
	// APILatency delays each of the stand-in's REST answers, as Discord's
	// network round trip does (fakediscord.Options.APILatency); 0 answers
	// at once.
	APILatency time.Duration
	// RedisURL is the Redis the bot uses; empty starts a private
	// redis-server (which must be installed) in Dir.
	RedisURL string
	// RedisSocket has the bot reach the private redis-server by its Unix
	// socket (a unix:// REDIS_URL) instead of its TCP port, as a bot with
	// Redis on the same machine may.
	RedisSocket bool
	// Bot is the bot under load.
	Bot Bot
	// BotEnv is more of the bot's environment, e.g. "DIX_PICTURES=off".
	BotEnv []string
	// Dir holds the run's files (Redis's); empty uses a temporary
	// directory removed at the end.
	Dir string
	// Seed makes the players' choices repeatable (the deals are the bot's).
	Seed uint64
	// Stall is how long a player waits for the next board before its table
	// gives up; default 2 minutes.
	Stall time.Duration
	// Settle bounds the wait, after the last game, for the bot's
	// remaining Discord work (the requests stop for a second); default 30 s.
	Settle time.Duration
	// Progress, when set, gets a line every ProgressEvery (default 10 s).
	Progress      io.Writer
	ProgressEvery time.Duration
	// Logger gets the stand-in's diagnostics; nil discards them.
	Logger *slog.Logger
	// AtEnd, when set, is called once the games are over, before the
	// stand-in and the bot stop (dixload writes its heap profile there).
	AtEnd func()
	// BotProfile, when set, is a file for a CPU profile of the bot's own
	// process, taken through its /debug/pprof/profile (HTTP_PPROF) once
	// every game has started, until the run's end is near (for 5 s when
	// the run has no Duration).
	BotProfile string
}

func (c *Config) defaults() error {
	if c.Games < 1 {
		return errors.New("loadtest: at least one game")
	}
	if c.Think < 0 || c.Jitter < 0 || c.Jitter > 1 || c.Ramp < 0 || c.Duration < 0 || c.APILatency < 0 {
		return errors.New("loadtest: negative times, or a jitter outside 0..1")
	}
	if c.Bot == nil {
		return errors.New("loadtest: no bot")
	}
	if c.RedisSocket && c.RedisURL != "" {
		return errors.New("loadtest: a Unix socket is the private Redis's: give no Redis URL with it")
	}
	if c.Game == "" {
		c.Game = GameDIX
	}
	seats, ok := gameSeats[c.Game]
	if !ok {
		return fmt.Errorf("loadtest: game %q: %s, %s or %s", c.Game, GameDIX, GameQwixx, GameDixxit)
	}
	if c.Players < seats[0] || c.Players > seats[1] {
		return fmt.Errorf("loadtest: %d players: a game of %s has %d to %d", c.Players, c.Game, seats[0], seats[1])
	}
	if c.Computers < 0 || c.Computers >= c.Players {
		return fmt.Errorf("loadtest: %d computer seats of %d: at least one person plays", c.Computers, c.Players)
	}
	if c.Start == "" {
		c.Start = "/" + c.Game + " start"
	}
	if c.Stall <= 0 {
		c.Stall = 2 * time.Minute
	}
	if c.Settle <= 0 {
		c.Settle = 30 * time.Second
	}
	if c.ProgressEvery <= 0 {
		c.ProgressEvery = 10 * time.Second
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return nil
}

// The games a load run plays.
const (
	GameDIX    = "dix"
	GameQwixx  = "qwixx"
	GameDixxit = "dixxit"
)

// gameSeats are the seats a game of each has, fewest and most (a load
// game of DIX has at least two: no solo game).
var gameSeats = map[string][2]int{GameDIX: {2, 5}, GameQwixx: {2, 5}, GameDixxit: {3, 6}}

// newGame is what the players of a table know of cfg's game, in lang.
func newGame(cfg *Config, lang string, names []string) game {
	switch cfg.Game {
	case GameQwixx:
		return newQwixxMarkers(lang, names)
	case GameDixxit:
		return newDixxitGame(lang, names)
	}
	return newDixGame(lang, names)
}

// lang is the language of the boards: the guilds are not Community
// servers, so their locale is en-US, and the players' client is English.
const lang = "en"

// Run starts Redis, the stand-in and the bot, plays cfg.Games games at
// once and reports what it measured. It returns an error when the run
// could not be set up or the bot stopped during it; a table that failed
// midway is reported in Report.TableErrors instead.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	dir := cfg.Dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "dixload-")
		if err != nil {
			return nil, fmt.Errorf("loadtest: %w", err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	rep := &Report{Machine: readMachine(), Config: reportConfig(cfg)}

	redisURL := cfg.RedisURL
	if redisURL == "" {
		rs, err := startRedis(ctx, dir, cfg.RedisSocket)
		if err != nil {
			return nil, err
		}
		defer rs.stop()
		redisURL = rs.url
		rep.Redis.Private = true
	}

	// Neither the pictures' bytes nor the interactions' payloads are kept:
	// a thousand games would fill gigabytes, and the stand-in's garbage
	// collector would take CPU from the bot to mark them.
	fake, err := fakediscord.New(fakediscord.Options{DisableWeb: true, DisableRateLimits: !cfg.RateLimits, DropFileData: true, DropPayloads: true, DropHistory: true,
		APILatency: cfg.APILatency, Logger: cfg.Logger})
	if err != nil {
		return nil, err
	}
	defer fake.Close()
	recent := &window{}
	tables := newTables(fake, &cfg, recent)

	settings := BotSettings{Token: fake.Token(), APIURL: fake.URL(), RedisURL: redisURL,
		RedisPrefix: fmt.Sprintf("dixload%d:", time.Now().UnixNano()), Env: cfg.BotEnv}
	// The bot's /metrics gives its own measure of its handling time.
	metricsAddr := ""
	for _, kv := range cfg.BotEnv {
		if v, ok := strings.CutPrefix(kv, "HTTP_ADDR="); ok {
			metricsAddr = v
		}
	}
	if cfg.BotProfile != "" {
		settings.Env = append(slices.Clip(settings.Env), "HTTP_PPROF=true")
	}
	if metricsAddr, err = startBot(ctx, fake, cfg.Bot, settings, metricsAddr); err != nil {
		return nil, err
	}
	rep.Bot.Runs = cfg.Bot.Describe()
	stopped := false
	stopBot := func() error {
		if stopped {
			return nil
		}
		stopped = true
		sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return cfg.Bot.Stop(sctx)
	}
	defer func() { _ = stopBot() }()

	// The measured window starts here: the bot is up, no game has begun.
	before, err := readings(ctx, cfg.Bot, redisURL, metricsAddr)
	if err != nil {
		return nil, err
	}
	fake.ResetStats()
	start := time.Now()
	playCtx, endPlay := context.WithCancel(ctx)
	defer endPlay()
	if cfg.Duration > 0 {
		var cancel context.CancelFunc
		playCtx, cancel = context.WithTimeout(playCtx, cfg.Duration)
		defer cancel()
	}
	// The bot stopping midway ends the run.
	go func() {
		select {
		case <-cfg.Bot.Exited():
			endPlay()
		case <-playCtx.Done():
		}
	}()
	var wg sync.WaitGroup
	for i, t := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := sleep(playCtx, cfg.Ramp*time.Duration(i)/time.Duration(len(tables))); err != nil {
				return
			}
			t.play(playCtx, cfg.Duration > 0)
		}()
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	profiled := make(chan error, 1)
	if cfg.BotProfile != "" {
		go func() { profiled <- profileBot(playCtx, metricsAddr, cfg) }()
	} else {
		profiled <- nil
	}
	progress(ctx, done, cfg, start, tables, recent, before, redisURL)
	played := time.Since(start)
	if err := <-profiled; err != nil {
		rep.Bot.Profile = err.Error()
	} else if cfg.BotProfile != "" {
		rep.Bot.Profile = cfg.BotProfile
	}
	select {
	case <-cfg.Bot.Exited():
		return nil, exited(cfg.Bot, "during the run")
	default:
	}
	settle(ctx, fake, cfg.Settle)
	after, err := readings(ctx, cfg.Bot, redisURL, metricsAddr)
	if err != nil {
		return nil, err
	}

	rep.fill(tables, fake, before, after, played)
	if cfg.AtEnd != nil {
		cfg.AtEnd()
	}
	if err := stopBot(); err != nil {
		rep.Bot.Stop = err.Error()
	}
	if lr, ok := cfg.Bot.(logReader); ok {
		if p, err := lr.LogProblems(); err == nil {
			rep.Bot.Log = &p
		}
	}
	return rep, nil
}

// playerSeed sets the players' random sources apart from the tables'.
const playerSeed = 0x9e3779b97f4a7c15

// newTables creates a guild, a channel and its people per game. The
// people are named p1, p2...: the board names the deciding ones.
func newTables(fake *fakediscord.Server, cfg *Config, recent *window) []*table {
	tables := make([]*table, cfg.Games)
	for i := range tables {
		g := fake.AddGuild(fakediscord.GuildSpec{Name: fmt.Sprintf("load %d", i+1)})
		ch, err := fake.AddChannel(g.ID, cfg.Game)
		if err != nil {
			panic(err) // a fresh guild always takes a channel
		}
		t := &table{fake: fake, cfg: cfg, lang: lang, channel: ch.ID, recent: recent,
			rng: rand.New(rand.NewPCG(cfg.Seed, uint64(i)))}
		for p := range cfg.Players - cfg.Computers {
			u := fake.AddUser(fakediscord.UserSpec{Name: fmt.Sprintf("p%d", p+1)})
			if err := fake.AddMember(g.ID, u.ID, 0); err != nil {
				panic(err)
			}
			t.players = append(t.players, &player{User: u, rng: rand.New(rand.NewPCG(cfg.Seed^playerSeed, uint64(i)<<8|uint64(p)))})
		}
		t.game = newGame(cfg, lang, t.names())
		tables[i] = t
	}
	return tables
}

// startBot starts bot with s and waits until it is ready. With addr ""
// the bot serves its /metrics at a loopback port found free, which
// another process may take before the bot binds it: the bot then exits
// at once, and another port is tried. It returns the address of
// /metrics; on an error the bot is stopped.
func startBot(ctx context.Context, fake *fakediscord.Server, bot Bot, s BotSettings, addr string) (string, error) {
	own := addr == ""
	env := s.Env
	for attempt := 1; ; attempt++ {
		if own {
			var err error
			if addr, err = freeAddr(); err != nil {
				return "", fmt.Errorf("loadtest: %w", err)
			}
			s.Env = append(slices.Clip(env), "HTTP_ADDR="+addr)
		}
		if err := bot.Start(ctx, s); err != nil {
			return "", err
		}
		err := waitReady(ctx, fake, bot)
		if err == nil {
			return addr, nil
		}
		if !own || !errors.Is(err, errAddrTaken) || attempt == 5 {
			sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_ = bot.Stop(sctx)
			return "", err
		}
	}
}

// addrTaken reports whether why a bot stopped (StopReason) says it stopped
// because the address it was to serve at (HTTP_ADDR) was taken (cmd/dixbot
// logs "HTTP_ADDR: listen tcp …: bind: address already in use").
func addrTaken(why string) bool {
	return strings.Contains(why, "HTTP_ADDR") && strings.Contains(why, "address already in use")
}

// exited is the error of a bot that stopped by itself (when: at its start,
// during the run), with why it stopped when it can say.
func exited(bot Bot, when string) error {
	why := ""
	if r, ok := bot.(stopReason); ok {
		why = r.StopReason()
	}
	switch {
	case addrTaken(why):
		return fmt.Errorf("%w %s (%w): %s", errExited, when, errAddrTaken, why)
	case why != "":
		return fmt.Errorf("%w %s:\n%s", errExited, when, why)
	}
	return fmt.Errorf("%w %s", errExited, when)
}

// waitReady waits until the bot has registered its commands and holds a
// gateway session.
func waitReady(ctx context.Context, fake *fakediscord.Server, bot Bot) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	go func() {
		select {
		case <-bot.Exited():
			cancel()
		case <-ctx.Done():
		}
	}()
	err := fake.WaitFor(ctx, func() bool { return fake.Connected() && len(fake.Commands("")) > 0 })
	select {
	case <-bot.Exited():
		return exited(bot, "at its start")
	default:
	}
	if err != nil {
		return fmt.Errorf("loadtest: the bot did not connect and register its commands: %w", err)
	}
	return nil
}

// settle waits until the stand-in has seen no request for a second: the
// bot's work after the last answers (the last boards and scoreboards, what
// a rate limit delayed) belongs to the run.
func settle(ctx context.Context, fake *fakediscord.Server, most time.Duration) {
	count := func() int { st := fake.Stats(); return st.BotToken + st.InteractionToken }
	deadline := time.Now().Add(most)
	last := count()
	for time.Now().Before(deadline) && sleep(ctx, time.Second) == nil {
		n := count()
		if n == last {
			return
		}
		last = n
	}
}

// reading is the state of the counters at one moment.
type reading struct {
	at      time.Time
	bot     Usage
	botOK   bool
	self    time.Duration
	machine machineCPU
	redis   redisReading
	hist    histogram // the bot's handling times; no bounds if unread
	sent    redisSent // what the bot's store sent to Redis
}

func readings(ctx context.Context, bot Bot, redisURL, metricsAddr string) (reading, error) {
	r := reading{at: time.Now(), self: selfCPU(), machine: readMachineCPU()}
	var err error
	if metricsAddr != "" {
		if h, sent, err := scrapeMetrics(ctx, metricsAddr); err == nil {
			r.hist, r.sent = h, sent
		}
	}
	if r.bot, r.botOK, err = bot.Usage(); err != nil {
		return r, err
	}
	if r.redis, err = readRedis(ctx, redisURL); err != nil {
		return r, err
	}
	return r, nil
}

// progress prints a line every cfg.ProgressEvery until done is closed:
// the answers so far, the latencies since the last line, and the CPU the
// bot and the other processes took meanwhile (on a shared machine, a bad
// interval is often one where others took the CPUs).
func progress(ctx context.Context, done <-chan struct{}, cfg Config, start time.Time, tables []*table, recent *window, last reading, redisURL string) {
	tick := time.NewTicker(cfg.ProgressEvery)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			lat := recent.take()
			if cfg.Progress == nil {
				continue
			}
			var answered, finished int64
			for _, t := range tables {
				answered += t.answered.Load()
				finished += t.finished.Load()
			}
			el := time.Since(start)
			slices.Sort(lat)
			p := percentiles(lat)
			line := fmt.Sprintf("%4.0fs %8d answers (%4.0f/s), last %v: p50 %5.1f ms p99 %6.1f ms max %6.1f ms; %d/%d games finished",
				el.Seconds(), answered, float64(answered)/el.Seconds(), cfg.ProgressEvery, p.P50, p.P99, p.Max, finished, len(tables))
			now, err := readings(ctx, cfg.Bot, redisURL, "")
			if err == nil && now.botOK {
				secs := now.at.Sub(last.at).Seconds()
				botCores := (now.bot.CPU - last.bot.CPU).Seconds() / secs
				ours := botCores + (now.self-last.self).Seconds()/secs + (now.redis.cpu-last.redis.cpu).Seconds()/secs
				others := max(0, busyFraction(last.machine, now.machine)*float64(runtime.NumCPU())-ours)
				waited := (now.bot.RunDelay - last.bot.RunDelay).Seconds() / secs
				line += fmt.Sprintf("; bot %.2f cores (waiting for one %.2f), others %.2f cores, bot RSS peak %d MiB", botCores, waited, others, now.bot.PeakRSS>>20)
				last = now
			}
			fmt.Fprintln(cfg.Progress, line)
		}
	}
}

// window collects the latencies between two progress lines. It is safe
// for concurrent use.
type window struct {
	mu  sync.Mutex
	lat []time.Duration
}

func (w *window) add(d time.Duration) {
	w.mu.Lock()
	w.lat = append(w.lat, d)
	w.mu.Unlock()
}

// take returns the latencies added since the last take.
func (w *window) take() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	l := w.lat
	w.lat = nil
	return l
}

// latencies gathers every table's latencies of the given kinds, sorted.
func latencies(tables []*table, kinds ...kind) []time.Duration {
	var all []time.Duration
	for _, t := range tables {
		for _, k := range kinds {
			all = append(all, t.samples[k]...)
		}
	}
	slices.Sort(all)
	return all
}

// profileBot writes a CPU profile of the bot's process to cfg.BotProfile:
// from the end of the ramp (every game started) to 2 s before the run's
// end (5 s when the run has no set duration).
func profileBot(ctx context.Context, addr string, cfg Config) error {
	if err := sleep(ctx, cfg.Ramp); err != nil {
		return fmt.Errorf("loadtest: no bot profile: the run ended during the ramp")
	}
	secs := 5
	if cfg.Duration > 0 {
		secs = int((cfg.Duration - cfg.Ramp - 2*time.Second) / time.Second)
	}
	if secs < 1 {
		return fmt.Errorf("loadtest: no bot profile: the run is not longer than its ramp")
	}
	rctx, cancel := context.WithTimeout(context.Background(), time.Duration(secs+30)*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", addr, secs), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("loadtest: the bot's profile: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("loadtest: the bot's profile: %s", resp.Status)
	}
	f, err := os.Create(cfg.BotProfile)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return fmt.Errorf("loadtest: the bot's profile: %w", err)
	}
	return f.Close()
}
