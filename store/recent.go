package store

import (
	"encoding/binary"
	"sync"
)

// recent keeps, by game key, the value this process last wrote or read,
// so that Update can try its compare-and-set against it without reading
// the record first: one round trip instead of two when nobody else wrote
// in between. A value another process has since replaced only costs that
// round trip: the compare-and-set fails, and Update reads the record and
// tries again. It holds up to about maxEntries values: past half of them,
// the older half is dropped. Safe for concurrent use.
type recent struct {
	mu       sync.Mutex
	max      int
	cur, old map[string][]byte
}

func newRecent(maxEntries int) *recent {
	return &recent{max: maxEntries, cur: map[string][]byte{}}
}

// get returns the value kept for key, nil if none.
func (r *recent) get(key string) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.cur[key]; ok {
		return v
	}
	return r.old[key]
}

// put keeps val for key; val must not change afterwards.
func (r *recent) put(key string, val []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.cur[key]; !ok && len(r.cur) >= r.max/2 {
		r.old, r.cur = r.cur, map[string][]byte{}
	}
	r.cur[key] = val
	delete(r.old, key)
}

// drop forgets key.
func (r *recent) drop(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.cur, key)
	delete(r.old, key)
}

// keptVersion is the record version of a kept value (see envelope.go),
// ok false when it is too short to say.
func keptVersion(val []byte) (uint64, bool) {
	if len(val) < headerSize {
		return 0, false
	}
	return binary.BigEndian.Uint64(val[8:16]), true
}
