package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/rating"
)

// statsStore is a store under test: the game store and its statistics.
type statsStore interface {
	dixbot.Store
	dixbot.Stats
}

// runStatsSuite is the suite of dixbot.Stats every store passes.
func runStatsSuite(t *testing.T, newEnv newEnv) {
	tests := []struct {
		name string
		run  func(t *testing.T, s statsStore)
	}{
		{"RecordAndRead", testStatsRecord},
		{"RatingsAreRateFixed", testStatsRatings},
		{"RecordedOnce", testStatsOnce},
		{"RecordedOnceConcurrent", testStatsOnceConcurrent},
		{"ConcurrentGamesAllCount", testStatsConcurrentGames},
		{"SoloApart", testStatsSolo},
		{"Leaderboard", testStatsLeaderboard},
		{"ServersApart", testStatsServersApart},
		{"Forget", testStatsForget},
		{"OldRecordsWithoutPlacements", testStatsOldRecords},
		{"BadResults", testStatsBad},
		{"ResultsExpire", nil},
		{"Restart", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			s := e.open(Options{}).(statsStore)
			switch tc.name {
			case "Restart":
				testStatsRestart(t, e, s)
				return
			case "ResultsExpire":
				require.NoError(t, s.Close())
				testStatsExpire(t, e.open(Options{ResultTTL: time.Hour}).(statsStore))
				return
			}
			tc.run(t, s)
		})
	}
}

var resultSeq atomic.Int64

// game is a finished game of guild between seats, in seat order.
func game(guild, name string, seats ...dixbot.ResultSeat) *dixbot.Result {
	return &dixbot.Result{Guild: guild, Game: name, ID: fmt.Sprintf("c%d:o%d", resultSeq.Add(1), time.Now().UnixNano()),
		At: time.Now().UTC().Truncate(time.Second), Pace: "normal", Seats: seats}
}

func person(user string, score, rank int) dixbot.ResultSeat {
	return dixbot.ResultSeat{User: user, Name: "name " + user, Score: score, Rank: rank}
}

func cpu(level string, score, rank int) dixbot.ResultSeat {
	return dixbot.ResultSeat{Level: level, Name: "CPU", Score: score, Rank: rank}
}

func record(t *testing.T, s dixbot.Stats, r *dixbot.Result) {
	t.Helper()
	ok, err := s.RecordResult(ctxb, r)
	require.NoError(t, err)
	require.True(t, ok, "result %s recorded", r.ID)
}

func statsOf(t *testing.T, s dixbot.Stats, guild, user string) (map[string]dixbot.PlayerStats, []dixbot.SoloStats) {
	t.Helper()
	ps, solo, err := s.PlayerStats(ctxb, guild, user)
	require.NoError(t, err)
	out := map[string]dixbot.PlayerStats{}
	for _, p := range ps {
		out[p.Game] = p
	}
	return out, solo
}

func testStatsRecord(t *testing.T, s statsStore) {
	record(t, s, game("g1", "dix", person("a", 40, 1), person("b", 30, 2), cpu("strong", 20, 3)))
	record(t, s, game("g1", "dix", person("a", 10, 3), person("b", 50, 1), cpu("easy", 20, 2)))
	record(t, s, game("g1", "qwixx", person("a", 70, 1), person("c", 70, 1)))

	a, solo := statsOf(t, s, "g1", "a")
	assert.Empty(t, solo)
	require.Len(t, a, 2)
	d := a["dix"]
	assert.Equal(t, 2, d.Played)
	assert.Equal(t, 1, d.Won)
	assert.Equal(t, 50, d.Total)
	assert.Equal(t, 40, d.Best)
	assert.Equal(t, "name a", d.Name)
	assert.True(t, d.Rated)
	assert.Equal(t, 2, d.Ahead, "ahead of b and the computer, then of nobody")
	assert.Equal(t, 4, d.Faced)
	q := a["qwixx"]
	assert.Equal(t, dixbot.PlayerStats{Game: "qwixx", Name: "name a", Played: 1, Won: 1, Total: 70, Best: 70, Mu: q.Mu, Sigma: q.Sigma, Rated: true,
		Ahead: 0, Faced: 1}, q, "a tie is neither ahead nor behind")
	b, _ := statsOf(t, s, "g1", "b")
	assert.Equal(t, 3, b["dix"].Ahead, "ahead of the computer, then of a and the computer")
	assert.Equal(t, 4, b["dix"].Faced)
	c, _ := statsOf(t, s, "g1", "c")
	assert.InDelta(t, q.Mu, c["qwixx"].Mu, 1e-9, "a tie moves both alike")
	assert.Less(t, q.Sigma, rating.DefaultSigma)

	none, solo := statsOf(t, s, "g1", "nobody")
	assert.Empty(t, none)
	assert.Empty(t, solo)
}

