package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
)

// env is one backend under test. open returns a store on the env's own,
// initially empty storage; every call opens the same storage again (for
// restart tests the previous store must be closed first: the file store is
// locked while open). Stores left open are closed at the end of the test.
// A store opened without a clock of its own reads the env's.
type env struct {
	open  func(o Options) dixbot.Store
	clock *suiteClock
	// expiry is the shortest TTL the expiry tests may set: one that no
	// operation's delay on a loaded machine comes near.
	expiry time.Duration
}

// now reads the env's clock.
func (e env) now() time.Time { return e.clock.now() }

// suiteClock is a store's clock in the suite: the wall clock shifted by
// offset, or, when manual, a clock that moves only by pass. A store whose
// expiries are kept by a server of its own (Redis) needs the wall clock's
// pace; the file store reads only this clock.
type suiteClock struct {
	mu     sync.Mutex
	offset time.Duration
	manual bool
	at     time.Time
}

func newWallClock(offset time.Duration) *suiteClock { return &suiteClock{offset: offset} }

func newManualClock(start time.Time) *suiteClock { return &suiteClock{manual: true, at: start} }

func (c *suiteClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.manual {
		return c.at
	}
	return time.Now().Add(c.offset)
}

// pass lets d go by: at once on a manual clock, by sleeping on the wall's.
func (c *suiteClock) pass(d time.Duration) {
	c.mu.Lock()
	if c.manual {
		c.at = c.at.Add(d)
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	time.Sleep(d)
}

// newEnv builds a fresh env for a test.
type newEnv func(t *testing.T) env

// runSuite is the one test suite every Store implementation passes. Its
// tests are independent, each on storage of its own, and run in parallel.
func runSuite(t *testing.T, newEnv newEnv) {
	tests := []struct {
		name string
		run  func(t *testing.T, e env)
	}{
		{"CreateGet", testCreateGet},
		{"CreateExists", testCreateExists},
		{"CreateBadRecord", testCreateBadRecord},
		{"GetNotFound", testGetNotFound},
		{"Update", testUpdate},
		{"UpdateNotFound", testUpdateNotFound},
		{"UpdateFnError", testUpdateFnError},
		{"UpdateOwnsFields", testUpdateOwnsFields},
		{"ExactlyOnce", testExactlyOnce},
		{"ExactlyOnceConcurrent", testExactlyOnceConcurrent},
		{"Finish", testFinish},
		{"FinishIf", testFinishIf},
		{"Delete", testDelete},
		{"Active", testActive},
		{"GameExpiry", testGameExpiry},
		{"ArchiveExpiry", testArchiveExpiry},
		{"InteractionExpiry", testInteractionExpiry},
		{"ConcurrentOneGame", testConcurrentOneGame},
		{"ConcurrentManyGames", testConcurrentManyGames},
		{"Restart", testRestart},
		{"BadStoredData", testBadStoredData},
		{"ContextDone", testContextDone},
		{"Closed", testClosed},
		{"RealGames", testRealGames},
		{"Due", testDue},
		{"DueClaimedOnce", testDueClaimedOnce},
		{"GameData", testGameData},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, newEnv(t))
		})
	}
}

var ctxb = context.Background()

// counter reads the decimal counter the tests keep in Meta.
func counter(t testing.TB, r *dixbot.Record) int {
	t.Helper()
	if len(r.Meta) == 0 {
		return 0
	}
	n, err := strconv.Atoi(string(r.Meta))
	require.NoError(t, err, "meta %q", r.Meta)
	return n
}

// incr is an Update function adding one to the counter.
func incr(r *dixbot.Record) error {
	n := 0
	if len(r.Meta) > 0 {
		var err error
		if n, err = strconv.Atoi(string(r.Meta)); err != nil {
			return err
		}
	}
	r.Meta = []byte(strconv.Itoa(n + 1))
	return nil
}

func create(t testing.TB, s dixbot.Store, channel, guild string) *dixbot.Record {
	t.Helper()
	r := &dixbot.Record{Channel: channel, Guild: guild, Meta: []byte("0")}
	require.NoError(t, s.Create(ctxb, r))
	return r
}

func get(t testing.TB, s dixbot.Store, channel string) *dixbot.Record {
	t.Helper()
	r, err := s.Get(ctxb, channel)
	require.NoError(t, err)
	return r
}

