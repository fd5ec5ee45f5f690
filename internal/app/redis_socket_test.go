package app

import (
	"context"
	"fmt"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/redistest"
)

// TestRunOnRedisUnixSocket: a REDIS_URL of unix:// opens the store on the
// server's socket file, and the games land in that server.
func TestRunOnRedisUnixSocket(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	const games = 3
	cfg, stop := runWithGames(t, srv.SocketURL(), false, games)

	// Read back over the server's TCP port: the same server holds them.
	opt, err := redis.ParseURL(srv.URL())
	require.NoError(t, err)
	rc := redis.NewClient(opt)
	defer rc.Close()
	for i := range games {
		n, err := rc.Exists(context.Background(), fmt.Sprintf("%sgame:{c%d}", cfg.RedisPrefix, i)).Result()
		require.NoError(t, err)
		assert.Equal(t, int64(1), n)
	}
	stop()
}
