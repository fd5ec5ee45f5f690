package schedule

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// memSource is a Source over a map of due times, with the claim a real
// handler makes through its store: moving the due time on under a lock.
type memSource struct {
	mu  sync.Mutex
	due map[string]time.Time
}

func newMem() *memSource { return &memSource{due: map[string]time.Time{}} }

func (m *memSource) set(k string, at time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.due[k] = at
}

func (m *memSource) Due(_ context.Context, now time.Time, max int) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for k, at := range m.due {
		if !at.After(now) {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return m.due[a].Compare(m.due[b]) })
	return out[:min(max, len(out))], nil
}

// claim moves a due key to later, or reports false if it is not due.
func (m *memSource) claim(k string, now time.Time, lease time.Duration) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	at, ok := m.due[k]
	if !ok || at.After(now) {
		return false
	}
	m.due[k] = now.Add(lease)
	return true
}

func (m *memSource) done(k string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.due, k)
}

func TestPollHandlesDueKeysOnly(t *testing.T) {
	now := time.Unix(1000, 0)
	src := newMem()
	src.set("a", now.Add(-time.Second))
	src.set("b", now)
	src.set("c", now.Add(time.Second))
	src.set("d", now.Add(time.Hour))
	var mu sync.Mutex
	var got []string
	r := &Runner{Source: src, Now: func() time.Time { return now }, Handle: func(_ context.Context, k string, _ time.Time) error {
		mu.Lock()
		got = append(got, k)
		mu.Unlock()
		src.done(k)
		return nil
	}}
	assert.False(t, r.Poll(context.Background(), 0))
	slices.Sort(got)
	assert.Equal(t, []string{"a", "b"}, got)

	// Ahead takes what is due soon too (the start-up poll).
	got = nil
	r.Poll(context.Background(), 2*time.Second)
	assert.Equal(t, []string{"c"}, got)
}

func TestFailedWorkStaysDue(t *testing.T) {
	now := time.Unix(1000, 0)
	src := newMem()
	src.set("a", now)
	calls := 0
	r := &Runner{Source: src, Now: func() time.Time { return now }, Handle: func(_ context.Context, k string, _ time.Time) error {
		calls++
		if calls == 1 {
			return errors.New("discord is down")
		}
		src.done(k)
		return nil
	}}
	r.Poll(context.Background(), 0)
	r.Poll(context.Background(), 0)
	r.Poll(context.Background(), 0)
	assert.Equal(t, 2, calls, "offered again after the failure, then done")
}

func TestPanickingHandlerDoesNotStopThePoller(t *testing.T) {
	now := time.Unix(1000, 0)
	src := newMem()
	src.set("a", now)
	src.set("b", now)
	var n atomic.Int32
	r := &Runner{Source: src, Workers: 1, Now: func() time.Time { return now }, Handle: func(_ context.Context, k string, _ time.Time) error {
		n.Add(1)
		if k == "a" {
			panic("boom")
		}
		return nil
	}}
	r.Poll(context.Background(), 0)
	assert.Equal(t, int32(2), n.Load())
}

func TestFullBatchPollsAgain(t *testing.T) {
	now := time.Unix(1000, 0)
	src := newMem()
	for _, k := range []string{"a", "b", "c"} {
		src.set(k, now)
	}
	r := &Runner{Source: src, Batch: 2, Now: func() time.Time { return now }, Handle: func(_ context.Context, k string, _ time.Time) error {
		src.done(k)
		return nil
	}}
	assert.True(t, r.Poll(context.Background(), 0))
	assert.False(t, r.Poll(context.Background(), 0))
	left, _ := src.Due(context.Background(), now, 10)
	assert.Empty(t, left)
}

// Several runners on one source: with the handler's claim, every key is
// handled exactly once.
func TestRunnersShareWorkExactlyOnce(t *testing.T) {
	now := time.Unix(1000, 0)
	src := newMem()
	const keys = 200
	for i := range keys {
		src.set(string(rune('A'+i%26))+string(rune('a'+i/26)), now)
	}
	var handled sync.Map
	var dup atomic.Int32
	handler := func(_ context.Context, k string, _ time.Time) error {
		if !src.claim(k, now, time.Hour) {
			return nil // another runner has it
		}
		if _, loaded := handled.LoadOrStore(k, true); loaded {
			dup.Add(1)
		}
		src.done(k)
		return nil
	}
	var wg sync.WaitGroup
	for range 3 {
		r := &Runner{Source: src, Batch: 16, Now: func() time.Time { return now }, Handle: handler}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r.Poll(context.Background(), 0) {
			}
		}()
	}
	wg.Wait()
	n := 0
	handled.Range(func(any, any) bool { n++; return true })
	assert.Equal(t, keys, n)
	assert.Zero(t, dup.Load())
}

func TestRunStopsAndWakes(t *testing.T) {
	src := newMem()
	seen := make(chan string, 4)
	r := &Runner{Source: src, Every: time.Hour, Handle: func(_ context.Context, k string, _ time.Time) error {
		src.done(k)
		seen <- k
		return nil
	}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	src.set("late", time.Now())
	r.Wake() // without it the next poll is an hour away
	select {
	case k := <-seen:
		assert.Equal(t, "late", k)
	case <-time.After(10 * time.Second):
		t.Fatal("Wake did not start a poll")
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not stop")
	}
	require.Empty(t, seen)
}

// TestWakeAtPollsBeforeTheInterval: with polls an hour apart, work due in
// a moment is still handled once WakeAt names its time.
func TestWakeAtPollsBeforeTheInterval(t *testing.T) {
	src := newMem()
	handled := make(chan string, 1)
	r := &Runner{Source: src, Every: time.Hour, Handle: func(_ context.Context, k string, _ time.Time) error {
		src.done(k)
		handled <- k
		return nil
	}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	time.Sleep(20 * time.Millisecond) // the first poll, at once, finds nothing
	src.set("g1", time.Now().Add(30*time.Millisecond))
	r.WakeAt(time.Now().Add(30 * time.Millisecond))
	select {
	case k := <-handled:
		if k != "g1" {
			t.Fatalf("handled %q", k)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the work due was not handled before the next regular poll")
	}
}
