package store

import (
	"time"

	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Two writers that read the same version and computed the same game must
// still write different bytes, or the compare-and-set script would take the
// second write for a retry of the first and report it applied. The update
// stamp is what tells them apart: no two calls may return the same one.
func TestWriteStampsAreUnique(t *testing.T) {
	const goroutines, each = 8, 5000
	var s Redis
	stamps := make([][]int64, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				stamps[g] = append(stamps[g], s.writeStamp(time.Now()).UnixNano())
			}
		}()
	}
	wg.Wait()
	seen := make(map[int64]bool, goroutines*each)
	for g, list := range stamps {
		for i, n := range list {
			require.False(t, seen[n], "stamp %d returned twice", n)
			seen[n] = true
			if i > 0 {
				assert.Greater(t, n, list[i-1], "stamps of goroutine %d go back", g)
			}
		}
	}
}
