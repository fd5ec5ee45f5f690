package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/dixgame/dixbot"
)

// Redis is the production store. Keys, with P the configured prefix and the
// channel id as the Cluster hash tag so that one game's keys share a slot:
//
//	P game:{channel}        active record (envelope), expires GameTTL after its last write
//	P done:{channel}        finished record, expires ArchiveTTL after Finish
//	P ix:{channel}:<id>     applied interaction id, expires after InteractionTTL
//	P retired, P settings:{g:<guild>}  see redis_keep.go
//	P active:<guild>        index: sorted set of the guild's channels, scored by
//	                        the time (µs) their entry was last added; a record
//	                        without a guild is in no index
//
// On a Redis Cluster (Options.Cluster) every script and multi-key command
// touches the keys of one slot only: the compare-and-set (game and
// interaction keys), the move to the archive (game and done keys), Get and
// Delete (game and done keys) work on one channel's keys, which share the
// {channel} hash tag, and the index scripts on their index key alone. On one
// server the compare-and-set also moves the game's entry in the due index
// (P due), so that a click's write is one command; on a cluster that entry
// is written by a command of its own just before.
//
// The index lives in another slot than the games, so it is not written
// atomically with them (Redis Cluster forbids multi-slot scripts). It may hold
// extra channels but never misses an active one: Create adds the entry (with
// a fresh score) before writing the game, and removals (Finish, Delete, and
// Active dropping entries of expired games) are conditional on the score read
// before the game went away, so they never remove the entry of a game
// created meanwhile.
//
// A Redis is safe for concurrent use by many goroutines and processes.
type Redis struct {
	rdb     redis.UniversalClient // *redis.Client, or *redis.ClusterClient in cluster mode
	o       Options
	cluster bool
	recent  *recent // the active records last written or read, by game key
	sent    sentCounter
	// skew is the server's clock minus this process's, measured at open:
	// an update's last moment to write is sent in the server's time.
	skew time.Duration
	// lastStamp is the last update time handed out by writeStamp, in Unix
	// nanoseconds.
	lastStamp atomic.Int64
}

// recentRecords is how many active records a Redis keeps in memory for
// Update (see recent): a few per game of a busy process.
const recentRecords = 8192

var _ dixbot.Store = (*Redis)(nil)

// The scripts are idempotent: go-redis retries a command once when the
// connection fails, and the first run may have landed with only its reply
// lost. A run that finds its own record already written reports success
// instead of a conflict (which would make Update apply fn a second time) or
// a duplicate.

// writeStamp returns the update time written into a new record. Besides
// dating the record it makes every write's bytes unique, which the scripts
// rely on: they recognise their own earlier run (a retry after a lost reply)
// by comparing the stored bytes with the new record, so two writers that
// read the same version and computed the same game must never produce the
// same bytes. Within a store stamps strictly increase; across processes the
// lowest 10 bits (about a microsecond) are random.
func (s *Redis) writeStamp(now time.Time) time.Time {
	for {
		last := s.lastStamp.Load()
		n := now.UnixNano()&^0x3ff | rand.Int64N(0x400)
		if n <= last {
			n = last + 1
		}
		if s.lastStamp.CompareAndSwap(last, n) {
			return time.Unix(0, n)
		}
	}
}

// casScript writes a new record only if the stored one still starts with the
// token read before (magic, format, flags, schema and version: see
// envelope.go), records the interaction id and, on one server, moves the
// record's entry in the due index, all in the same step.
//
//	KEYS[1] game key, KEYS[2] interaction key (optional), then the due
//	index when ARGV[6] is given
//	ARGV[1] expected token, ARGV[2] new record, ARGV[3] game TTL ms,
//	ARGV[4] interaction TTL ms, ARGV[5] the server time (Unix ms) after
//	which nothing is written, 0 for none, ARGV[6] the record's due time
//	(Unix ms) for the due index or "" to leave the index alone, ARGV[7]
//	the index's member (the channel)
//
// Returns 1 when written, 0 on a version conflict (or a missing game), -1 when
// the interaction was already applied (nothing written), -2 when the script
// ran after ARGV[5]: the caller has given up by then (a command held up by
// a hung server or network and delivered late), so writing would apply an
// update already reported as failed. The interaction
// key is set with NX: one command both checks and records it. A Redis
// Cluster keeps the due index in another slot than the game: there the
// caller writes the index itself, before the script (see Redis).
var casScript = redis.NewScript(`
local cur = redis.call('GETRANGE', KEYS[1], 0, 15)
if cur == string.sub(ARGV[2], 1, 16) and redis.call('GET', KEYS[1]) == ARGV[2] then return 1 end
local by = tonumber(ARGV[5])
if by and by > 0 then
  local t = redis.call('TIME')
  if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > by then return -2 end
end
local nk = #KEYS
local due = ARGV[6]
if due and due ~= '' then nk = nk - 1 else due = nil end
local ix = nil
if nk >= 2 then ix = KEYS[2] end
if cur ~= ARGV[1] then
  if ix and redis.call('EXISTS', ix) == 1 then return -1 end
  return 0
end
if ix and not redis.call('SET', ix, '1', 'NX', 'PX', ARGV[4]) then return -1 end
if due then redis.call('ZADD', KEYS[#KEYS], due, ARGV[7]) end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`)

