// Command dixbot runs the DIX Discord bot.
//
// Configuration comes from environment variables only (see config below and
// the README); the one required variable is DISCORD_TOKEN. It runs until
// SIGINT or SIGTERM, then finishes the interactions in flight and exits 0.
//
// dixbot -healthcheck asks a running bot's /healthz (at HTTP_ADDR) and exits
// 0 when it is healthy, 1 otherwise: the container image has no curl, so its
// HEALTHCHECK runs the binary itself.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/dixgame/dixbot/internal/app"
	"github.com/dixgame/dixbot/internal/redact"
)

// version is stamped at build time: go build -ldflags "-X main.version=1.2.3".
var version = "dev"

// config is the program's environment: the app's settings plus logging.
type config struct {
	app.Config
	LogLevel  string `env:"LOG_LEVEL" envDefault:"info"`
	LogFormat string `env:"LOG_FORMAT" envDefault:"text"`
	// CPUs is how many threads run the bot's Go code at once
	// (GOMAXPROCS); 0: as many as the CPUs it may use (Go's default).
	CPUs int `env:"DIX_CPUS" envDefault:"1"`
	// procs is what run sets GOMAXPROCS to (0: left as the runtime set
	// it): CPUs, unless only Go's own GOMAXPROCS is set.
	procs int
	// gcPercent is what run sets the collector's GOGC to (0: left as Go's
	// own GOGC set it): gcDefault, unless GOGC is set.
	gcPercent int
}

// gcDefault is the bot's GOGC unless one is set: the heap may grow to four
// times what is live between collections, not twice, for less collecting
// per click (docs/PERFORMANCE.md: 5-6% less CPU an interaction for about
// 1.7 times the peak RSS in the load runs). GOMEMLIMIT, Go's own, caps the
// heap where memory is short.
const gcDefault = 300

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1 // the bot stopped on an error
	exitConfig = 2 // bad or missing configuration
)

func main() {
	os.Exit(run(os.Args[1:], os.Environ(), os.Stdout, os.Stderr))
}

// run is main without the process globals, so it can be tested.
func run(args, environ []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dixbot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	showVersion := fs.Bool("version", false, "print the version and exit")
	healthcheck := fs.Bool("healthcheck", false, "check the running bot: GET http://$HTTP_ADDR/healthz, exit 0 if healthy, 1 if not (for a container HEALTHCHECK)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: dixbot [-version | -healthcheck]\n\n%s\n", usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitConfig
	}
	if *showVersion {
		fmt.Fprintf(stdout, "dixbot %s\n", version)
		return exitOK
	}
	if *healthcheck {
		return checkHealth(environ, stdout, stderr)
	}

	cfg, err := loadConfig(environ)
	if err != nil {
		printConfigErrors(stderr, err)
		return exitConfig
	}
	logger, err := newLogger(cfg.LogLevel, cfg.LogFormat, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "dixbot: %v\n", err)
		return exitConfig
	}

	if cfg.procs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(cfg.procs))
	}
	if cfg.gcPercent > 0 {
		defer debug.SetGCPercent(debug.SetGCPercent(cfg.gcPercent))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger.Info("starting", "version", version, "cpus", runtime.GOMAXPROCS(0))
	if err := app.Run(ctx, cfg.Config, logger); err != nil {
		logger.Error("stopped", "err", err)
		if errors.Is(err, app.ErrBadToken) || errors.Is(err, app.ErrConfig) {
			return exitConfig
		}
		return exitFailed
	}
	logger.Info("stopped")
	return exitOK
}

