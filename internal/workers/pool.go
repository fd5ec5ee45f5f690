package workers

import (
	"sync"
	"sync/atomic"
)

// maxIdle is how many of a Pool's goroutines wait for work at most.
const maxIdle = 64

// Pool runs functions on goroutines that, each function done, wait for
// the next instead of ending: their stacks stay grown to the work's depth
// (GrowStack), where a goroutine started for each function grows its
// stack again each time. When none is idle, a new one starts, so a
// function never waits for another. The zero Pool is ready.
//
// It is safe for concurrent use.
type Pool struct {
	mu      sync.Mutex
	idle    []chan func() // each idle goroutine's next work
	stopped bool
	started atomic.Int64 // the goroutines started
}

// Started returns how many goroutines the pool started.
func (p *Pool) Started() int64 { return p.started.Load() }

// Run runs f on an idle goroutine of the pool, or on a new one.
func (p *Pool) Run(f func()) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		next := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		next <- f // buffered: an idle goroutine takes it
		return
	}
	p.mu.Unlock()
	p.started.Add(1)
	go p.loop(make(chan func(), 1), f)
}

// loop runs f, then what Run hands it, until there are idle goroutines
// enough or the pool stops.
func (p *Pool) loop(next chan func(), f func()) {
	GrowStack()
	for f != nil {
		f()
		p.mu.Lock()
		if p.stopped || len(p.idle) >= maxIdle {
			p.mu.Unlock()
			return
		}
		p.idle = append(p.idle, next)
		p.mu.Unlock()
		f = <-next
	}
}

// Stop ends the idle goroutines, and each busy one once its function is
// done; Run still runs what it is given, on new goroutines.
func (p *Pool) Stop() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.stopped = nil, true
	p.mu.Unlock()
	for _, next := range idle {
		next <- nil
	}
}
