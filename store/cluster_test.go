package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/redistest"
)

// TestRedisCluster runs the shared suite and the cluster's own tests on one
// local Redis Cluster of three masters.
func TestRedisCluster(t *testing.T) {
	c := redistest.StartCluster(t)
	t.Run("Suite", func(t *testing.T) { runSuite(t, redisEnv(c.URL(), true)) })
	t.Run("Keep", func(t *testing.T) { runKeepSuite(t, redisEnv(c.URL(), true)) })
	t.Run("Layout", func(t *testing.T) { testClusterLayout(t, c) })
	t.Run("Seeds", func(t *testing.T) { testClusterSeeds(t, c) })
	t.Run("OpenErrors", func(t *testing.T) { testClusterOpenErrors(t, c) })
}

func openCluster(t testing.TB, c *redistest.Cluster, o Options) *Redis {
	t.Helper()
	o.URL, o.Cluster = c.URL(), true
	o.Timeout = cmp.Or(o.Timeout, loadedTimeout)
	if o.Prefix == "" {
		o.Prefix = uniquePrefix()
	}
	s, err := OpenRedis(ctxb, o)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// testClusterLayout: the keys of one channel share a slot, the games
// spread over every master, and the index finds them all.
func testClusterLayout(t *testing.T, c *redistest.Cluster) {
	s := openCluster(t, c, Options{})
	_, isCluster := s.rdb.(*redis.ClusterClient)
	require.True(t, isCluster)

	const games = 30
	want := map[string][]string{}
	for i := range games {
		ch, guild := fmt.Sprintf("1%017d", i), fmt.Sprintf("g%d", i%3)
		create(t, s, ch, guild)
		_, err := s.Update(ctxb, ch, "click"+ch, incr)
		require.NoError(t, err)
		if i%5 == 0 {
			require.NoError(t, s.Finish(ctxb, ch))
		} else {
			want[guild] = append(want[guild], ch)
		}

		slot := func(key string) int64 {
			n, err := s.rdb.ClusterKeySlot(ctxb, key).Result()
			require.NoError(t, err)
			return n
		}
		gs := slot(s.gameKey(ch))
		assert.Equal(t, gs, slot(s.doneKey(ch)), ch)
		assert.Equal(t, gs, slot(s.ixKey(ch, "click"+ch)), ch)
	}
	for guild, chs := range want {
		got, err := s.Active(ctxb, guild)
		require.NoError(t, err)
		assert.Equal(t, chs, got, guild)
	}

	cc := s.rdb.(*redis.ClusterClient)
	err := cc.ForEachMaster(ctxb, func(ctx context.Context, m *redis.Client) error {
		keys, err := m.Keys(ctx, s.o.Prefix+"*").Result()
		if err == nil && !containsPrefix(keys, s.o.Prefix+"game:") {
			err = fmt.Errorf("master %s holds no game of %d: %v", m.Options().Addr, games, keys)
		}
		return err
	})
	require.NoError(t, err)
}

func containsPrefix(keys []string, prefix string) bool {
	for _, k := range keys {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// testClusterSeeds: the seed nodes may be given as a comma-separated
// host list, addr parameters, or one node with Options.Cluster.
func testClusterSeeds(t *testing.T, c *redistest.Cluster) {
	if c.Nodes() == nil {
		t.Skip("REDIS_CLUSTER_URL: the nodes are unknown")
	}
	var addrs []string
	for _, n := range c.Nodes() {
		addrs = append(addrs, n.Addr())
	}
	tests := []struct {
		name    string
		url     string
		cluster bool
	}{
		{"comma list", "redis://" + strings.Join(addrs, ","), false},
		{"comma list and db 0", "redis://" + strings.Join(addrs, ",") + "/0", false},
		{"addr parameters", "redis://" + addrs[0] + "?addr=" + addrs[1] + "&addr=" + addrs[2], false},
		{"one seed", "redis://" + addrs[1], true},
		{"one seed and options", "redis://" + addrs[2] + "/?dial_timeout=1s", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := OpenRedis(ctxb, Options{URL: tc.url, Cluster: tc.cluster, Prefix: uniquePrefix(), Timeout: loadedTimeout})
			require.NoError(t, err)
			defer s.Close()
			assert.True(t, s.cluster)
			// Games in every slot range are reachable through any seed.
			for i := range 10 {
				ch := fmt.Sprintf("c%d", i)
				create(t, s, ch, "g")
				_, err := s.Update(ctxb, ch, "i", incr)
				require.NoError(t, err)
				assert.Equal(t, 1, counter(t, get(t, s, ch)))
			}
		})
	}
}

func testClusterOpenErrors(t *testing.T, c *redistest.Cluster) {
	single := redistest.Start(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := l.Addr().String()
	require.NoError(t, l.Close())
	var node string
	if c.Nodes() != nil {
		node = "redis://" + c.Nodes()[0].Addr()
	}

	tests := []struct {
		name string
		o    Options
		want error
		says string
	}{
		{"database 1", Options{URL: c.URL() + "/1", Cluster: true}, ErrBadOptions, "database 0 only"},
		{"seed without port", Options{URL: "redis://127.0.0.1:1,localhost,127.0.0.1:2"}, ErrBadOptions, "seed node 2"},
		{"unknown parameter", Options{URL: "redis://127.0.0.1:1,127.0.0.1:2?nonsense=1"}, ErrBadOptions, "nonsense"},
		{"bad scheme", Options{URL: "http://127.0.0.1:1", Cluster: true}, ErrBadOptions, "scheme"},
		{"password not echoed", Options{URL: "redis://:s3cret@127.0.0.1:1,127.0.0.1:2/x"}, ErrBadOptions, "database 0 only"},
		{"nobody listening", Options{URL: "redis://" + closed, Cluster: true}, dixbot.ErrUnavailable, closed},
		{"single server as a cluster", Options{URL: single.URL(), Cluster: true}, ErrBadOptions, "not a Redis Cluster"},
		{"cluster node as a single server", Options{URL: node}, ErrBadOptions, "is a Redis Cluster node"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.o.URL == "" {
				t.Skip("REDIS_CLUSTER_URL: the nodes are unknown")
			}
			s, err := OpenRedis(ctxb, tc.o)
			require.ErrorIs(t, err, tc.want)
			assert.Nil(t, s)
			assert.ErrorContains(t, err, tc.says)
			assert.NotContains(t, err.Error(), "s3cret")
		})
	}
}

// TestRedisClusterNodeDown: with one master stopped, the games in its
// slots are unavailable (ErrUnavailable), the others are served, and all
// come back when it restarts.
func TestRedisClusterNodeDown(t *testing.T) {
	c := redistest.StartCluster(t)
	if c.Nodes() == nil {
		t.Skip("REDIS_CLUSTER_URL: the nodes are unknown")
	}
	s := openCluster(t, c, Options{Timeout: 300 * time.Millisecond})
	cc := s.rdb.(*redis.ClusterClient)
	down := c.Nodes()[0]

	// Channels on the stopped node and elsewhere.
	var onDown, elsewhere []string
	for i := 0; len(onDown) < 3 || len(elsewhere) < 3; i++ {
		ch := fmt.Sprintf("c%d", i)
		create(t, s, ch, "g")
		node, err := cc.MasterForKey(ctxb, s.gameKey(ch))
		require.NoError(t, err)
		if node.Options().Addr == down.Addr() {
			onDown = append(onDown, ch)
		} else {
			elsewhere = append(elsewhere, ch)
		}
	}

	down.Stop()
	for _, ch := range onDown {
		_, err := s.Update(ctxb, ch, "i1", incr)
		assert.ErrorIs(t, err, dixbot.ErrUnavailable, ch)
	}
	for _, ch := range elsewhere {
		_, err := s.Update(ctxb, ch, "i1", incr)
		assert.NoError(t, err, ch)
	}

	down.Restart()
	for _, ch := range append(onDown, elsewhere...) {
		var err error
		// The restarted node may take a moment to report its slots.
		for range 50 {
			if _, err = s.Update(ctxb, ch, "i2", incr); !errors.Is(err, dixbot.ErrUnavailable) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		require.NoError(t, err, ch)
	}
	for _, ch := range onDown {
		assert.Equal(t, 1, counter(t, get(t, s, ch)), "%s: only the update after the restart", ch)
	}
	for _, ch := range elsewhere {
		assert.Equal(t, 2, counter(t, get(t, s, ch)), ch)
	}
}
