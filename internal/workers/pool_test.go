package workers

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// idlePool waits until n of p's goroutines wait for work.
func idlePool(p *Pool, n int) {
	for {
		p.mu.Lock()
		idle := len(p.idle)
		p.mu.Unlock()
		if idle == n {
			return
		}
		runtime.Gosched()
	}
}

// Every function handed to a Pool runs once, however many at once;
// the goroutines left waiting are at most maxIdle and run the
// next functions without new goroutines; stop ends them, and a function
// handed over after stop still runs.
func TestPoolRunsEachOnce(t *testing.T) {
	t.Parallel()
	var p Pool
	const n = 500
	var ran [n]atomic.Int32
	var wg sync.WaitGroup
	release := make(chan struct{})
	wg.Add(n)
	for i := range n {
		p.Run(func() {
			defer wg.Done()
			<-release // all at once
			ran[i].Add(1)
		})
	}
	close(release)
	wg.Wait()
	require.Equal(t, int64(n), p.Started(), "none idle: each on a new goroutine")
	idlePool(&p, maxIdle)

	for i := range n {
		done := make(chan struct{})
		p.Run(func() {
			ran[i].Add(1)
			close(done)
		})
		<-done
	}
	for i := range n {
		require.Equal(t, int32(2), ran[i].Load(), "function %d", i)
	}
	require.Equal(t, int64(n), p.Started(), "one at a time: on the goroutines waiting")

	idlePool(&p, maxIdle)
	p.Stop()
	idlePool(&p, 0)
	done := make(chan struct{})
	p.Run(func() { close(done) })
	<-done
	require.Equal(t, int64(n+1), p.Started())
	p.mu.Lock()
	require.Empty(t, p.idle, "no goroutine waits after stop")
	p.mu.Unlock()
}
