// Package batches keeps, within one process, the channels whose effects
// the process is about to do itself (the Discord work a change owes after
// its answer), so that its poller of due work leaves them alone.
package batches

import (
	"sync"
	"time"
)

// Set is the channels for which this process owes a batch of
// effects: a change it wrote, whose effects it does once the change's
// answer is sent. Until that batch ends, this process's own poller of due
// work leaves the channel alone: the effects are this process's and no
// one has tried them yet, so the batch does them without looking for an
// earlier try among the channel's messages (a read with the bot token).
// The poller comes back once the batch wrote its record (wakeAt), or at
// its next poll. Other processes know nothing of it: past the grace they
// take the effects over, as they must when this process died. A batch
// that never runs (its call panicked first) stops counting after
// Longest, the longest a batch may take. Safe for concurrent use.
type Set struct {
	Longest time.Duration
	mu      sync.Mutex
	m       map[string]batchMark
}

type batchMark struct {
	n     int       // batches owed or running
	until time.Time // when the channel is left to the poller anyway
}

// Start records a batch owed in channel; the batch calls done when it
// ends.
func (bs *Set) Start(channel string) (done func()) {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	if bs.m == nil {
		bs.m = map[string]batchMark{}
	}
	mk := bs.m[channel]
	mk.n++
	mk.until = time.Now().Add(bs.Longest)
	bs.m[channel] = mk
	var once sync.Once
	return func() {
		once.Do(func() {
			bs.mu.Lock()
			defer bs.mu.Unlock()
			mk := bs.m[channel]
			if mk.n <= 1 {
				delete(bs.m, channel)
				return
			}
			mk.n--
			bs.m[channel] = mk
		})
	}
}

// Busy reports whether a batch of this process is owed or running in
// channel.
func (bs *Set) Busy(channel string) bool {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	mk, ok := bs.m[channel]
	if ok && time.Now().After(mk.until) {
		delete(bs.m, channel)
		return false
	}
	return ok
}