// finishScript moves the active record to the archive if it is unchanged.
//
//	KEYS[1] game key, KEYS[2] done key
//	ARGV[1] expected token, ARGV[2] archived record, ARGV[3] archive TTL ms
//
// Returns 1 when moved, 0 on a conflict or a missing game.
var finishScript = redis.NewScript(`
if redis.call('GETRANGE', KEYS[1], 0, 15) ~= ARGV[1] then
  if redis.call('EXISTS', KEYS[1]) == 0 and redis.call('GET', KEYS[2]) == ARGV[2] then return 1 end
  return 0
end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
redis.call('DEL', KEYS[1])
return 1
`)

// unindexScript removes index entries whose score is unchanged.
//
//	KEYS[1] index key; ARGV: member, score, member, score, …
var unindexScript = redis.NewScript(`
local n = 0
for i = 1, #ARGV, 2 do
  local s = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if s and tonumber(s) == tonumber(ARGV[i+1]) then
    n = n + redis.call('ZREM', KEYS[1], ARGV[i])
  end
end
return n
`)

// redueScript corrects a due-index entry whose score is unchanged: it moves
// it to a new score, or removes it when the new score is empty.
//
//	KEYS[1] due index; ARGV: member, score seen, new score or ""
var redueScript = redis.NewScript(`
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not s or tonumber(s) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then return redis.call('ZREM', KEYS[1], ARGV[1]) end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
`)

// OpenRedis connects to the server of o.URL, or to the Redis Cluster it
// names (Options.Cluster), checks that it answers and loads the scripts (on
// every node of a cluster). It returns ErrBadOptions for a bad URL or option,
// refused credentials, or a server in the other mode (a cluster node opened
// as a single server or the reverse), and ErrUnavailable when the server
// cannot be reached within o.Timeout.
func OpenRedis(ctx context.Context, o Options) (*Redis, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if o.URL == "" {
		return nil, fmt.Errorf("%w: empty Redis URL", ErrBadOptions)
	}
	cluster := o.Cluster || namesSeveralNodes(o.URL)
	var (
		s    = &Redis{o: o, cluster: cluster, recent: newRecent(recentRecords)}
		addr string // for messages: no credentials
	)
	if cluster {
		co, err := clusterOptions(o)
		if err != nil {
			return nil, err
		}
		s.rdb, addr = redis.NewClusterClient(co), "cluster "+strings.Join(co.Addrs, ",")
	} else {
		ro, err := redis.ParseURL(o.URL)
		if err != nil {
			// The URL may carry a password: do not echo it.
			return nil, fmt.Errorf("%w: Redis URL: %v", ErrBadOptions, redactURLError(err))
		}
		failFast(o.Timeout, connTimeouts{&ro.DialTimeout, &ro.ReadTimeout, &ro.WriteTimeout, &ro.PoolTimeout,
			&ro.MinRetryBackoff, &ro.MaxRetryBackoff, &ro.DialerRetryTimeout, &ro.DialerRetries})
		if ro.MaxRetries == 0 {
			ro.MaxRetries = 1
		}
		ro.ContextTimeoutEnabled = true
		ro.DisableIdentity = true // no CLIENT SETINFO round trip per connection
		ro.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
		s.rdb, addr = redis.NewClient(ro), ro.Addr
	}

	s.rdb.AddHook(&s.sent)

	// Opening is not answering a player: a server slow to answer (a busy
	// machine, a server still loading its data) is given openBudget, each
	// call its own Timeout, tried again while the budget lasts. A refusal
	// (no server listening, bad credentials) fails at once.
	octx, cancel := context.WithTimeout(ctx, max(openBudget, o.Timeout))
	defer cancel()
	step := func(f func(ctx context.Context) error) error {
		for {
			ctx, cancel := s.deadline(octx)
			err := f(ctx)
			cancel()
			if err == nil || !isTimeout(err) || octx.Err() != nil {
				return err
			}
		}
	}
	fail := func(err error) (*Redis, error) {
		s.rdb.Close()
		return nil, err
	}
	if err := step(func(ctx context.Context) error { return s.rdb.Ping(ctx).Err() }); err != nil {
		switch {
		case redis.IsAuthError(err) || redis.IsPermissionError(err):
			return fail(fmt.Errorf("%w: redis %s refused the credentials of the URL: %v", ErrBadOptions, addr, err))
		case cluster && isClusterDisabled(err):
			return fail(fmt.Errorf("%w: redis %s is not a Redis Cluster: %v", ErrBadOptions, addr, err))
		}
		return fail(fmt.Errorf("store: open redis %s: %w", addr, mapErr(err)))
	}
	if !cluster {
		// A cluster node would answer MOVED for most keys. A server
		// refusing INFO is taken as it is.
		var info string
		err := step(func(ctx context.Context) (err error) { info, err = s.rdb.Info(ctx, "cluster").Result(); return err })
		if err == nil && strings.Contains(info, "cluster_enabled:1") {
			return fail(fmt.Errorf("%w: redis %s is a Redis Cluster node: open it as a cluster", ErrBadOptions, addr))
		}
	}
	// Nothing reads the index of the empty guild id: records without a
	// guild are in no index, and the entries of such a key would only
	// accumulate.
	if err := step(func(ctx context.Context) error { return s.rdb.Del(ctx, s.activeKey("")).Err() }); err != nil {
		return fail(fmt.Errorf("store: open redis %s: %w", addr, mapErr(err)))
	}
	ctx, cancelTime := s.deadline(octx)
	sent := time.Now()
	if t, err := s.rdb.Time(ctx).Result(); err == nil {
		rtt := time.Since(sent)
		s.skew = t.Sub(sent.Add(rtt / 2))
	}
	cancelTime()
	for _, sc := range []*redis.Script{casScript, finishScript, unindexScript, redueScript, purgeScript} {
		if err := step(func(ctx context.Context) error { return sc.Load(ctx, s.rdb).Err() }); err != nil {
			return fail(fmt.Errorf("store: open redis %s: load script: %w", addr, mapErr(err)))
		}
	}
	return s, nil
}

