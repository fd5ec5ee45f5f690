package app

import (
	"errors"
	"fmt"
	"github.com/dixgame/dixbot/bot/present"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/clock"
)

// Config is everything the program needs to run. The env tags name the
// environment variables cmd/dixbot reads it from (with caarlos0/env); this
// package never reads the environment itself.
type Config struct {
	// Token is the bot token. Required. Never logged.
	Token string `env:"DISCORD_TOKEN"`
	// APIURL is the base URL of Discord's API (a local stand-in in tests).
	APIURL string `env:"DISCORD_API_URL" envDefault:"https://discord.com/"`
	// GuildID registers the commands in that one server (updates are
	// instant there) instead of globally.
	GuildID string `env:"DISCORD_GUILD_ID"`
	// RedisURL selects the Redis store (redis://, rediss://, or unix:// for
	// a server on this machine reached by its socket file); empty means the
	// embedded store in DataFile.
	RedisURL string `env:"REDIS_URL"`
	// RedisCluster opens RedisURL as a Redis Cluster: its host is a seed
	// node, or several separated by commas (a URL with several implies it).
	RedisCluster bool   `env:"REDIS_CLUSTER"`
	RedisPrefix  string `env:"REDIS_PREFIX" envDefault:"dix:"`
	DataFile     string `env:"DIX_DATA_FILE" envDefault:"dix.db"`
	// Language of the board when the server's locale is neither en nor fr.
	Language string `env:"DIX_LANGUAGE" envDefault:"en"`
	// HTTPAddr, when set, serves /healthz and /metrics there.
	HTTPAddr string `env:"HTTP_ADDR"`
	// Profiles, when on, also serves Go's runtime profiles there, under
	// /debug/pprof/ (net/http/pprof): for measuring the process under
	// load. They say a lot about the process, so they are off unless
	// HTTP_ADDR is reachable by its operators only.
	Profiles bool `env:"HTTP_PPROF" envDefault:"false"`
	// InteractionsAddr and PublicKey, set together, select HTTP
	// interactions mode: Discord POSTs interactions to an endpoint served
	// at InteractionsAddr (any path), signed with the application's key
	// (PublicKey, hex, from the developer portal), and no gateway
	// connection is made. Any number of identical processes may serve it
	// behind a load balancer, sharing one Redis.
	InteractionsAddr string        `env:"INTERACTIONS_ADDR"`
	PublicKey        string        `env:"DISCORD_PUBLIC_KEY"`
	StoreTimeout     time.Duration `env:"STORE_TIMEOUT" envDefault:"1500ms"`
	ShutdownTimeout  time.Duration `env:"SHUTDOWN_TIMEOUT" envDefault:"10s"`
	GameTTL          time.Duration `env:"GAME_TTL" envDefault:"720h"`
	// ArchiveTTL is the store's own expiry of a finished game, a backstop
	// for a bot that stops running (0: a day after Retention).
	ArchiveTTL time.Duration `env:"ARCHIVE_TTL"`
	// Retention is how long a finished or abandoned game (its archived
	// record and its log) is kept before the retention scheduler deletes
	// it: days (90d) or a Go duration (2160h); 0 means 90 days.
	Retention Days `env:"DIX_RETENTION" envDefault:"90d"`
	// DuePoll is how often the store is asked for work due without a
	// click (Discord work a crashed process left undone).
	DuePoll time.Duration `env:"DUE_POLL" envDefault:"1s"`
	// ShardID and ShardCount split the servers between processes on the
	// gateway: a process gets the events of the servers where
	// (server id >> 22) % ShardCount == ShardID. One shard by default (0
	// counts as 1). ShardsAuto (SHARD_COUNT=auto) opens, in this one
	// process, every shard Discord recommends (GET /gateway/bot).
	ShardID    int        `env:"SHARD_ID"`
	ShardCount ShardCount `env:"SHARD_COUNT" envDefault:"1"`
	// Paces redefines the durations of the paces a game may be played at:
	// name=bank+increment, comma-separated (clock.ParsePaces), e.g.
	// "live=5m+1m,evening=3h+20m,relaxed=24h+24h". Paces it does not name
	// keep their defaults.
	Paces string `env:"DIX_PACES"`
	// Pictures is "on" (the default) or "off": with off, boards, hands and
	// scoreboards are text only in every game, whatever /dix start says.
	Pictures string `env:"DIX_PICTURES" envDefault:"on"`
	// EffectDelay is a test hook: it holds the Discord work of each change
	// that long after the answer, widening the window in which a crash
	// leaves it to be done after a restart. Never set in production.
	EffectDelay time.Duration `env:"DIX_TEST_EFFECT_DELAY"`

	// Ready, when set, is called once the bot is connected, its commands
	// are registered and the HTTP listener (if any) is serving. Tests use it
	// to wait for start-up and to reach the store the program opened.
	Ready func(Started) `env:"-"`
	// Draining, when set, is called once at shutdown, when new interactions
	// are already answered "restarting" and before waiting for those in
	// flight. Tests use it to act during the drain.
	Draining func() `env:"-"`
	// Drained, when set, is called once at shutdown after the interactions
	// in flight are done and before the gateway closes (an interaction read
	// meanwhile is still answered "restarting" before Run returns).
	Drained func() `env:"-"`
	// Seed, when set, gives the shuffle of every new game (tests replay the
	// same deal); nil draws a random seed.
	Seed func() int64 `env:"-"`
	// Games are the games the table hosts besides DIX; nil: Games().
	Games []present.Game `env:"-"`
}