func testCreateGet(t *testing.T, e env) {
	s := e.open(Options{})
	require.NoError(t, s.Ping(ctxb))
	before := e.now()
	r := &dixbot.Record{Channel: "c1", Guild: "g1", Meta: []byte("hello"), Version: 99, Finished: true}
	require.NoError(t, s.Create(ctxb, r))
	assert.Equal(t, uint64(1), r.Version, "Create sets the version")
	assert.False(t, r.Finished)

	got := get(t, s, "c1")
	assert.Equal(t, "c1", got.Channel)
	assert.Equal(t, "g1", got.Guild)
	assert.Equal(t, []byte("hello"), got.Meta)
	assert.Equal(t, uint64(1), got.Version)
	assert.Empty(t, got.Game)
	assert.Nil(t, got.Data)
	assert.False(t, got.Finished)
	assert.WithinRange(t, got.UpdatedAt, before.Add(-time.Millisecond), e.now().Add(time.Millisecond))
	assert.True(t, got.UpdatedAt.Equal(r.UpdatedAt), "got %v, want %v", got.UpdatedAt, r.UpdatedAt)

	// Empty guild and meta are fine, and a large meta survives intact.
	big := make([]byte, 64<<10)
	for i := range big {
		big[i] = byte(i * 7)
	}
	require.NoError(t, s.Create(ctxb, &dixbot.Record{Channel: "c2", Meta: big}))
	got = get(t, s, "c2")
	assert.Equal(t, "", got.Guild)
	assert.Equal(t, big, got.Meta)
}

func testCreateExists(t *testing.T, e env) {
	s := e.open(Options{})
	create(t, s, "c1", "g1")
	_, err := s.Update(ctxb, "c1", "", incr)
	require.NoError(t, err)

	err = s.Create(ctxb, &dixbot.Record{Channel: "c1", Guild: "g1", Meta: []byte("other")})
	require.ErrorIs(t, err, dixbot.ErrExists)
	got := get(t, s, "c1")
	assert.Equal(t, 1, counter(t, got), "the refused Create changed the game")
	assert.Equal(t, uint64(2), got.Version)
}

func testCreateBadRecord(t *testing.T, e env) {
	s := e.open(Options{})
	assert.ErrorIs(t, s.Create(ctxb, nil), ErrBadRecord)
	assert.ErrorIs(t, s.Create(ctxb, &dixbot.Record{Guild: "g"}), ErrBadRecord)
	list, err := s.Active(ctxb, "g")
	require.NoError(t, err)
	assert.Empty(t, list)
}

func testGetNotFound(t *testing.T, e env) {
	s := e.open(Options{})
	for _, ch := range []string{"nope", ""} {
		_, err := s.Get(ctxb, ch)
		assert.ErrorIs(t, err, dixbot.ErrNotFound, "channel %q", ch)
	}
}

func testUpdate(t *testing.T, e env) {
	s := e.open(Options{})
	created := create(t, s, "c1", "g1")
	for i := 1; i <= 3; i++ {
		got, err := s.Update(ctxb, "c1", fmt.Sprintf("i%d", i), incr)
		require.NoError(t, err)
		assert.Equal(t, i, counter(t, got))
		assert.Equal(t, uint64(1+i), got.Version)
		assert.Equal(t, "c1", got.Channel)
		assert.Equal(t, "g1", got.Guild)
		assert.False(t, got.UpdatedAt.Before(created.UpdatedAt))

		stored := get(t, s, "c1")
		assert.Equal(t, got.Version, stored.Version)
		assert.Equal(t, got.Meta, stored.Meta)
		assert.True(t, got.UpdatedAt.Equal(stored.UpdatedAt), "got %v, stored %v", got.UpdatedAt, stored.UpdatedAt)
	}
}

func testUpdateNotFound(t *testing.T, e env) {
	s := e.open(Options{})
	for _, id := range []string{"", "i1"} {
		called := false
		_, err := s.Update(ctxb, "nope", id, func(*dixbot.Record) error { called = true; return nil })
		assert.ErrorIs(t, err, dixbot.ErrNotFound)
		assert.False(t, called, "fn called without a game")
	}
}

var errRefused = errors.New("refused by the rules")

