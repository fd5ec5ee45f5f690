package app

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRedisLogLinesGoThroughSlog(t *testing.T) {
	var buf bytes.Buffer
	l := redisLog{slog.New(slog.NewJSONHandler(&buf, nil))}
	l.Printf(context.Background(), "redis: %s failed: %d", "dial", 3)
	var line map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &line), buf.String())
	assert.Equal(t, "redis: dial failed: 3", line["msg"])
	assert.Equal(t, "redis", line["component"])
	assert.Equal(t, "WARN", line["level"])
}