// openBudget is the least time OpenRedis gives a slow server.
const openBudget = 10 * time.Second

// isTimeout reports whether err is a call that ran out of time rather than
// a refusal.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// connTimeouts points at the timeout fields of go-redis's Options or
// ClusterOptions.
type connTimeouts struct {
	dial, read, write, pool, minBackoff, maxBackoff, dialerRetryTimeout *time.Duration
	dialerRetries                                                       *int
}

// failFast sets the timeouts the URL's query left at zero. A down server
// must give ErrUnavailable within the call's deadline, not after go-redis's
// default 5 s timeouts and retries.
func failFast(timeout time.Duration, c connTimeouts) {
	setDur := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	setDur(c.dial, timeout)
	setDur(c.read, timeout)
	setDur(c.write, timeout)
	setDur(c.pool, timeout)
	setDur(c.minBackoff, 2*time.Millisecond)
	setDur(c.maxBackoff, 20*time.Millisecond)
	setDur(c.dialerRetryTimeout, 10*time.Millisecond)
	if *c.dialerRetries == 0 {
		*c.dialerRetries = 1
	}
}

// namesSeveralNodes reports whether a Redis URL lists several nodes, which
// only a cluster has: comma-separated hosts or addr query parameters.
func namesSeveralNodes(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (strings.Contains(u.Host, ",") || u.Query().Has("addr"))
}

// clusterOptions parses a cluster URL (see Options.Cluster) into go-redis's
// options, with the same fail-fast timeouts as a single server.
func clusterOptions(o Options) (*redis.ClusterOptions, error) {
	u, err := url.Parse(o.URL)
	if err != nil {
		return nil, fmt.Errorf("%w: Redis URL: %v", ErrBadOptions, redactURLError(err))
	}
	if u.Scheme == "unix" {
		return nil, fmt.Errorf("%w: Redis URL: a Unix socket names one server, not a Redis Cluster", ErrBadOptions)
	}
	if p := strings.Trim(u.Path, "/"); p != "" && p != "0" {
		return nil, fmt.Errorf("%w: Redis URL: database %q: a Redis Cluster has database 0 only", ErrBadOptions, p)
	}
	// go-redis takes one host and the other seeds as addr parameters.
	hosts := strings.Split(u.Host, ",")
	q := u.Query()
	for i, h := range hosts {
		if _, _, err := net.SplitHostPort(h); err != nil {
			return nil, fmt.Errorf("%w: Redis URL: seed node %d %q is not host:port", ErrBadOptions, i+1, h)
		}
		if i > 0 {
			q.Add("addr", h)
		}
	}
	u.Host, u.Path, u.RawQuery = hosts[0], "", q.Encode()
	co, err := redis.ParseClusterURL(u.String())
	if err != nil {
		// u parsed already: this is about the scheme or a query
		// parameter, never the password.
		return nil, fmt.Errorf("%w: Redis URL: %v", ErrBadOptions, err)
	}
	failFast(o.Timeout, connTimeouts{&co.DialTimeout, &co.ReadTimeout, &co.WriteTimeout, &co.PoolTimeout,
		&co.MinRetryBackoff, &co.MaxRetryBackoff, &co.DialerRetryTimeout, &co.DialerRetries})
	// MaxRetries stays at the cluster client's default: it retries
	// network errors and follows MOVED and ASK up to MaxRedirects times.
	co.ContextTimeoutEnabled = true
	co.DisableIdentity = true
	co.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	return co, nil
}

