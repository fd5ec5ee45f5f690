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
	"strings"
	"syscall"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/dixgame/dixbot/internal/app"
)

// version is stamped at build time: go build -ldflags "-X main.version=1.2.3".
var version = "dev"

// config is the program's environment: the app's settings plus logging.
type config struct {
	app.Config
	LogLevel  string `env:"LOG_LEVEL" envDefault:"info"`
	LogFormat string `env:"LOG_FORMAT" envDefault:"text"`
}

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
		fmt.Fprintf(stderr, "dixbot: %v\n", err)
		return exitConfig
	}
	logger, err := newLogger(cfg.LogLevel, cfg.LogFormat, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "dixbot: %v\n", err)
		return exitConfig
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger.Info("starting", "version", version)
	if err := app.Run(ctx, cfg.Config, logger); err != nil {
		logger.Error("stopped", "err", err)
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
  ARCHIVE_TTL       a finished game is kept this long (default 168h)`

// errNoToken is the message for a missing token: what to set and where to
// find it.
var errNoToken = errors.New("DISCORD_TOKEN is not set.\n" +
	"Set it to your bot's token (Discord developer portal → your application → Bot → Reset Token), e.g.\n" +
	"    DISCORD_TOKEN=<your bot token> dixbot\n" +
	"Run dixbot -h for every setting")

// loadConfig parses and checks the environment.
func loadConfig(environ []string) (config, error) {
	var cfg config
	err := env.ParseWithOptions(&cfg, env.Options{Environment: env.ToMap(environ)})
	if err != nil {
		return cfg, explainEnvError(err)
	}
	if strings.TrimSpace(cfg.Token) == "" {
		return cfg, errNoToken
	}
	if err := cfg.Validate(); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// explainEnvError names the environment variable behind each parse error
// (the env package names the Go field).
func explainEnvError(err error) error {
	var agg env.AggregateError
	if !errors.As(err, &agg) {
		return fmt.Errorf("%w: reading the environment: %v", app.ErrConfig, err)
	}
	var errs []error
	for _, e := range agg.Errors {
		var pe env.ParseError
		if errors.As(e, &pe) {
			hint := ""
			if pe.Type == reflect.TypeFor[time.Duration]() {
				hint = " (want a duration such as 1500ms, 10s or 720h)"
			}
			errs = append(errs, fmt.Errorf("%w: %s: %v%s", app.ErrConfig, envName(reflect.TypeFor[config](), pe.Name), pe.Err, hint))
			continue
		}
		errs = append(errs, fmt.Errorf("%w: %v", app.ErrConfig, e))
	}
	return errors.Join(errs...)
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
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
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
