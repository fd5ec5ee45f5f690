package store

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/dixgame/dixbot"
)

// The file store keeps the statistics in the bucket "stats", one nested
// bucket per server (named by its id), so nothing of one server is read
// for another. In a server's bucket, with NUL separating the parts:
//
//	r game id        result (JSON); its presence makes a second recording
//	                 of the game a no-op
//	p game user      the person's record at the game (JSON of
//	                 dixbot.PlayerStats; a record kept before the
//	                 placements has no Ahead and Faced, read as 0)
//	s user d         solo record at difficulty d (d: 4 bytes big-endian)
//	g user game      nothing: the games the person has records of
//	u user game id   nothing: the results the person is in
//	t ms game id     nothing: the results by time (ms: Unix ms, 8 bytes
//	                 big-endian); a recording deletes the results older
//	                 than ResultTTL, with their u entries
//
// The leaderboard reads the game's records and sorts them; the bucket is
// created by the first recording.
var bucketStats = []byte("stats")

func statsKey(parts ...string) []byte {
	var b []byte
	for i, p := range parts {
		if i > 0 {
			b = append(b, 0)
		}
		b = append(b, p...)
	}
	return b
}

func soloFileKey(user string, d int) []byte {
	return binary.BigEndian.AppendUint32(append(statsKey("s", user), 0), uint32(d))
}

// guildBucket is the server's bucket, nil when it has none yet.
func guildBucket(tx *bolt.Tx, guild string) *bolt.Bucket {
	st := tx.Bucket(bucketStats)
	if st == nil {
		return nil
	}
	return st.Bucket([]byte(guild))
}

// RecordResult adds r to its server's statistics once, in one transaction
// (see dixbot.Stats). ErrBadRecord, ErrUnavailable.
func (s *File) RecordResult(ctx context.Context, r *dixbot.Result) (bool, error) {
	if err := checkResult(r); err != nil {
		return false, err
	}
	val, err := json.Marshal(r)
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrBadRecord, err)
	}
	users := people(r)
	recorded := false
	err = s.writeTx(ctx, "record result "+r.ID, func(tx *bolt.Tx) error {
		recorded = false
		st, err := tx.CreateBucketIfNotExists(bucketStats)
		if err != nil {
			return err
		}
		g, err := st.CreateBucketIfNotExists([]byte(r.Guild))
		if err != nil {
			return err
		}
		rk := statsKey("r", r.Game, r.ID)
		if g.Get(rk) != nil {
			return nil
		}
		ps := map[string]*dixbot.PlayerStats{}
		solo := map[string]*dixbot.SoloStats{}
		for _, u := range users {
			if r.Solo > 0 {
				var v dixbot.SoloStats
				if b := g.Get(soloFileKey(u, r.Solo)); b != nil && json.Unmarshal(b, &v) == nil {
					solo[u] = &v
				}
				continue
			}
			var v dixbot.PlayerStats
			if b := g.Get(statsKey("p", r.Game, u)); b != nil && json.Unmarshal(b, &v) == nil {
				ps[u] = &v
			}
		}
		applyResult(r, ps, solo)
		if err := g.Put(rk, val); err != nil {
			return err
		}
		for _, u := range users {
			if err := g.Put(statsKey("u", u, r.Game, r.ID), nil); err != nil {
				return err
			}
			var k, b []byte
			if r.Solo > 0 {
				k, b = soloFileKey(u, r.Solo), mustJSON(solo[u])
			} else {
				k, b = statsKey("p", r.Game, u), mustJSON(ps[u])
				if err := g.Put(statsKey("g", u, r.Game), nil); err != nil {
					return err
				}
			}
			if err := g.Put(k, b); err != nil {
				return err
			}
		}
		at := r.At
		if at.IsZero() {
			at = s.o.Now()
		}
		if err := g.Put(timeKey(at, r.Game, r.ID), nil); err != nil {
			return err
		}
		recorded = true
		return expireResults(g, s.o.Now().Add(-s.o.ResultTTL))
	})
	if err != nil {
		return false, err
	}
	return recorded, nil
}

// timeKey is the time index entry of a result.
func timeKey(at time.Time, game, id string) []byte {
	k := binary.BigEndian.AppendUint64([]byte("t\x00"), uint64(max(at.UnixMilli(), 0)))
	return append(append(k, 0), statsKey(game, id)...)
}

// expireResults deletes the server's results recorded before cutoff, and
// the entries that list them under their people.
func expireResults(g *bolt.Bucket, cutoff time.Time) error {
	end := binary.BigEndian.AppendUint64([]byte("t\x00"), uint64(max(cutoff.UnixMilli(), 0)))
	var old [][]byte
	c := g.Cursor()
	for k, _ := c.Seek([]byte("t\x00")); k != nil && bytes.Compare(k, end) < 0; k, _ = c.Next() {
		old = append(old, bytes.Clone(k))
	}
	for _, k := range old {
		gi := k[len(end)+1:] // game NUL id
		rk := append([]byte("r\x00"), gi...)
		var r dixbot.Result
		if v := g.Get(rk); v != nil && json.Unmarshal(v, &r) == nil {
			for _, s := range r.Seats {
				if s.User != "" {
					if err := g.Delete(append(append(statsKey("u", s.User), 0), gi...)); err != nil {
						return err
					}
				}
			}
		}
		if err := g.Delete(rk); err != nil {
			return err
		}
		if err := g.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v) // plain structs of numbers and strings
	return b
}