// isClusterDisabled reports the answer of a server without cluster support
// to the cluster client's CLUSTER SLOTS.
func isClusterDisabled(err error) bool {
	return strings.Contains(err.Error(), "cluster support disabled")
}

// noChannel: the empty channel has no game (Create refuses it), and its
// keys have an empty hash tag, which Redis Cluster ignores (it hashes the
// whole key), so they are in different slots: the calls that would read two
// of them at once (Get, Delete) answer ErrNotFound without asking. Update
// and Finish find no game before their scripts run.

func (s *Redis) gameKey(ch string) string { return s.o.Prefix + "game:{" + ch + "}" }
func (s *Redis) doneKey(ch string) string { return s.o.Prefix + "done:{" + ch + "}" }
func (s *Redis) ixKey(ch, id string) string {
	return s.o.Prefix + "ix:{" + ch + "}:" + id
}
func (s *Redis) activeKey(guild string) string { return s.o.Prefix + "active:" + guild }

// dueKey is the index of due times: a sorted set of channels scored by the
// due time of their record in Unix milliseconds. It is a hint, written with
// the record in one script on one server, and before the record on a
// cluster (so a crash between the two leaves an entry too many, never one
// too few), and corrected by Due against the records themselves.
func (s *Redis) dueKey() string { return s.o.Prefix + "due" }

func (s *Redis) deadline(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.o.Timeout)
}

// Create stores r as the channel's active game with version 1, and sets
// r.Version, r.UpdatedAt and r.Finished on success. It returns ErrExists when
// the channel has an active game (an archived one does not count),
// ErrBadRecord for a record without channel and ErrUnavailable when Redis
// cannot be reached.
func (s *Redis) Create(ctx context.Context, r *dixbot.Record) error {
	if err := checkRecord(r); err != nil {
		return err
	}
	now := s.writeStamp(s.o.Now())
	val, err := encode(r, 1, false, now)
	if err != nil {
		return err
	}
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	landed := false
	s.recent.writing(s.gameKey(r.Channel), val)
	defer func() { s.recent.wrote(s.gameKey(r.Channel), val, landed) }()
	// The index entry goes first: see the type's comment. SET NX GET
	// returns the value that kept it from being written: our own when a
	// retried SET finds its first run landed.
	index := func(c redis.Cmdable) error {
		if !r.Due.IsZero() {
			if err := c.ZAdd(ctx, s.dueKey(), redis.Z{Score: float64(r.Due.UnixMilli()), Member: r.Channel}).Err(); err != nil {
				return err
			}
		}
		if r.Guild == "" {
			return nil // in no index: see the type's comment
		}
		return c.ZAdd(ctx, s.activeKey(r.Guild), redis.Z{Score: scoreAt(now), Member: r.Channel}).Err()
	}
	var set *redis.StatusCmd
	write := func(c redis.Cmdable) error {
		set = c.SetArgs(ctx, s.gameKey(r.Channel), val, redis.SetArgs{Mode: "NX", Get: true, TTL: s.o.GameTTL})
		return set.Err()
	}
	if s.cluster {
		// Two round trips: the two keys are in different slots, maybe on
		// different nodes, to which a pipeline would send concurrently.
		if err = index(s.rdb); err == nil {
			err = write(s.rdb)
		}
	} else {
		// One round trip, in order.
		_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			_, _ = index(p), write(p)
			return nil
		})
	}
	switch {
	case errors.Is(err, redis.Nil):
		// Nothing was there: written.
	case err != nil:
		return fmt.Errorf("store: create %s: %w", r.Channel, mapErr(err))
	case set.Val() != string(val):
		return fmt.Errorf("%w: channel %s", ErrExists, r.Channel)
	}
	landed = true
	r.Version, r.UpdatedAt, r.Finished = 1, now.UTC(), false
	return nil
}

