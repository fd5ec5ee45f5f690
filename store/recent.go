package store

import (
	"encoding/binary"
	"slices"
	"sync"
)

// recent keeps, by game key, the value this process last wrote or read,
// so that Update can try its compare-and-set against it without reading
// the record first: one round trip instead of two when nobody else wrote
// in between. A value another process has since replaced only costs that
// round trip: the compare-and-set fails, and Update reads the record and
// tries again.
//
// It also tells whether another process writes the key (alone), by the
// update times (the envelope's stamp, unique to this process: writeStamp)
// of the values this process writes there: once it wrote there, a value
// read that is none of its writes under way nor of its last ownStamps
// writes was written by another process. What was written before this
// process's first write there (by a process it took over from) is not
// counted.
//
// It holds up to about maxEntries keys: past half of them, the older half
// is dropped. Safe for concurrent use.
type recent struct {
	mu       sync.Mutex
	max      int
	cur, old map[string]*keptKey
}

// keptKey is what recent keeps of one key.
type keptKey struct {
	val []byte // the value last written or read (nil: dropped)
	// flying are the stamps of this process's writes under way, and
	// ours those of its last writes that landed, oldest first.
	flying, ours []uint64
	// others: a value another process wrote was read.
	others bool
}

// ownStamps is how many of its writes of a key that landed recent
// remembers: a read returns one of the last few, never one so old.
const ownStamps = 64

func newRecent(maxEntries int) *recent {
	return &recent{max: maxEntries, cur: map[string]*keptKey{}}
}

// entry is key's entry, made when make is set; r.mu is held.
func (r *recent) entry(key string, make bool) *keptKey {
	if e, ok := r.cur[key]; ok {
		return e
	}
	e, ok := r.old[key]
	if !ok && !make {
		return nil
	}
	if !ok {
		e = &keptKey{}
	}
	if len(r.cur) >= r.max/2 {
		r.old, r.cur = r.cur, map[string]*keptKey{}
	}
	r.cur[key] = e
	delete(r.old, key)
	return e
}

// get returns the value kept for key, nil if none.
func (r *recent) get(key string) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.entry(key, false); e != nil {
		return e.val
	}
	return nil
}

// writing notes that this process is about to write val to key; wrote
// must follow.
func (r *recent) writing(key string, val []byte) {
	st, _ := keptStamp(val)
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.entry(key, true)
	e.flying = append(e.flying, st)
}

// wrote ends the write of val to key that writing noted: landed when ok,
// and then kept as key's value.
func (r *recent) wrote(key string, val []byte, ok bool) {
	st, _ := keptStamp(val)
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.entry(key, true)
	if i := slices.Index(e.flying, st); i >= 0 {
		e.flying = slices.Delete(e.flying, i, i+1)
	}
	if !ok {
		return
	}
	if len(e.ours) == ownStamps {
		e.ours = slices.Delete(e.ours, 0, 1)
	}
	e.ours = append(e.ours, st)
	e.val = val
}

// put keeps val, read from key; val must not change afterwards.
func (r *recent) put(key string, val []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.entry(key, true)
	st, _ := keptStamp(val)
	if len(e.ours) > 0 && !slices.Contains(e.ours, st) && !slices.Contains(e.flying, st) {
		e.others = true
	}
	e.val = val
}

// drop forgets key's value; what it knows of the writers stays.
func (r *recent) drop(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.entry(key, false); e != nil {
		e.val = nil
	}
}

// alone reports whether this process wrote key and never read there a
// value another process wrote: as far as it knows, it alone writes key.
// Another process may have written since; that is known only by reading.
func (r *recent) alone(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.entry(key, false)
	return e != nil && e.val != nil && len(e.ours) > 0 && !e.others
}

// keptVersion is the record version of a kept value (see envelope.go),
// ok false when it is too short to say.
func keptVersion(val []byte) (uint64, bool) {
	if len(val) < headerSize {
		return 0, false
	}
	return binary.BigEndian.Uint64(val[8:16]), true
}

// keptStamp is the update time of a kept value, as stored (see
// envelope.go), ok false when it is too short to say.
func keptStamp(val []byte) (uint64, bool) {
	if len(val) < headerSize {
		return 0, false
	}
	return binary.BigEndian.Uint64(val[16:24]), true
}
