package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/redistest"
)

// quietLogger drops go-redis's log lines (dial failures in the fault tests).
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

func TestMain(m *testing.M) {
	redis.SetLogger(quietLogger{})
	os.Exit(m.Run())
}

var prefixSeq atomic.Int64

// loadedTimeout is the store's timeout in the tests that are not about
// timeouts: a call on a busy machine may take far longer than the 500 ms
// that make a down server fail fast in production.
const loadedTimeout = 10 * time.Second

// uniquePrefix isolates a test's keys, also on a shared REDIS_URL server.
func uniquePrefix() string {
	return fmt.Sprintf("dixtest:%d:%d:", time.Now().UnixNano(), prefixSeq.Add(1))
}

// redisEnv opens stores on the server or cluster of url under one key
// prefix per env.
func redisEnv(url string, cluster bool) newEnv { return redisEnvAt(url, cluster, 0) }

// redisEnvAt opens stores whose clock is the wall clock shifted by offset:
// Redis keeps the keys' lifetimes on its own clock, at the wall's pace.
func redisEnvAt(url string, cluster bool, offset time.Duration) newEnv {
	return func(t *testing.T) env {
		prefix := uniquePrefix()
		clock := newWallClock(offset)
		return env{clock: clock, expiry: 2 * time.Second, open: func(o Options) dixbot.Store {
			t.Helper()
			o.URL, o.Prefix, o.Cluster = url, prefix, cluster
			o.Timeout = cmp.Or(o.Timeout, loadedTimeout)
			if o.Now == nil {
				o.Now = clock.now
			}
			s, err := OpenRedis(ctxb, o)
			require.NoError(t, err)
			t.Cleanup(func() { s.Close() })
			return s
		}}
	}
}

func openRedis(t testing.TB, srv *redistest.Server, o Options) *Redis {
	t.Helper()
	o.URL = srv.URL()
	o.Timeout = cmp.Or(o.Timeout, loadedTimeout)
	if o.Prefix == "" {
		o.Prefix = uniquePrefix()
	}
	s, err := OpenRedis(ctxb, o)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func TestRedisSuite(t *testing.T) {
	t.Parallel()
	runSuite(t, redisEnv(redistest.Start(t).URL(), false))
}

// TestRedisSuiteOverUnixSocket runs the suite on a server reached by its
// Unix socket (a unix:// URL), as on one machine.
func TestRedisSuiteOverUnixSocket(t *testing.T) {
	t.Parallel()
	runSuite(t, redisEnv(redistest.Start(t).SocketURL(), false))
}

// TestRedisSuiteAYearAhead runs the suite with the store's clock a year
// ahead of the wall clock, of Redis's and of every date the tests'
// fixtures name.
func TestRedisSuiteAYearAhead(t *testing.T) {
	t.Parallel()
	runSuite(t, redisEnvAt(redistest.Start(t).URL(), false, yearAhead))
}

func TestRedisOpenErrors(t *testing.T) {
	// A port nothing listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := l.Addr().String()
	require.NoError(t, l.Close())

	tests := []struct {
		name string
		o    Options
		want error
	}{
		{"no URL", Options{}, ErrBadOptions},
		{"bad scheme", Options{URL: "http://127.0.0.1:6379"}, ErrBadOptions},
		{"bad db", Options{URL: "redis://127.0.0.1:6379/notanumber"}, ErrBadOptions},
		{"brace in prefix", Options{URL: "redis://" + closed, Prefix: "a{b}:"}, ErrBadOptions},
		{"negative timeout", Options{URL: "redis://" + closed, Timeout: -time.Second}, ErrBadOptions},
		{"negative retries", Options{URL: "redis://" + closed, Retries: -1}, ErrBadOptions},
		{"nobody listening", Options{URL: "redis://" + closed}, dixbot.ErrUnavailable},
		{"no socket file", Options{URL: "unix://" + filepath.Join(t.TempDir(), "none.sock")}, dixbot.ErrUnavailable},
		{"socket as a cluster", Options{URL: "unix:///run/redis.sock", Cluster: true}, ErrBadOptions},
		{"socket with seeds", Options{URL: "unix:///run/redis.sock?addr=10.0.0.2:6379"}, ErrBadOptions},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := OpenRedis(ctxb, tc.o)
			assert.ErrorIs(t, err, tc.want)
			assert.Nil(t, s)
		})
	}
}