// testStatsRatings checks the stored ratings against rating.RateFixed run
// by hand over the same games, computer seats fixed at their level.
func testStatsRatings(t *testing.T, s statsStore) {
	record(t, s, game("g1", "dix", person("a", 40, 1), cpu("strong", 30, 2), person("b", 30, 2)))
	record(t, s, game("g1", "dix", person("b", 60, 1), person("a", 10, 2), cpu("easy", 5, 3)))

	a1, b1 := rating.New(), rating.New()
	out := rating.RateFixed([][]rating.Rating{{a1}, {rating.Computer(rating.Strong)}, {b1}}, []int{1, 2, 2},
		[][]bool{{false}, {true}, {false}})
	a1, b1 = out[0][0], out[2][0]
	out = rating.RateFixed([][]rating.Rating{{b1}, {a1}, {rating.Computer(rating.Easy)}}, []int{1, 2, 3},
		[][]bool{{false}, {false}, {true}})
	a2, b2 := out[1][0], out[0][0]

	a, _ := statsOf(t, s, "g1", "a")
	b, _ := statsOf(t, s, "g1", "b")
	assert.InDelta(t, a2.Mu, a["dix"].Mu, 1e-9)
	assert.InDelta(t, a2.Sigma, a["dix"].Sigma, 1e-9)
	assert.InDelta(t, b2.Mu, b["dix"].Mu, 1e-9)
	assert.InDelta(t, b2.Sigma, b["dix"].Sigma, 1e-9)
}

func testStatsOnce(t *testing.T, s statsStore) {
	r := game("g1", "dix", person("a", 40, 1), person("b", 30, 2))
	record(t, s, r)
	before, _ := statsOf(t, s, "g1", "a")
	for range 3 {
		ok, err := s.RecordResult(ctxb, r)
		require.NoError(t, err)
		assert.False(t, ok, "the same game again")
	}
	after, _ := statsOf(t, s, "g1", "a")
	assert.Equal(t, before, after)
	assert.Equal(t, 1, after["dix"].Played)
}

