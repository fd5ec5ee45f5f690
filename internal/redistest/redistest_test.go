package redistest

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStopRestartKeepsData(t *testing.T) {
	s := Start(t)
	opt, err := redis.ParseURL(s.URL())
	require.NoError(t, err)
	opt.MaxRetries = -1
	c := redis.NewClient(opt)
	defer c.Close()
	ctx := context.Background()
	key := "redistest:" + t.Name()
	require.NoError(t, c.Set(ctx, key, "kept", 0).Err())

	s.Stop()
	assert.Error(t, ping(s.Addr()), "server still answers after Stop")
	assert.Error(t, c.Get(ctx, key).Err(), "a command succeeded while the server was stopped")

	s.Restart()
	got, err := c.Get(ctx, key).Result()
	require.NoError(t, err)
	assert.Equal(t, "kept", got)
	assert.Equal(t, s.Addr(), opt.Addr, "Restart must reuse the port")
}

func TestRestartWhileRunning(t *testing.T) {
	s := Start(t)
	s.Restart()
	require.NoError(t, ping(s.Addr()))
}

func TestPauseResume(t *testing.T) {
	s := Start(t)
	s.Pause()
	assert.Error(t, ping(s.Addr()), "a paused server answered")
	s.Resume()
	require.NoError(t, ping(s.Addr()))
	s.Pause() // left paused: the cleanup must still stop it
}

// ping reports whether a server answers on addr.
func ping(addr string) error {
	_, err := serverPID(addr)
	return err
}

// TestServerIsItsOwn: the server a test talks to is the one it started.
func TestServerIsItsOwn(t *testing.T) {
	a, b := Start(t), Start(t)
	require.NotEqual(t, a.Addr(), b.Addr())
	for _, s := range []*Server{a, b} {
		pid, err := serverPID(s.Addr())
		require.NoError(t, err)
		assert.Equal(t, s.cmd.Process.Pid, pid)
	}
}
