package store

import (
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/redistest"
)

// Run with:
//
//	go test -run '^$' -bench . -benchtime 20000x ./store/
//
// BenchmarkUpdate and BenchmarkGetSet run against the same local server in
// the same run, so their percentiles compare a store Update with the bare
// GET and SET of the same number of bytes.

// benchRecord is a record the size of a real one: a 5-player game in the
// middle when the engine can play, else 1 KiB of meta standing in for the
// state; plus 200 bytes of meta like the bot's seat table.
func benchRecord(channel string) *dixbot.Record {
	r := &dixbot.Record{Channel: channel, Guild: "123456789012345678", Meta: make([]byte, 200)}
	if g, err := playedGame(halfDealt); err == nil {
		r.Game = "dix"
		r.Data, _ = g.MarshalBinary()
	} else {
		r.Meta = make([]byte, 200+1024)
	}
	return r
}

// touch is the Update function of the benchmarks: a one-byte change.
func touch(r *dixbot.Record) error {
	r.Meta[0]++
	return nil
}

// percentile returns the p-th percentile of d in microseconds; d is sorted
// in place.
func percentile(d []time.Duration, p float64) float64 {
	slices.Sort(d)
	return float64(d[min(len(d)-1, int(p*float64(len(d))))]) / float64(time.Microsecond)
}

func percentiles(b *testing.B, d []time.Duration) {
	b.ReportMetric(percentile(d, 0.50), "p50-µs")
	b.ReportMetric(percentile(d, 0.99), "p99-µs")
}

func BenchmarkUpdate(b *testing.B) {
	benchUpdate(b, openRedis(b, redistest.Start(b), Options{}))
}

// BenchmarkClusterUpdate is BenchmarkUpdate on a local Redis Cluster of
// three masters.
func BenchmarkClusterUpdate(b *testing.B) {
	benchUpdate(b, openCluster(b, redistest.StartCluster(b), Options{}))
}

func benchUpdate(b *testing.B, s *Redis) {
	rec := benchRecord("bench")
	require.NoError(b, s.Create(ctxb, rec))
	size, err := encode(rec, 1, false, time.Now())
	require.NoError(b, err)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		t0 := time.Now()
		if _, err := s.Update(ctxb, "bench", fmt.Sprint(i), touch); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	percentiles(b, lat)
	b.ReportMetric(float64(len(size)), "bytes/record")
}

func BenchmarkGetSet(b *testing.B) {
	s := openRedis(b, redistest.Start(b), Options{})
	val, err := encode(benchRecord("bench"), 1, false, time.Now())
	require.NoError(b, err)
	key := s.gameKey("bench")
	require.NoError(b, s.rdb.Set(ctxb, key, val, 0).Err())
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		got, err := s.rdb.Get(ctxb, key).Bytes()
		if err != nil {
			b.Fatal(err)
		}
		got[headerSize]++
		if err := s.rdb.Set(ctxb, key, got, 0).Err(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	percentiles(b, lat)
	b.ReportMetric(float64(len(val)), "bytes/record")
}

// BenchmarkUpdateVsGetSet alternates one Update and one bare GET+SET of the
// same size, so that both see the same load on a shared machine, and
// reports both medians and their ratio.
func BenchmarkUpdateVsGetSet(b *testing.B) {
	s := openRedis(b, redistest.Start(b), Options{})
	rec := benchRecord("bench")
	require.NoError(b, s.Create(ctxb, rec))
	val, err := encode(rec, 1, false, time.Now())
	require.NoError(b, err)
	key := s.gameKey("bare")
	require.NoError(b, s.rdb.Set(ctxb, key, val, 0).Err())
	upd := make([]time.Duration, 0, b.N)
	bare := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		t0 := time.Now()
		if _, err := s.Update(ctxb, "bench", fmt.Sprint(i), touch); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		got, err := s.rdb.Get(ctxb, key).Bytes()
		if err != nil {
			b.Fatal(err)
		}
		got[headerSize]++
		if err := s.rdb.Set(ctxb, key, got, 0).Err(); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		upd, bare = append(upd, t1.Sub(t0)), append(bare, t2.Sub(t1))
	}
	b.StopTimer()
	p50u, p50b := percentile(upd, 0.50), percentile(bare, 0.50)
	b.ReportMetric(p50u, "update-p50-µs")
	b.ReportMetric(p50b, "getset-p50-µs")
	b.ReportMetric(p50u/p50b, "ratio")
}

// benchParallel64 measures updates per second with 64 goroutines, each
// playing its own game.
func benchParallel64(b *testing.B, s dixbot.Store) {
	const games = 64
	for g := range games {
		require.NoError(b, s.Create(ctxb, benchRecord(fmt.Sprintf("c%d", g))))
	}
	var next atomic.Int64
	procs := runtime.GOMAXPROCS(0)
	b.SetParallelism((games + procs - 1) / procs) // goroutines = parallelism × GOMAXPROCS
	b.ResetTimer()
	t0 := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		ch := fmt.Sprintf("c%d", next.Add(1)%games)
		for i := 0; pb.Next(); i++ {
			if _, err := s.Update(ctxb, ch, "", touch); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "updates/s")
}

func BenchmarkUpdateParallel64(b *testing.B) {
	benchParallel64(b, openRedis(b, redistest.Start(b), Options{}))
}

func BenchmarkClusterUpdateParallel64(b *testing.B) {
	benchParallel64(b, openCluster(b, redistest.StartCluster(b), Options{}))
}

func BenchmarkFileUpdate(b *testing.B) {
	s, err := OpenFile(b.TempDir()+"/bench.db", Options{})
	require.NoError(b, err)
	defer s.Close()
	require.NoError(b, s.Create(ctxb, benchRecord("bench")))
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		t0 := time.Now()
		if _, err := s.Update(ctxb, "bench", fmt.Sprint(i), touch); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	percentiles(b, lat)
}

func BenchmarkFileUpdateParallel64(b *testing.B) {
	s, err := OpenFile(b.TempDir()+"/bench.db", Options{})
	require.NoError(b, err)
	defer s.Close()
	benchParallel64(b, s)
}
