package bot

import (
	"sync"
	"time"
)

// metaMemo keeps table data already decoded, by its exact encoding: one
// click decodes the same Record.Meta several times (the click's update,
// its answer, the outbox before and after its effects, the computer's
// look ahead), and JSON decoding is most of what that costs. A decoded
// value kept here is never handed out nor changed: every caller gets a
// deep copy of it (cloneMeta), which it may change freely, as it would a
// value decoded for it alone. It holds up to about metaMemoEntries values:
// past half of them, the older half is dropped. Safe for concurrent use.
type metaMemo struct {
	mu       sync.Mutex
	max      int
	cur, old map[string]*meta
}

// metaMemoEntries bounds the table data kept: a few per game that clicks
// reach at once. A game's data is a few kilobytes, kept twice (the key and
// the decoded value).
const metaMemoEntries = 2048

var decodedMetas = newMetaMemo(metaMemoEntries)

func newMetaMemo(maxEntries int) *metaMemo {
	return &metaMemo{max: maxEntries, cur: map[string]*meta{}}
}

// get returns a copy of the table data decoded from b, or nil if none is kept.
func (mm *metaMemo) get(b []byte) *meta {
	mm.mu.Lock()
	m, ok := mm.cur[string(b)]
	if !ok {
		m = mm.old[string(b)]
	}
	mm.mu.Unlock()
	if m == nil {
		return nil
	}
	return cloneMeta(m)
}

// put keeps a copy of m, decoded from b.
func (mm *metaMemo) put(b []byte, m *meta) {
	c := cloneMeta(m)
	mm.mu.Lock()
	defer mm.mu.Unlock()
	if _, ok := mm.cur[string(b)]; ok {
		return
	}
	if len(mm.cur) >= mm.max/2 {
		mm.old, mm.cur = mm.cur, map[string]*meta{}
	}
	mm.cur[string(b)] = c
}

// cloneMeta is a deep copy of m: it shares no slice or pointer with m,
// so that either may change without the other seeing it. A field added to
// meta, seat, effect or the types they point to that holds a slice, map
// or pointer must be copied here (TestDecodeMetaCopiesShareNothing fills
// every field and finds any shared one).
func cloneMeta(m *meta) *meta {
	c := *m
	if m.Seats != nil {
		c.Seats = make([]seat, len(m.Seats))
		for i, s := range m.Seats {
			s.Votes = cloneStrings(s.Votes)
			c.Seats[i] = s
		}
	}
	c.PingUsers = cloneStrings(m.PingUsers)
	c.BoardVia, c.PingVia = clonePtr(m.BoardVia), clonePtr(m.PingVia)
	c.Log, c.TurnLog = cloneStrings(m.Log), cloneStrings(m.TurnLog)
	if m.Outbox != nil {
		c.Outbox = make([]effect, len(m.Outbox))
		for i, e := range m.Outbox {
			e.Users, e.Lines, e.Via = cloneStrings(e.Users), cloneStrings(e.Lines), clonePtr(e.Via)
			c.Outbox[i] = e
		}
	}
	c.Missing = clonePtr(m.Missing)
	c.BoardPic = clonePtr(m.BoardPic)
	if m.Clock != nil {
		ck := *m.Clock
		if ck.Banks != nil {
			ck.Banks = append(make([]time.Duration, 0, len(ck.Banks)), ck.Banks...)
		}
		c.Clock = &ck
	}
	return &c
}

// cloneStrings is a copy of s, nil if s is.
func cloneStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append(make([]string, 0, len(s)), s...)
}

// clonePtr is a pointer to a copy of *p, nil if p is; T holds no slice or
// pointer.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}
