package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/dixgame/dixbot"
)

const (
	// resultListGrace is how long after a result expired its entry stays in
	// the lists of its people, so that the entry outlives the result on any
	// clock skew between this process and Redis.
	resultListGrace = time.Minute
	// countedOnly is the value kept for a result recorded after its
	// retention had already passed.
	countedOnly = "{}"
)

// The statistics' keys: one key space per server, every key of a server
// carrying the hash tag {g:<guild>}, so that one server's keys share a
// Redis Cluster slot and a recording is one transaction there. With P the
// prefix and T = P{g:<guild>}:
//
//	T r:<game>:<id>     result (JSON), kept Options.ResultTTL from its time; its presence
//	                    makes a second recording of the game a no-op
//	T p:<game>:<user>   hash: n name, p played, w won, t total, b best,
//	                    ah and fc the placements (opponents finished ahead
//	                    of, and met; absent in a record kept before them),
//	                    mu and sg the rating (absent while unrated)
//	T lb:<game>         sorted set: rated people by Mu − 3·Sigma
//	T s:<user>          hash of the solo records: p<d>, w<d>, b<d> played,
//	                    won and best score at difficulty d
//	T ug:<user>         set: the games the person has records of
//	T ur:<user>         sorted set: the results (<game>:<id>) the person is
//	                    in, by their time (Unix ms); entries older than
//	                    ResultTTL are dropped at the person's next game
func (s *Redis) statsKey(guild string) string { return s.o.Prefix + "{g:" + guild + "}:" }

func (s *Redis) resultKey(guild, game, id string) string {
	return s.statsKey(guild) + "r:" + game + ":" + id
}
func (s *Redis) personKey(guild, game, user string) string {
	return s.statsKey(guild) + "p:" + game + ":" + user
}
func (s *Redis) boardKey(guild, game string) string { return s.statsKey(guild) + "lb:" + game }
func (s *Redis) soloKey(guild, user string) string  { return s.statsKey(guild) + "s:" + user }
func (s *Redis) gamesKey(guild, user string) string { return s.statsKey(guild) + "ug:" + user }
func (s *Redis) userResultsKey(guild, user string) string {
	return s.statsKey(guild) + "ur:" + user
}

// RecordResult adds r to its server's statistics once (see dixbot.Stats):
// a WATCH on the result's key and the records it changes, a read, and one
// MULTI/EXEC writing the result and the new records together. A concurrent
// recording touching the same records makes it start again (ErrConflict
// after Options.Retries). A retry after a lost reply finds the result
// written and reports false. ErrBadRecord, ErrUnavailable.
func (s *Redis) RecordResult(ctx context.Context, r *dixbot.Result) (bool, error) {
	if err := checkResult(r); err != nil {
		return false, err
	}
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	users := people(r)
	rk := s.resultKey(r.Guild, r.Game, r.ID)
	val, err := json.Marshal(r)
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrBadRecord, err)
	}
	keys := []string{rk}
	for _, u := range users {
		if r.Solo > 0 {
			keys = append(keys, s.soloKey(r.Guild, u))
		} else {
			keys = append(keys, s.personKey(r.Guild, r.Game, u))
		}
	}
	d := strconv.Itoa(r.Solo)
	now := s.o.Now()
	at := r.At
	if at.IsZero() {
		at = now
	}
	// A person's list of results drops an entry a while after the result
	// itself expired, never before: forget-me finds the results it must
	// scrub through that list, so no result naming the person may outlive
	// its entry.
	cutoff := "(" + strconv.FormatInt(now.Add(-s.o.ResultTTL-resultListGrace).UnixMilli(), 10)
	// The result is kept ResultTTL from its time, as the file store keeps it.
	// One already past it is not kept at all: its key only remembers, for a
	// retry of this call, that it was counted, and names nobody.
	keep := s.o.ResultTTL - now.Sub(at)
	val, expired := val, keep <= 0
	if expired {
		val, keep = []byte(countedOnly), s.o.InteractionTTL
	}
	recorded := false
	record := func(tx *redis.Tx) error {
		recorded = false
		n, err := tx.Exists(ctx, rk).Result()
		if err != nil || n == 1 {
			return err
		}
		ps := map[string]*dixbot.PlayerStats{}
		solo := map[string]*dixbot.SoloStats{}
		for _, u := range users {
			if r.Solo > 0 {
				v, err := tx.HMGet(ctx, s.soloKey(r.Guild, u), "p"+d, "w"+d, "b"+d).Result()
				if err != nil {
					return err
				}
				if st := soloFrom(r.Solo, v); st != nil {
					solo[u] = st
				}
				continue
			}
			h, err := tx.HGetAll(ctx, s.personKey(r.Guild, r.Game, u)).Result()
			if err != nil {
				return err
			}
			if len(h) > 0 {
				ps[u] = personFrom(r.Game, h)
			}
		}
		applyResult(r, ps, solo)
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, rk, val, keep)
			for _, u := range users {
				urk := s.userResultsKey(r.Guild, u)
				if !expired {
					p.ZAdd(ctx, urk, redis.Z{Score: float64(at.UnixMilli()), Member: r.Game + ":" + r.ID})
				}
				p.ZRemRangeByScore(ctx, urk, "-inf", cutoff)
				if r.Solo > 0 {
					st := solo[u]
					p.HSet(ctx, s.soloKey(r.Guild, u), "p"+d, st.Played, "w"+d, st.Won, "b"+d, st.Best)
					continue
				}
				st := ps[u]
				p.HSet(ctx, s.personKey(r.Guild, r.Game, u), personFields(st)...)
				p.SAdd(ctx, s.gamesKey(r.Guild, u), r.Game)
				if st.Rated {
					p.ZAdd(ctx, s.boardKey(r.Guild, r.Game), redis.Z{Score: ordinal(st), Member: u})
				}
			}
			return nil
		})
		if err == nil {
			recorded = true
		}
		return err
	}
	for attempt := 0; ; attempt++ {
		err := s.rdb.Watch(ctx, record, keys...)
		switch {
		case err == nil:
			return recorded, nil
		case !errors.Is(err, redis.TxFailedErr):
			return false, fmt.Errorf("store: record result %s: %w", r.ID, mapErr(err))
		}
		if err := s.backoff(ctx, attempt); err != nil {
			return false, fmt.Errorf("%w: result %s after %d attempts: %w", ErrConflict, r.ID, attempt+1, err)
		}
	}
}

