// Package redact keeps interaction tokens out of the logs.
//
// An interaction token lets whoever holds it post and edit messages as the
// application for 15 minutes. It travels in the path of the interaction
// routes, which error messages quote: discordgo's RateLimitError names the
// URL, and so does net/http's *url.Error for a request that timed out or
// could not connect. The routes are POST /interactions/{interaction.id}/
// {interaction.token}/callback and /webhooks/{application.id}/
// {interaction.token}[/messages/…]
// (https://discord.com/developers/docs/interactions/receiving-and-responding#endpoints).
package redact

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
)

// Mark replaces a token.
const Mark = "[redacted]"

// tokenPath matches the path segments that precede a token and the token.
var tokenPath = regexp.MustCompile(`(/(?:webhooks|interactions)/[^/\s"'\\]+/)[^/?#\s"'\\]+`)

// String returns s with every interaction token in a route's path replaced
// by Mark.
func String(s string) string {
	if !strings.Contains(s, "/webhooks/") && !strings.Contains(s, "/interactions/") {
		return s
	}
	return tokenPath.ReplaceAllString(s, "${1}"+Mark)
}

// Handler returns a slog handler that passes every record to h with the
// tokens removed from its message and from the values of its attributes
// (strings, errors, and any value whose printed form holds one).
func Handler(h slog.Handler) slog.Handler {
	if _, ok := h.(handler); ok {
		return h
	}
	return handler{h}
}

// Logger returns l logging through Handler (a discarding logger for nil).
func Logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	if _, ok := l.Handler().(handler); ok {
		return l
	}
	return slog.New(Handler(l.Handler()))
}

type handler struct{ h slog.Handler }

func (x handler) Enabled(ctx context.Context, l slog.Level) bool { return x.h.Enabled(ctx, l) }

func (x handler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, String(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(attr(a))
		return true
	})
	return x.h.Handle(ctx, out)
}

func (x handler) WithAttrs(as []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = attr(a)
	}
	return handler{x.h.WithAttrs(out)}
}

func (x handler) WithGroup(name string) slog.Handler { return handler{x.h.WithGroup(name)} }

// attr is a with its value redacted.
func attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, String(v.String()))
	case slog.KindGroup:
		g := v.Group()
		out := make([]slog.Attr, len(g))
		for i, x := range g {
			out[i] = attr(x)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(out...)}
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, String(err.Error()))
		}
		s := fmt.Sprintf("%+v", v.Any())
		if r := String(s); r != s {
			return slog.String(a.Key, r)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