// Get returns the channel's active record, else its archived record (Finished
// true), else ErrNotFound; ErrCorrupt or ErrSchemaTooNew for a stored value it
// cannot read, ErrUnavailable when Redis cannot be reached. One round trip.
func (s *Redis) Get(ctx context.Context, channel string) (*dixbot.Record, error) {
	if channel == "" {
		return nil, notFound(channel) // see noChannel
	}
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	vals, err := s.rdb.MGet(ctx, s.gameKey(channel), s.doneKey(channel)).Result()
	if err != nil {
		return nil, fmt.Errorf("store: get %s: %w", channel, mapErr(err))
	}
	for i, v := range vals {
		if b, ok := v.(string); ok {
			raw := []byte(b)
			if i == 0 {
				s.recent.put(s.gameKey(channel), raw)
			} else {
				s.recent.drop(s.gameKey(channel))
			}
			return decode(channel, raw)
		}
	}
	s.recent.drop(s.gameKey(channel))
	return nil, notFound(channel)
}

// Latest answers, without asking the server, whether this process knows
// a later version of channel's active record than version: the record it
// last wrote or read there. It returns that record (ok true) when it is
// later, nil and ok true when version is the latest it knows, and ok false
// when it keeps nothing for channel, which only Get can then tell. Another
// process may have written since: what it wrote is not known here.
func (s *Redis) Latest(channel string, version uint64) (rec *dixbot.Record, ok bool) {
	raw := s.recent.get(s.gameKey(channel))
	v, ok := keptVersion(raw)
	switch {
	case !ok:
		return nil, false
	case v <= version:
		return nil, true
	}
	rec, err := decode(channel, raw)
	if err != nil {
		return nil, false
	}
	return rec, true
}

// Alone reports whether, as far as this store knows without asking the
// server, this process alone writes channel's active record: the record
// it keeps of channel is one it wrote, and it never read there a record
// another process wrote. Another process may have written since; only a
// read tells.
func (s *Redis) Alone(channel string) bool {
	return s.recent.alone(s.gameKey(channel))
}

// Update loads the active record, calls fn on it and writes it back with the
// next version if nobody wrote in between: one EVALSHA when this store wrote
// or read the record last and nobody wrote since (see recent), a GET and one
// EVALSHA otherwise. On a concurrent write it starts again (fn is called again on
// the fresh record) up to Options.Retries times with a jittered backoff, then
// returns ErrConflict. fn may change Meta, State, Game, Data and Due only; the store owns the
// other fields. fn must not call the store.
//
// A non-empty interactionID is recorded in the same atomic step as the write
// and remembered for Options.InteractionTTL; an id already recorded gives
// ErrDuplicate and writes nothing, also when fn fails on a state the first
// application has moved on. Other errors: ErrNotFound (no active game), the
// error of fn as is, ErrCorrupt, ErrSchemaTooNew, ErrUnavailable.
//
// An update with an interactionID (a person's action) that reaches the
// server after its caller's deadline writes nothing, so that one reported
// failed is not applied later by a server or network that held it up.
// Otherwise ErrUnavailable after the write was sent does not say whether
// it was applied (the reply may be what was lost). Retrying with the same
// interactionID is safe: it gives ErrDuplicate when the first try landed.
// An update without one (the bot's own work: effects done, a deadline
// claimed) is not checked against the clock: applied late, it still applies
// to the version it read, and saves the script a TIME command.
func (s *Redis) Update(ctx context.Context, channel, interactionID string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	gk := s.gameKey(channel)
	keys := []string{gk}
	if interactionID != "" {
		keys = append(keys, s.ixKey(channel, interactionID))
	}
	gameTTL, ixTTL := s.o.GameTTL.Milliseconds(), s.o.InteractionTTL.Milliseconds()
	var by int64 // see writeBy: a person's action only
	if interactionID != "" {
		by = s.writeBy(ctx)
	}
	// indexed: an earlier try of this call wrote its due time to the
	// index (a cluster writes it before the script), then lost the race;
	// the index must then be written again, even when this try keeps the
	// record's due time.
	indexed := false
	// kept: the first try starts from the value this process last wrote
	// or read (s.recent), unverified: a failed compare-and-set, or an
	// error of fn, sends it back to the stored record.
	kept := s.recent.get(gk)
	for attempt := 0; ; attempt++ {
		var (
			raw []byte
			rec *dixbot.Record
			err error
		)
		fromKept := kept != nil
		if fromKept {
			raw, kept = kept, nil
			if rec, err = decode(channel, raw); err != nil {
				fromKept = false
			}
		}
		if !fromKept {
			if raw, rec, err = s.readActive(ctx, "update", channel); err == nil {
				s.recent.put(gk, raw)
			}
		}
		if err != nil {
			if errors.Is(err, ErrNotFound) && s.applied(ctx, channel, interactionID) {
				return nil, duplicate(channel, interactionID)
			}
			return nil, err
		}
		guild, version, due := rec.Guild, rec.Version, rec.Due
		if err := fn(rec); err != nil {
			if fromKept {
				attempt-- // not a conflict: the record as stored decides
				continue
			}
			if s.applied(ctx, channel, interactionID) {
				return nil, duplicate(channel, interactionID)
			}
			return nil, err
		}
		rec.Channel, rec.Guild, rec.Version, rec.Finished = channel, guild, version+1, false
		now := s.writeStamp(s.o.Now())
		val, err := encode(rec, rec.Version, false, now)
		if err != nil {
			return nil, err
		}
		var res int
		s.recent.writing(gk, val)
		if !rec.Due.IsZero() && (!rec.Due.Equal(due) || indexed) {
			// The due index with the record (casIndexed).
			indexed = true
			res, err = s.casIndexed(ctx, keys, raw[:casTokenSize], val, gameTTL, ixTTL, by, channel, rec.Due)
		} else {
			res, err = casScript.Run(ctx, s.rdb, keys, raw[:casTokenSize], val, gameTTL, ixTTL, by).Int()
		}
		s.recent.wrote(gk, val, err == nil && res == 1)
		if err != nil {
			s.recent.drop(gk)
			return nil, fmt.Errorf("store: update %s: %w", channel, mapErr(err))
		}
		switch res {
		case 1:
			rec.UpdatedAt = now.UTC()
			return rec, nil
		case -1:
			return nil, duplicate(channel, interactionID)
		case -2:
			s.recent.drop(gk)
			return nil, fmt.Errorf("store: update %s: %w: reached the server after the caller's deadline, not written", channel, ErrUnavailable)
		}
		s.recent.drop(gk)
		if fromKept {
			attempt-- // the kept value was out of date: read the record
			continue
		}
		if err := s.backoff(ctx, attempt); err != nil {
			return nil, fmt.Errorf("%w: channel %s after %d attempts: %w", ErrConflict, channel, attempt+1, err)
		}
	}
}