func testUpdateFnError(t *testing.T, e env) {
	s := e.open(Options{})
	create(t, s, "c1", "")
	_, err := s.Update(ctxb, "c1", "i1", func(r *dixbot.Record) error {
		r.Meta = []byte("999")
		return fmt.Errorf("wrapped: %w", errRefused)
	})
	require.ErrorIs(t, err, errRefused)
	got := get(t, s, "c1")
	assert.Equal(t, 0, counter(t, got), "a failed fn must not write")
	assert.Equal(t, uint64(1), got.Version)

	// The failed attempt did not consume the interaction id.
	got, err = s.Update(ctxb, "c1", "i1", incr)
	require.NoError(t, err)
	assert.Equal(t, 1, counter(t, got))
}

func testUpdateOwnsFields(t *testing.T, e env) {
	s := e.open(Options{})
	create(t, s, "c1", "g1")
	got, err := s.Update(ctxb, "c1", "", func(r *dixbot.Record) error {
		r.Channel, r.Guild, r.Version, r.Finished = "elsewhere", "g2", 1000, true
		return incr(r)
	})
	require.NoError(t, err)
	for _, r := range []*dixbot.Record{got, get(t, s, "c1")} {
		assert.Equal(t, "c1", r.Channel)
		assert.Equal(t, "g1", r.Guild)
		assert.Equal(t, uint64(2), r.Version)
		assert.False(t, r.Finished)
		assert.Equal(t, 1, counter(t, r))
	}
	_, err = s.Get(ctxb, "elsewhere")
	assert.ErrorIs(t, err, dixbot.ErrNotFound)
	list, err := s.Active(ctxb, "g2")
	require.NoError(t, err)
	assert.Empty(t, list)
}

func testExactlyOnce(t *testing.T, e env) {
	s := e.open(Options{})
	create(t, s, "c1", "")
	create(t, s, "c2", "")
	_, err := s.Update(ctxb, "c1", "click", incr)
	require.NoError(t, err)

	_, err = s.Update(ctxb, "c1", "click", incr)
	assert.ErrorIs(t, err, dixbot.ErrDuplicate)
	// A redelivered interaction whose action the rules now refuse is still
	// reported as a duplicate, not as the rules' error.
	_, err = s.Update(ctxb, "c1", "click", func(*dixbot.Record) error { return errRefused })
	assert.ErrorIs(t, err, dixbot.ErrDuplicate)
	got := get(t, s, "c1")
	assert.Equal(t, 1, counter(t, got))
	assert.Equal(t, uint64(2), got.Version, "a duplicate must not write")

	// Ids are per channel; an empty id is never a duplicate.
	_, err = s.Update(ctxb, "c2", "click", incr)
	require.NoError(t, err)
	for range 2 {
		_, err = s.Update(ctxb, "c1", "", incr)
		require.NoError(t, err)
	}
	assert.Equal(t, 3, counter(t, get(t, s, "c1")))
	assert.Equal(t, 1, counter(t, get(t, s, "c2")))
}

func testExactlyOnceConcurrent(t *testing.T, e env) {
	s := e.open(Options{Timeout: 10 * time.Second, Retries: 1000})
	create(t, s, "c1", "")
	const n = 32
	var ok, dup atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range n {
		wg.Go(func() {
			<-start
			_, err := s.Update(ctxb, "c1", "same-click", incr)
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, dixbot.ErrDuplicate):
				dup.Add(1)
			default:
				t.Errorf("unexpected error: %v", err)
			}
		})
	}
	close(start)
	wg.Wait()
	assert.Equal(t, int32(1), ok.Load(), "applied")
	assert.Equal(t, int32(n-1), dup.Load(), "duplicates")
	assert.Equal(t, 1, counter(t, get(t, s, "c1")))
}