func testStatsOnceConcurrent(t *testing.T, s statsStore) {
	r := game("g1", "dix", person("a", 40, 1), person("b", 30, 2))
	var n atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := s.RecordResult(ctxb, r)
			assert.NoError(t, err)
			if ok {
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	assert.EqualValues(t, 1, n.Load())
	a, _ := statsOf(t, s, "g1", "a")
	assert.Equal(t, 1, a["dix"].Played)
}

func testStatsConcurrentGames(t *testing.T, s statsStore) {
	const games = 12
	var wg sync.WaitGroup
	for i := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.RecordResult(ctxb, game("g1", "dix", person("a", i, 1), person("b", 0, 2)))
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	a, _ := statsOf(t, s, "g1", "a")
	assert.Equal(t, games, a["dix"].Played, "no recording lost to a concurrent one")
	assert.Equal(t, games, a["dix"].Won)
	assert.Equal(t, games*(games-1)/2, a["dix"].Total)
	assert.Equal(t, games-1, a["dix"].Best)
}

func testStatsSolo(t *testing.T, s statsStore) {
	alix := dixbot.ResultSeat{Level: dixbot.LevelSolo, Name: "ALIX"}
	solo := func(d, score, rank int) *dixbot.Result {
		al := alix
		al.Score, al.Rank = 30, 3-rank
		r := game("g1", "dix", person("a", score, rank), al)
		r.Solo = d
		return r
	}
	record(t, s, solo(4, 35, 1))
	record(t, s, solo(4, 25, 2))
	record(t, s, solo(7, 20, 2))
	ps, so := statsOf(t, s, "g1", "a")
	assert.Empty(t, ps, "solo games are kept apart")
	assert.Equal(t, []dixbot.SoloStats{{Difficulty: 4, Played: 2, Won: 1, Best: 35}, {Difficulty: 7, Played: 1, Won: 0, Best: 20}}, so)
	top, own, err := s.Leaderboard(ctxb, "g1", "dix", "a", 10)
	require.NoError(t, err)
	assert.Empty(t, top, "solo games are not rated")
	assert.Nil(t, own)
}

func testStatsLeaderboard(t *testing.T, s statsStore) {
	// u00 wins against everyone below it, u01 against those below, ...
	const n = 14
	for i := range n - 1 {
		for j := i + 1; j < n; j++ {
			record(t, s, game("g1", "qwixx", person(fmt.Sprintf("u%02d", i), 10, 1), person(fmt.Sprintf("u%02d", j), 5, 2)))
		}
	}
	record(t, s, game("g1", "dix", person("other", 1, 1), person("u00", 0, 2)))
	top, own, err := s.Leaderboard(ctxb, "g1", "qwixx", "u12", 10)
	require.NoError(t, err)
	require.Len(t, top, 10)
	for i, st := range top {
		assert.Equal(t, i+1, st.Rank)
		assert.Equal(t, fmt.Sprintf("u%02d", i), st.User)
		assert.Equal(t, "name "+st.User, st.Name)
		assert.Equal(t, n-1, st.Played)
		assert.Equal(t, n-1-i, st.Won)
		assert.Equal(t, n-1-i, st.Ahead, "the placements beside the name")
		assert.Equal(t, n-1, st.Faced)
		if i > 0 {
			assert.Less(t, rating.Ordinal(rating.Rating{Mu: st.Mu, Sigma: st.Sigma}),
				rating.Ordinal(rating.Rating{Mu: top[i-1].Mu, Sigma: top[i-1].Sigma}))
		}
	}
	require.NotNil(t, own)
	assert.Equal(t, 13, own.Rank)
	assert.Equal(t, "u12", own.User)
	assert.Equal(t, 1, own.Ahead, "the asker's own line has them too")
	assert.Equal(t, n-1, own.Faced)

	_, own, err = s.Leaderboard(ctxb, "g1", "qwixx", "u03", 10)
	require.NoError(t, err)
	require.NotNil(t, own)
	assert.Equal(t, 4, own.Rank)
	_, own, err = s.Leaderboard(ctxb, "g1", "qwixx", "other", 10)
	require.NoError(t, err)
	assert.Nil(t, own, "rated at another game only")
	top, _, err = s.Leaderboard(ctxb, "g1", "dix", "", 10)
	require.NoError(t, err)
	assert.Len(t, top, 2)
}

func testStatsServersApart(t *testing.T, s statsStore) {
	record(t, s, game("g1", "dix", person("a", 40, 1), person("b", 30, 2)))
	alix := dixbot.ResultSeat{Level: dixbot.LevelSolo, Score: 1, Rank: 2}
	r := game("g1", "dix", person("a", 40, 1), alix)
	r.Solo = 5
	record(t, s, r)
	for _, other := range []string{"g2", "g", "g1x"} {
		ps, solo := statsOf(t, s, other, "a")
		assert.Empty(t, ps, other)
		assert.Empty(t, solo, other)
		top, own, err := s.Leaderboard(ctxb, other, "dix", "a", 10)
		require.NoError(t, err)
		assert.Empty(t, top, other)
		assert.Nil(t, own, other)
	}
	// The same game id on another server is another game.
	r2 := *r
	r2.Guild = "g2"
	record(t, s, &r2)
	_, solo := statsOf(t, s, "g2", "a")
	assert.Equal(t, []dixbot.SoloStats{{Difficulty: 5, Played: 1, Won: 1, Best: 40}}, solo)
	_, solo = statsOf(t, s, "g1", "a")
	assert.Equal(t, []dixbot.SoloStats{{Difficulty: 5, Played: 1, Won: 1, Best: 40}}, solo)
}

func testStatsForget(t *testing.T, s statsStore) {
	r := game("g1", "dix", person("a", 40, 1), person("b", 30, 2))
	record(t, s, r)
	record(t, s, game("g1", "qwixx", person("a", 40, 1), person("b", 30, 2)))
	so := game("g1", "dix", person("a", 40, 1), dixbot.ResultSeat{Level: dixbot.LevelSolo, Score: 1, Rank: 2})
	so.Solo = 6
	record(t, s, so)
	record(t, s, game("g2", "dix", person("a", 40, 1), person("b", 30, 2)))

	require.NoError(t, s.ForgetPlayer(ctxb, "g1", "a"))
	ps, solo := statsOf(t, s, "g1", "a")
	assert.Empty(t, ps)
	assert.Empty(t, solo)
	for _, g := range []string{"dix", "qwixx"} {
		top, own, err := s.Leaderboard(ctxb, "g1", g, "a", 10)
		require.NoError(t, err)
		assert.Nil(t, own)
		require.Len(t, top, 1, g)
		assert.Equal(t, "b", top[0].User)
	}
	b, _ := statsOf(t, s, "g1", "b")
	assert.Equal(t, 1, b["dix"].Played, "the others keep theirs")
	other, _ := statsOf(t, s, "g2", "a")
	assert.Equal(t, 1, other["dix"].Played, "another server keeps its own")

	// The results no longer name the person.
	raw := storedResults(t, s, "g1")
	require.NotEmpty(t, raw)
	for _, v := range raw {
		assert.NotContains(t, v, `"a"`)
		assert.NotContains(t, v, "name a")
	}
	// Recording the same game again still counts nothing.
	ok, err := s.RecordResult(ctxb, r)
	require.NoError(t, err)
	assert.False(t, ok)
	ps, _ = statsOf(t, s, "g1", "a")
	assert.Empty(t, ps)
	require.NoError(t, s.ForgetPlayer(ctxb, "g3", "a"), "nothing to forget")

	// A game after forget-me starts a new record: nothing of the
	// placements before it is left.
	record(t, s, game("g1", "dix", person("b", 30, 1), person("a", 20, 2), cpu("easy", 10, 3)))
	ps, _ = statsOf(t, s, "g1", "a")
	assert.Equal(t, 1, ps["dix"].Played)
	assert.Equal(t, 1, ps["dix"].Ahead, "ahead of the computer only")
	assert.Equal(t, 2, ps["dix"].Faced)
	_, own, err := s.Leaderboard(ctxb, "g1", "dix", "a", 10)
	require.NoError(t, err)
	require.NotNil(t, own)
	assert.Equal(t, [2]int{1, 2}, [2]int{own.Ahead, own.Faced})
}

// testStatsOldRecords: a person's record kept before placements were (no
// Ahead nor Faced stored) reads as it did, placements 0, and the games
// after it add theirs.
func testStatsOldRecords(t *testing.T, s statsStore) {
	record(t, s, game("g1", "dix", person("a", 40, 1), person("b", 30, 2), cpu("normal", 20, 3)))
	record(t, s, game("g1", "dix", person("a", 35, 1), person("b", 30, 2)))
	before, _ := statsOf(t, s, "g1", "a")
	require.Equal(t, 3, before["dix"].Ahead)
	require.Equal(t, 3, before["dix"].Faced)
	dropPlacements(t, s, "g1", "dix", "a")

	a, _ := statsOf(t, s, "g1", "a")
	want := before["dix"]
	want.Ahead, want.Faced = 0, 0
	assert.Equal(t, want, a["dix"], "everything else as it was")
	top, _, err := s.Leaderboard(ctxb, "g1", "dix", "", 10)
	require.NoError(t, err)
	require.Len(t, top, 2)
	assert.Equal(t, dixbot.Standing{Rank: 1, User: "a", Name: "name a", Mu: want.Mu, Sigma: want.Sigma, Played: 2, Won: 2}, top[0])
	assert.Equal(t, [2]int{1, 3}, [2]int{top[1].Ahead, top[1].Faced}, "b keeps theirs")

	record(t, s, game("g1", "dix", person("b", 30, 1), person("a", 20, 2), cpu("strong", 10, 3)))
	a, _ = statsOf(t, s, "g1", "a")
	assert.Equal(t, 3, a["dix"].Played)
	assert.Equal(t, 2, a["dix"].Won)
	assert.Equal(t, 1, a["dix"].Ahead, "the later game's placements")
	assert.Equal(t, 2, a["dix"].Faced)
}

// dropPlacements makes user's record at game on guild one kept before
// placements were: the same record without them.
func dropPlacements(t *testing.T, s statsStore, guild, game, user string) {
	t.Helper()
	switch st := s.(type) {
	case *Redis:
		n, err := st.rdb.HDel(ctxb, st.personKey(guild, game, user), "ah", "fc").Result()
		require.NoError(t, err)
		require.EqualValues(t, 2, n)
	case *File:
		require.NoError(t, st.db.Update(func(tx *bolt.Tx) error {
			g := guildBucket(tx, guild)
			k := statsKey("p", game, user)
			var v map[string]any
			require.NoError(t, json.Unmarshal(g.Get(k), &v))
			require.Contains(t, v, "Ahead")
			require.Contains(t, v, "Faced")
			delete(v, "Ahead")
			delete(v, "Faced")
			b, err := json.Marshal(v)
			require.NoError(t, err)
			return g.Put(k, b)
		}))
	default:
		t.Fatalf("no old records for %T", s)
	}
}

// TestPlacement: a seat is ahead of the seats ranked after it; a tie is
// neither ahead nor behind, and a person's other seats are no opponents.
func TestPlacement(t *testing.T) {
	t.Parallel()
	r := &dixbot.Result{Seats: []dixbot.ResultSeat{
		person("a", 9, 1), person("b", 9, 1), cpu("easy", 5, 3), person("c", 4, 4), person("a", 1, 5),
	}}
	for i, want := range [][2]int{{2, 3}, {3, 4}, {2, 4}, {1, 4}, {0, 3}} {
		ahead, faced := placement(r, i)
		assert.Equal(t, want, [2]int{ahead, faced}, "seat %d", i)
	}
}

func testStatsBad(t *testing.T, s statsStore) {
	for _, r := range []*dixbot.Result{
		nil,
		{Game: "dix", ID: "x", Seats: []dixbot.ResultSeat{person("a", 1, 1)}},
		{Guild: "g", ID: "x", Seats: []dixbot.ResultSeat{person("a", 1, 1)}},
		{Guild: "g", Game: "dix", Seats: []dixbot.ResultSeat{person("a", 1, 1)}},
		{Guild: "g", Game: "dix", ID: "x"},
		{Guild: "g{x}", Game: "dix", ID: "x", Seats: []dixbot.ResultSeat{person("a", 1, 1)}},
		{Guild: "g", Game: "d:x", ID: "x", Seats: []dixbot.ResultSeat{person("a", 1, 1)}},
	} {
		ok, err := s.RecordResult(ctxb, r)
		assert.ErrorIs(t, err, ErrBadRecord)
		assert.False(t, ok)
	}
	assert.ErrorIs(t, s.ForgetPlayer(ctxb, "", "a"), ErrBadRecord)
	// A person alone against nobody is counted, not rated.
	record(t, s, game("g1", "dix", person("a", 3, 1)))
	a, _ := statsOf(t, s, "g1", "a")
	assert.Equal(t, 1, a["dix"].Played)
	assert.False(t, a["dix"].Rated)
}

func testStatsRestart(t *testing.T, e env, s statsStore) {
	r := game("g1", "dix", person("a", 40, 1), person("b", 30, 2))
	record(t, s, r)
	require.NoError(t, s.Close())
	s = e.open(Options{}).(statsStore)
	a, _ := statsOf(t, s, "g1", "a")
	assert.Equal(t, 1, a["dix"].Played)
	ok, err := s.RecordResult(ctxb, r)
	require.NoError(t, err)
	assert.False(t, ok, "recorded before the restart")
}

// testStatsExpire: a result older than ResultTTL is dropped from what
// lists the person's results at their next game (and, in the file store,
// deleted with it; Redis expires the result's key itself), while the
// totals it fed stay.
func testStatsExpire(t *testing.T, s statsStore) {
	old := game("g1", "dix", person("a", 40, 1), person("b", 30, 2))
	old.At = time.Now().Add(-2 * time.Hour)
	record(t, s, old)
	record(t, s, game("g1", "dix", person("a", 10, 2), person("b", 30, 1)))
	a, _ := statsOf(t, s, "g1", "a")
	assert.Equal(t, 2, a["dix"].Played)
	switch st := s.(type) {
	case *Redis:
		ur, err := st.rdb.ZRange(ctxb, st.userResultsKey("g1", "a"), 0, -1).Result()
		require.NoError(t, err)
		assert.Len(t, ur, 1)
		assert.NotContains(t, ur, "dix:"+old.ID)
	case *File:
		raw := storedResults(t, s, "g1")
		require.Len(t, raw, 1)
		assert.NotContains(t, raw[0], old.ID)
		require.NoError(t, st.db.View(func(tx *bolt.Tx) error {
			return guildBucket(tx, "g1").ForEach(func(k, _ []byte) error {
				assert.NotContains(t, string(k), old.ID, "every entry of the old result is gone")
				return nil
			})
		}))
	}
	// The person asks to be forgotten: the newer result is scrubbed.
	require.NoError(t, s.ForgetPlayer(ctxb, "g1", "a"))
	for _, v := range storedResults(t, s, "g1") {
		assert.NotContains(t, v, `"a"`)
	}
}

// storedResults reads the raw results kept for guild.
func storedResults(t *testing.T, s statsStore, guild string) []string {
	t.Helper()
	var out []string
	switch st := s.(type) {
	case *Redis:
		var keys []string
		var mu sync.Mutex
		each := func(c *redis.Client) error {
			k, err := c.Keys(ctxb, st.statsKey(guild)+"r:*").Result()
			mu.Lock()
			keys = append(keys, k...)
			mu.Unlock()
			return err
		}
		switch c := st.rdb.(type) {
		case *redis.ClusterClient:
			require.NoError(t, c.ForEachMaster(ctxb, func(ctx context.Context, c *redis.Client) error { return each(c) }))
		case *redis.Client:
			require.NoError(t, each(c))
		}
		for _, k := range keys {
			v, err := st.rdb.Get(ctxb, k).Result()
			require.NoError(t, err)
			out = append(out, v)
		}
	case *File:
		require.NoError(t, st.db.View(func(tx *bolt.Tx) error {
			g := guildBucket(tx, guild)
			if g == nil {
				return nil
			}
			return g.ForEach(func(k, v []byte) error {
				if strings.HasPrefix(string(k), "r\x00") {
					out = append(out, string(v))
				}
				return nil
			})
		}))
	}
	return out
}

func TestStatsRedis(t *testing.T) {
	runStatsSuite(t, redisEnv(redistest.Start(t).URL(), false))
}

func TestStatsFile(t *testing.T) {
	runStatsSuite(t, fileEnv)
}

func TestStatsRedisCluster(t *testing.T) {
	c := redistest.StartCluster(t)
	runStatsSuite(t, redisEnv(c.URL(), true))
}

// TestStatsRedisKeyLayout checks that every key of a server's statistics
// carries its hash tag (one Cluster slot per server), that the results
// expire after ResultTTL and that the leaderboard is a sorted set by
// Mu − 3·Sigma.
func TestStatsRedisKeyLayout(t *testing.T) {
	s := openRedis(t, redistest.Start(t), Options{Prefix: "p:", ResultTTL: time.Hour})
	r := game("123", "dix", person("a", 40, 1), cpu("normal", 30, 2))
	record(t, s, r)
	so := game("123", "dix", person("a", 40, 1), dixbot.ResultSeat{Level: dixbot.LevelSolo, Score: 1, Rank: 2})
	so.Solo = 4
	record(t, s, so)
	keys, err := s.rdb.Keys(ctxb, "p:*").Result()
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{
		"p:{g:123}:r:dix:" + r.ID, "p:{g:123}:r:dix:" + so.ID, "p:{g:123}:p:dix:a", "p:{g:123}:lb:dix",
		"p:{g:123}:ug:a", "p:{g:123}:ur:a", "p:{g:123}:s:a",
	}, keys)
	ttl, err := s.rdb.PTTL(ctxb, "p:{g:123}:r:dix:"+r.ID).Result()
	require.NoError(t, err)
	assert.InDelta(t, time.Hour.Seconds(), ttl.Seconds(), 60)
	a, _ := statsOf(t, s, "123", "a")
	score, err := s.rdb.ZScore(ctxb, "p:{g:123}:lb:dix", "a").Result()
	require.NoError(t, err)
	assert.InDelta(t, a["dix"].Mu-3*a["dix"].Sigma, score, 1e-9)
}