// writeBy is the last moment, in the server's time (Unix ms), at which an
// update under ctx may still be written: ctx's deadline less a margin for
// the answer's way back, so that a write is never applied after the caller
// reported it failed. 0: ctx has no deadline.
func (s *Redis) writeBy(ctx context.Context) int64 {
	dl, ok := ctx.Deadline()
	if !ok {
		return 0
	}
	margin := min(s.o.Timeout/4, 250*time.Millisecond)
	return dl.Add(s.skew - margin).UnixMilli()
}

// casIndexed runs casScript and indexes the record's new due time: on one
// server inside the script, in the same step; on a Redis Cluster, where the
// index and the game are in different slots, perhaps on different nodes,
// the index first, then the script (two round trips).
func (s *Redis) casIndexed(ctx context.Context, keys []string, token, val []byte, gameTTL, ixTTL, by int64, channel string, due time.Time) (int, error) {
	if s.cluster {
		if err := s.rdb.ZAdd(ctx, s.dueKey(), redis.Z{Score: float64(due.UnixMilli()), Member: channel}).Err(); err != nil {
			return 0, err
		}
		return casScript.Run(ctx, s.rdb, keys, token, val, gameTTL, ixTTL, by).Int()
	}
	keys = append(keys[:len(keys):len(keys)], s.dueKey())
	return casScript.Run(ctx, s.rdb, keys, token, val, gameTTL, ixTTL, by, due.UnixMilli(), channel).Int()
}

// Due lists up to max channels whose active record is due at or before
// now, earliest first. It reads the index, checks each entry against its
// record and corrects the entries that disagree (a game gone or no longer
// due, a due time moved). ErrUnavailable.
func (s *Redis) Due(ctx context.Context, now time.Time, max int) ([]string, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	dk := s.dueKey()
	entries, err := s.rdb.ZRangeArgsWithScores(ctx, redis.ZRangeArgs{
		Key: dk, Start: "-inf", Stop: strconv.FormatInt(now.UnixMilli(), 10), ByScore: true, Count: int64(2 * max),
	}).Result()
	if err != nil {
		return nil, fmt.Errorf("store: due: %w", mapErr(err))
	}
	out := []string{}
	if len(entries) == 0 {
		return out, nil
	}
	gets := make([]*redis.StringCmd, len(entries))
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, e := range entries {
			gets[i] = p.Get(ctx, s.gameKey(e.Member.(string)))
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("store: due: %w", mapErr(err))
	}
	for i, e := range entries {
		ch := e.Member.(string)
		fix := "" // remove the entry, unless set below
		if b, err := gets[i].Bytes(); err == nil {
			rec, err := decode(ch, b)
			switch {
			case err != nil:
				continue // unreadable: left for Get to report
			case !rec.Due.IsZero() && !rec.Due.After(now):
				if len(out) < max {
					out = append(out, ch)
				}
				if float64(rec.Due.UnixMilli()) == e.Score {
					continue
				}
				fix = strconv.FormatInt(rec.Due.UnixMilli(), 10)
			case !rec.Due.IsZero():
				fix = strconv.FormatInt(rec.Due.UnixMilli(), 10)
			}
		}
		// Best effort: a failure leaves the entry for the next call.
		_ = redueScript.Run(ctx, s.rdb, []string{dk}, ch, formatScore(e.Score), fix).Err()
	}
	return out, nil
}