func TestRedisURLPasswordNotEchoed(t *testing.T) {
	_, err := OpenRedis(ctxb, Options{URL: "redis://user:s3cret@127.0.0.1:6379/x"})
	require.ErrorIs(t, err, ErrBadOptions)
	assert.NotContains(t, err.Error(), "s3cret")
}

// TestRedisKeyLayout checks the key names (one Cluster slot per game) and
// that every write sets the expiries.
func TestRedisKeyLayout(t *testing.T) {
	srv := redistest.Start(t)
	s := openRedis(t, srv, Options{Prefix: "p:", GameTTL: time.Hour, ArchiveTTL: 2 * time.Hour, InteractionTTL: time.Minute})
	raw := s.rdb
	create(t, s, "123", "g9")
	_, err := s.Update(ctxb, "123", "ia", incr)
	require.NoError(t, err)

	pttl := func(key string) time.Duration {
		d, err := raw.PTTL(ctxb, key).Result()
		require.NoError(t, err)
		return d
	}
	assert.InDelta(t, time.Hour, pttl("p:game:{123}"), float64(time.Minute))
	assert.InDelta(t, time.Minute, pttl("p:ix:{123}:ia"), float64(10*time.Second))
	members, err := raw.ZRange(ctxb, "p:active:g9", 0, -1).Result()
	require.NoError(t, err)
	assert.Equal(t, []string{"123"}, members)

	slots := map[int64]bool{}
	for _, k := range []string{"p:game:{123}", "p:done:{123}", "p:ix:{123}:ia"} {
		slot, err := raw.Do(ctxb, "CLUSTER", "KEYSLOT", k).Int64()
		if err != nil {
			t.Skipf("CLUSTER KEYSLOT not available: %v", err)
		}
		slots[slot] = true
	}
	assert.Len(t, slots, 1, "one game's keys must share a slot")

	require.NoError(t, s.Finish(ctxb, "123"))
	assert.InDelta(t, 2*time.Hour, pttl("p:done:{123}"), float64(time.Minute))
	n, err := raw.Exists(ctxb, "p:game:{123}").Result()
	require.NoError(t, err)
	assert.Zero(t, n)
	members, err = raw.ZRange(ctxb, "p:active:g9", 0, -1).Result()
	require.NoError(t, err)
	assert.Empty(t, members)
}

// TestRedisActiveDropsStale checks that Active cleans the entries of expired
// games but never the entry of a game created again meanwhile.
func TestRedisActiveDropsStale(t *testing.T) {
	srv := redistest.Start(t)
	s := openRedis(t, srv, Options{})
	create(t, s, "c1", "g")
	create(t, s, "c2", "g")
	require.NoError(t, s.rdb.Del(ctxb, s.gameKey("c1")).Err()) // as if expired
	list, err := s.Active(ctxb, "g")
	require.NoError(t, err)
	assert.Equal(t, []string{"c2"}, list)
	n, err := s.rdb.ZCard(ctxb, s.activeKey("g")).Result()
	require.NoError(t, err)
	assert.Equal(t, int64(1), n, "stale entry kept")

	// An entry re-added since it was read is kept by the conditional removal.
	require.NoError(t, s.rdb.ZAdd(ctxb, s.activeKey("g"), redis.Z{Score: 5, Member: "c3"}).Err())
	require.NoError(t, s.unindex(ctxb, "g", "c3", formatScore(4)))
	require.NoError(t, s.rdb.ZScore(ctxb, s.activeKey("g"), "c3").Err(), "entry with a newer score removed")
	require.NoError(t, s.unindex(ctxb, "g", "c3", formatScore(5)))
	assert.ErrorIs(t, s.rdb.ZScore(ctxb, s.activeKey("g"), "c3").Err(), redis.Nil)
}

