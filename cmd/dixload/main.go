// Command dixload is the load benchmark of the bot: many concurrent DIX
// (or, with -game qwixx or -game dixxit, Qwixx or Dixxit) games played by
// scripted players through the local Discord stand-in against one bot
// process on a real Redis, with the answers' latencies, the bot's CPU
// time per interaction and its bot-token requests per turn.
//
//	go run ./cmd/dixload -games 1000 -think 3s
//	go run ./cmd/dixload -game qwixx -players 4 -games 1000 -think 3s -duration 2m
//	go run ./cmd/dixload -game dixxit -games 300 -think 3s -duration 90s
//
// It builds cmd/dixbot (go build, from the module this command is run in)
// unless -bot names a binary, and runs it as a child process so that its
// CPU time and memory are read apart from the stand-in's. -inprocess runs
// the bot in this process instead, for -cpuprofile. See internal/loadtest.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/dixgame/dixbot/internal/app"
	"github.com/dixgame/dixbot/internal/loadtest"
)

func main() {
	if _, set := os.LookupEnv("GOGC"); !set {
		// The stand-in keeps every message and interaction of the run: a
		// large heap, marked again and again at the default GOGC, which
		// takes CPU the bot under load would otherwise have. Memory is
		// cheaper here, up to half the machine's. (GOGC and GOMEMLIMIT in
		// the environment are also given to the bot.)
		debug.SetGCPercent(400)
		if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
			if total := memTotal(); total > 0 {
				debug.SetMemoryLimit(total / 2)
			}
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// options are the command's flags.
type options struct {
	cfg        loadtest.Config
	pictures   string
	env        listFlag
	bot        string
	inProcess  bool
	cpuProfile string
	memProfile string
	jsonOut    bool
	quiet      bool
	verbose    bool
}

// listFlag is a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, " ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("dixload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.cfg.Games, "games", 100, "concurrent games, one per guild channel")
	fs.IntVar(&o.cfg.Players, "players", 3, "players per game, computer seats included (2 to 5; Dixxit 3 to 6)")
	fs.IntVar(&o.cfg.Computers, "computers", 0, "computer seats among the players, added in the lobby")
	fs.DurationVar(&o.cfg.Think, "think", 3*time.Second, "a player's time before each interaction; 0 for a throughput ceiling")
	fs.Float64Var(&o.cfg.Jitter, "jitter", 0.5, "think time varies uniformly by ± this fraction")
	ramp := fs.Duration("ramp", -1, "spread the games' starts over this time (default: the think time × 5)")
	fs.DurationVar(&o.cfg.Duration, "duration", 0, "end after this time, starting new games meanwhile (default: every game to its end)")
	fs.StringVar(&o.cfg.Game, "game", loadtest.GameDIX, "the game played: dix, qwixx or dixxit")
	fs.StringVar(&o.cfg.Start, "start", "", "the command that opens each game (default \"/<game> start\")")
	fs.BoolVar(&o.cfg.RateLimits, "rate-limits", true, "keep the stand-in's Discord rate limits on")
	fs.DurationVar(&o.cfg.APILatency, "api-latency", 0, "delay each of the stand-in's REST answers, as Discord's round trip (e.g. 50ms)")
	fs.StringVar(&o.cfg.RedisURL, "redis", "", "Redis URL for the bot (default: a private redis-server)")
	fs.BoolVar(&o.cfg.RedisSocket, "redis-socket", false, "the bot reaches the private redis-server by its Unix socket (unix://) instead of its TCP port")
	fs.StringVar(&o.pictures, "pictures", "on", "the bot's DIX_PICTURES: on or off")
	fs.Var(&o.env, "env", "more of the bot's environment, NAME=value (repeatable)")
	fs.StringVar(&o.bot, "bot", "", "a dixbot binary (default: go build ./cmd/dixbot)")
	fs.BoolVar(&o.inProcess, "inprocess", false, "run the bot in this process (its CPU is then not told apart; for -cpuprofile)")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of this process here (needs -inprocess to include the bot)")
	fs.StringVar(&o.cfg.BotProfile, "botprofile", "", "write a CPU profile of the bot's own process here (from its /debug/pprof, over the run after the ramp)")
	fs.StringVar(&o.memProfile, "memprofile", "", "write a heap profile of this process here at the end of the run (the stand-in's memory)")
	fs.StringVar(&o.cfg.Dir, "dir", "", "keep the run's files (the bot's log, Redis's) here (default: a temporary directory)")
	fs.Uint64Var(&o.cfg.Seed, "seed", 1, "seed of the players' choices")
	fs.DurationVar(&o.cfg.Stall, "stall", 2*time.Minute, "a table gives up after waiting this long for a board")
	fs.BoolVar(&o.jsonOut, "json", false, "print the report as JSON")
	fs.BoolVar(&o.quiet, "q", false, "no progress lines")
	fs.BoolVar(&o.verbose, "v", false, "log the stand-in's diagnostics (warnings) to stderr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: dixload [flags]\n\nPlays concurrent DIX, Qwixx or Dixxit games through the Discord stand-in against one bot on Redis and reports latencies, CPU and Discord requests.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	o.cfg.Ramp = *ramp
	if o.cfg.Ramp < 0 {
		o.cfg.Ramp = 5 * o.cfg.Think
	}
	switch o.cfg.Game {
	case loadtest.GameDIX, loadtest.GameQwixx, loadtest.GameDixxit:
	default:
		return nil, fmt.Errorf("-game %q: dix, qwixx or dixxit", o.cfg.Game)
	}
	switch o.pictures {
	case "on", "off":
	default:
		return nil, fmt.Errorf("-pictures %q: on or off", o.pictures)
	}
	for _, kv := range o.env {
		if name, _, ok := strings.Cut(kv, "="); !ok || name == "" {
			return nil, fmt.Errorf("-env %q: want NAME=value", kv)
		}
	}
	if o.inProcess && o.bot != "" {
		return nil, errors.New("-inprocess runs the bot's code in this process: no -bot binary")
	}
	if o.cfg.RedisSocket && o.cfg.RedisURL != "" {
		return nil, errors.New("-redis-socket is the private redis-server's socket: no -redis URL with it")
	}
	o.cfg.BotEnv = append([]string{"DIX_PICTURES=" + o.pictures}, o.env...)
	return o, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "dixload: %v\n", err)
		return 2
	}
	if err := load(ctx, o, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "dixload: %v\n", err)
		return 1
	}
	return 0
}