func testFinish(t *testing.T, e env) {
	s := e.open(Options{})
	create(t, s, "c1", "g1")
	_, err := s.Update(ctxb, "c1", "", incr)
	require.NoError(t, err)
	require.NoError(t, s.Finish(ctxb, "c1"))

	got := get(t, s, "c1")
	assert.True(t, got.Finished)
	assert.Equal(t, uint64(3), got.Version)
	assert.Equal(t, 1, counter(t, got))
	assert.Equal(t, "g1", got.Guild)

	_, err = s.Update(ctxb, "c1", "", incr)
	assert.ErrorIs(t, err, dixbot.ErrNotFound, "an archived game is read-only")
	assert.ErrorIs(t, s.Finish(ctxb, "c1"), dixbot.ErrNotFound)
	assert.ErrorIs(t, s.Finish(ctxb, "nope"), dixbot.ErrNotFound)
	list, err := s.Active(ctxb, "g1")
	require.NoError(t, err)
	assert.Empty(t, list)

	// The channel is free: a new game shadows the archive until it finishes.
	r := &dixbot.Record{Channel: "c1", Guild: "g1", Meta: []byte("100")}
	require.NoError(t, s.Create(ctxb, r))
	got = get(t, s, "c1")
	assert.False(t, got.Finished)
	assert.Equal(t, 100, counter(t, got))
	assert.Equal(t, uint64(1), got.Version)
	list, err = s.Active(ctxb, "g1")
	require.NoError(t, err)
	assert.Equal(t, []string{"c1"}, list)

	require.NoError(t, s.Finish(ctxb, "c1"))
	got = get(t, s, "c1")
	assert.True(t, got.Finished)
	assert.Equal(t, 100, counter(t, got))
}

// testFinishIf: a record the check refuses (another table opened since)
// stays active, and the answer is ErrNotFound, as for no record.
func testFinishIf(t *testing.T, e env) {
	s := e.open(Options{})
	f, ok := s.(interface {
		FinishIf(ctx context.Context, channel string, same func(*dixbot.Record) bool) error
	})
	require.True(t, ok, "the store archives a record only when it is the one meant")
	create(t, s, "c1", "g1")
	is := func(n int) func(*dixbot.Record) bool {
		return func(r *dixbot.Record) bool { return counter(t, r) == n }
	}
	assert.ErrorIs(t, f.FinishIf(ctxb, "c1", is(1)), dixbot.ErrNotFound)
	got := get(t, s, "c1")
	assert.False(t, got.Finished, "another record than the one meant stays")
	assert.Equal(t, uint64(1), got.Version)

	require.NoError(t, f.FinishIf(ctxb, "c1", is(0)))
	assert.True(t, get(t, s, "c1").Finished)
	assert.ErrorIs(t, f.FinishIf(ctxb, "c1", is(0)), dixbot.ErrNotFound)
}

func testDelete(t *testing.T, e env) {
	s := e.open(Options{})
	create(t, s, "c1", "g1")
	require.NoError(t, s.Finish(ctxb, "c1"))
	create(t, s, "c1", "g1")
	create(t, s, "c2", "g1")
	require.NoError(t, s.Finish(ctxb, "c2"))

	require.NoError(t, s.Delete(ctxb, "c1"), "active and archived")
	require.NoError(t, s.Delete(ctxb, "c2"), "archived only")
	for _, ch := range []string{"c1", "c2"} {
		_, err := s.Get(ctxb, ch)
		assert.ErrorIs(t, err, dixbot.ErrNotFound)
		assert.ErrorIs(t, s.Delete(ctxb, ch), dixbot.ErrNotFound)
	}
	list, err := s.Active(ctxb, "g1")
	require.NoError(t, err)
	assert.Empty(t, list)
	create(t, s, "c1", "g1")
}

func testActive(t *testing.T, e env) {
	s := e.open(Options{})
	for _, ch := range []string{"a3", "a1", "a2", "a4", "a5"} {
		create(t, s, ch, "gA")
	}
	create(t, s, "b1", "gB")
	create(t, s, "n1", "")
	require.NoError(t, s.Finish(ctxb, "a4"))
	require.NoError(t, s.Delete(ctxb, "a5"))

	tests := []struct {
		guild string
		want  []string
	}{
		{"gA", []string{"a1", "a2", "a3"}},
		{"gB", []string{"b1"}},
		{"", []string{}}, // a record without a server is in no index
		{"gNone", []string{}},
	}
	for _, tc := range tests {
		got, err := s.Active(ctxb, tc.guild)
		require.NoError(t, err)
		if len(tc.want) == 0 {
			assert.Empty(t, got, "guild %q", tc.guild)
		} else {
			assert.Equal(t, tc.want, got, "guild %q", tc.guild)
		}
	}
}