// personFields are the hash fields of a person's record.
func personFields(st *dixbot.PlayerStats) []any {
	f := []any{"n", st.Name, "p", st.Played, "w", st.Won, "t", st.Total, "b", st.Best, "ah", st.Ahead, "fc", st.Faced}
	if st.Rated {
		f = append(f, "mu", strconv.FormatFloat(st.Mu, 'g', -1, 64), "sg", strconv.FormatFloat(st.Sigma, 'g', -1, 64))
	}
	return f
}

// personFrom reads a person's record from its hash fields; fields that do
// not parse, or are absent (the placements of a record kept before them),
// read as zero.
func personFrom(game string, h map[string]string) *dixbot.PlayerStats {
	num := func(k string) int { n, _ := strconv.Atoi(h[k]); return n }
	st := &dixbot.PlayerStats{Game: game, Name: h["n"], Played: num("p"), Won: num("w"), Total: num("t"), Best: num("b"),
		Ahead: num("ah"), Faced: num("fc")}
	mu, err1 := strconv.ParseFloat(h["mu"], 64)
	sg, err2 := strconv.ParseFloat(h["sg"], 64)
	if err1 == nil && err2 == nil {
		st.Mu, st.Sigma, st.Rated = mu, sg, true
	}
	return st
}

// soloFrom reads a solo record from the values of p<d>, w<d>, b<d> (nil:
// none).
func soloFrom(d int, v []any) *dixbot.SoloStats {
	num := func(i int) (int, bool) {
		s, ok := v[i].(string)
		if !ok {
			return 0, false
		}
		n, err := strconv.Atoi(s)
		return n, err == nil
	}
	p, ok := num(0)
	if !ok || p == 0 {
		return nil
	}
	w, _ := num(1)
	b, _ := num(2)
	return &dixbot.SoloStats{Difficulty: d, Played: p, Won: w, Best: b}
}

// PlayerStats returns a person's records on a server (see dixbot.Stats):
// two round trips. ErrUnavailable.
func (s *Redis) PlayerStats(ctx context.Context, guild, user string) ([]dixbot.PlayerStats, []dixbot.SoloStats, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	var games *redis.StringSliceCmd
	var soloH *redis.MapStringStringCmd
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		games = p.SMembers(ctx, s.gamesKey(guild, user))
		soloH = p.HGetAll(ctx, s.soloKey(guild, user))
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("store: player stats: %w", mapErr(err))
	}
	names := games.Val()
	slices.Sort(names)
	hs := make([]*redis.MapStringStringCmd, len(names))
	if len(names) > 0 {
		_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i, g := range names {
				hs[i] = p.HGetAll(ctx, s.personKey(guild, g, user))
			}
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("store: player stats: %w", mapErr(err))
		}
	}
	var out []dixbot.PlayerStats
	for i, g := range names {
		if h := hs[i].Val(); len(h) > 0 {
			out = append(out, *personFrom(g, h))
		}
	}
	return out, soloList(soloH.Val()), nil
}

