package store

import (
	"fmt"
	"strings"
	"time"
)

// Defaults applied by OpenRedis and OpenFile to the zero fields of Options.
const (
	DefaultPrefix         = "dix:"
	DefaultTimeout        = 500 * time.Millisecond
	DefaultGameTTL        = 30 * 24 * time.Hour
	DefaultArchiveTTL     = 7 * 24 * time.Hour
	DefaultInteractionTTL = 15 * time.Minute // Discord's interaction lifetime
	DefaultRetries        = 20
	DefaultSweepInterval  = 10 * time.Minute
	DefaultLockTimeout    = 200 * time.Millisecond
	DefaultResultTTL      = 90 * 24 * time.Hour
)

// Options configure a store. The zero value of every field means its default;
// negative durations or counts are rejected with ErrBadOptions.
type Options struct {
	// URL is the Redis server, redis://[user:password@]host:port/db,
	// rediss:// for TLS, or unix://[user:password@]/path/to/socket?db=N
	// for a server on this machine (OpenRedis only). Query parameters understood by
	// redis.ParseURL (dial_timeout, pool_size, …) take precedence over the
	// timeouts derived from Timeout.
	URL string
	// Cluster opens URL as a Redis Cluster (OpenRedis only): its host is
	// one seed node, or several separated by commas
	// (redis://[user:password@]host:port,host:port,…), and further seeds may
	// come as addr=host:port query parameters. A URL naming several nodes
	// opens a cluster even without Cluster. A cluster has database 0 only.
	Cluster bool
	// Prefix namespaces every Redis key (default "dix:"). It must not contain
	// '{' or '}': the channel id is the key's Cluster hash tag.
	Prefix string
	// Timeout bounds every call, on top of the caller's context (default
	// 500 ms). For Redis it is also the dial, read, write and pool timeout, so
	// an unreachable server fails fast with ErrUnavailable.
	Timeout time.Duration
	// GameTTL is how long an active game may stay untouched before it expires
	// (default 30 days). Every write restarts it.
	GameTTL time.Duration
	// ArchiveTTL is how long a finished game is kept (default 7 days).
	ArchiveTTL time.Duration
	// InteractionTTL is how long an applied interaction id is remembered for
	// exactly-once updates (default 15 minutes).
	InteractionTTL time.Duration
	// Retries is how many times Update (and Finish) retry after a concurrent
	// write before giving up with ErrConflict (default 20), with a short
	// jittered exponential backoff in between. Redis only: the file store
	// serialises writers and never conflicts.
	Retries int
	// SweepInterval is how often the file store deletes expired games,
	// archives and interaction ids (default 10 minutes). Expired entries are
	// also ignored on read, so the sweep only reclaims space.
	SweepInterval time.Duration
	// LockTimeout is how long OpenFile waits for the file lock held by another
	// process before failing with ErrLocked (default 200 ms).
	LockTimeout time.Duration
	// ResultTTL is how long the result of a finished game is kept in its
	// server's statistics (default 90 days). The totals and ratings it
	// fed stay until the person asks to be forgotten.
	ResultTTL time.Duration
	// Now is the store's clock: every expiry, retention and write time is
	// read from it (default time.Now). Redis keeps its own clock for the
	// keys' lifetimes, which the store sets as durations from Now.
	Now func() time.Time
}

func (o Options) withDefaults() (Options, error) {
	durations := []struct {
		name string
		v    *time.Duration
		def  time.Duration
	}{
		{"Timeout", &o.Timeout, DefaultTimeout},
		{"GameTTL", &o.GameTTL, DefaultGameTTL},
		{"ArchiveTTL", &o.ArchiveTTL, DefaultArchiveTTL},
		{"InteractionTTL", &o.InteractionTTL, DefaultInteractionTTL},
		{"SweepInterval", &o.SweepInterval, DefaultSweepInterval},
		{"LockTimeout", &o.LockTimeout, DefaultLockTimeout},
		{"ResultTTL", &o.ResultTTL, DefaultResultTTL},
	}
	for _, d := range durations {
		switch {
		case *d.v < 0:
			return o, fmt.Errorf("%w: %s is negative (%v)", ErrBadOptions, d.name, *d.v)
		case *d.v == 0:
			*d.v = d.def
		}
	}
	switch {
	case o.Retries < 0:
		return o, fmt.Errorf("%w: Retries is negative (%d)", ErrBadOptions, o.Retries)
	case o.Retries == 0:
		o.Retries = DefaultRetries
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Prefix == "" {
		o.Prefix = DefaultPrefix
	}
	if strings.ContainsAny(o.Prefix, "{}") {
		return o, fmt.Errorf("%w: Prefix %q contains a brace", ErrBadOptions, o.Prefix)
	}
	return o, nil
}
