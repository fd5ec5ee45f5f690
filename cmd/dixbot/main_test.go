package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/app"
)

const secret = "MTIz.secret-token-value.xyz"

func TestLoadConfigDefaults(t *testing.T) {
	cfg, err := loadConfig([]string{"DISCORD_TOKEN=" + secret})
	require.NoError(t, err)
	assert.Equal(t, secret, cfg.Token)
	assert.Equal(t, "https://discord.com/", cfg.APIURL)
	assert.Empty(t, cfg.GuildID)
	assert.Empty(t, cfg.RedisURL)
	assert.Equal(t, "dix:", cfg.RedisPrefix)
	assert.Equal(t, "dix.db", cfg.DataFile)
	assert.Equal(t, "en", cfg.Language)
	assert.Equal(t, "info", cfg.LogLevel)
	assert.Equal(t, "text", cfg.LogFormat)
	assert.Empty(t, cfg.HTTPAddr)
	assert.Equal(t, 1500*time.Millisecond, cfg.StoreTimeout)
	assert.Equal(t, 10*time.Second, cfg.ShutdownTimeout)
	assert.Equal(t, 720*time.Hour, cfg.GameTTL)
	assert.Zero(t, cfg.ArchiveTTL, "unset: a day after DIX_RETENTION")
	assert.Equal(t, app.Days(90*24*time.Hour), cfg.Retention)
}

func TestLoadConfigValues(t *testing.T) {
	cfg, err := loadConfig([]string{
		"DISCORD_TOKEN=" + secret,
		"DISCORD_API_URL=http://127.0.0.1:8765/",
		"DISCORD_GUILD_ID=1100000000000000123",
		"REDIS_URL=redis://:pw@localhost:6379/2",
		"REDIS_PREFIX=test:",
		"DIX_LANGUAGE=fr",
		"LOG_LEVEL=debug",
		"LOG_FORMAT=json",
		"HTTP_ADDR=127.0.0.1:8080",
		"STORE_TIMEOUT=800ms",
		"SHUTDOWN_TIMEOUT=3s",
		"GAME_TTL=48h",
		"ARCHIVE_TTL=1h",
		"DIX_RETENTION=30d",
	})
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:8765/", cfg.APIURL)
	assert.Equal(t, "1100000000000000123", cfg.GuildID)
	assert.Equal(t, "redis://:pw@localhost:6379/2", cfg.RedisURL)
	assert.Equal(t, "test:", cfg.RedisPrefix)
	assert.Equal(t, "fr", cfg.Language)
	assert.Equal(t, "127.0.0.1:8080", cfg.HTTPAddr)
	assert.Equal(t, 800*time.Millisecond, cfg.StoreTimeout)
	assert.Equal(t, 3*time.Second, cfg.ShutdownTimeout)
	assert.Equal(t, 48*time.Hour, cfg.GameTTL)
	assert.Equal(t, time.Hour, cfg.ArchiveTTL)
	assert.Equal(t, app.Days(30*24*time.Hour), cfg.Retention)
}

func TestLoadConfigModes(t *testing.T) {
	const key = "8e2c7f0b2a4d6e8f10325476980badcfe1f2a3b4c5d6e7f8091a2b3c4d5e6f70"
	cfg, err := loadConfig([]string{"DISCORD_TOKEN=" + secret, "SHARD_COUNT=auto"})
	require.NoError(t, err)
	assert.Equal(t, app.ShardsAuto, cfg.ShardCount)
	cfg, err = loadConfig([]string{"DISCORD_TOKEN=" + secret, "SHARD_COUNT=4", "SHARD_ID=3"})
	require.NoError(t, err)
	assert.Equal(t, app.ShardCount(4), cfg.ShardCount)
	assert.Equal(t, 3, cfg.ShardID)
	_, err = loadConfig([]string{"DISCORD_TOKEN=" + secret, "SHARD_COUNT=lots"})
	assert.ErrorContains(t, err, "SHARD_COUNT")

	cfg, err = loadConfig([]string{"DISCORD_TOKEN=" + secret, "INTERACTIONS_ADDR=0.0.0.0:8081", "DISCORD_PUBLIC_KEY=" + key})
	require.NoError(t, err)
	assert.True(t, cfg.HTTPInteractions())
	assert.Equal(t, key, cfg.PublicKey)
}