// writeTx runs fn in a write transaction of its own (not batched: fn
// creates buckets, and reports through its closure).
func (s *File) writeTx(ctx context.Context, op string, fn func(tx *bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store: %s: %w: %w", op, ErrUnavailable, err)
	}
	if err := s.db.Update(fn); err != nil {
		return s.mapErr(op, err)
	}
	return nil
}

// viewTx runs fn in a read transaction.
func (s *File) viewTx(ctx context.Context, op string, fn func(tx *bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store: %s: %w: %w", op, ErrUnavailable, err)
	}
	if err := s.db.View(fn); err != nil {
		return s.mapErr(op, err)
	}
	return nil
}

// PlayerStats returns a person's records on a server (see dixbot.Stats).
// ErrUnavailable.
func (s *File) PlayerStats(ctx context.Context, guild, user string) ([]dixbot.PlayerStats, []dixbot.SoloStats, error) {
	var out []dixbot.PlayerStats
	var solo []dixbot.SoloStats
	err := s.viewTx(ctx, "player stats", func(tx *bolt.Tx) error {
		out, solo = nil, nil
		g := guildBucket(tx, guild)
		if g == nil {
			return nil
		}
		c := g.Cursor()
		prefix := append(statsKey("g", user), 0)
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			game := string(k[len(prefix):])
			var v dixbot.PlayerStats
			if b := g.Get(statsKey("p", game, user)); b != nil && json.Unmarshal(b, &v) == nil {
				out = append(out, v)
			}
		}
		prefix = append(statsKey("s", user), 0)
		for k, b := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, b = c.Next() {
			var v dixbot.SoloStats
			if json.Unmarshal(b, &v) == nil {
				solo = append(solo, v)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sortSolo(solo)
	return out, solo, nil
}

// Leaderboard returns the top n of a game on a server and user's own line
// (see dixbot.Stats): it reads the game's records of the server and sorts
// them by Mu − 3·Sigma. ErrUnavailable.
func (s *File) Leaderboard(ctx context.Context, guild, game, user string, n int) ([]dixbot.Standing, *dixbot.Standing, error) {
	var all []dixbot.Standing
	var ord []float64
	err := s.viewTx(ctx, "leaderboard", func(tx *bolt.Tx) error {
		all, ord = nil, nil
		g := guildBucket(tx, guild)
		if g == nil {
			return nil
		}
		prefix := append(statsKey("p", game), 0)
		c := g.Cursor()
		for k, b := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, b = c.Next() {
			var v dixbot.PlayerStats
			if json.Unmarshal(b, &v) != nil || !v.Rated {
				continue
			}
			all = append(all, dixbot.Standing{User: string(k[len(prefix):]), Name: v.Name, Mu: v.Mu, Sigma: v.Sigma,
				Played: v.Played, Won: v.Won, Ahead: v.Ahead, Faced: v.Faced})
			ord = append(ord, ordinal(&v))
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	idx := make([]int, len(all))
	for i := range idx {
		idx[i] = i
	}
	// Best first; equal values in the order of the sorted set's
	// ZREVRANGE (members descending), as the Redis store shows them.
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(ord[b], ord[a]), cmp.Compare(all[b].User, all[a].User))
	})
	out := make([]dixbot.Standing, 0, min(n, len(all)))
	var own *dixbot.Standing
	for place, i := range idx {
		st := all[i]
		st.Rank = place + 1
		if place < n {
			out = append(out, st)
		}
		if st.User == user {
			own = &st
			if place < n {
				own = &out[len(out)-1]
			}
		}
	}
	return out, own, nil
}

// ForgetPlayer deletes a person's records and rating on a server and takes
// their id and name out of the server's results, in one transaction (see
// dixbot.Stats). ErrUnavailable.
func (s *File) ForgetPlayer(ctx context.Context, guild, user string) error {
	if guild == "" || user == "" {
		return fmt.Errorf("%w: no server or user", ErrBadRecord)
	}
	return s.writeTx(ctx, "forget", func(tx *bolt.Tx) error {
		g := guildBucket(tx, guild)
		if g == nil {
			return nil
		}
		var del [][]byte
		var results [][]byte
		c := g.Cursor()
		for _, kind := range []string{"g", "u", "s"} {
			prefix := append(statsKey(kind, user), 0)
			for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
				del = append(del, bytes.Clone(k))
				switch kind {
				case "g":
					del = append(del, statsKey("p", string(k[len(prefix):]), user))
				case "u":
					results = append(results, append([]byte("r\x00"), k[len(prefix):]...))
				}
			}
		}
		for _, k := range results {
			if v := g.Get(k); v != nil {
				if nv, ok := scrub(v, user); ok {
					if err := g.Put(k, nv); err != nil {
						return err
					}
				}
			}
		}
		for _, k := range del {
			if err := g.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
}