// ShardCount is SHARD_COUNT: a number of shards, or ShardsAuto.
type ShardCount int

// ShardsAuto is SHARD_COUNT=auto: the process opens every shard of the
// count Discord recommends.
const ShardsAuto ShardCount = -1

// UnmarshalText reads a number of shards or "auto".
func (n *ShardCount) UnmarshalText(b []byte) error {
	t := strings.TrimSpace(string(b))
	if strings.EqualFold(t, "auto") {
		*n = ShardsAuto
		return nil
	}
	v, err := strconv.Atoi(t)
	if err != nil || v < 1 {
		return fmt.Errorf("SHARD_COUNT %q must be a number of shards, 1 or more, or auto", t)
	}
	*n = ShardCount(v)
	return nil
}

// Started describes a running program, for Config.Ready.
type Started struct {
	// HTTPAddr is the address the HTTP listener is bound to ("" if none).
	HTTPAddr string
	// InteractionsAddr is the address the interactions endpoint is bound
	// to ("" on the gateway).
	InteractionsAddr string
	// Store is the store the program opened; it is closed when Run returns.
	Store dixbot.Store
}

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("invalid configuration")

// VarError is one configuration error about one environment variable. It
// wraps ErrConfig.
type VarError struct {
	Var string // the environment variable at fault
	Msg string // the message, which names Var
}

func (e *VarError) Error() string { return ErrConfig.Error() + ": " + e.Msg }
func (e *VarError) Unwrap() error { return ErrConfig }

// Normalize puts case-insensitive settings in their canonical form
// (DIX_LANGUAGE=FR is fr), as LOG_LEVEL=DEBUG is accepted.
func (c *Config) Normalize() {
	c.Language = strings.ToLower(strings.TrimSpace(c.Language))
	c.GuildID = strings.TrimSpace(c.GuildID)
	c.Pictures = strings.ToLower(strings.TrimSpace(c.Pictures))
}

// HTTPInteractions reports whether interactions come by HTTP (an
// interactions endpoint) rather than on the gateway.
func (c *Config) HTTPInteractions() bool { return c.InteractionsAddr != "" }

