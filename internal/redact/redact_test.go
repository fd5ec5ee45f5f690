package redact

import (
	"bytes"
	"fmt"
	"log/slog"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OjE-_x.yZ"

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Post \"https://discord.com/api/v9/webhooks/111/" + token + "?wait=true\": context deadline exceeded",
			"Post \"https://discord.com/api/v9/webhooks/111/[redacted]?wait=true\": context deadline exceeded"},
		{"PATCH https://discord.com/api/v9/webhooks/111/" + token + "/messages/@original",
			"PATCH https://discord.com/api/v9/webhooks/111/[redacted]/messages/@original"},
		{"Rate limit exceeded on https://discord.com/api/v9/interactions/222/" + token + "/callback, retry after 1s",
			"Rate limit exceeded on https://discord.com/api/v9/interactions/222/[redacted]/callback, retry after 1s"},
		{"two: /webhooks/1/" + token + " and /webhooks/1/" + token + "/messages/5",
			"two: /webhooks/1/[redacted] and /webhooks/1/[redacted]/messages/5"},
		{"GET https://discord.com/api/v9/channels/5/messages/6", "GET https://discord.com/api/v9/channels/5/messages/6"},
		{"", ""},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, String(tc.in))
	}
}

// Every way a value reaches a log line is redacted, with both of slog's
// formats: message, string, error, a value printed with %+v, a group, and
// attributes given to With.
func TestHandler(t *testing.T) {
	rl := discordgo.RateLimitError{RateLimit: &discordgo.RateLimit{
		TooManyRequests: &discordgo.TooManyRequests{}, URL: "https://discord.com/api/v9/webhooks/1/" + token}}
	for _, format := range []string{"text", "json"} {
		var buf bytes.Buffer
		var h slog.Handler = slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})
		if format == "json" {
			h = slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})
		}
		l := Logger(slog.New(h))
		l.Info("posting /webhooks/1/"+token, "url", "/interactions/2/"+token+"/callback")
		l.Warn("refused", "err", rl)
		l.Warn("refused", "err", &rl)
		l.Debug("value", "v", struct{ U string }{"/webhooks/1/" + token})
		l.Info("group", slog.Group("g", "err", fmt.Errorf("x: %w", rl)))
		l.With("url", "/webhooks/1/"+token).WithGroup("w").Info("with", "u", "/webhooks/1/"+token)
		out := buf.String()
		require.NotEmpty(t, out)
		assert.NotContains(t, out, token, format)
		assert.Contains(t, out, "[redacted]", format)
		assert.Same(t, l, Logger(l), "wrapped once")
	}
}