// readActive reads and decodes the active record of channel: ErrNotFound,
// ErrCorrupt, ErrSchemaTooNew, ErrUnavailable. raw is the stored value, whose
// start is the compare-and-set token.
func (s *Redis) readActive(ctx context.Context, op, channel string) (raw []byte, rec *dixbot.Record, err error) {
	raw, err = s.rdb.Get(ctx, s.gameKey(channel)).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, nil, notFound(channel)
	case err != nil:
		return nil, nil, fmt.Errorf("store: %s %s: %w", op, channel, mapErr(err))
	}
	rec, err = decode(channel, raw)
	return raw, rec, err
}

// applied reports whether an interaction id is recorded. A failure to ask
// counts as not recorded: the caller then returns its own error.
func (s *Redis) applied(ctx context.Context, channel, interactionID string) bool {
	if interactionID == "" {
		return false
	}
	n, err := s.rdb.Exists(ctx, s.ixKey(channel, interactionID)).Result()
	return err == nil && n == 1
}

// errRetriesExhausted ends the retry loop of Update and Finish.
var errRetriesExhausted = errors.New("retries exhausted")

// backoff sleeps before attempt+1: full jitter over an exponential window
// (250 µs doubling up to 16 ms), so contending writers spread out instead of
// colliding again.
func (s *Redis) backoff(ctx context.Context, attempt int) error {
	if attempt >= s.o.Retries {
		return errRetriesExhausted
	}
	window := 250 * time.Microsecond << min(attempt, 6)
	t := time.NewTimer(rand.N(window) + 1)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Finish archives the channel's active record: it is kept for
// Options.ArchiveTTL with Finished true and the next version, and the channel
// is free for a new game. Returns ErrNotFound when there is no active game,
// ErrConflict, ErrCorrupt, ErrSchemaTooNew or ErrUnavailable.
func (s *Redis) Finish(ctx context.Context, channel string) error {
	return s.FinishIf(ctx, channel, nil)
}

// FinishIf is Finish of the active record only when same reports that it
// is the one meant (nil: any record): the record same read is the one
// archived, by the same compare-and-set, so a record written in between
// is read and asked about again. A record same refuses gives ErrNotFound,
// as when there is none.
func (s *Redis) FinishIf(ctx context.Context, channel string, same func(*dixbot.Record) bool) error {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	gk, dk := s.gameKey(channel), s.doneKey(channel)
	defer s.recent.drop(gk) // archived, or in doubt
	archTTL := s.o.ArchiveTTL.Milliseconds()
	for attempt := 0; ; attempt++ {
		raw, rec, err := s.readActive(ctx, "finish", channel)
		if err != nil {
			return err
		}
		if same != nil && !same(rec) {
			return notFound(channel)
		}
		score, err := s.indexScore(ctx, rec.Guild, channel)
		if err != nil {
			return fmt.Errorf("store: finish %s: %w", channel, err)
		}
		at := s.writeStamp(s.o.Now())
		val, err := encode(rec, rec.Version+1, true, at)
		if err != nil {
			return err
		}
		if err := s.retire(ctx, channel, at); err != nil {
			return fmt.Errorf("store: finish %s: %w", channel, mapErr(err))
		}
		res, err := finishScript.Run(ctx, s.rdb, []string{gk, dk}, raw[:casTokenSize], val, archTTL).Int()
		if err != nil {
			return fmt.Errorf("store: finish %s: %w", channel, mapErr(err))
		}
		if res == 1 {
			if err := s.unindex(ctx, rec.Guild, channel, score); err != nil {
				return fmt.Errorf("store: finish %s: archived, index not updated: %w", channel, err)
			}
			return nil
		}
		if err := s.backoff(ctx, attempt); err != nil {
			return fmt.Errorf("%w: channel %s after %d attempts: %w", ErrConflict, channel, attempt+1, err)
		}
	}
}

// Delete removes the channel's active and archived records. Returns
// ErrNotFound when there was neither (also when a DEL retried after a
// connection failure finds that its first run removed them), ErrUnavailable.
func (s *Redis) Delete(ctx context.Context, channel string) error {
	if channel == "" {
		return notFound(channel) // see noChannel
	}
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	defer s.recent.drop(s.gameKey(channel))
	// The guild of the active game, to drop its index entry. An unreadable
	// record leaves its entry, which Active drops once the game is gone.
	_, rec, err := s.readActive(ctx, "delete", channel)
	if errors.Is(err, ErrUnavailable) {
		return err
	}
	var score string
	if rec != nil {
		if score, err = s.indexScore(ctx, rec.Guild, channel); err != nil {
			return fmt.Errorf("store: delete %s: %w", channel, err)
		}
	}
	n, err := s.rdb.Del(ctx, s.gameKey(channel), s.doneKey(channel)).Result()
	if err != nil {
		return fmt.Errorf("store: delete %s: %w", channel, mapErr(err))
	}
	if rec != nil {
		if err := s.unindex(ctx, rec.Guild, channel, score); err != nil {
			return fmt.Errorf("store: delete %s: deleted, index not updated: %w", channel, err)
		}
	}
	if n == 0 {
		return notFound(channel)
	}
	return nil
}

// Active lists, sorted, the channels of guild with an active game, and drops
// the index entries of games that are gone (expired). Returns ErrUnavailable.
func (s *Redis) Active(ctx context.Context, guild string) ([]string, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	ak := s.activeKey(guild)
	entries, err := s.rdb.ZRangeWithScores(ctx, ak, 0, -1).Result()
	if err != nil {
		return nil, fmt.Errorf("store: active %s: %w", guild, mapErr(err))
	}
	if len(entries) == 0 {
		return []string{}, nil
	}
	exists := make([]*redis.IntCmd, len(entries))
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, e := range entries {
			exists[i] = p.Exists(ctx, s.gameKey(e.Member.(string)))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: active %s: %w", guild, mapErr(err))
	}
	live := []string{}
	var stale []any
	for i, e := range entries {
		ch := e.Member.(string)
		if exists[i].Val() == 1 {
			live = append(live, ch)
		} else {
			stale = append(stale, ch, formatScore(e.Score))
		}
	}
	if len(stale) > 0 {
		// Best effort: a failure leaves the entries for the next call.
		_ = unindexScript.Run(ctx, s.rdb, []string{ak}, stale...).Err()
	}
	slices.Sort(live)
	return live, nil
}

// indexScore reads the score of a channel's index entry ("" when absent).
func (s *Redis) indexScore(ctx context.Context, guild, channel string) (string, error) {
	if guild == "" {
		return "", nil
	}
	sc, err := s.rdb.ZScore(ctx, s.activeKey(guild), channel).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return "", nil
	case err != nil:
		return "", mapErr(err)
	}
	return formatScore(sc), nil
}