// commandCounter counts the commands sent to the server.
type commandCounter struct{ n atomic.Int64 }

func (c *commandCounter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (c *commandCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.n.Add(1)
		return next(ctx, cmd)
	}
}
func (c *commandCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		c.n.Add(int64(len(cmds)))
		return next(ctx, cmds)
	}
}

func TestRedisRoundTrips(t *testing.T) {
	srv := redistest.Start(t)
	s := openRedis(t, srv, Options{})
	create(t, s, "c1", "g")
	_, err := s.Update(ctxb, "c1", "warm", incr) // connection and script cache warm
	require.NoError(t, err)

	var cc commandCounter
	s.rdb.AddHook(&cc)
	tests := []struct {
		name string
		call func() error
		max  int64
	}{
		// The record this store wrote last is not read again.
		{"Update", func() error { _, err := s.Update(ctxb, "c1", "", incr); return err }, 1},
		{"Update with interaction", func() error { _, err := s.Update(ctxb, "c1", "click", incr); return err }, 1},
		{"Get", func() error { _, err := s.Get(ctxb, "c1"); return err }, 1},
		{"Update after Get", func() error { _, err := s.Update(ctxb, "c1", "", incr); return err }, 1},
		// The due index is written by the compare-and-set's script.
		{"Update moving the due time", func() error { _, err := s.Update(ctxb, "c1", "", dueIn(time.Minute)); return err }, 1},
		{"Update with interaction moving the due time", func() error { _, err := s.Update(ctxb, "c1", "tick", dueIn(time.Hour)); return err }, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := cc.n.Load()
			require.NoError(t, tc.call())
			assert.LessOrEqual(t, cc.n.Load()-before, tc.max, "commands sent")
		})
	}
}

// dueIn is incr that also makes the record due d from now.
func dueIn(d time.Duration) func(*dixbot.Record) error {
	return func(r *dixbot.Record) error {
		r.Due = time.Now().Add(d)
		return incr(r)
	}
}

// TestRedisUpdateIndexesItsDueTime: on one server the due index moves
// with the record, in its script: a record made due is found by Due, one
// whose due time moves later is not found before it, and an update that
// loses its compare-and-set leaves the index as it was.
func TestRedisUpdateIndexesItsDueTime(t *testing.T) {
	srv := redistest.Start(t)
	s := openRedis(t, srv, Options{})
	create(t, s, "c1", "g")
	now := time.Now()
	_, err := s.Update(ctxb, "c1", "i1", func(r *dixbot.Record) error { r.Due = now.Add(time.Second); return incr(r) })
	require.NoError(t, err)
	score, err := s.rdb.ZScore(ctxb, s.dueKey(), "c1").Result()
	require.NoError(t, err)
	assert.Equal(t, float64(now.Add(time.Second).UnixMilli()), score)
	got, err := s.Due(ctxb, now.Add(2*time.Second), 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"c1"}, got)

	_, err = s.Update(ctxb, "c1", "", func(r *dixbot.Record) error { r.Due = now.Add(time.Hour); return incr(r) })
	require.NoError(t, err)
	score, err = s.rdb.ZScore(ctxb, s.dueKey(), "c1").Result()
	require.NoError(t, err)
	assert.Equal(t, float64(now.Add(time.Hour).UnixMilli()), score)

	// A compare-and-set on an out-of-date token writes neither the record
	// nor the index.
	raw, err := s.rdb.Get(ctxb, s.gameKey("c1")).Bytes()
	require.NoError(t, err)
	stale := append([]byte(nil), raw[:casTokenSize]...)
	stale[casTokenSize-1] ^= 0xff
	res, err := casScript.Run(ctxb, s.rdb, []string{s.gameKey("c1"), s.dueKey()}, stale, "another record", 60000, 60000, 0, now.UnixMilli(), "c1").Int()
	require.NoError(t, err)
	assert.Equal(t, 0, res)
	score, err = s.rdb.ZScore(ctxb, s.dueKey(), "c1").Result()
	require.NoError(t, err)
	assert.Equal(t, float64(now.Add(time.Hour).UnixMilli()), score, "the index is unchanged")
}