func TestRunBadConfiguration(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		want string // in the message
	}{
		{"missing token", nil, "DISCORD_TOKEN is not set"},
		{"blank token", []string{"DISCORD_TOKEN=  "}, "DISCORD_TOKEN is not set"},
		{"language", []string{"DISCORD_TOKEN=" + secret, "DIX_LANGUAGE=de"}, "DIX_LANGUAGE"},
		{"store timeout", []string{"DISCORD_TOKEN=" + secret, "STORE_TIMEOUT=soon"}, "STORE_TIMEOUT"},
		{"store timeout too long", []string{"DISCORD_TOKEN=" + secret, "STORE_TIMEOUT=5s"}, "STORE_TIMEOUT"},
		{"negative ttl", []string{"DISCORD_TOKEN=" + secret, "GAME_TTL=-1h"}, "GAME_TTL"},
		{"retention", []string{"DISCORD_TOKEN=" + secret, "DIX_RETENTION=soon"}, `DIX_RETENTION "soon" must be a number of days such as 90d, or a duration such as 720h`},
		{"negative retention", []string{"DISCORD_TOKEN=" + secret, "DIX_RETENTION=-1h"}, "DIX_RETENTION must be a positive number of days"},
		{"negative archive ttl", []string{"DISCORD_TOKEN=" + secret, "ARCHIVE_TTL=-1h"}, "ARCHIVE_TTL"},
		{"zero shutdown", []string{"DISCORD_TOKEN=" + secret, "SHUTDOWN_TIMEOUT=0s"}, "SHUTDOWN_TIMEOUT"},
		{"redis scheme", []string{"DISCORD_TOKEN=" + secret, "REDIS_URL=http://:hunter2@host/"}, "REDIS_URL"},
		{"api url", []string{"DISCORD_TOKEN=" + secret, "DISCORD_API_URL=discord.com"}, "DISCORD_API_URL"},
		{"http addr", []string{"DISCORD_TOKEN=" + secret, "HTTP_ADDR=8080"}, "HTTP_ADDR"},
		{"log level", []string{"DISCORD_TOKEN=" + secret, "LOG_LEVEL=loud"}, "LOG_LEVEL"},
		{"log format", []string{"DISCORD_TOKEN=" + secret, "LOG_FORMAT=xml"}, "LOG_FORMAT"},
		{"empty data file", []string{"DISCORD_TOKEN=" + secret, "DIX_DATA_FILE="}, "DIX_DATA_FILE is set but empty"},
		{"guild id not a snowflake", []string{"DISCORD_TOKEN=" + secret, "DISCORD_GUILD_ID=my-server"}, "DISCORD_GUILD_ID"},
		{"guild id too short", []string{"DISCORD_TOKEN=" + secret, "DISCORD_GUILD_ID=123"}, "DISCORD_GUILD_ID"},
		{"negative cpus", []string{"DISCORD_TOKEN=" + secret, "DIX_CPUS=-1"}, "DIX_CPUS -1"},
		{"cpus not a number", []string{"DISCORD_TOKEN=" + secret, "DIX_CPUS=two"}, "DIX_CPUS"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(nil, tc.env, &stdout, &stderr)
			assert.Equal(t, exitConfig, code)
			assert.Contains(t, stderr.String(), tc.want)
			assert.NotContains(t, stderr.String(), secret)
			assert.NotContains(t, stderr.String(), "hunter2")
			assert.Empty(t, stdout.String())
		})
	}
}

func TestVersionFlag(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"-version"}, nil, &stdout, &stderr)
	assert.Equal(t, exitOK, code)
	assert.Equal(t, "dixbot "+version+"\n", stdout.String())

	code = run([]string{"-bogus"}, nil, &stdout, &stderr)
	assert.Equal(t, exitConfig, code)
}

// Every configuration problem is reported in one run, each once, naming
// its variable.
func TestRunReportsEveryConfigurationErrorAtOnce(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(nil, []string{
		"DIX_LANGUAGE=de",
		"STORE_TIMEOUT=soon",
		"GAME_TTL=-1h",
		"LOG_LEVEL=loud",
		"LOG_FORMAT=xml",
		"DISCORD_GUILD_ID=abc",
		"HTTP_ADDR=8080",
	}, &stdout, &stderr)
	assert.Equal(t, exitConfig, code)
	out := stderr.String()
	for _, v := range []string{"DISCORD_TOKEN is not set", "DIX_LANGUAGE", "GAME_TTL", "LOG_LEVEL", "LOG_FORMAT", "DISCORD_GUILD_ID", "HTTP_ADDR"} {
		assert.Contains(t, out, v)
	}
	// STORE_TIMEOUT could not be parsed: said once, not again as "must be
	// positive".
	assert.Equal(t, 1, strings.Count(out, "STORE_TIMEOUT"), out)
}