// The expiry tests let time pass on the env's clock, with TTLs far above
// what an operation takes on a loaded machine, so that only expiry can
// change the outcome.
func testGameExpiry(t *testing.T, e env) {
	ttl := e.expiry
	s := e.open(Options{GameTTL: ttl})
	create(t, s, "c1", "g1")
	create(t, s, "c2", "g1")
	// Writes refresh the expiry: c1 outlives its first TTL, c2 does not.
	for range 6 {
		e.clock.pass(ttl / 4)
		_, err := s.Update(ctxb, "c1", "", incr)
		require.NoError(t, err, "written every ttl/2, the game must live")
	}
	_, err := s.Get(ctxb, "c2")
	assert.ErrorIs(t, err, dixbot.ErrNotFound, "untouched for more than its TTL")
	_, err = s.Update(ctxb, "c2", "", incr)
	assert.ErrorIs(t, err, dixbot.ErrNotFound)
	list, err := s.Active(ctxb, "g1")
	require.NoError(t, err)
	assert.Equal(t, []string{"c1"}, list)
	// The channel of an expired game is free again.
	create(t, s, "c2", "g1")

	e.clock.pass(ttl + ttl/4)
	_, err = s.Get(ctxb, "c1")
	assert.ErrorIs(t, err, dixbot.ErrNotFound)
	assert.ErrorIs(t, s.Finish(ctxb, "c1"), dixbot.ErrNotFound)
}

func testArchiveExpiry(t *testing.T, e env) {
	ttl := e.expiry
	s := e.open(Options{ArchiveTTL: ttl})
	create(t, s, "c1", "")
	require.NoError(t, s.Finish(ctxb, "c1"))
	assert.True(t, get(t, s, "c1").Finished)
	e.clock.pass(ttl + ttl/2)
	_, err := s.Get(ctxb, "c1")
	assert.ErrorIs(t, err, dixbot.ErrNotFound)
}

func testInteractionExpiry(t *testing.T, e env) {
	ttl := e.expiry
	s := e.open(Options{InteractionTTL: ttl})
	create(t, s, "c1", "")
	_, err := s.Update(ctxb, "c1", "click", incr)
	require.NoError(t, err)
	_, err = s.Update(ctxb, "c1", "click", incr)
	require.ErrorIs(t, err, dixbot.ErrDuplicate)
	e.clock.pass(ttl + ttl/2)
	got, err := s.Update(ctxb, "c1", "click", incr)
	require.NoError(t, err, "an id is forgotten after its TTL")
	assert.Equal(t, 2, counter(t, got))
}

// concurrentOptions let 24 writers on one key finish: with every writer
// contending for the same record, a writer may lose the compare-and-set many
// times in a row, which real games (a handful of players) never do.
var concurrentOptions = Options{Timeout: 30 * time.Second, Retries: 10000}

func testConcurrentOneGame(t *testing.T, e env) {
	const workers, each = 24, 100
	s := e.open(concurrentOptions)
	create(t, s, "c1", "")
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				if _, err := s.Update(ctxb, "c1", "", incr); err != nil {
					t.Errorf("update: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	got := get(t, s, "c1")
	assert.Equal(t, workers*each, counter(t, got), "lost updates")
	assert.Equal(t, uint64(1+workers*each), got.Version)
}

func testConcurrentManyGames(t *testing.T, e env) {
	const workers, each, games = 64, 200, 100
	s := e.open(concurrentOptions)
	for g := range games {
		create(t, s, fmt.Sprintf("c%03d", g), "g1")
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				ch := fmt.Sprintf("c%03d", (w*each+i)%games)
				if _, err := s.Update(ctxb, ch, fmt.Sprintf("w%d-%d", w, i), incr); err != nil {
					t.Errorf("update %s: %v", ch, err)
					return
				}
			}
		})
	}
	wg.Wait()
	total := 0
	for g := range games {
		got := get(t, s, fmt.Sprintf("c%03d", g))
		assert.Equal(t, workers*each/games, counter(t, got), "game %s", got.Channel)
		total += counter(t, got)
	}
	assert.Equal(t, workers*each, total)
	list, err := s.Active(ctxb, "g1")
	require.NoError(t, err)
	assert.Len(t, list, games)
}

