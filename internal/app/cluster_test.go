package app

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/internal/redistest"
)

// TestRunOnRedisCluster: REDIS_URL and REDIS_CLUSTER open the store on a
// Redis Cluster, and the games land in it.
func TestRunOnRedisCluster(t *testing.T) {
	c := redistest.StartCluster(t)
	const games = 12
	cfg, stop := runWithGames(t, c.URL(), true, games)
	ctx := context.Background()

	// Read back through a cluster client of our own: the games are spread
	// over the masters.
	u, err := url.Parse(c.URL())
	require.NoError(t, err)
	pw, _ := u.User.Password()
	rc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: strings.Split(u.Host, ","), Password: pw})
	defer rc.Close()
	holders := map[string]bool{}
	for i := range games {
		key := fmt.Sprintf("%sgame:{c%d}", cfg.RedisPrefix, i)
		n, err := rc.Exists(ctx, key).Result()
		require.NoError(t, err)
		assert.Equal(t, int64(1), n, key)
		slot, err := rc.ClusterKeySlot(ctx, key).Result()
		require.NoError(t, err)
		holders[masterOf(t, rc, slot)] = true
	}
	assert.Greater(t, len(holders), 1, "all games on one master")

	stop()
}

// runWithGames runs the bot on the Redis of url (a cluster when cluster
// is set) and a stand-in, and creates games games of guild "g" (channels
// c0, c1, …) through its store, which lists them all as active; stop
// stops the bot and checks that the stand-in saw no broken rule. cfg is
// the bot's configuration, with its key prefix.
func runWithGames(t *testing.T, url string, cluster bool, games int) (cfg Config, stop func()) {
	t.Helper()
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	cfg = testConfig(t)
	cfg.APIURL, cfg.Token = fake.URL(), fake.Token()
	cfg.RedisURL, cfg.RedisCluster = url, cluster
	cfg.RedisPrefix = fmt.Sprintf("apptest:%d:", time.Now().UnixNano())
	s, stopRun := startRun(t, cfg)
	ctx := context.Background()
	for i := range games {
		require.NoError(t, s.Store.Create(ctx, &dixbot.Record{Channel: fmt.Sprintf("c%d", i), Guild: "g"}))
	}
	active, err := s.Store.Active(ctx, "g")
	require.NoError(t, err)
	assert.Len(t, active, games)
	return cfg, func() {
		stopRun()
		assert.Empty(t, fake.Violations())
	}
}

// masterOf returns the address of the master owning slot.
func masterOf(t *testing.T, rc *redis.ClusterClient, slot int64) string {
	t.Helper()
	shards, err := rc.ClusterShards(context.Background()).Result()
	require.NoError(t, err)
	for _, sh := range shards {
		for _, r := range sh.Slots {
			if slot >= r.Start && slot <= r.End {
				return net.JoinHostPort(sh.Nodes[0].Endpoint, fmt.Sprint(sh.Nodes[0].Port))
			}
		}
	}
	t.Fatalf("no master owns slot %d", slot)
	return ""
}

func TestValidateRedisURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		url     string
		cluster bool
		wantErr string
	}{
		{"cluster with seeds", "redis://:pw@10.0.0.1:6379,10.0.0.2:6379", true, ""},
		{"seed list alone", "redis://10.0.0.1:6379,10.0.0.2:6379/0", false, ""},
		{"one seed", "redis://10.0.0.1:6379", true, ""},
		{"cluster without URL", "", true, "REDIS_CLUSTER"},
		{"host", "redis://10.0.0.1:6379/0", false, ""},
		{"tls", "rediss://:pw@redis.example:6380/1", false, ""},
		{"socket", "unix:///run/redis/redis.sock", false, ""},
		{"socket with database and password", "unix://:pw@/run/redis/redis.sock?db=2", false, ""},
		{"socket without a path", "unix://", false, "REDIS_URL must look like"},
		{"socket with a host", "unix://host/run/redis.sock", false, "REDIS_URL must look like"},
		{"socket as a cluster", "unix:///run/redis/redis.sock", true, "a Redis Cluster is reached by"},
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
