package app

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

func TestShardCountText(t *testing.T) {
	cases := []struct {
		in   string
		want ShardCount
		err  bool
	}{
		{"1", 1, false}, {" 4 ", 4, false}, {"auto", ShardsAuto, false}, {"AUTO", ShardsAuto, false},
		{"-2", 0, true}, {"many", 0, true}, {"", 0, true},
	}
	for _, c := range cases {
		var n ShardCount
		err := n.UnmarshalText([]byte(c.in))
		if c.err {
			assert.ErrorContains(t, err, "SHARD_COUNT", "%q", c.in)
			continue
		}
		require.NoError(t, err, "%q", c.in)
		assert.Equal(t, c.want, n, "%q", c.in)
	}

	cfg := testConfig(t)
	cfg.ShardCount = ShardsAuto
	assert.NoError(t, cfg.Validate())
	cfg.ShardID = 1
	assert.ErrorContains(t, cfg.Validate(), "SHARD_ID 1 with SHARD_COUNT=auto")
}

// With SHARD_COUNT=auto the process opens every shard Discord recommends:
// a server of each shard gets its interactions answered (Discord sends a
// server's events to its shard's connection only).
func TestRunOpensEveryRecommendedShard(t *testing.T) {
	const shards = 3
	defer func(d time.Duration) { identifyInterval = d }(identifyInterval)
	identifyInterval = 10 * time.Millisecond
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true, RecommendedShards: shards})
	cfg := testConfig(t)
	cfg.APIURL = fake.URL()
	cfg.Token = fake.Token()
	cfg.ShardCount = ShardsAuto
	_, stop := startRun(t, cfg)

	assert.Equal(t, [][2]int{{0, shards}, {1, shards}, {2, shards}}, fake.ConnectedShards(), "one connection per shard")

	wctx, wcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer wcancel()
	u := fake.AddUser(fakediscord.UserSpec{Name: "alice"})
	answered := map[uint64]bool{}
	for i := 0; len(answered) < shards; i++ {
		require.Less(t, i, 100, "servers of every shard")
		g := fake.AddGuild(fakediscord.GuildSpec{Name: "Club " + strconv.Itoa(i)})
		id, err := strconv.ParseUint(g.ID, 10, 64)
		require.NoError(t, err)
		shard := (id >> 22) % shards
		if answered[shard] {
			continue
		}
		ch, err := fake.AddChannel(g.ID, "dix")
		require.NoError(t, err)
		require.NoError(t, fake.AddMember(g.ID, u.ID, 0))
		ix, err := fake.RunCommand(wctx, u.ID, ch.ID, "/dix rules")
		require.NoError(t, err)
		r, err := ix.Wait(wctx)
		require.NoError(t, err, "a command in a server of shard %d", shard)
		assert.NotEmpty(t, r.Message.Content)
		answered[shard] = true
	}

	stop()
	assert.False(t, fake.Connected(), "every shard closed")
	assert.Empty(t, fake.Violations())
}