// TestRedisUpdateAfterAnotherProcessWrote: a store whose kept record is
// out of date (another process wrote since) still applies its update to
// the stored record, also when its function refuses the kept one, and
// reads it once more to do so.
func TestRedisUpdateAfterAnotherProcessWrote(t *testing.T) {
	srv := redistest.Start(t)
	p1 := openRedis(t, srv, Options{})
	p2 := openRedis(t, srv, Options{Prefix: p1.o.Prefix})
	create(t, p1, "c1", "g")
	_, err := p1.Update(ctxb, "c1", "", incr) // p1 keeps version 2
	require.NoError(t, err)
	for range 2 {
		_, err := p2.Update(ctxb, "c1", "", incr)
		require.NoError(t, err)
	}
	var cc commandCounter
	p1.rdb.AddHook(&cc)
	r, err := p1.Update(ctxb, "c1", "", incr)
	require.NoError(t, err)
	assert.Equal(t, 4, counter(t, r), "no update lost")
	assert.Equal(t, int64(3), cc.n.Load(), "the failed compare-and-set, the read, the write")

	_, err = p2.Update(ctxb, "c1", "", incr) // p1's kept record is out of date again
	require.NoError(t, err)
	errStale := errors.New("not the stored record")
	r, err = p1.Update(ctxb, "c1", "", func(r *dixbot.Record) error {
		if counter(t, r) != 5 {
			return errStale
		}
		return incr(r)
	})
	require.NoError(t, err, "the refusal of an out-of-date record is not the answer")
	assert.Equal(t, 6, counter(t, r))
	assert.Equal(t, 6, counter(t, get(t, p2, "c1")))

	// Finished elsewhere: the kept record does not bring the game back.
	require.NoError(t, p2.Finish(ctxb, "c1"))
	_, err = p1.Update(ctxb, "c1", "", incr)
	assert.ErrorIs(t, err, ErrNotFound)
}

// TestRedisFault stops the server under a running store: calls fail with
// ErrUnavailable instead of hanging or panicking, and once the server is back
// the same games continue.
func TestRedisFault(t *testing.T) {
	srv := redistest.Start(t)
	s := openRedis(t, srv, Options{Timeout: 300 * time.Millisecond})
	for i := range 5 {
		create(t, s, fmt.Sprintf("c%d", i), "g")
		_, err := s.Update(ctxb, fmt.Sprintf("c%d", i), "", incr)
		require.NoError(t, err)
	}

	srv.Stop()
	calls := []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"Get", func(ctx context.Context) error { _, err := s.Get(ctx, "c0"); return err }},
		{"Update", func(ctx context.Context) error { _, err := s.Update(ctx, "c0", "i", incr); return err }},
		{"Create", func(ctx context.Context) error { return s.Create(ctx, &dixbot.Record{Channel: "new"}) }},
		{"Finish", func(ctx context.Context) error { return s.Finish(ctx, "c1") }},
		{"Delete", func(ctx context.Context) error { return s.Delete(ctx, "c2") }},
		{"Active", func(ctx context.Context) error { _, err := s.Active(ctx, "g"); return err }},
		{"Ping", func(ctx context.Context) error { return s.Ping(ctx) }},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			// Generous: the store's own timeout must end the call first.
			ctx, cancel := context.WithTimeout(ctxb, 20*time.Second)
			defer cancel()
			err := c.call(ctx)
			assert.ErrorIs(t, err, dixbot.ErrUnavailable)
			assert.NoError(t, ctx.Err(), "the call outlived the caller's deadline")
		})
	}
	// Many at once: the pool must not wedge.
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			_, err := s.Update(ctxb, "c3", "", incr)
			assert.ErrorIs(t, err, dixbot.ErrUnavailable)
		})
	}
	wg.Wait()

	srv.Restart()
	// After repeated dial failures go-redis fails fast and probes the server
	// once a second, so the store recovers within about a second.
	require.Eventually(t, func() bool { return s.Ping(ctxb) == nil }, 15*time.Second, 50*time.Millisecond,
		"the store did not reconnect after the server came back")
	for i := range 5 {
		ch := fmt.Sprintf("c%d", i)
		got, err := s.Update(ctxb, ch, "", incr)
		require.NoError(t, err, ch)
		assert.Equal(t, 2, counter(t, got), "%s: the game continues where it was", ch)
		assert.Equal(t, uint64(3), got.Version)
	}
	list, err := s.Active(ctxb, "g")
	require.NoError(t, err)
	assert.Len(t, list, 5)
}