// PicturesOff reports whether DIX_PICTURES turns the pictures off (an
// empty value is the default, on).
func (c *Config) PicturesOff() bool {
	switch c.Pictures {
	case "off", "false", "0", "no":
		return true
	}
	return false
}

// Validate checks every field and returns every error at once (joined
// *VarError values), each naming the environment variable at fault. It
// never includes the token in its message.
func (c *Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		name, _, _ := strings.Cut(msg, " ") // every message starts with its variable
		errs = append(errs, &VarError{Var: name, Msg: msg})
	}
	if c.Token == "" {
		bad("DISCORD_TOKEN is not set")
	} else if hasBotPrefix(c.Token) {
		bad("DISCORD_TOKEN starts with \"Bot \": set the token alone, without that prefix (dixbot adds it)")
	}
	if c.GuildID != "" && !isSnowflake(c.GuildID) {
		bad("DISCORD_GUILD_ID %q is not a server id (a number of 17 to 20 digits: in Discord, Developer Mode, right-click the server, Copy Server ID)", c.GuildID)
	}
	if u, err := url.Parse(c.APIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("DISCORD_API_URL %q is not an http(s) URL", c.APIURL)
	}
	if c.RedisURL != "" {
		u, err := url.Parse(c.RedisURL)
		switch {
		case err != nil || !redisURLShape(u):
			bad("REDIS_URL must look like redis://[:password@]host:6379/0, rediss://…, or unix://[:password@]/path/to/redis.sock?db=0 for a server on this machine")
		case u.Scheme == "unix" && c.RedisCluster:
			bad("REDIS_URL is a Unix socket (unix://), which names one server: a Redis Cluster is reached by redis://host1:6379,host2:6379")
		case secretQuery(u.Query()):
			bad("REDIS_URL has a password in its query (?password=…), which is not read: put it before the host, redis://:password@host:6379/0")
		}
	} else if c.RedisCluster {
		bad("REDIS_CLUSTER is set but REDIS_URL is not: set REDIS_URL to the cluster's nodes, e.g. redis://host1:6379,host2:6379")
	} else if c.DataFile == "" {
		bad("DIX_DATA_FILE is empty and REDIS_URL is not set: one of them must name a store")
	} else if dir := filepath.Dir(c.DataFile); !isDir(dir) {
		bad("DIX_DATA_FILE names a file in %s, which is not an existing directory: create it or choose another file", dir)
	}
	if c.Language != "en" && c.Language != "fr" {
		bad("DIX_LANGUAGE %q must be en or fr", c.Language)
	}
	switch c.Pictures {
	case "", "on", "true", "1", "yes", "off", "false", "0", "no":
	default:
		bad("DIX_PICTURES %q must be on or off", c.Pictures)
	}
	if c.HTTPAddr != "" {
		if _, _, err := net.SplitHostPort(c.HTTPAddr); err != nil {
			bad("HTTP_ADDR %q must be host:port, e.g. 127.0.0.1:8080", c.HTTPAddr)
		}
	}
	switch {
	case c.InteractionsAddr == "" && c.PublicKey == "":
	case c.InteractionsAddr == "":
		bad("INTERACTIONS_ADDR is not set but DISCORD_PUBLIC_KEY is: set both for HTTP interactions mode, or neither for the gateway")
	case c.PublicKey == "":
		bad("DISCORD_PUBLIC_KEY is not set but INTERACTIONS_ADDR is: HTTP interactions mode needs the application's Public Key (developer portal, General Information)")
	default:
		if _, _, err := net.SplitHostPort(c.InteractionsAddr); err != nil {
			bad("INTERACTIONS_ADDR %q must be host:port, e.g. 0.0.0.0:8081", c.InteractionsAddr)
		}
		if _, err := parsePublicKey(c.PublicKey); err != nil {
			bad("DISCORD_PUBLIC_KEY is %s", err)
		}
		if c.ShardCount > 1 || c.ShardCount == ShardsAuto {
			bad("SHARD_COUNT is set, but shards split the gateway's events and HTTP interactions mode (INTERACTIONS_ADDR) uses no gateway: run replicas behind a load balancer instead")
		}
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"STORE_TIMEOUT", c.StoreTimeout},
		{"SHUTDOWN_TIMEOUT", c.ShutdownTimeout},
		{"GAME_TTL", c.GameTTL},
	} {
		if d.v <= 0 {
			bad("%s must be a positive duration such as 1500ms, 10s or 720h", d.name)
		}
	}
	if c.ArchiveTTL < 0 {
		bad("ARCHIVE_TTL must be a positive duration such as 2184h, or unset (a day after DIX_RETENTION)")
	}
	if c.Retention < 0 {
		bad("DIX_RETENTION must be a positive number of days such as 90d, or a duration such as 720h")
	}
	switch n := int(max(c.ShardCount, 1)); {
	case c.ShardCount == ShardsAuto && c.ShardID != 0:
		bad("SHARD_ID %d with SHARD_COUNT=auto: this process opens every shard; set SHARD_ID only with a number of shards", c.ShardID)
	case c.ShardCount == ShardsAuto:
	case c.ShardCount < 0 || c.ShardID < 0 || c.ShardID >= n:
		bad("SHARD_ID %d and SHARD_COUNT %d: SHARD_COUNT must be 1 or more (or auto) and SHARD_ID from 0 to SHARD_COUNT−1", c.ShardID, c.ShardCount)
	}
	if _, err := clock.ParsePaces(c.Paces); err != nil {
		bad("DIX_PACES %s", strings.TrimPrefix(err.Error(), clock.ErrPaces.Error()+": "))
	}
	if c.DuePoll < 0 || c.EffectDelay < 0 {
		bad("DUE_POLL and DIX_TEST_EFFECT_DELAY cannot be negative")
	}
	// Discord wants the first answer within 3 s: a store call must leave
	// room for it.
	if c.StoreTimeout >= 3*time.Second {
		bad("STORE_TIMEOUT %v must stay below Discord's 3s answer deadline", c.StoreTimeout)
	}
	return errors.Join(errs...)
}

