package tabletest

import (
	"context"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dixgame/dixbot"
)

// MemStore is an in-memory dixbot.Store for tests: optimistic versioned
// compare-and-set with retries, exactly-once interaction ids, records kept in their
// serialised form (as a real store would) so no pointer is shared with a
// caller. Setting fail makes every call return it.
type MemStore struct {
	Mu       sync.Mutex
	Live     map[string]Stored
	Archived map[string]Stored
	Seen     map[string]bool // channel + "/" + interaction id
	Fail     error
	Writes   int
}

// Stored is a record as the MemStore keeps it: a copy that shares no
// bytes with its caller's.
type Stored struct {
	Rec dixbot.Record
}

func NewMemStore() *MemStore {
	return &MemStore{Live: map[string]Stored{}, Archived: map[string]Stored{}, Seen: map[string]bool{}}
}

func (s *MemStore) Put(r *dixbot.Record) (Stored, error) {
	st := Stored{Rec: *r}
	st.Rec.Meta = append([]byte(nil), r.Meta...)
	st.Rec.Data = append([]byte(nil), r.Data...)
	return st, nil
}

func (st Stored) Get() (*dixbot.Record, error) {
	r := st.Rec
	r.Meta = append([]byte(nil), st.Rec.Meta...)
	r.Data = append([]byte(nil), st.Rec.Data...)
	return &r, nil
}

func (s *MemStore) Create(ctx context.Context, r *dixbot.Record) error {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if s.Fail != nil {
		return s.Fail
	}
	if _, ok := s.Live[r.Channel]; ok {
		return dixbot.ErrExists
	}
	st, err := s.Put(r)
	if err != nil {
		return err
	}
	st.Rec.Version = 1
	st.Rec.UpdatedAt = time.Now()
	s.Live[r.Channel] = st
	s.Writes++
	return nil
}

func (s *MemStore) Get(ctx context.Context, channel string) (*dixbot.Record, error) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if s.Fail != nil {
		return nil, s.Fail
	}
	if st, ok := s.Live[channel]; ok {
		return st.Get()
	}
	if st, ok := s.Archived[channel]; ok {
		return st.Get()
	}
	return nil, dixbot.ErrNotFound
}

// Update is optimistic like the real stores: fn runs on a copy without the
// lock, and the write happens only if nobody wrote in between; otherwise it
// retries, up to maxRetries (then ErrConflict).
func (s *MemStore) Update(ctx context.Context, channel, interactionID string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	const maxRetries = 8
	for range maxRetries {
		s.Mu.Lock()
		if s.Fail != nil {
			s.Mu.Unlock()
			return nil, s.Fail
		}
		st, ok := s.Live[channel]
		dup := interactionID != "" && s.Seen[channel+"/"+interactionID]
		s.Mu.Unlock()
		if !ok {
			return nil, dixbot.ErrNotFound
		}
		if dup {
			return nil, dixbot.ErrDuplicate
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := st.Get()
		if err != nil {
			return nil, err
		}
		if err := fn(r); err != nil {
			return nil, err
		}
		next, err := s.Put(r)
		if err != nil {
			return nil, err
		}
		s.Mu.Lock()
		cur, ok := s.Live[channel]
		if !ok || cur.Rec.Version != st.Rec.Version {
			s.Mu.Unlock()
			continue // somebody wrote in between: run fn again on fresh data
		}
		if interactionID != "" && s.Seen[channel+"/"+interactionID] {
			s.Mu.Unlock()
			return nil, dixbot.ErrDuplicate
		}
		next.Rec.Version = st.Rec.Version + 1
		next.Rec.UpdatedAt = time.Now()
		s.Live[channel] = next
		if interactionID != "" {
			s.Seen[channel+"/"+interactionID] = true
		}
		s.Writes++
		s.Mu.Unlock()
		return next.Get()
	}
	return nil, dixbot.ErrConflict
}

func (s *MemStore) Finish(ctx context.Context, channel string) error {
	return s.FinishIf(ctx, channel, nil)
}

// FinishIf is Finish of the active record only when same reports it is
// the one meant (nil: any); else ErrNotFound, as when there is none.
func (s *MemStore) FinishIf(ctx context.Context, channel string, same func(*dixbot.Record) bool) error {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if s.Fail != nil {
		return s.Fail
	}
	st, ok := s.Live[channel]
	if !ok {
		return dixbot.ErrNotFound
	}
	if same != nil {
		r, err := st.Get()
		if err != nil {
			return err
		}
		if !same(r) {
			return dixbot.ErrNotFound
		}
	}
	st.Rec.Finished = true
	s.Archived[channel] = st
	delete(s.Live, channel)
	s.Writes++
	return nil
}

func (s *MemStore) Delete(ctx context.Context, channel string) error {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if s.Fail != nil {
		return s.Fail
	}
	delete(s.Live, channel)
	delete(s.Archived, channel)
	s.Writes++
	return nil
}

func (s *MemStore) Active(ctx context.Context, guild string) ([]string, error) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	var out []string
	for ch, st := range s.Live {
		if guild != "" && st.Rec.Guild == guild {
			out = append(out, ch)
		}
	}
	return out, nil
}

func (s *MemStore) Due(ctx context.Context, now time.Time, max int) ([]string, error) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if s.Fail != nil {
		return nil, s.Fail
	}
	out := []string{}
	for ch, st := range s.Live {
		if !st.Rec.Due.IsZero() && !st.Rec.Due.After(now) && len(out) < max {
			out = append(out, ch)
		}
	}
	return out, nil
}

func (s *MemStore) Ping(ctx context.Context) error { return s.Fail }
func (s *MemStore) Close() error                   { return nil }

func (s *MemStore) SetFail(err error) {
	s.Mu.Lock()
	s.Fail = err
	s.Mu.Unlock()
}

// Snapshot returns the serialised active record of a channel (to compare
// before and after a refused action).
func (s *MemStore) Snapshot(channel string) (Stored, bool) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	st, ok := s.Live[channel]
	return st, ok
}

// WatchedStore is a store that tells whether one of its updates' functions
// is running (Inside above zero), to see where work is done.
type WatchedStore struct {
	dixbot.Store
	Inside atomic.Int32
}

func (s *WatchedStore) Update(ctx context.Context, channel, interactionID string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	return s.Store.Update(ctx, channel, interactionID, func(r *dixbot.Record) error {
		s.Inside.Add(1)
		defer s.Inside.Add(-1)
		return fn(r)
	})
}

// CopyFrom makes s hold what o holds: its records, live and archived, and
// the interactions seen. Records are never changed in place, so the two
// share nothing either changes.
func (s *MemStore) CopyFrom(o *MemStore) {
	o.Mu.Lock()
	defer o.Mu.Unlock()
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.Live, s.Archived, s.Seen = maps.Clone(o.Live), maps.Clone(o.Archived), maps.Clone(o.Seen)
}