func testRestart(t *testing.T, e env) {
	s := e.open(Options{})
	want := map[string]*dixbot.Record{}
	for i := range 20 {
		ch := fmt.Sprintf("c%02d", i)
		create(t, s, ch, fmt.Sprintf("g%d", i%3))
		for range i {
			_, err := s.Update(ctxb, ch, "", incr)
			require.NoError(t, err)
		}
		if i%4 == 0 {
			require.NoError(t, s.Finish(ctxb, ch))
		}
		want[ch] = get(t, s, ch)
	}
	_, err := s.Update(ctxb, "c05", "click", incr)
	require.NoError(t, err)
	want["c05"] = get(t, s, "c05")
	activeBefore, err := s.Active(ctxb, "g1")
	require.NoError(t, err)
	require.NoError(t, s.Close())

	s = e.open(Options{})
	for ch, w := range want {
		got := get(t, s, ch)
		assert.Equal(t, w.Version, got.Version, ch)
		assert.Equal(t, w.Meta, got.Meta, ch)
		assert.Equal(t, w.Guild, got.Guild, ch)
		assert.Equal(t, w.Finished, got.Finished, ch)
		assert.True(t, w.UpdatedAt.Equal(got.UpdatedAt), ch)
	}
	activeAfter, err := s.Active(ctxb, "g1")
	require.NoError(t, err)
	assert.Equal(t, activeBefore, activeAfter)
	_, err = s.Update(ctxb, "c05", "click", incr)
	assert.ErrorIs(t, err, dixbot.ErrDuplicate, "interaction ids survive a restart")
	got, err := s.Update(ctxb, "c05", "", incr)
	require.NoError(t, err, "the game continues")
	assert.Equal(t, counter(t, want["c05"])+1, counter(t, got))
}

func testContextDone(t *testing.T, e env) {
	s := e.open(Options{})
	create(t, s, "c1", "g1")
	ctx, cancel := context.WithCancel(ctxb)
	cancel()
	_, err := s.Get(ctx, "c1")
	assert.ErrorIs(t, err, dixbot.ErrUnavailable)
	_, err = s.Update(ctx, "c1", "i1", incr)
	assert.ErrorIs(t, err, dixbot.ErrUnavailable)
	assert.ErrorIs(t, s.Create(ctx, &dixbot.Record{Channel: "c2"}), dixbot.ErrUnavailable)
	assert.Equal(t, 0, counter(t, get(t, s, "c1")))
	_, err = s.Get(ctxb, "c2")
	assert.ErrorIs(t, err, dixbot.ErrNotFound)
}

func testClosed(t *testing.T, e env) {
	s := e.open(Options{})
	create(t, s, "c1", "g1")
	require.NoError(t, s.Close())
	_, err := s.Get(ctxb, "c1")
	assert.ErrorIs(t, err, dixbot.ErrUnavailable)
	_, err = s.Update(ctxb, "c1", "", incr)
	assert.ErrorIs(t, err, dixbot.ErrUnavailable)
	assert.ErrorIs(t, s.Create(ctxb, &dixbot.Record{Channel: "c2"}), dixbot.ErrUnavailable)
	assert.ErrorIs(t, s.Finish(ctxb, "c1"), dixbot.ErrUnavailable)
	assert.ErrorIs(t, s.Delete(ctxb, "c1"), dixbot.ErrUnavailable)
	_, err = s.Active(ctxb, "g1")
	assert.ErrorIs(t, err, dixbot.ErrUnavailable)
	assert.ErrorIs(t, s.Ping(ctxb), dixbot.ErrUnavailable)
}