// TestRedisHungServer freezes the server: connections stay open but no
// reply comes. Calls must end with ErrUnavailable on the store's timeout.
func TestRedisHungServer(t *testing.T) {
	srv := redistest.Start(t)
	s := openRedis(t, srv, Options{Timeout: 200 * time.Millisecond})
	create(t, s, "c1", "g")

	srv.Pause()
	ctx, cancel := context.WithTimeout(ctxb, 20*time.Second)
	defer cancel()
	_, err := s.Update(ctx, "c1", "i1", incr)
	assert.ErrorIs(t, err, dixbot.ErrUnavailable)
	_, err = s.Get(ctx, "c1")
	assert.ErrorIs(t, err, dixbot.ErrUnavailable)
	assert.ErrorIs(t, s.Ping(ctx), dixbot.ErrUnavailable)
	assert.NoError(t, ctx.Err(), "a call outlived the caller's deadline")

	srv.Resume()
	require.Eventually(t, func() bool { return s.Ping(ctxb) == nil }, 15*time.Second, 50*time.Millisecond)
	// The update that timed out was sent at once (Update writes a record
	// it read last without reading it again), held by the hung server and
	// run once it resumed: past its deadline, it wrote nothing, so the
	// caller told of a failure was told the truth.
	rec, err := s.Get(ctxb, "c1")
	require.NoError(t, err)
	assert.Equal(t, 0, counter(t, rec), "the update reported failed was not applied")
	// Tried again with its interaction id, it is applied, once.
	got, err := s.Update(ctxb, "c1", "i1", incr)
	require.NoError(t, err)
	assert.Equal(t, 1, counter(t, got))
	_, err = s.Update(ctxb, "c1", "i1", incr)
	assert.ErrorIs(t, err, dixbot.ErrDuplicate)
}

func TestRedisContextDeadline(t *testing.T) {
	srv := redistest.Start(t)
	s := openRedis(t, srv, Options{})
	create(t, s, "c1", "")
	ctx, cancel := context.WithDeadline(ctxb, time.Now().Add(-time.Second))
	defer cancel()
	_, err := s.Get(ctx, "c1")
	require.ErrorIs(t, err, dixbot.ErrUnavailable)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "the cause is kept: %v", err)
}

