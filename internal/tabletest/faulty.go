package tabletest

import (
	"context"
	"sync"
	"time"

	"github.com/dixgame/dixbot"
)

// PausedStore is a MemStore that can be paused the way Redis is by DEBUG
// SLEEP, CLIENT PAUSE or SIGSTOP: the calls made meanwhile wait, and run
// in order once it resumes, also those whose caller stopped waiting (its
// deadline passed): that caller got its context's error, as a client that
// timed out does, though its call ran. Safe for concurrent use.
type PausedStore struct {
	*MemStore
	ops  chan func()
	mu   sync.Mutex
	gate chan struct{} // while paused: closed on resume
}

// NewPausedStore is a PausedStore over m, running.
func NewPausedStore(m *MemStore) *PausedStore {
	s := &PausedStore{MemStore: m, ops: make(chan func(), 1000)}
	go func() {
		for op := range s.ops {
			s.mu.Lock()
			g := s.gate
			s.mu.Unlock()
			if g != nil {
				<-g
			}
			op()
		}
	}()
	return s
}

// Pause holds every call from now on until Resume.
func (s *PausedStore) Pause() {
	s.mu.Lock()
	if s.gate == nil {
		s.gate = make(chan struct{})
	}
	s.mu.Unlock()
}

// Resume runs the calls held, in order, and the later ones at once.
func (s *PausedStore) Resume() {
	s.mu.Lock()
	if s.gate != nil {
		close(s.gate)
		s.gate = nil
	}
	s.mu.Unlock()
}

// call queues op and waits for it, or for ctx.
func (s *PausedStore) call(ctx context.Context, op func()) error {
	done := make(chan struct{})
	s.ops <- func() { op(); close(done) }
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// The results are locals, not named results: when ctx ends first the queued
// op still writes them later, and a return must not write them meanwhile.

func (s *PausedStore) Get(ctx context.Context, channel string) (*dixbot.Record, error) {
	var r *dixbot.Record
	var err error
	if cerr := s.call(ctx, func() { r, err = s.MemStore.Get(context.Background(), channel) }); cerr != nil {
		return nil, cerr
	}
	return r, err
}

func (s *PausedStore) Create(ctx context.Context, r *dixbot.Record) error {
	var err error
	c := *r
	if cerr := s.call(ctx, func() { err = s.MemStore.Create(context.Background(), &c) }); cerr != nil {
		return cerr
	}
	r.Version = c.Version
	return err
}

func (s *PausedStore) Update(ctx context.Context, channel, id string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	var r *dixbot.Record
	var err error
	if cerr := s.call(ctx, func() { r, err = s.MemStore.Update(context.Background(), channel, id, fn) }); cerr != nil {
		return nil, cerr
	}
	return r, err
}

func (s *PausedStore) Finish(ctx context.Context, channel string) error {
	var err error
	if cerr := s.call(ctx, func() { err = s.MemStore.Finish(context.Background(), channel) }); cerr != nil {
		return cerr
	}
	return err
}

func (s *PausedStore) FinishIf(ctx context.Context, channel string, same func(*dixbot.Record) bool) error {
	var err error
	if cerr := s.call(ctx, func() { err = s.MemStore.FinishIf(context.Background(), channel, same) }); cerr != nil {
		return cerr
	}
	return err
}

func (s *PausedStore) Due(ctx context.Context, now time.Time, max int) ([]string, error) {
	var out []string
	var err error
	if cerr := s.call(ctx, func() { out, err = s.MemStore.Due(context.Background(), now, max) }); cerr != nil {
		return nil, cerr
	}
	return out, err
}

// LyingStore applies every write but answers the next Lies of them (the
// creates and the updates of an interaction) with Err, as a store whose
// reply was lost after the write landed. Safe for concurrent use.
type LyingStore struct {
	*MemStore
	Err  error
	mu   sync.Mutex
	Lies int
}

func (s *LyingStore) lie() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Lies == 0 {
		return false
	}
	s.Lies--
	return true
}

// SetLies makes the next n writes lie.
func (s *LyingStore) SetLies(n int) {
	s.mu.Lock()
	s.Lies = n
	s.mu.Unlock()
}

func (s *LyingStore) Update(ctx context.Context, channel, id string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	r, err := s.MemStore.Update(ctx, channel, id, fn)
	if err == nil && id != "" && s.lie() {
		return nil, s.Err
	}
	return r, err
}

func (s *LyingStore) Create(ctx context.Context, r *dixbot.Record) error {
	err := s.MemStore.Create(ctx, r)
	if err == nil && s.lie() {
		return s.Err
	}
	return err
}
