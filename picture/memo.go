package picture

import (
	"crypto/sha256"
	"encoding/json"
	"sync"
)

// Memo keeps the PNG bytes of recent pictures by a key derived from what
// they show, so that a picture asked for again (the same board shown by an
// answer and by an edit, a board whose text changed and not its picture)
// is not drawn and encoded again. It holds up to about maxBytes of
// pictures: past that, the older half is dropped. Safe for concurrent use.
// The bytes it returns are shared: callers must not change them.
type Memo struct {
	mu       sync.Mutex
	maxBytes int
	cur, old map[Key][]byte
	curBytes int
	hits     int64
	misses   int64
}

// Key names a picture by what it shows.
type Key [sha256.Size]byte

// KeyOf is the key of a picture drawn from in alone: the SHA-256 of its
// JSON, so in must say everything the picture shows (and may say more).
func KeyOf(in any) (Key, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return Key{}, err
	}
	return sha256.Sum256(b), nil
}

// NewMemo is a Memo of about maxBytes.
func NewMemo(maxBytes int) *Memo {
	return &Memo{maxBytes: maxBytes, cur: map[Key][]byte{}}
}

// Picture returns the picture of key, drawing it with draw when it is not
// kept. A failed draw is not kept.
func (m *Memo) Picture(key Key, draw func() ([]byte, error)) ([]byte, error) {
	m.mu.Lock()
	png, ok := m.cur[key]
	if !ok {
		if png, ok = m.old[key]; ok {
			m.keepLocked(key, png)
		}
	}
	if ok {
		m.hits++
	} else {
		m.misses++
	}
	m.mu.Unlock()
	if ok {
		return png, nil
	}
	png, err := draw()
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.keepLocked(key, png)
	m.mu.Unlock()
	return png, nil
}

// keepLocked adds png to the current half, which becomes the older one
// when it holds half the budget.
func (m *Memo) keepLocked(key Key, png []byte) {
	if _, ok := m.cur[key]; ok {
		return
	}
	if m.curBytes+len(png) > m.maxBytes/2 {
		m.old, m.cur, m.curBytes = m.cur, map[Key][]byte{}, 0
	}
	m.cur[key] = png
	m.curBytes += len(png)
}

// Counts are the pictures found kept and the ones drawn so far.
func (m *Memo) Counts() (hits, misses int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hits, m.misses
}