// testDue: Due finds the records whose due time has come, earliest first,
// follows due times as they move, and forgets games that are no longer due
// or gone.
func testDue(t *testing.T, e env) {
	s := e.open(Options{})
	now := e.now().Truncate(time.Millisecond)
	setDue := func(ch string, due time.Time) {
		t.Helper()
		_, err := s.Update(ctxb, ch, "", func(r *dixbot.Record) error { r.Due = due; return incr(r) })
		require.NoError(t, err)
	}
	due := func(at time.Time) []string {
		t.Helper()
		got, err := s.Due(ctxb, at, 10)
		require.NoError(t, err)
		return got
	}
	for _, ch := range []string{"c1", "c2", "c3", "c4"} {
		create(t, s, ch, "g1")
	}
	assert.Empty(t, due(now.Add(time.Hour)), "nothing is due until a due time is set")

	setDue("c1", now.Add(2*time.Second))
	setDue("c2", now.Add(time.Second))
	setDue("c3", now.Add(time.Minute))
	assert.Equal(t, now.Add(2*time.Second).UTC(), get(t, s, "c1").Due, "the due time is stored")
	assert.Empty(t, due(now))
	assert.Equal(t, []string{"c2", "c1"}, due(now.Add(5*time.Second)), "earliest first")
	got, err := s.Due(ctxb, now.Add(5*time.Second), 1)
	require.NoError(t, err)
	assert.Equal(t, []string{"c2"}, got, "at most max")

	// Moved later, cleared, finished, deleted: no longer due.
	setDue("c2", now.Add(time.Hour))
	setDue("c1", time.Time{})
	assert.Empty(t, due(now.Add(5*time.Second)))
	assert.True(t, get(t, s, "c1").Due.IsZero())
	assert.Equal(t, []string{"c3", "c2"}, due(now.Add(2*time.Hour)))
	require.NoError(t, s.Finish(ctxb, "c3"))
	require.NoError(t, s.Delete(ctxb, "c2"))
	assert.Empty(t, due(now.Add(2*time.Hour)))

	// Moved earlier: due at the new time; an update that keeps the due
	// time keeps the game due.
	setDue("c4", now.Add(time.Hour))
	setDue("c4", now.Add(time.Second))
	_, err = s.Update(ctxb, "c4", "", incr)
	require.NoError(t, err)
	assert.Equal(t, []string{"c4"}, due(now.Add(2*time.Second)))

	// It survives a restart.
	require.NoError(t, s.Close())
	s = e.open(Options{})
	got, err = s.Due(ctxb, now.Add(2*time.Second), 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"c4"}, got)
}

// testDueClaimedOnce: several workers finding the same due game claim it
// through Update (moving its due time on), and exactly one succeeds.
func testDueClaimedOnce(t *testing.T, e env) {
	s := e.open(Options{})
	now := e.now()
	const games = 20
	for i := range games {
		ch := "c" + strconv.Itoa(i)
		create(t, s, ch, "g1")
		_, err := s.Update(ctxb, ch, "", func(r *dixbot.Record) error { r.Due = now; return nil })
		require.NoError(t, err)
	}
	errNotDue := errors.New("not due")
	var claims atomic.Int64
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			chs, err := s.Due(ctxb, now, 100)
			if !assert.NoError(t, err) {
				return
			}
			for _, ch := range chs {
				_, err := s.Update(ctxb, ch, "", func(r *dixbot.Record) error {
					if r.Due.IsZero() || r.Due.After(now) {
						return errNotDue
					}
					r.Due = now.Add(time.Hour) // claimed
					return nil
				})
				if err == nil {
					claims.Add(1)
				} else {
					assert.ErrorIs(t, err, errNotDue)
				}
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, int64(games), claims.Load(), "each due game claimed exactly once")
	got, err := s.Due(ctxb, now, 100)
	require.NoError(t, err)
	assert.Empty(t, got)
}

// A record of a contract game keeps its game name and state bytes through
// Create, Update, Finish and a reopening of the store, and a DIX record
// written after it carries none.
func testGameData(t *testing.T, e env) {
	s := e.open(Options{})
	data := []byte{2, 0, 1, 255, 0, 7}
	require.NoError(t, s.Create(ctxb, &dixbot.Record{Channel: "c1", Guild: "g1", Meta: []byte("0"), Game: "qwixx"}))
	r := get(t, s, "c1")
	assert.Equal(t, "qwixx", r.Game)
	assert.Empty(t, r.Data)
	got, err := s.Update(ctxb, "c1", "i1", func(r *dixbot.Record) error {
		r.Data = append([]byte(nil), data...)
		return incr(r)
	})
	require.NoError(t, err)
	for _, r := range []*dixbot.Record{got, get(t, s, "c1")} {
		assert.Equal(t, "qwixx", r.Game)
		assert.Equal(t, data, r.Data)
		assert.Equal(t, 1, counter(t, r))
	}
	require.NoError(t, s.Close())
	s = e.open(Options{})
	r = get(t, s, "c1")
	assert.Equal(t, "qwixx", r.Game)
	assert.Equal(t, data, r.Data)
	require.NoError(t, s.Finish(ctxb, "c1"))
	r = get(t, s, "c1")
	assert.True(t, r.Finished)
	assert.Equal(t, "qwixx", r.Game)
	assert.Equal(t, data, r.Data)
	require.NoError(t, s.Create(ctxb, &dixbot.Record{Channel: "c1", Guild: "g1", Meta: []byte("0")}))
	r = get(t, s, "c1")
	assert.Empty(t, r.Game)
	assert.Empty(t, r.Data)
}
