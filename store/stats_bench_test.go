package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/redistest"
)

// fillStats records games on guild until players people are rated at
// "dix": rounds of games between pairs of neighbours (u0 u1, u2 u3, …,
// then u1 u2, u3 u4, …), so every person has played rounds games. It
// returns the number of games recorded.
func fillStats(tb testing.TB, s dixbot.Stats, guild string, players, rounds int) int {
	tb.Helper()
	var games [][2]int
	for r := range rounds {
		for i := r % 2; i+1 < players; i += 2 {
			games = append(games, [2]int{i, i + 1})
		}
	}
	var wg sync.WaitGroup
	next := make(chan [2]int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				a, b := fmt.Sprintf("u%05d", g[0]), fmt.Sprintf("u%05d", g[1])
				r := &dixbot.Result{Guild: guild, Game: "dix", ID: fmt.Sprintf("1234567890123456789:%d-%d-%d", g[0], g[1], len(a)), At: time.Now(),
					Pace: "evening", Seats: []dixbot.ResultSeat{
						{User: "1" + a, Name: "Player " + a, Score: 30 + g[0]%20, Rank: 1},
						{User: "1" + b, Name: "Player " + b, Score: 25, Rank: 2},
						{Level: "normal", Name: "CPU", Score: 20, Rank: 3},
					}}
				r.ID += fmt.Sprintf(":%d", time.Now().UnixNano())
				if _, err := s.RecordResult(context.Background(), r); err != nil {
					tb.Error(err)
					return
				}
			}
		}()
	}
	for _, g := range games {
		next <- g
	}
	close(next)
	wg.Wait()
	return len(games)
}

// BenchmarkLeaderboard10k: /leaderboard's store call (top 10 and the
// asker's own line) on a real Redis with 10,000 rated players on the
// server. Reports the p50 and p99 latency of one call.
func BenchmarkLeaderboard10k(b *testing.B) {
	s := openRedis(b, redistest.Start(b), Options{})
	const players = 10000
	start := time.Now()
	games := fillStats(b, s, "g1", players, 2)
	b.Logf("%d games recorded for %d players in %v", games, players, time.Since(start).Round(time.Millisecond))
	n, err := s.rdb.ZCard(context.Background(), s.boardKey("g1", "dix")).Result()
	require.NoError(b, err)
	require.EqualValues(b, players, n)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		asker := fmt.Sprintf("1u%05d", (i*7919)%players)
		t0 := time.Now()
		top, own, err := s.Leaderboard(context.Background(), "g1", "dix", asker, 10)
		lat = append(lat, time.Since(t0))
		if err != nil || len(top) != 10 || own == nil {
			b.Fatalf("leaderboard: %d lines, own %v, %v", len(top), own, err)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// TestStatsStorage measures what the statistics take: on Redis by MEMORY
// USAGE of every key of the server, on the embedded store by the bytes in
// use of the server's bucket. STATS_MEASURE=1 runs it (it records 2,000
// games of 1,000 people).
func TestStatsStorage(t *testing.T) {
	if os.Getenv("STATS_MEASURE") == "" {
		t.Skip("STATS_MEASURE=1 measures the statistics' storage")
	}
	const players, rounds = 1000, 4
	ctx := context.Background()

	rs := openRedis(t, redistest.Start(t), Options{})
	games := fillStats(t, rs, "123456789012345678", players, rounds)
	keys, err := rs.rdb.Keys(ctx, rs.statsKey("123456789012345678")+"*").Result()
	require.NoError(t, err)
	sizes := map[string]int64{}
	var total int64
	for _, k := range keys {
		n, err := rs.rdb.MemoryUsage(ctx, k, 0).Result()
		require.NoError(t, err)
		kind, _, _ := strings.Cut(strings.TrimPrefix(k, rs.statsKey("123456789012345678")), ":")
		sizes[kind] += n
		total += n
	}
	perGame := float64(sizes["r"]) / float64(games)
	perPlayer := float64(sizes["p"]+sizes["ug"]+sizes["lb"]) / players
	t.Logf("redis: %d games of 2 people and a computer, %d rated people: %d bytes in all (MEMORY USAGE); "+
		"result %.0f B/game; person record + games set + leaderboard entry %.0f B/person; results-of-person sets %.0f B/person (%.0f B per game played); by kind %v",
		games, players, total, perGame, perPlayer, float64(sizes["ur"])/players, float64(sizes["ur"])/float64(2*games), sizes)

	fs, err := OpenFile(filepath.Join(t.TempDir(), "dix.db"), Options{})
	require.NoError(t, err)
	defer fs.Close()
	games = fillStats(t, fs, "123456789012345678", players, rounds)
	kv := map[string]int{}
	var inuse int
	require.NoError(t, fs.db.View(func(tx *bolt.Tx) error {
		g := guildBucket(tx, "123456789012345678")
		st := g.Stats()
		inuse = st.BranchInuse + st.LeafInuse
		return g.ForEach(func(k, v []byte) error {
			kind, _, _ := strings.Cut(string(k), "\x00")
			kv[kind] += len(k) + len(v)
			return nil
		})
	}))
	t.Logf("embedded: %d games, %d rated people: %d bytes in use in the server's bucket (pages' used bytes); "+
		"keys and values: result %.0f B/game, person record + games entry %.0f B/person, results-of-person entries %.0f B per game played; by kind %v",
		games, players, inuse, float64(kv["r"])/float64(games), float64(kv["p"]+kv["g"])/players, float64(kv["u"])/float64(2*games), kv)
}