func load(ctx context.Context, o *options, stdout, stderr io.Writer) error {
	work := o.cfg.Dir
	if work == "" {
		tmp, err := os.MkdirTemp("", "dixload-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		work = tmp
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	logFile := filepath.Join(work, "dixbot.log")
	if o.inProcess {
		o.cfg.Bot = inProcess(logFile)
	} else {
		bin := o.bot
		if bin == "" {
			bin = filepath.Join(work, "dixbot")
			if !o.quiet {
				fmt.Fprintln(stderr, "building ./cmd/dixbot")
			}
			if err := buildBot(ctx, bin); err != nil {
				return err
			}
		}
		o.cfg.Bot = &loadtest.Child{Path: bin, Dir: work, LogFile: logFile}
	}
	if !o.quiet {
		o.cfg.Progress = stderr
	}
	if o.verbose {
		o.cfg.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if o.memProfile != "" {
		o.cfg.AtEnd = func() {
			if err := writeHeapProfile(o.memProfile); err != nil {
				fmt.Fprintf(stderr, "dixload: %v\n", err)
			}
		}
	}
	rep, err := loadtest.Run(ctx, o.cfg)
	if err != nil {
		return err
	}
	if o.jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep.Print(stdout)
	return nil
}

// buildBot builds cmd/dixbot of the module in the current directory.
func buildBot(ctx context.Context, out string) error {
	gomod, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(gomod)) == "" || strings.TrimSpace(string(gomod)) == os.DevNull {
		return errors.New("building the bot: run dixload inside the module, or give -bot")
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./cmd/dixbot")
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(gomod)))
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/dixbot: %v\n%s", err, b)
	}
	return nil
}

// inProcess runs app.Run in this process, configured from the same
// environment the child would get, logging JSON to logFile.
func inProcess(logFile string) *loadtest.InProcess {
	return &loadtest.InProcess{LogFile: logFile, Run: func(ctx context.Context, s loadtest.BotSettings) error {
		var cfg app.Config
		if err := env.ParseWithOptions(&cfg, env.Options{Environment: env.ToMap(s.Environ())}); err != nil {
			return err
		}
		cfg.Normalize()
		if err := cfg.Validate(); err != nil {
			return err
		}
		f, err := os.Create(logFile)
		if err != nil {
			return err
		}
		defer f.Close()
		return app.Run(ctx, cfg, slog.New(slog.NewJSONHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo})))
	}}
}

// memTotal is the machine's memory in bytes from /proc/meminfo, 0 if unknown.
func memTotal() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb); err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// writeHeapProfile writes the live heap (after a collection) to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	runtime.GC()
	return pprof.Lookup("heap").WriteTo(f, 0)
}
