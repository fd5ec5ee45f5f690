package app

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/internal/redistest"
)

func TestValidateRedisURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		url     string
		cluster bool
		wantErr string
	}{
		{"host", "redis://10.0.0.1:6379/0", false, ""},
		{"tls", "rediss://:pw@redis.example:6380/1", false, ""},
		{"socket", "unix:///run/redis/redis.sock", false, ""},
		{"socket with database and password", "unix://:pw@/run/redis/redis.sock?db=2", false, ""},
		{"socket without a path", "unix://", false, "REDIS_URL must look like"},
		{"socket with a host", "unix://host/run/redis.sock", false, "REDIS_URL must look like"},
		{"socket as a cluster", "unix:///run/redis/redis.sock", true, "a Redis Cluster is reached by"},
		{"socket with seeds", "unix:///run/redis/redis.sock?addr=10.0.0.2:6379", false, "a Redis Cluster is reached by"},
		{"socket with a password in the query", "unix:///run/redis/redis.sock?password=pw", false, "password in its query"},
		{"another scheme", "http://10.0.0.1:6379", false, "REDIS_URL must look like"},
		{"no host", "redis:///0", false, "REDIS_URL must look like"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(t)
			cfg.RedisURL, cfg.RedisCluster = tc.url, tc.cluster
			err := cfg.Validate()
			if tc.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrConfig)
			assert.ErrorContains(t, err, tc.wantErr)
			assert.NotContains(t, err.Error(), ":pw@", "the password is not shown")
		})
	}
}

// TestRunOnRedisUnixSocket: a REDIS_URL of unix:// opens the store on the
// server's socket file, and the games land in that server.
func TestRunOnRedisUnixSocket(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	cfg := testConfig(t)
	cfg.APIURL, cfg.Token = fake.URL(), fake.Token()
	cfg.RedisURL = srv.SocketURL()
	cfg.RedisPrefix = fmt.Sprintf("apptest:%d:", time.Now().UnixNano())
	s, stop := startRun(t, cfg)
	ctx := context.Background()

	const games = 3
	for i := range games {
		require.NoError(t, s.Store.Create(ctx, &dixbot.Record{Channel: fmt.Sprintf("c%d", i), Guild: "g"}))
	}
	active, err := s.Store.Active(ctx, "g")
	require.NoError(t, err)
	assert.Len(t, active, games)

	// Read back over the server's TCP port: the same server holds them.
	opt, err := redis.ParseURL(srv.URL())
	require.NoError(t, err)
	rc := redis.NewClient(opt)
	defer rc.Close()
	for i := range games {
		n, err := rc.Exists(ctx, fmt.Sprintf("%sgame:{c%d}", cfg.RedisPrefix, i)).Result()
		require.NoError(t, err)
		assert.Equal(t, int64(1), n)
	}

	stop()
	assert.Empty(t, fake.Violations())
}