// TestRedisScriptsIdempotent runs each write twice, as go-redis does when a
// connection fails after the command was sent: the second run must report
// the first one's success, not a conflict that would apply fn again.
func TestRedisScriptsIdempotent(t *testing.T) {
	srv := redistest.Start(t)
	s := openRedis(t, srv, Options{})
	r := create(t, s, "c1", "g")
	gk, dk, ik := s.gameKey("c1"), s.doneKey("c1"), s.ixKey("c1", "click")
	raw, err := s.rdb.Get(ctxb, gk).Bytes()
	require.NoError(t, err)

	r.Meta = []byte("1")
	next, err := encode(r, 2, false, time.Now())
	require.NoError(t, err)
	for run := range 2 {
		res, err := casScript.Run(ctxb, s.rdb, []string{gk, ik}, raw[:casTokenSize], next, 60000, 60000).Int()
		require.NoError(t, err)
		assert.Equal(t, 1, res, "run %d", run)
	}
	// Another writer's update with the same interaction id is a duplicate.
	other, err := encode(r, 2, false, time.Now().Add(time.Second))
	require.NoError(t, err)
	res, err := casScript.Run(ctxb, s.rdb, []string{gk, ik}, raw[:casTokenSize], other, 60000, 60000).Int()
	require.NoError(t, err)
	assert.Equal(t, -1, res)
	assert.Equal(t, 1, counter(t, get(t, s, "c1")))

	archived, err := encode(r, 3, true, time.Now())
	require.NoError(t, err)
	for run := range 2 {
		res, err := finishScript.Run(ctxb, s.rdb, []string{gk, dk}, next[:casTokenSize], archived, 60000).Int()
		require.NoError(t, err)
		assert.Equal(t, 1, res, "run %d", run)
	}
	assert.True(t, get(t, s, "c1").Finished)
	res, err = finishScript.Run(ctxb, s.rdb, []string{gk, dk}, next[:casTokenSize], next, 60000).Int()
	require.NoError(t, err)
	assert.Equal(t, 0, res, "finishing a game that is gone")
}

// TestRedisURLCredentialsAndDB opens the store with a password and a
// database number taken from the URL.
func TestRedisURLCredentialsAndDB(t *testing.T) {
	srv := redistest.Start(t)
	if os.Getenv("REDIS_URL") != "" {
		t.Skip("changes the server's password: needs a private redis-server")
	}
	admin := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer admin.Close()
	require.NoError(t, admin.ConfigSet(ctxb, "requirepass", "s3cret").Err())
	t.Cleanup(func() {
		c := redis.NewClient(&redis.Options{Addr: srv.Addr(), Password: "s3cret"})
		defer c.Close()
		_ = c.ConfigSet(ctxb, "requirepass", "").Err()
	})

	s, err := OpenRedis(ctxb, Options{URL: "redis://:s3cret@" + srv.Addr() + "/3", Prefix: "p:", Timeout: loadedTimeout})
	require.NoError(t, err)
	defer s.Close()
	create(t, s, "c1", "")
	db3 := redis.NewClient(&redis.Options{Addr: srv.Addr(), Password: "s3cret", DB: 3})
	defer db3.Close()
	n, err := db3.Exists(ctxb, "p:game:{c1}").Result()
	require.NoError(t, err)
	assert.Equal(t, int64(1), n, "the game is in database 3")

	_, err = OpenRedis(ctxb, Options{URL: "redis://:wrong@" + srv.Addr() + "/3"})
	require.ErrorIs(t, err, ErrBadOptions)
	assert.NotContains(t, err.Error(), "wrong@")
	_, err = OpenRedis(ctxb, Options{URL: "redis://" + srv.Addr() + "/3"})
	assert.ErrorIs(t, err, ErrBadOptions, "no password")
}

// A record without a server (a channel's game log) is in no index: the
// index of the empty server id, which nothing reads, never grows, and
// opening the store drops such a key found in Redis.
func TestRedisGuildlessRecordsInNoIndex(t *testing.T) {
	srv := redistest.Start(t)
	s := openRedis(t, srv, Options{})
	for i := range 50 {
		create(t, s, fmt.Sprintf("c%d/log", i), "")
	}
	require.NoError(t, s.Finish(ctxb, "c1/log"))
	require.NoError(t, s.Delete(ctxb, "c2/log"))
	n, err := s.rdb.Exists(ctxb, s.activeKey("")).Result()
	require.NoError(t, err)
	assert.Zero(t, n, "no index of the empty server id")
	_, err = s.Update(ctxb, "c3/log", "", incr)
	require.NoError(t, err, "a record without a server is written as any other")

	require.NoError(t, s.rdb.ZAdd(ctxb, s.activeKey(""), redis.Z{Score: 1, Member: "stray"}).Err())
	again := openRedis(t, srv, Options{Prefix: s.o.Prefix})
	n, err = again.rdb.Exists(ctxb, s.activeKey("")).Result()
	require.NoError(t, err)
	assert.Zero(t, n, "opening the store drops the index of the empty server id")
	list, err := again.Active(ctxb, "")
	require.NoError(t, err)
	assert.Empty(t, list)
}