// isSnowflake reports whether s looks like a Discord id: 17 to 20 digits.
func isSnowflake(s string) bool {
	if len(s) < 17 || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// redisURLShape reports whether u is a Redis URL of a scheme the store
// opens: redis:// and rediss:// name a host; unix:// a socket file's path
// (go-redis's ParseURL), for a server on the same machine.
func redisURLShape(u *url.URL) bool {
	switch u.Scheme {
	case "redis", "rediss":
		return u.Host != ""
	case "unix":
		return u.Host == "" && strings.TrimSpace(u.Path) != ""
	}
	return false
}

// redactedRedis returns the Redis URL without its password, for messages:
// neither the user part's password nor the value of a query parameter that
// may hold a secret.
func (c *Config) redactedRedis() string {
	u, err := url.Parse(c.RedisURL)
	if err != nil {
		return "(unparsable REDIS_URL)"
	}
	if q := u.Query(); secretQuery(q) {
		for k := range q {
			if isSecretParam(k) {
				q[k] = []string{"xxxxx"}
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// secretQuery reports whether a URL's query has a parameter that may hold
// a secret.
func secretQuery(q url.Values) bool {
	for k := range q {
		if isSecretParam(k) {
			return true
		}
	}
	return false
}

// isSecretParam reports whether a query parameter's name suggests a secret
// (password, pass, auth, secret, token).
func isSecretParam(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"pass", "auth", "secret", "token"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// hasBotPrefix reports whether a token carries the "Bot " of the
// Authorization header, which the program adds itself.
func hasBotPrefix(token string) bool {
	t := strings.TrimSpace(token)
	return len(t) > 4 && strings.EqualFold(t[:4], "bot ")
}

// isDir reports whether path is an existing directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