const usage = `Environment:
  DISCORD_TOKEN     (required) the bot token from the Discord developer portal
  DISCORD_API_URL   Discord's base URL (default https://discord.com/)
  DISCORD_GUILD_ID  register the commands in this server only (instant updates)
  REDIS_URL         redis://[:password@]host:6379/0; unset: embedded store
  REDIS_CLUSTER     true: REDIS_URL names a Redis Cluster (seed nodes host:port,host:port)
  REDIS_PREFIX      key prefix in Redis (default dix:)
  DIX_DATA_FILE     the embedded store's file (default dix.db)
  DIX_LANGUAGE      en or fr: board language when the server's is neither (default en)
  LOG_LEVEL         debug, info, warn or error (default info)
  LOG_FORMAT        text or json (default text)
  HTTP_ADDR         serve /healthz and /metrics here, e.g. 127.0.0.1:8080
                    (dixbot -healthcheck asks that /healthz: exit 0 if healthy)
  STORE_TIMEOUT     per store call (default 1500ms)
  SHUTDOWN_TIMEOUT  time to finish interactions in flight on SIGTERM (default 10s)
  GAME_TTL          an untouched game expires after this (default 720h)
  DIX_RETENTION     finished and abandoned games and their logs are deleted after this, 90d or 2160h (default 90d)
  ARCHIVE_TTL       the store's own expiry of a finished game (default: a day after DIX_RETENTION)
  DUE_POLL          how often to look for due work: deadlines, reminders, work a crashed process left (default 1s)
  INTERACTIONS_ADDR, DISCORD_PUBLIC_KEY  set both to serve Discord's interactions endpoint at that address,
                    checked with the application's public key, instead of the gateway (HTTP interactions mode)
  SHARD_ID, SHARD_COUNT  this process's gateway shard, to split the servers between processes (default 0 of 1);
                    SHARD_COUNT=auto opens every shard Discord recommends in this process
  DIX_PACES         the paces' durations, name=bank+increment (default live=5m+1m,evening=3h+20m,relaxed=24h+24h)
  DIX_PICTURES      off: boards, hands and scoreboards as text only, no pictures (default on)
  DIX_CPUS          how many CPUs run the bot's code at once (GOMAXPROCS), 0 for every CPU (default 1;
                    a GOMAXPROCS set without DIX_CPUS is kept)
  GOGC              Go's collector: how far the heap grows past what is live, in percent (default 300 here,
                    for less CPU a click; 100 is Go's own default; GOMEMLIMIT caps the heap)`

// errNoToken is the message for a missing token: what to set and where to
// find it.
var errNoToken = &app.VarError{Var: "DISCORD_TOKEN", Msg: "DISCORD_TOKEN is not set.\n" +
	"Set it to your bot's token (Discord developer portal → your application → Bot → Reset Token), e.g.\n" +
	"    DISCORD_TOKEN=<your bot token> dixbot\n" +
	"Run dixbot -h for every setting"}

// loadConfig parses and checks the environment. It reports every problem
// at once, each naming its variable.
func loadConfig(environ []string) (config, error) {
	var cfg config
	vars := env.ToMap(environ)
	var errs []error
	failed := map[string]bool{} // variables whose value could not be parsed
	if err := env.ParseWithOptions(&cfg, env.Options{Environment: vars}); err != nil {
		for _, e := range explainEnvError(err, vars) {
			errs = append(errs, e)
			failed[e.Var] = true
		}
	}
	cfg.Normalize()
	cfg.LogLevel = strings.ToLower(strings.TrimSpace(cfg.LogLevel))
	cfg.LogFormat = strings.ToLower(strings.TrimSpace(cfg.LogFormat))
	if v, set := vars["DIX_DATA_FILE"]; set && strings.TrimSpace(v) == "" && cfg.RedisURL == "" {
		// The env package would fall back to the default: an empty value
		// set on purpose is a mistake to report, not to paper over.
		errs = append(errs, &app.VarError{Var: "DIX_DATA_FILE", Msg: "DIX_DATA_FILE is set but empty: name the embedded store's file (default dix.db), or set REDIS_URL"})
		failed["DIX_DATA_FILE"] = true
	}
	if _, set := vars["DUE_POLL"]; set && cfg.DuePoll == 0 && !failed["DUE_POLL"] {
		errs = append(errs, &app.VarError{Var: "DUE_POLL", Msg: "DUE_POLL 0s: set a positive duration such as 1s (how often to look for due work), or leave it unset for the default"})
		failed["DUE_POLL"] = true
	}
	switch _, own := vars["DIX_CPUS"]; {
	case cfg.CPUs < 0:
		errs = append(errs, &app.VarError{Var: "DIX_CPUS", Msg: fmt.Sprintf("DIX_CPUS %d: set how many CPUs run the bot at once, such as 1, or 0 for every CPU", cfg.CPUs)})
	case !own && vars["GOMAXPROCS"] != "":
		// Go's own setting, already applied by the runtime.
	default:
		cfg.procs = cfg.CPUs
	}
	if _, set := vars["GOGC"]; !set {
		cfg.gcPercent = gcDefault
	}
	if strings.TrimSpace(cfg.Token) == "" {
		errs = append(errs, errNoToken)
		failed["DISCORD_TOKEN"] = true
	}
	if !validLevel(cfg.LogLevel) {
		errs = append(errs, &app.VarError{Var: "LOG_LEVEL", Msg: fmt.Sprintf("LOG_LEVEL %q must be debug, info, warn or error", cfg.LogLevel)})
	}
	if cfg.LogFormat != "text" && cfg.LogFormat != "json" {
		errs = append(errs, &app.VarError{Var: "LOG_FORMAT", Msg: fmt.Sprintf("LOG_FORMAT %q must be text or json", cfg.LogFormat)})
	}
	if err := cfg.Validate(); err != nil {
		for _, e := range joined(err) {
			var ve *app.VarError
			if errors.As(e, &ve) && failed[ve.Var] {
				continue // already reported, from its own value
			}
			errs = append(errs, e)
		}
	}
	return cfg, errors.Join(errs...)
}

