package store

import (
	"context"
	"sync/atomic"

	"github.com/redis/go-redis/v9"
)

// sentCounter is a go-redis hook counting what a Redis store sends: every
// command, and every round trip (one command alone, or a pipeline of
// several). Commands a script runs on the server are not sent, so they are
// not counted here: INFO commandstats counts them.
type sentCounter struct {
	commands, roundTrips atomic.Uint64
}

func (c *sentCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (c *sentCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.commands.Add(1)
		c.roundTrips.Add(1)
		return next(ctx, cmd)
	}
}

func (c *sentCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		c.commands.Add(uint64(len(cmds)))
		c.roundTrips.Add(1)
		return next(ctx, cmds)
	}
}

// Sent reports how many commands this store has sent to Redis since it
// was opened, and in how many round trips (a pipeline is one). A command
// tried again after a connection failure counts once.
func (s *Redis) Sent() (commands, roundTrips uint64) {
	return s.sent.commands.Load(), s.sent.roundTrips.Load()
}