// TestRedisDueAfterConflict: an update whose first try moved the due time
// (to a clock's deadline hours ahead) loses the race to another writer,
// and its retry keeps the due time the record has (work owed in a second):
// the game is found due in a second, not hours later.
func TestRedisDueAfterConflict(t *testing.T) {
	s := openRedis(t, redistest.Start(t), Options{})
	create(t, s, "c1", "g1")
	now := time.Now().Truncate(time.Millisecond)
	soon := now.Add(time.Second)
	_, err := s.Update(ctxb, "c1", "", func(r *dixbot.Record) error { r.Due = soon; return incr(r) })
	require.NoError(t, err)
	tries := 0
	_, err = s.Update(ctxb, "c1", "", func(r *dixbot.Record) error {
		tries++
		if tries == 1 {
			// Another writer changes the game meanwhile: this try loses.
			_, err := s.Update(ctxb, "c1", "", incr)
			require.NoError(t, err)
			r.Due = now.Add(3 * time.Hour)
		}
		return incr(r)
	})
	require.NoError(t, err)
	require.Equal(t, 2, tries, "the first try lost the race")
	assert.Equal(t, soon.UTC(), get(t, s, "c1").Due)
	got, err := s.Due(ctxb, now.Add(2*time.Second), 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"c1"}, got, "due when the record says")
}

// TestRedisSentCounts: Sent counts the commands sent and the round trips,
// a pipeline (Due's reads of several records) being one round trip.
func TestRedisSentCounts(t *testing.T) {
	srv := redistest.Start(t)
	s := openRedis(t, srv, Options{})
	create(t, s, "c1", "g")
	create(t, s, "c2", "g")
	past := time.Now().Add(-time.Minute)
	for _, ch := range []string{"c1", "c2"} {
		_, err := s.Update(ctxb, ch, "", func(r *dixbot.Record) error { r.Due = past; return incr(r) })
		require.NoError(t, err)
	}
	cmds, trips := s.Sent()
	_, err := s.Update(ctxb, "c1", "", incr)
	require.NoError(t, err)
	c, tr := s.Sent()
	assert.Equal(t, [2]uint64{1, 1}, [2]uint64{c - cmds, tr - trips}, "an update of a record kept: one command")

	cmds, trips = c, tr
	due, err := s.Due(ctxb, time.Now(), 10)
	require.NoError(t, err)
	assert.Len(t, due, 2)
	c, tr = s.Sent()
	assert.Equal(t, [2]uint64{3, 2}, [2]uint64{c - cmds, tr - trips}, "the index, then both records in one pipeline")
}

// TestRedisUpdateReadsTheClockForActionsOnly: the compare-and-set asks the
// server's clock (TIME, to write nothing after the caller's deadline) for
// an update with an interaction id, a person's action, and not for the
// bot's own updates.
func TestRedisUpdateReadsTheClockForActionsOnly(t *testing.T) {
	if os.Getenv("REDIS_URL") != "" {
		t.Skip("counts the commands of a server of its own")
	}
	srv := redistest.Start(t)
	s := openRedis(t, srv, Options{})
	create(t, s, "c1", "g")
	timeCalls := func() int {
		info, err := s.rdb.Info(ctxb, "commandstats").Result()
		require.NoError(t, err)
		for _, l := range strings.Split(info, "\n") {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "cmdstat_time:calls="); ok {
				n, err := strconv.Atoi(rest[:strings.IndexByte(rest, ',')])
				require.NoError(t, err)
				return n
			}
		}
		return 0
	}
	before := timeCalls()
	_, err := s.Update(ctxb, "c1", "", incr)
	require.NoError(t, err)
	assert.Equal(t, before, timeCalls(), "the bot's own update")
	_, err = s.Update(ctxb, "c1", "click", incr)
	require.NoError(t, err)
	assert.Equal(t, before+1, timeCalls(), "a person's action")
}