// printConfigErrors lists every configuration problem, one per item.
func printConfigErrors(w io.Writer, err error) {
	errs := joined(err)
	if len(errs) == 1 {
		fmt.Fprintf(w, "dixbot: %v\n", err)
		return
	}
	fmt.Fprintf(w, "dixbot: %d configuration problems:\n", len(errs))
	for _, e := range errs {
		msg := e.Error()
		var ve *app.VarError
		if errors.As(e, &ve) {
			msg = ve.Msg
		}
		fmt.Fprintf(w, "  - %s\n", strings.ReplaceAll(msg, "\n", "\n    "))
	}
}

// joined returns the errors inside errors.Join's result, or err alone.
func joined(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// explainEnvError names the environment variable behind each parse error
// (the env package names the Go field) and says what the variable accepts;
// vars is the environment it was read from.
func explainEnvError(err error, vars map[string]string) []*app.VarError {
	var agg env.AggregateError
	if !errors.As(err, &agg) {
		return []*app.VarError{{Msg: fmt.Sprintf("reading the environment: %v", err)}}
	}
	var out []*app.VarError
	for _, e := range agg.Errors {
		var pe env.ParseError
		if errors.As(e, &pe) {
			hint := ""
			name := envName(reflect.TypeFor[config](), pe.Name)
			switch pe.Type {
			case reflect.TypeFor[time.Duration]():
				hint = " (want a duration such as 1500ms, 10s or 720h)"
			case reflect.TypeFor[bool]():
				out = append(out, &app.VarError{Var: name, Msg: fmt.Sprintf("%s %q must be true or false", name, vars[name])})
				continue
			}
			msg := fmt.Sprintf("%s: %v%s", name, pe.Err, hint)
			if strings.HasPrefix(pe.Err.Error(), name+" ") {
				msg = pe.Err.Error() // it names its variable already
			}
			out = append(out, &app.VarError{Var: name, Msg: msg})
			continue
		}
		out = append(out, &app.VarError{Msg: e.Error()})
	}
	return out
}

// envName returns the environment variable of the struct field named field
// in t or its embedded structs.
func envName(t reflect.Type, field string) string {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if n := envName(f.Type, field); n != "" {
				return n
			}
			continue
		}
		if f.Name == field {
			name, _, _ := strings.Cut(f.Tag.Get("env"), ",")
			return name
		}
	}
	return ""
}

// newLogger builds the program's logger.
func newLogger(level, format string, w io.Writer) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil || !validLevel(level) {
		return nil, fmt.Errorf("%w: LOG_LEVEL %q must be debug, info, warn or error", app.ErrConfig, level)
	}
	opts := &slog.HandlerOptions{Level: l}
	// Interaction tokens never reach the logs (see package redact).
	switch format {
	case "text":
		return slog.New(redact.Handler(slog.NewTextHandler(w, opts))), nil
	case "json":
		return slog.New(redact.Handler(slog.NewJSONHandler(w, opts))), nil
	}
	return nil, fmt.Errorf("%w: LOG_FORMAT %q must be text or json", app.ErrConfig, format)
}

func validLevel(s string) bool {
	switch strings.ToLower(s) {
	case "debug", "info", "warn", "error":
		return true
	}
	return false
}