func TestCaseInsensitiveSettings(t *testing.T) {
	cfg, err := loadConfig([]string{"DISCORD_TOKEN=" + secret, "DIX_LANGUAGE=FR", "LOG_LEVEL=DEBUG", "LOG_FORMAT=JSON"})
	require.NoError(t, err)
	assert.Equal(t, "fr", cfg.Language)
	assert.Equal(t, "debug", cfg.LogLevel)
	assert.Equal(t, "json", cfg.LogFormat)
}

func TestHelpExitsZero(t *testing.T) {
	for _, flag := range []string{"-h", "-help", "--help"} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, exitOK, run([]string{flag}, nil, &stdout, &stderr), flag)
		assert.Contains(t, stderr.String(), "DISCORD_TOKEN", flag)
	}
}

// Each of these settings is refused with exit 2 and one line that says what
// the variable accepts, without the raw parser error, the token or the
// password.
func TestRunConfigurationHints(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-dir", "dix.db")
	tests := []struct {
		name string
		env  []string
		want string
	}{
		{"cluster flag", []string{"REDIS_CLUSTER=yes"}, `REDIS_CLUSTER "yes" must be true or false`},
		{"due poll zero", []string{"DUE_POLL=0s"}, "DUE_POLL 0s: set a positive duration such as 1s"},
		{"shard count zero", []string{"SHARD_COUNT=0"}, `SHARD_COUNT "0" must be a number of shards, 1 or more, or auto`},
		{"bot prefix", []string{"DISCORD_TOKEN=Bot " + secret}, `DISCORD_TOKEN starts with "Bot ": set the token alone`},
		{"data file directory", []string{"DIX_DATA_FILE=" + missing}, "DIX_DATA_FILE names a file in " + filepath.Dir(missing) + ", which is not an existing directory"},
		{"redis password in query", []string{"REDIS_URL=redis://127.0.0.1:1/0?password=hunter2"}, "REDIS_URL has a password in its query"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			env := append([]string{"DISCORD_TOKEN=" + secret, "DISCORD_API_URL=http://127.0.0.1:1/"}, tc.env...)
			code := run(nil, env, &stdout, &stderr)
			out := stderr.String()
			assert.Equal(t, exitConfig, code, out)
			assert.Equal(t, "dixbot: invalid configuration: ", out[:min(len(out), 31)], out)
			assert.Contains(t, out, tc.want)
			assert.Equal(t, 1, strings.Count(out, "\n"), "one line: %s", out)
			assert.NotContains(t, out, "strconv")
			assert.NotContains(t, out, secret)
			assert.NotContains(t, out, "hunter2")
			if strings.Contains(tc.name, "directory") {
				assert.Equal(t, 1, strings.Count(out, filepath.Dir(missing)), "the path once: %s", out)
			}
		})
	}
}

// The Go runtime as run sets it: the bot's code on one CPU unless
// DIX_CPUS says otherwise or Go's own GOMAXPROCS is set alone; the heap
// growing to four times what is live unless Go's own GOGC is set (the
// runtime has then applied either).
func TestRuntimeSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env       []string
		procs, gc int // what run sets GOMAXPROCS and GOGC to; 0: left alone
	}{
		{nil, 1, 300},
		{[]string{"DIX_CPUS=2"}, 2, 300},
		{[]string{"DIX_CPUS=0"}, 0, 300},
		{[]string{"GOMAXPROCS=3"}, 0, 300},
		{[]string{"GOMAXPROCS=3", "DIX_CPUS=2"}, 2, 300},
		{[]string{"GOGC=100"}, 1, 0},
		{[]string{"GOGC=off"}, 1, 0},
		{[]string{"GOMEMLIMIT=512MiB"}, 1, 300},
	} {
		cfg, err := loadConfig(append([]string{"DISCORD_TOKEN=x.y.z"}, tc.env...))
		require.NoError(t, err, "%v", tc.env)
		assert.Equal(t, tc.procs, cfg.procs, "GOMAXPROCS with %v", tc.env)
		assert.Equal(t, tc.gc, cfg.gcPercent, "GOGC with %v", tc.env)
	}
}
