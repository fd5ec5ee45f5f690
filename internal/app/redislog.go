package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/redis/go-redis/v9"
)

// redisLog sends go-redis's own log lines (reconnections, pool warnings)
// to the program's logger, so they share its level and format (JSON with
// LOG_FORMAT=json) instead of going to the standard library's log.
type redisLog struct{ l *slog.Logger }

func (r redisLog) Printf(ctx context.Context, format string, v ...any) {
	r.l.WarnContext(ctx, fmt.Sprintf(format, v...), "component", "redis")
}

var redisLogOnce sync.Once

// useSlogForRedis installs logger as go-redis's logger. go-redis has one
// logger per process, so the first Run's logger is kept.
func useSlogForRedis(logger *slog.Logger) {
	redisLogOnce.Do(func() { redis.SetLogger(redisLog{logger}) })
}