// soloList reads the solo hash into records by difficulty, easiest first.
func soloList(h map[string]string) []dixbot.SoloStats {
	var out []dixbot.SoloStats
	for k := range h {
		if !strings.HasPrefix(k, "p") {
			continue
		}
		d, err := strconv.Atoi(k[1:])
		if err != nil {
			continue
		}
		ds := strconv.Itoa(d)
		if st := soloFrom(d, []any{h["p"+ds], h["w"+ds], h["b"+ds]}); st != nil {
			out = append(out, *st)
		}
	}
	sortSolo(out)
	return out
}

// Leaderboard returns the top n of a game on a server and user's own line
// (see dixbot.Stats): two round trips, a range of the sorted set and the
// records of the people shown. ErrUnavailable.
func (s *Redis) Leaderboard(ctx context.Context, guild, game, user string, n int) ([]dixbot.Standing, *dixbot.Standing, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	lb := s.boardKey(guild, game)
	var top *redis.ZSliceCmd
	var rank *redis.IntCmd
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		top = p.ZRevRangeWithScores(ctx, lb, 0, int64(max(n, 1)-1))
		if user != "" {
			rank = p.ZRevRank(ctx, lb, user)
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, nil, fmt.Errorf("store: leaderboard: %w", mapErr(err))
	}
	entries := top.Val()
	users := make([]string, 0, len(entries)+1)
	for _, e := range entries {
		users = append(users, e.Member.(string))
	}
	ownRank := -1
	if rank != nil && rank.Err() == nil {
		ownRank = int(rank.Val())
		if ownRank >= len(entries) {
			users = append(users, user)
		}
	}
	hs := make([]*redis.MapStringStringCmd, len(users))
	if len(users) > 0 {
		_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i, u := range users {
				hs[i] = p.HGetAll(ctx, s.personKey(guild, game, u))
			}
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("store: leaderboard: %w", mapErr(err))
		}
	}
	line := func(i, place int) dixbot.Standing {
		st := personFrom(game, hs[i].Val())
		return dixbot.Standing{Rank: place, User: users[i], Name: st.Name, Mu: st.Mu, Sigma: st.Sigma, Played: st.Played, Won: st.Won,
			Ahead: st.Ahead, Faced: st.Faced}
	}
	out := make([]dixbot.Standing, 0, len(entries))
	var own *dixbot.Standing
	for i := range entries {
		out = append(out, line(i, i+1))
		if users[i] == user {
			own = &out[len(out)-1]
		}
	}
	if ownRank >= len(entries) {
		l := line(len(users)-1, ownRank+1)
		own = &l
	}
	return out, own, nil
}

// ForgetPlayer deletes a person's records and rating on a server and takes
// their id and name out of the server's results that still hold them (see
// dixbot.Stats), in one transaction. ErrConflict, ErrUnavailable.
func (s *Redis) ForgetPlayer(ctx context.Context, guild, user string) error {
	if guild == "" || user == "" {
		return fmt.Errorf("%w: no server or user", ErrBadRecord)
	}
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	gk, urk := s.gamesKey(guild, user), s.userResultsKey(guild, user)
	for attempt := 0; ; attempt++ {
		var a, b *redis.StringSliceCmd
		_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			a, b = p.SMembers(ctx, gk), p.ZRange(ctx, urk, 0, -1)
			return nil
		})
		if err != nil {
			return fmt.Errorf("store: forget: %w", mapErr(err))
		}
		games, results := a.Val(), b.Val()
		keys := []string{gk, urk, s.soloKey(guild, user)}
		resKeys := make([]string, len(results))
		for i, gi := range results {
			game, id, _ := strings.Cut(gi, ":")
			resKeys[i] = s.resultKey(guild, game, id)
		}
		keys = append(keys, resKeys...)
		err = s.rdb.Watch(ctx, func(tx *redis.Tx) error {
			vals := make([]string, len(resKeys))
			for i, k := range resKeys {
				v, err := tx.Get(ctx, k).Result()
				if err != nil && !errors.Is(err, redis.Nil) {
					return err
				}
				vals[i] = v
			}
			_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				for _, g := range games {
					p.Del(ctx, s.personKey(guild, g, user))
					p.ZRem(ctx, s.boardKey(guild, g), user)
				}
				p.Del(ctx, gk, urk, s.soloKey(guild, user))
				for i, v := range vals {
					if v == "" {
						continue // expired
					}
					if nv, ok := scrub([]byte(v), user); ok {
						p.SetArgs(ctx, resKeys[i], nv, redis.SetArgs{KeepTTL: true})
					}
				}
				return nil
			})
			return err
		}, keys...)
		switch {
		case err == nil:
			return nil
		case !errors.Is(err, redis.TxFailedErr):
			return fmt.Errorf("store: forget: %w", mapErr(err))
		}
		if err := s.backoff(ctx, attempt); err != nil {
			return fmt.Errorf("%w: forget after %d attempts: %w", ErrConflict, attempt+1, err)
		}
	}
}
