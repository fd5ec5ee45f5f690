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
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	cfg := testConfig(t)
	cfg.APIURL, cfg.Token = fake.URL(), fake.Token()
	cfg.RedisURL, cfg.RedisCluster = c.URL(), true
	cfg.RedisPrefix = fmt.Sprintf("apptest:%d:", time.Now().UnixNano())
	s, stop := startRun(t, cfg)
	st := s.Store
	ctx := context.Background()

	const games = 12
	for i := range games {
		require.NoError(t, st.Create(ctx, &dixbot.Record{Channel: fmt.Sprintf("c%d", i), Guild: "g"}))
	}
	active, err := st.Active(ctx, "g")
	require.NoError(t, err)
	assert.Len(t, active, games)

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
	assert.Empty(t, fake.Violations())
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

func TestValidateRedisCluster(t *testing.T) {
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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.RedisURL, cfg.RedisCluster = tc.url, tc.cluster
			err := cfg.Validate()
			if tc.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrConfig)
			assert.ErrorContains(t, err, tc.wantErr)
		})
	}
}
