package bot

import (
	"context"
	"sync"
	"time"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine/dix"
)

// memStore is an in-memory dixbot.Store for tests: optimistic versioned
// compare-and-set with retries, exactly-once interaction ids, records kept in their
// serialised form (as a real store would) so no pointer is shared with a
// caller. Setting fail makes every call return it.
type memStore struct {
	mu       sync.Mutex
	active   map[string]stored
	archived map[string]stored
	seen     map[string]bool // channel + "/" + interaction id
	fail     error
	writes   int
}

type stored struct {
	rec   dixbot.Record // without State
	state []byte        // MarshalBinary of State, nil for a lobby
}

func newMemStore() *memStore {
	return &memStore{active: map[string]stored{}, archived: map[string]stored{}, seen: map[string]bool{}}
}

func (s *memStore) put(r *dixbot.Record) (stored, error) {
	st := stored{rec: *r}
	st.rec.State = nil
	st.rec.Meta = append([]byte(nil), r.Meta...)
	st.rec.Data = append([]byte(nil), r.Data...)
	if dix.GameOf(r.State) != nil {
		b, err := dix.GameOf(r.State).MarshalBinary()
		if err != nil {
			return stored{}, err
		}
		st.state = b
	}
	return st, nil
}

func (st stored) Get() (*dixbot.Record, error) {
	r := st.rec
	r.Meta = append([]byte(nil), st.rec.Meta...)
	r.Data = append([]byte(nil), st.rec.Data...)
	if st.state != nil {
		g := &dix.Game{}
		if err := g.UnmarshalBinary(st.state); err != nil {
			return nil, err
		}
		r.State = g
	}
	return &r, nil
}

func (s *memStore) Create(ctx context.Context, r *dixbot.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	if _, ok := s.active[r.Channel]; ok {
		return dixbot.ErrExists
	}
	st, err := s.put(r)
	if err != nil {
		return err
	}
	st.rec.Version = 1
	st.rec.UpdatedAt = time.Now()
	s.active[r.Channel] = st
	s.writes++
	return nil
}

func (s *memStore) Get(ctx context.Context, channel string) (*dixbot.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return nil, s.fail
	}
	if st, ok := s.active[channel]; ok {
		return st.Get()
	}
	if st, ok := s.archived[channel]; ok {
		return st.Get()
	}
	return nil, dixbot.ErrNotFound
}

// Update is optimistic like the real stores: fn runs on a copy without the
// lock, and the write happens only if nobody wrote in between; otherwise it
// retries, up to maxRetries (then ErrConflict).
func (s *memStore) Update(ctx context.Context, channel, interactionID string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	const maxRetries = 8
	for range maxRetries {
		s.mu.Lock()
		if s.fail != nil {
			s.mu.Unlock()
			return nil, s.fail
		}
		st, ok := s.active[channel]
		dup := interactionID != "" && s.seen[channel+"/"+interactionID]
		s.mu.Unlock()
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
		next, err := s.put(r)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		cur, ok := s.active[channel]
		if !ok || cur.rec.Version != st.rec.Version {
			s.mu.Unlock()
			continue // somebody wrote in between: run fn again on fresh data
		}
		if interactionID != "" && s.seen[channel+"/"+interactionID] {
			s.mu.Unlock()
			return nil, dixbot.ErrDuplicate
		}
		next.rec.Version = st.rec.Version + 1
		next.rec.UpdatedAt = time.Now()
		s.active[channel] = next
		if interactionID != "" {
			s.seen[channel+"/"+interactionID] = true
		}
		s.writes++
		s.mu.Unlock()
		return next.Get()
	}
	return nil, dixbot.ErrConflict
}

func (s *memStore) Finish(ctx context.Context, channel string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	st, ok := s.active[channel]
	if !ok {
		return dixbot.ErrNotFound
	}
	st.rec.Finished = true
	s.archived[channel] = st
	delete(s.active, channel)
	s.writes++
	return nil
}

func (s *memStore) Delete(ctx context.Context, channel string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	delete(s.active, channel)
	delete(s.archived, channel)
	s.writes++
	return nil
}

func (s *memStore) Active(ctx context.Context, guild string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for ch, st := range s.active {
		if guild != "" && st.rec.Guild == guild {
			out = append(out, ch)
		}
	}
	return out, nil
}

func (s *memStore) Due(ctx context.Context, now time.Time, max int) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return nil, s.fail
	}
	out := []string{}
	for ch, st := range s.active {
		if !st.rec.Due.IsZero() && !st.rec.Due.After(now) && len(out) < max {
			out = append(out, ch)
		}
	}
	return out, nil
}

func (s *memStore) Ping(ctx context.Context) error { return s.fail }
func (s *memStore) Close() error                   { return nil }

func (s *memStore) setFail(err error) {
	s.mu.Lock()
	s.fail = err
	s.mu.Unlock()
}

// snapshot returns the serialised active record of a channel (to compare
// before and after a refused action).
func (s *memStore) snapshot(channel string) (stored, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.active[channel]
	return st, ok
}