// TestRedisLatest: Latest tells, without a command, the record this
// process last wrote or read, when it is later than the version asked.
func TestRedisLatest(t *testing.T) {
	srv := redistest.Start(t)
	s := openRedis(t, srv, Options{})
	other := openRedis(t, srv, Options{Prefix: s.o.Prefix})
	create(t, s, "c1", "g")
	r2, err := s.Update(ctxb, "c1", "", incr)
	require.NoError(t, err)
	cmds, _ := s.Sent()

	rec, ok := s.Latest("c1", r2.Version)
	assert.True(t, ok)
	assert.Nil(t, rec, "version 2 is the latest written here")
	rec, ok = s.Latest("c1", 1)
	require.True(t, ok)
	require.NotNil(t, rec)
	assert.Equal(t, r2.Version, rec.Version)
	assert.Equal(t, 1, counter(t, rec))
	_, ok = s.Latest("c9", 1)
	assert.False(t, ok, "nothing kept")
	after, _ := s.Sent()
	assert.Equal(t, cmds, after, "nothing sent")

	// Another process's write is not known until it is read.
	_, err = other.Update(ctxb, "c1", "", incr)
	require.NoError(t, err)
	rec, ok = s.Latest("c1", r2.Version)
	assert.True(t, ok)
	assert.Nil(t, rec)
	_, err = s.Get(ctxb, "c1")
	require.NoError(t, err)
	rec, ok = s.Latest("c1", r2.Version)
	require.True(t, ok)
	require.NotNil(t, rec)
	assert.Equal(t, 2, counter(t, rec))

	require.NoError(t, s.Finish(ctxb, "c1"))
	_, ok = s.Latest("c1", 1)
	assert.False(t, ok, "archived: nothing kept")
}

// Alone tells a channel this process alone writes from one another
// process wrote too, once it has read that process's write; concurrent
// updates of one process never make it think another wrote.
func TestRedisAlone(t *testing.T) {
	srv := redistest.Start(t)
	s := openRedis(t, srv, concurrentOptions) // 8 writers on one key finish
	other := openRedis(t, srv, Options{Prefix: s.o.Prefix})
	assert.False(t, s.Alone("c1"), "nothing known")
	create(t, s, "c1", "g")
	assert.True(t, s.Alone("c1"), "created here")

	// Updates of this process at once, each compare-and-set failing
	// against another's write of this same process, then reading it.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				_, err := s.Update(ctxb, "c1", "", incr)
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 160, counter(t, get(t, s, "c1")))
	assert.True(t, s.Alone("c1"), "its own writes only")

	// A record written before this process wrote there (by a process it
	// takes over from) is the channel's past, not another writer.
	create(t, other, "c2", "g")
	_, err := s.Update(ctxb, "c2", "", incr)
	require.NoError(t, err)
	assert.True(t, s.Alone("c2"), "written here since")

	// Another process writes: not known until read.
	_, err = other.Update(ctxb, "c1", "", incr)
	require.NoError(t, err)
	assert.True(t, s.Alone("c1"), "another's write not read yet")
	_, err = s.Update(ctxb, "c1", "", incr)
	require.NoError(t, err)
	assert.False(t, s.Alone("c1"), "its failed compare-and-set read the other's write")
	_, err = s.Update(ctxb, "c1", "", incr)
	require.NoError(t, err)
	assert.False(t, s.Alone("c1"), "known for as long as the channel is kept")
	assert.Equal(t, 163, counter(t, get(t, other, "c1")))

	// Another process ends the game and begins another there: its
	// versions start again, below the ones this process wrote.
	create(t, s, "c3", "g")
	for range 5 {
		_, err = s.Update(ctxb, "c3", "", incr)
		require.NoError(t, err)
	}
	require.NoError(t, other.Finish(ctxb, "c3"))
	create(t, other, "c3", "g")
	_, err = s.Update(ctxb, "c3", "", incr)
	require.NoError(t, err)
	assert.False(t, s.Alone("c3"), "the other's new game, read")
}
