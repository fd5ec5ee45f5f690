package redistest

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStartCluster(t *testing.T) {
	if os.Getenv("REDIS_CLUSTER_URL") != "" {
		t.Skip("REDIS_CLUSTER_URL names an external cluster")
	}
	var addrs, dirs []string
	t.Run("running", func(t *testing.T) {
		c := StartCluster(t)
		require.Len(t, c.Nodes(), ClusterSize)
		for _, n := range c.Nodes() {
			addrs, dirs = append(addrs, n.Addr()), append(dirs, n.dir)
			state, _, err := infoField(n.Addr(), "cluster_state", "CLUSTER", "INFO")
			require.NoError(t, err)
			assert.Equal(t, "ok", state, n.Addr())
		}
		assert.Equal(t, "redis://"+strings.Join(addrs, ","), c.URL())

		// Every node is a master owning a third of the slots, and keys
		// spread over all of them.
		rc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
		defer rc.Close()
		ctx := context.Background()
		shards, err := rc.ClusterShards(ctx).Result()
		require.NoError(t, err)
		require.Len(t, shards, ClusterSize)
		for _, sh := range shards {
			require.Len(t, sh.Nodes, 1, "no replicas")
			assert.Equal(t, "master", sh.Nodes[0].Role)
			assert.NotEmpty(t, sh.Slots)
		}
		err = rc.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
			v, err := m.ConfigGet(ctx, "cluster-node-timeout").Result()
			if err == nil && v["cluster-node-timeout"] != clusterNodeTimeout {
				err = fmt.Errorf("node %s: cluster-node-timeout %v", m.Options().Addr, v)
			}
			return err
		})
		require.NoError(t, err)
		for i := range 30 {
			require.NoError(t, rc.Set(ctx, fmt.Sprintf("k%d", i), "v", 0).Err())
		}
		err = rc.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
			n, err := m.DBSize(ctx).Result()
			if err == nil && n == 0 {
				err = fmt.Errorf("master %s holds no key", m.Options().Addr)
			}
			return err
		})
		require.NoError(t, err)
	})
	// The test's end stopped the servers and removed their files.
	require.Len(t, addrs, ClusterSize)
	for i, a := range addrs {
		assert.Error(t, ping(a), "node %s still answers", a)
		_, err := os.Stat(dirs[i])
		assert.True(t, os.IsNotExist(err), "directory %s left behind", dirs[i])
	}
}

// recordTB notes how lookPath ended the test.
type recordTB struct {
	testing.TB
	ended string
}

func (r *recordTB) Helper() {}
func (r *recordTB) Fatal(args ...any) {
	r.ended = "fatal: " + fmt.Sprint(args...)
	runtime.Goexit()
}
func (r *recordTB) Skip(args ...any) {
	r.ended = "skip: " + fmt.Sprint(args...)
	runtime.Goexit()
}

func TestLookPathMissing(t *testing.T) {
	tests := []struct {
		ci   string
		want string
	}{
		{"true", "fatal: "},
		{"", "skip: "},
		{"false", "skip: "},
	}
	for _, tc := range tests {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			t.Setenv("PATH", t.TempDir())
			t.Setenv("CI", tc.ci)
			r := &recordTB{TB: t}
			done := make(chan struct{})
			go func() {
				defer close(done)
				lookPath(r, "redis-cli", "REDIS_CLUSTER_URL")
				r.ended = "returned"
			}()
			<-done
			assert.True(t, strings.HasPrefix(r.ended, tc.want), r.ended)
			assert.Contains(t, r.ended, "redis-cli not found")
		})
	}
}