// unindex removes a channel's index entry if its score is still score.
func (s *Redis) unindex(ctx context.Context, guild, channel, score string) error {
	if score == "" {
		return nil
	}
	if err := unindexScript.Run(ctx, s.rdb, []string{s.activeKey(guild)}, channel, score).Err(); err != nil {
		return mapErr(err)
	}
	return nil
}

// scoreAt is the score of an index entry added at t: microseconds, exact
// in a float64 for millennia.
func scoreAt(t time.Time) float64 { return float64(t.UnixMicro()) }

func formatScore(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// Ping reports whether Redis answers within the timeout (ErrUnavailable).
func (s *Redis) Ping(ctx context.Context) error {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	if err := s.rdb.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("store: ping: %w", mapErr(err))
	}
	return nil
}

// Close closes the connections. Calls after Close return ErrUnavailable.
func (s *Redis) Close() error { return s.rdb.Close() }

// mapErr turns a go-redis error into the store's: every failure to reach or
// hear from the server (network errors, timeouts, the caller's deadline, pool
// timeout, closed client) and the server's "try later" replies wrap
// ErrUnavailable, keeping the cause. Other server replies are returned
// wrapped as they are.
func mapErr(err error) error {
	var rerr redis.Error
	if errors.As(err, &rerr) {
		if redis.IsLoadingError(err) || redis.IsReadOnlyError(err) || redis.IsClusterDownError(err) ||
			redis.IsTryAgainError(err) || redis.IsMasterDownError(err) || redis.IsMaxClientsError(err) ||
			redis.IsOOMError(err) { // full, with maxmemory-policy noeviction: writes wait for room
			return fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		return fmt.Errorf("redis: %w", err)
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}

// redactURLError keeps url.Parse errors from echoing the URL (and password).
func redactURLError(err error) string {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) && ue.Unwrap() != nil {
		return ue.Unwrap().Error()
	}
	return "cannot parse"
}
